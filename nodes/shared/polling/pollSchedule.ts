/**
 * How far apart n8n's polls of the trigger can be, from the node's "Poll Times" (the `pollTimes`
 * parameter n8n adds to every polling node), and the grace period a poll without stored state
 * uses (see completionTracker.ts). Pure: no n8n imports.
 */
import { MONTHS } from '../input/dates';
import { readNumber } from '../input/numbers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One entry of n8n's "Poll Times" (`pollTimes.item[]`). */
export interface PollTimeItem {
	mode?: string;
	value?: number | string;
	unit?: string;
	cronExpression?: string;
	dayOfMonth?: number | string;
	[key: string]: unknown;
}

/** Assumed when the schedule cannot be read (a cron expression this module does not parse). */
export const UNKNOWN_SCHEDULE_GAP_MS = DAY;

/** Added to two poll gaps: clock differences, scheduling delays, a poll's own duration. */
export const GRACE_MARGIN_MS = 5 * MINUTE;

function positiveInteger(value: unknown): number | undefined {
	const read = readNumber(value, { min: 1, integer: true });
	return read.kind === 'value' ? read.value : undefined;
}

/** Cron's names of days and months (months as the input layer reads them). */
const NAMES: Readonly<Record<string, number>> = {
	sun: 0,
	mon: 1,
	tue: 2,
	wed: 3,
	thu: 4,
	fri: 5,
	sat: 6,
	...MONTHS,
};

/** The values a cron field allows, or undefined when the field cannot be read. */
function cronField(text: string, min: number, max: number): Set<number> | undefined {
	const out = new Set<number>();
	const value = (s: string) => {
		const n = /^\d+$/.test(s) ? Number(s) : NAMES[s.toLowerCase()];
		return n === undefined ? undefined : n;
	};
	for (const part of text.split(',')) {
		const m = /^(\*|\?|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?)(?:\/(\d+))?$/.exec(part);
		if (!m) return undefined;
		const step = m[2] === undefined ? 1 : Number(m[2]);
		if (step < 1) return undefined;
		let lo = min;
		let hi = max;
		if (m[1] !== '*' && m[1] !== '?') {
			const [a, b] = m[1].split('-');
			const first = value(a);
			const last = b === undefined ? (m[2] === undefined ? first : max) : value(b);
			if (first === undefined || last === undefined) return undefined;
			lo = first;
			hi = last;
		}
		if (lo < min || hi > max || lo > hi) return undefined;
		for (let v = lo; v <= hi; v += step) out.add(v);
	}
	return out.size > 0 ? out : undefined;
}

/**
 * The longest time between two runs of a cron expression (5 fields, or 6 with seconds), read
 * over a year from an arbitrary Monday; undefined when it cannot be read. Day of month and day
 * of week combine as in cron: either matches when both are restricted.
 */
export function cronLongestGapMs(expression: string): number | undefined {
	const fields = expression.trim().split(/\s+/);
	if (fields.length === 6) fields.shift(); // seconds: within the minute, no effect on the gap
	if (fields.length !== 5) return undefined;
	const minutes = cronField(fields[0], 0, 59);
	const hours = cronField(fields[1], 0, 23);
	const days = cronField(fields[2], 1, 31);
	const months = cronField(fields[3], 1, 12);
	const weekdaysRead = cronField(fields[4], 0, 7); // 0 and 7 are both Sunday
	if (!minutes || !hours || !days || !months || !weekdaysRead) return undefined;
	const weekdays = new Set([...weekdaysRead].map((d) => d % 7));
	const dayRestricted = !/^[*?]$/.test(fields[2]);
	const weekdayRestricted = !/^[*?]$/.test(fields[4]);
	const minutesOfDay: number[] = [];
	for (const h of [...hours].sort((a, b) => a - b))
		for (const m of [...minutes].sort((a, b) => a - b)) minutesOfDay.push(h * 60 + m);
	const start = Date.UTC(2024, 0, 1); // a Monday, in a leap year
	let previous: number | undefined;
	let longest = 0;
	for (let d = 0; d < 2 * 366; d++) {
		const day = new Date(start + d * DAY);
		if (!months.has(day.getUTCMonth() + 1)) continue;
		const dayMatch = days.has(day.getUTCDate());
		const weekdayMatch = weekdays.has(day.getUTCDay());
		const runs =
			dayRestricted && weekdayRestricted
				? dayMatch || weekdayMatch
				: dayRestricted
					? dayMatch
					: weekdayMatch;
		if (!runs) continue;
		for (const m of minutesOfDay) {
			const t = start + d * DAY + m * MINUTE;
			if (previous !== undefined) longest = Math.max(longest, t - previous);
			previous = t;
		}
	}
	return previous === undefined ? undefined : Math.max(longest, MINUTE);
}

/** The longest time between two runs of one "Poll Times" entry, or undefined if unreadable. */
export function pollTimeGapMs(item: PollTimeItem): number | undefined {
	switch (item.mode) {
		case 'everyMinute':
			return MINUTE;
		case 'everyHour':
			return HOUR;
		case 'everyX': {
			const n = positiveInteger(item.value);
			if (n === undefined) return undefined;
			// n8n runs it as */n in the minute (or hour) field: a gap of n, at most a whole hour (day)
			if (item.unit === 'minutes') return Math.min(n, 60) * MINUTE;
			if (item.unit === 'hours') return Math.min(n, 24) * HOUR;
			return undefined;
		}
		case 'everyDay':
			return DAY;
		case 'everyWeek':
			return 7 * DAY;
		case 'everyMonth': {
			const day = positiveInteger(item.dayOfMonth) ?? 1;
			// a day that some months lack (29-31) skips those months
			return (day <= 28 ? 31 : 62) * DAY;
		}
		case 'custom':
			return typeof item.cronExpression === 'string'
				? cronLongestGapMs(item.cronExpression)
				: undefined;
		default:
			return undefined;
	}
}

/**
 * The longest time between two polls of the whole "Poll Times" value (several entries: a
 * poll of any of them counts, so the shortest of their longest gaps bounds it). n8n's default
 * (no entry) polls every minute.
 */
export function pollGapMs(pollTimes: unknown): number {
	const items =
		pollTimes &&
		typeof pollTimes === 'object' &&
		Array.isArray((pollTimes as { item?: unknown }).item)
			? ((pollTimes as { item: unknown[] }).item.filter(
					(i) => i && typeof i === 'object',
				) as PollTimeItem[])
			: [];
	if (items.length === 0) return MINUTE;
	const gaps = items.map((i) => pollTimeGapMs(i) ?? UNKNOWN_SCHEDULE_GAP_MS);
	return Math.min(...gaps);
}

/**
 * How long before a poll without stored state a job may have finished and still be emitted by
 * it: two poll gaps (the poll before it, and one that failed) plus a margin. n8n does not keep
 * the state of every poll that emitted nothing (see the trigger's poll()), so a poll without
 * state may follow polls whose state was lost; what finished since the last of them still
 * fires.
 */
export function firstPollGraceMs(pollTimes: unknown): number {
	return 2 * pollGapMs(pollTimes) + GRACE_MARGIN_MS;
}

/**
 * Dates people type into spreadsheets and forms: one reader for every date field (harvest
 * dates of Register, Create and Get Quote, …) and one for the created-at filters. Pure:
 * imports nothing from n8n.
 *
 * Decisions
 * - ISO dates and date-times (`2024-03-15`, `2024-03-15T10:00:00Z`, `2024-03-15 10:00`):
 *   the date part is taken as written, never shifted by a time zone. The time must exist
 *   (hours 0–23, minutes and seconds 0–59, zone offsets up to ±14:59).
 * - `YYYY/MM/DD`, `YYYY.MM.DD` and `YYYYMMDD` are unambiguous.
 * - `DD.MM.YYYY` (dots) is day first, as everywhere dots are used for dates.
 * - `NN/NN/YYYY` and `NN-NN-YYYY` are ambiguous (15/03/2024 is day first, 03/15/2024
 *   month first, 03/04/2024 is either). When one part is above 12 the order is clear;
 *   otherwise the `order` option decides, and by default the date is rejected with a
 *   message asking for YYYY-MM-DD (a wrong harvest date silently changes the analysis
 *   window, which is worse than an error).
 * - Two-digit years are 20YY.
 * - Month names in English (`15 March 2024`, `Mar 15, 2024`, `15-Mar-2024`).
 * - Numbers (and numeric strings) from 1 to 99999 are spreadsheet serial dates
 *   (Excel / Google Sheets: 45366 = 2024-03-15).
 * - JavaScript Date objects give their UTC date; Luxon DateTime objects (what n8n
 *   expressions such as `{{ $now }}` produce) give their own date (`toISODate`).
 * - Impossible dates (2025-02-30, 31.04.2024) and years outside 1900–2200 are refused in
 *   every form.
 */

import { MISSING, invalid, isDate, kindOf, quoted, value } from './internal';
import type { Reading } from './reading';

/** How to read NN/NN/YYYY when both parts could be the month. */
export const DATE_ORDERS = ['reject', 'dayFirst', 'monthFirst'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/** UI `options` of a "Date Order" option, from `DATE_ORDERS`. */
export const DATE_ORDER_OPTIONS: ReadonlyArray<{
	name: string;
	value: DateOrder;
	description?: string;
}> = [
	{
		name: 'Reject Ambiguous Dates',
		value: 'reject',
		description: 'Fail the item and ask for YYYY-MM-DD',
	},
	{ name: 'Day First (DD/MM/YYYY)', value: 'dayFirst' },
	{ name: 'Month First (MM/DD/YYYY)', value: 'monthFirst' },
];

/** The Date Order option's value; anything unknown (or unset) is the safe `reject`. */
export function readDateOrder(v: unknown): DateOrder {
	return DATE_ORDERS.find((order) => order === v) ?? 'reject';
}

/** English month abbreviations → month numbers (also read by the trigger's cron parsing). */
export const MONTHS: Readonly<Record<string, number>> = {
	jan: 1,
	feb: 2,
	mar: 3,
	apr: 4,
	may: 5,
	jun: 6,
	jul: 7,
	aug: 8,
	sep: 9,
	oct: 10,
	nov: 11,
	dec: 12,
};

const MONTH_NAMES = [
	'january',
	'february',
	'march',
	'april',
	'may',
	'june',
	'july',
	'august',
	'september',
	'october',
	'november',
	'december',
];

const ISO_HINT = 'Write it as YYYY-MM-DD, e.g. 2024-03-15';
const TIMESTAMP_HINT =
	'Write it as YYYY-MM-DD or as an ISO-8601 time such as 2024-03-15T10:00:00Z (without a zone it is UTC)';

/** An ISO date, optionally with a time and a zone. */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `YYYY-MM-DD` of a date that exists, or why it does not. */
function build(year: number, month: number, day: number, shown: string): Reading<string> {
	if (year < 1900 || year > 2200) {
		return invalid(
			`${shown} has the year ${year}, which is not plausible here (1900 to 2200). ${ISO_HINT}.`,
		);
	}
	if (month < 1 || month > 12)
		return invalid(`${shown} has the month ${month}, which does not exist. ${ISO_HINT}.`);
	if (day < 1 || day > daysInMonth(year, month)) {
		return invalid(
			`${shown} has the day ${day}, which does not exist in ${year}-${pad(month)}. ${ISO_HINT}.`,
		);
	}
	return value(`${pad(year, 4)}-${pad(month)}-${pad(day)}`);
}

function fromSerial(serial: number, shown: string): Reading<string> {
	if (!Number.isInteger(serial) || serial < 1 || serial > 99999) {
		return invalid(
			`${shown} is a number but not a spreadsheet date (whole numbers from 1 to 99999, e.g. 45366 = 2024-03-15). ${ISO_HINT}.`,
		);
	}
	// Spreadsheet day 0 is 1899-12-30 (the 1900 leap-year bug is built into that epoch).
	const date = new Date(Date.UTC(1899, 11, 30) + serial * 86400000);
	return build(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), shown);
}

function year4(text: string): number {
	const n = Number(text);
	return text.length === 2 ? 2000 + n : n;
}

/** 1–12 for an English month name or its abbreviation of three letters or more ("Sept" too). */
function monthNumber(name: string): number | undefined {
	const lower = name.toLowerCase();
	const month = MONTHS[lower.slice(0, 3)];
	return month !== undefined && MONTH_NAMES[month - 1].startsWith(lower) ? month : undefined;
}

/**
 * An ISO date or date-time that exists, normalised: `YYYY-MM-DD` and, when a time was
 * given, `THH:MM[:SS[.fff]]` and the zone as `Z` or `±HH:MM`.
 */
function readIso(m: RegExpExecArray, shown: string): { date: Reading<string>; timestamp?: string } {
	const date = build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	if (date.kind !== 'value' || m[4] === undefined) return { date };
	const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
	if (hour > 23 || minute > 59 || second > 59) {
		return {
			date: invalid(
				`${shown} has the time ${m[4]}:${m[5]}${m[6] ? `:${m[6]}` : ''}, which does not exist (hours 0 to 23, minutes and seconds 0 to 59). ${ISO_HINT}.`,
			),
		};
	}
	let zone = '';
	if (m[8] !== undefined) {
		const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(m[8]);
		if (z && (Number(z[2]) > 14 || Number(z[3] ?? 0) > 59)) {
			return {
				date: invalid(
					`${shown} has the time zone ${m[8]}, which does not exist (offsets go from -12:00 to +14:00). ${ISO_HINT}.`,
				),
			};
		}
		zone = z ? `${z[1]}${z[2]}:${z[3] ?? '00'}` : 'Z';
	}
	const seconds = m[6] === undefined ? '' : `:${m[6]}${m[7] === undefined ? '' : `.${m[7]}`}`;
	return { date, timestamp: `${date.value}T${pad(hour)}:${m[5]}${seconds}${zone}` };
}

/** Reads one date as `YYYY-MM-DD`; see the decisions above. */
export function readDate(v: unknown, order: DateOrder = 'reject'): Reading<string> {
	if (v === undefined || v === null) return MISSING;
	if (isDate(v)) {
		if (Number.isNaN(v.getTime())) return invalid(`the date is invalid. ${ISO_HINT}.`);
		return build(v.getUTCFullYear(), v.getUTCMonth() + 1, v.getUTCDate(), v.toISOString());
	}
	if (typeof v === 'object') {
		const toISODate = (v as { toISODate?: unknown }).toISODate;
		if (typeof toISODate === 'function') {
			const iso = (toISODate as () => unknown).call(v);
			if (typeof iso === 'string') return readDate(iso, order);
			return invalid(`the date is invalid. ${ISO_HINT}.`);
		}
		return invalid(`it is ${kindOf(v)}, not a date. ${ISO_HINT}.`);
	}
	if (typeof v === 'number') {
		if (!Number.isFinite(v)) return invalid(`${String(v)} is not a date. ${ISO_HINT}.`);
		return fromSerial(v, String(v));
	}
	if (typeof v !== 'string') return invalid(`it is ${kindOf(v)}, not a date. ${ISO_HINT}.`);
	const text = v.trim();
	if (text === '') return MISSING;
	return (
		readDateText(text, order) ??
		invalid(`${quoted(text)} is not a date this node can read. ${ISO_HINT}.`)
	);
}

/** The date of a trimmed, non-empty text, or undefined when it has none of the forms read. */
function readDateText(text: string, order: DateOrder): Reading<string> | undefined {
	const shown = quoted(text);
	let m: RegExpExecArray | null;

	// ISO date, optionally followed by a time and a zone: the date part as written.
	if ((m = ISO_DATE_TIME.exec(text))) return readIso(m, shown).date;
	if ((m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text))) {
		return build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	}
	if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(text))) {
		return build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	}
	if (/^\d{1,5}$/.test(text)) return fromSerial(Number(text), shown);
	if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$/.exec(text))) {
		return build(year4(m[3]), Number(m[2]), Number(m[1]), shown);
	}
	if ((m = /^(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})$/.exec(text))) {
		const a = Number(m[1]);
		const b = Number(m[3]);
		const year = year4(m[4]);
		if (a > 12 && b <= 12) return build(year, b, a, shown);
		if (b > 12 && a <= 12) return build(year, a, b, shown);
		if (a === b || order === 'dayFirst') return build(year, b, a, shown);
		if (order === 'monthFirst') return build(year, a, b, shown);
		return invalid(
			`${shown} is ambiguous: it can be day ${a} of month ${b} or month ${a}, day ${b}. ${ISO_HINT} (where a node has the option "Date Order", as Plot → Register does, it can say how your dates are written).`,
		);
	}
	// 15 March 2024, 15-Mar-2024, 15 Mar. 2024
	if ((m = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,9})\.?,?[\s-]+(\d{4})$/.exec(text))) {
		const month = monthNumber(m[2]);
		if (month !== undefined) return build(Number(m[3]), month, Number(m[1]), shown);
	}
	// March 15, 2024 / Mar 15 2024
	if ((m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(text))) {
		const month = monthNumber(m[1]);
		if (month !== undefined) return build(Number(m[3]), month, Number(m[2]), shown);
	}
	return undefined;
}

/**
 * A point in time for the created-at filters, as the service takes it (ISO-8601):
 * - ISO date-times (`2024-03-15T10:00:00Z`, `2024-03-15 10:00`, `…+0100`) are checked (the
 *   date and the time must exist) and sent normalised: `T` between date and time, the zone
 *   as `Z` or `±HH:MM`, seconds and fractions as written; no zone stays no zone (UTC).
 * - Every date-only form `readDate` reads (2024-03-15, 15.03.2024, 15 March 2024, 45366, …)
 *   gives the same `YYYY-MM-DD`, and is refused with the same reason.
 * - Dates give `toISOString()`, Luxon DateTimes `toISO()`.
 */
export function readTimestamp(v: unknown, order: DateOrder = 'reject'): Reading<string> {
	if (v === undefined || v === null) return MISSING;
	if (isDate(v)) {
		if (Number.isNaN(v.getTime())) return invalid(`the date is invalid. ${TIMESTAMP_HINT}.`);
		const read = readDate(v);
		return read.kind === 'value' ? value(v.toISOString()) : read;
	}
	if (typeof v === 'object' && typeof (v as { toISO?: unknown }).toISO === 'function') {
		const iso = (v as { toISO: () => unknown }).toISO();
		if (typeof iso !== 'string' || (v as { isValid?: unknown }).isValid === false)
			return invalid(`the date is invalid. ${TIMESTAMP_HINT}.`);
		return readTimestamp(iso, order);
	}
	if (typeof v === 'string') {
		const text = v.trim();
		const m = ISO_DATE_TIME.exec(text);
		if (m && m[4] !== undefined) {
			const read = readIso(m, quoted(text));
			return read.timestamp !== undefined ? value(read.timestamp) : read.date;
		}
		if (text === '') return MISSING;
		return (
			readDateText(text, order) ??
			invalid(
				`${quoted(text)} is not an ISO-8601 date or time, nor a date this node can read. ${TIMESTAMP_HINT}.`,
			)
		);
	}
	return readDate(v, order);
}

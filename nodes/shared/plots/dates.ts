/**
 * Reads the harvest dates people type into spreadsheets and forms, and writes them
 * as `YYYY-MM-DD` (what `make_plot` takes). Pure: imports nothing from n8n.
 *
 * Decisions
 * - ISO dates and date-times (`2024-03-15`, `2024-03-15T10:00:00Z`, `2024-03-15 10:00`):
 *   the date part is taken as written, never shifted by a time zone.
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
 */

export type DateOrder = 'reject' | 'dayFirst' | 'monthFirst';

export type DateReading =
	| { kind: 'missing' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'date'; value: string };

const MONTHS: Record<string, number> = {
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

const ISO_HINT = 'Write it as YYYY-MM-DD, e.g. 2024-03-15';

function pad(n: number, width = 2): string {
	return String(n).padStart(width, '0');
}

function daysInMonth(year: number, month: number): number {
	return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function build(year: number, month: number, day: number, shown: string): DateReading {
	if (year < 1900 || year > 2200) {
		return {
			kind: 'invalid',
			reason: `"${shown}" has the year ${year}, which is not a plausible harvest year. ${ISO_HINT}.`,
		};
	}
	if (month < 1 || month > 12) {
		return {
			kind: 'invalid',
			reason: `"${shown}" has the month ${month}, which does not exist. ${ISO_HINT}.`,
		};
	}
	if (day < 1 || day > daysInMonth(year, month)) {
		return {
			kind: 'invalid',
			reason: `"${shown}" has the day ${day}, which does not exist in ${year}-${pad(month)}. ${ISO_HINT}.`,
		};
	}
	return { kind: 'date', value: `${pad(year, 4)}-${pad(month)}-${pad(day)}` };
}

function fromSerial(serial: number, shown: string): DateReading {
	if (!Number.isInteger(serial) || serial < 1 || serial > 99999) {
		return {
			kind: 'invalid',
			reason: `${shown} is a number but not a spreadsheet date (whole numbers from 1 to 99999, e.g. 45366 = 2024-03-15). ${ISO_HINT}.`,
		};
	}
	// Spreadsheet day 0 is 1899-12-30 (the 1900 leap-year bug is built into that epoch).
	const date = new Date(Date.UTC(1899, 11, 30) + serial * 86400000);
	return build(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), shown);
}

function year4(text: string): number {
	const n = Number(text);
	return text.length === 2 ? 2000 + n : n;
}

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

/** 1–12 for an English month name or its abbreviation of three letters or more ("Sept" too). */
function monthNumber(name: string): number | undefined {
	const lower = name.toLowerCase();
	const month = MONTHS[lower.slice(0, 3)];
	return month !== undefined && MONTH_NAMES[month - 1].startsWith(lower) ? month : undefined;
}

/** Reads one harvest date; see the decisions above. */
export function readHarvestDate(value: unknown, order: DateOrder = 'reject'): DateReading {
	if (value === undefined || value === null) return { kind: 'missing' };
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime()))
			return { kind: 'invalid', reason: `the date is invalid. ${ISO_HINT}.` };
		return build(
			value.getUTCFullYear(),
			value.getUTCMonth() + 1,
			value.getUTCDate(),
			value.toISOString(),
		);
	}
	if (typeof value === 'object') {
		const toISODate = (value as { toISODate?: unknown }).toISODate;
		if (typeof toISODate === 'function') {
			const iso = (toISODate as () => unknown).call(value);
			if (typeof iso === 'string') return readHarvestDate(iso, order);
		}
		return {
			kind: 'invalid',
			reason: `it is ${Array.isArray(value) ? 'a list' : 'an object'}, not a date. ${ISO_HINT}.`,
		};
	}
	if (typeof value === 'number') {
		if (!Number.isFinite(value))
			return { kind: 'invalid', reason: `${String(value)} is not a date. ${ISO_HINT}.` };
		return fromSerial(value, String(value));
	}
	if (typeof value !== 'string') {
		return { kind: 'invalid', reason: `it is a ${typeof value}, not a date. ${ISO_HINT}.` };
	}
	const text = value.trim();
	if (text === '') return { kind: 'missing' };
	const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
	let m: RegExpExecArray | null;

	// ISO date, optionally followed by a time and a zone: the date part as written.
	if (
		(m =
			/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i.exec(
				text,
			))
	) {
		return build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	}
	if ((m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text))) {
		return build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	}
	if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(text))) {
		return build(Number(m[1]), Number(m[2]), Number(m[3]), shown);
	}
	if (/^\d{1,5}$/.test(text)) return fromSerial(Number(text), `"${shown}"`);
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
		return {
			kind: 'invalid',
			reason: `"${shown}" is ambiguous: it can be day ${a} of month ${b} or month ${a}, day ${b}. ${ISO_HINT}, or set the option "Date Order" to say how your dates are written.`,
		};
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
	return { kind: 'invalid', reason: `"${shown}" is not a date this node can read. ${ISO_HINT}.` };
}

/** Result of reading a number typed by a person (spreadsheet cell, form field). */
export type LooseNumber =
	| { kind: 'missing' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'number'; value: number };

const NUMBER_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const DMS_PATTERN = /[°º'’′"”″]|\d\s*[NSEWnsew]$|^[NSEWnsew]\s*\d/;

/**
 * Reads a number or numeric string. Whitespace is trimmed, a single comma
 * is taken as the decimal separator ("-3,4567"), and a Unicode minus sign is
 * accepted. undefined, null and blank strings are `missing`.
 */
export function readLooseNumber(value: unknown): LooseNumber {
	if (value === undefined || value === null) return { kind: 'missing' };
	if (typeof value === 'number') {
		if (Number.isFinite(value)) return { kind: 'number', value };
		return { kind: 'invalid', reason: `${String(value)} is not a finite number` };
	}
	if (typeof value === 'bigint') return { kind: 'number', value: Number(value) };
	if (typeof value !== 'string') {
		return {
			kind: 'invalid',
			reason: `it is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a number`,
		};
	}
	let text = value.trim().replace(/\u2212/g, '-');
	if (text === '') return { kind: 'missing' };
	if (!text.includes('.') && (text.match(/,/g) ?? []).length === 1) text = text.replace(',', '.');
	if (NUMBER_PATTERN.test(text)) {
		const n = Number(text);
		if (Number.isFinite(n)) return { kind: 'number', value: n };
	}
	const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
	if (DMS_PATTERN.test(text)) {
		return {
			kind: 'invalid',
			reason: `"${shown}" looks like degrees/minutes/seconds; convert it to decimal degrees (e.g. -15.793889)`,
		};
	}
	return { kind: 'invalid', reason: `"${shown}" is not a number` };
}

/**
 * Whether `n` has at least `places` digits after the decimal point. Numbers with more
 * than `places - 1` decimals are recognised without building a string (the common case
 * for GPS coordinates); only the others go through `decimalPlaces`.
 */
export function hasDecimalPlaces(n: number, places: number): boolean {
	if (!Number.isFinite(n)) return false;
	const scale = 10 ** (places - 1);
	if (Math.round(n * scale) / scale !== n) return true;
	return decimalPlaces(n) >= places;
}

/** Number of digits after the decimal point in the shortest representation of `n`. */
export function decimalPlaces(n: number): number {
	if (!Number.isFinite(n)) return 0;
	const text = String(Math.abs(n));
	const e = text.indexOf('e');
	if (e === -1) {
		const dot = text.indexOf('.');
		return dot === -1 ? 0 : text.length - dot - 1;
	}
	const mantissa = text.slice(0, e);
	const exponent = Number(text.slice(e + 1));
	const dot = mantissa.indexOf('.');
	const mantissaDecimals = dot === -1 ? 0 : mantissa.length - dot - 1;
	return Math.max(0, mantissaDecimals - exponent);
}

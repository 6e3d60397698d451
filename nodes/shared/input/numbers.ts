/** Numbers typed by people (spreadsheet cells, form fields). Pure: no n8n imports. */

import { MISSING, invalid, kindOf, quoted, value } from './internal';
import type { Reading } from './reading';

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
 * accepted. undefined, null and blank strings are `missing`. The reason of `invalid`
 * is a fragment ("… is not a number") that callers complete with what to give instead.
 */
export function readLooseNumber(v: unknown): LooseNumber {
	if (v === undefined || v === null) return { kind: 'missing' };
	if (typeof v === 'number') {
		if (Number.isFinite(v)) return { kind: 'number', value: v };
		return { kind: 'invalid', reason: `${String(v)} is not a finite number` };
	}
	if (typeof v === 'bigint') return { kind: 'number', value: Number(v) };
	if (typeof v !== 'string') return { kind: 'invalid', reason: `it is ${kindOf(v)}, not a number` };
	let text = v.trim().replace(/\u2212/g, '-');
	if (text === '') return { kind: 'missing' };
	if (!text.includes('.') && (text.match(/,/g) ?? []).length === 1) text = text.replace(',', '.');
	if (NUMBER_PATTERN.test(text)) {
		const n = Number(text);
		if (Number.isFinite(n)) return { kind: 'number', value: n };
	}
	if (DMS_PATTERN.test(text)) {
		return {
			kind: 'invalid',
			reason: `${quoted(v)} looks like degrees/minutes/seconds; convert it to decimal degrees (e.g. -15.793889)`,
		};
	}
	return { kind: 'invalid', reason: `${quoted(v)} is not a number` };
}

export interface NumberRule {
	/** Smallest allowed value (inclusive). */
	min?: number;
	/** Largest allowed value (inclusive). */
	max?: number;
	/** Whole numbers only. */
	integer?: boolean;
	/** What the number is, for the reason: "Give <label> as a whole number from 1 to 60." */
	label?: string;
}

/** "a whole number from 1 to 60", "a number of 0 or more", … */
function wanted(rule: NumberRule): string {
	const what = rule.integer ? 'a whole number' : 'a number';
	const { min, max } = rule;
	if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
	if (min !== undefined) return `${what} of ${min} or more`;
	if (max !== undefined) return `${what} of ${max} or less`;
	return what;
}

/**
 * A number (numbers, numeric text, comma decimals; see `readLooseNumber`) checked against
 * the rule. Every refusal ends with the same sentence: "Give <label> as <what is allowed>."
 */
export function readNumber(v: unknown, rule: NumberRule = {}): Reading<number> {
	const read = readLooseNumber(v);
	if (read.kind === 'missing') return MISSING;
	const give = `Give ${rule.label ? `${rule.label} as ` : ''}${wanted(rule)}.`;
	if (read.kind === 'invalid') {
		// The degrees/minutes/seconds hint is for coordinates (the geometry layer reads them with
		// readLooseNumber): a field or option read here ("30 s", "5'") is simply not a number.
		const coordinateHint = typeof v === 'string' && DMS_PATTERN.test(v.trim());
		return invalid(`${coordinateHint ? `${quoted(v)} is not a number` : read.reason}. ${give}`);
	}
	const n = read.value;
	if (rule.integer && !Number.isInteger(n)) return invalid(`${n} is not a whole number. ${give}`);
	if (rule.min !== undefined && n < rule.min)
		return invalid(`${n} is below the smallest allowed value, ${rule.min}. ${give}`);
	if (rule.max !== undefined && n > rule.max)
		return invalid(`${n} is above the largest allowed value, ${rule.max}. ${give}`);
	return value(n);
}

/**
 * A plot's area in hectares as mapped into a field (Point Area (Hectares) of Register and Validate,
 * Area of Points (Hectares) of the EU export), read once and worded the same in every field: a
 * number, within the field's own range when it has one (the 4 ha rules are the geometry
 * layer's, with their own codes).
 */
export function readHectares(
	v: unknown,
	range: { min?: number; max?: number } = {},
): Reading<number> {
	return readNumber(v, { ...range, label: 'the plot area in hectares' });
}

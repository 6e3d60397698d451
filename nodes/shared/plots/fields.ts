/**
 * Per-plot fields of Plot → Register, read from what users map in (pure; no n8n imports).
 */
import { readLooseNumber } from '../geometry';

/** The contract's commodity enum. */
export const COMMODITIES = [
	'wood',
	'soy',
	'cocoa',
	'coffee',
	'palm_oil',
	'beef',
	'rubber',
] as const;
export type Commodity = (typeof COMMODITIES)[number];

export type FieldReading<T> =
	| { kind: 'missing' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'value'; value: T };

/**
 * Matches a commodity case-insensitively; spaces and hyphens count as underscores
 * ("Palm Oil", "palm-oil" → palm_oil). Anything else is an error listing the allowed values.
 */
export function readCommodity(value: unknown): FieldReading<Commodity> {
	if (value === undefined || value === null) return { kind: 'missing' };
	if (typeof value !== 'string') {
		return {
			kind: 'invalid',
			reason: `it is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not a commodity name. Use one of: ${COMMODITIES.join(', ')}.`,
		};
	}
	const text = value.trim();
	if (text === '') return { kind: 'missing' };
	const key = text.toLowerCase().replace(/[\s-]+/g, '_');
	const found = COMMODITIES.find((c) => c === key);
	if (found) return { kind: 'value', value: found };
	const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
	return {
		kind: 'invalid',
		reason: `"${shown}" is not a commodity the service knows. Use one of: ${COMMODITIES.join(', ')} (any letter case), or leave it empty and give the commodity when creating the job.`,
	};
}

/** Plain text field (plot name, notes): numbers are turned into text; empty means missing. */
export function readText(value: unknown): FieldReading<string> {
	if (value === undefined || value === null) return { kind: 'missing' };
	if (typeof value === 'number' || typeof value === 'boolean')
		return { kind: 'value', value: String(value) };
	if (typeof value !== 'string') {
		return {
			kind: 'invalid',
			reason: `it is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}, not text. Map a text value.`,
		};
	}
	const text = value.trim();
	return text === '' ? { kind: 'missing' } : { kind: 'value', value: text };
}

/** `point_ha`: a positive number below 4 (validation of the range happens in the geometry layer). */
export function readPointHa(value: unknown): FieldReading<number> {
	const read = readLooseNumber(value);
	if (read.kind === 'missing') return { kind: 'missing' };
	if (read.kind === 'invalid') {
		return {
			kind: 'invalid',
			reason: `${read.reason}. Give the plot area in hectares as a number below 4 (e.g. 2.5).`,
		};
	}
	return { kind: 'value', value: read.value };
}

/**
 * Additional info as the service takes it: an object of string values. Pairs with an
 * empty key are errors; later keys win; values that are numbers or booleans become text,
 * objects become JSON text.
 */
export function readAdditionalInfo(
	pairs: ReadonlyArray<{ key?: unknown; value?: unknown }>,
): FieldReading<Record<string, string>> {
	const out: Record<string, string> = {};
	for (let i = 0; i < pairs.length; i++) {
		const { key, value } = pairs[i] ?? {};
		const name = typeof key === 'string' ? key.trim() : typeof key === 'number' ? String(key) : '';
		if (name === '') {
			return {
				kind: 'invalid',
				reason: `pair ${i + 1} has no key. Give every additional info pair a key, or remove the pair.`,
			};
		}
		out[name] =
			value === undefined || value === null
				? ''
				: typeof value === 'string'
					? value
					: typeof value === 'object'
						? JSON.stringify(value)
						: String(value);
	}
	return Object.keys(out).length === 0 ? { kind: 'missing' } : { kind: 'value', value: out };
}

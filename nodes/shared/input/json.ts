/**
 * JSON-object parameters (check configs, additional info) and key/value pairs. Pure: no n8n
 * imports.
 *
 * Keys are kept exactly as typed, `__proto__`, `constructor` and `prototype` included: they
 * are set as own properties (never through the `__proto__` setter, which would drop them or
 * change the object's prototype), so they are sent to the service like any other key.
 * Copy such objects with `{ ...obj }`, `JSON.stringify` or `copyOwn`, not `Object.assign` or
 * `obj[key] = …` on a `{}` target.
 */

import { pathDeeperThan, tooDeepReason } from './depth';
import { MISSING, invalid, isPlainObject, kindOf, value } from './internal';
import type { Reading } from './reading';

const DEFAULT_EXAMPLE = '{"batch": "2026-Q1"}';

/** Sets `key` as an own, enumerable property, also when it is `__proto__`. */
export function setOwn<T>(target: Record<string, T>, key: string, v: T): void {
	Object.defineProperty(target, key, {
		value: v,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** A shallow copy of the own enumerable properties of the sources, later ones winning. */
export function copyOwn<T>(...sources: ReadonlyArray<Record<string, T>>): Record<string, T> {
	const out: Record<string, T> = {};
	for (const source of sources) for (const [k, v] of Object.entries(source)) setOwn(out, k, v);
	return out;
}

function jsonKind(v: unknown): string {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'a list ([…])';
	if (typeof v === 'string') return 'a text in quotes';
	return kindOf(v);
}

/** The object, unless it nests too deep for the walks that copy and send it (see depth.ts). */
function shallowEnough(v: Record<string, unknown>): Reading<Record<string, unknown>> {
	const deep = pathDeeperThan(v);
	return deep ? invalid(`${tooDeepReason(deep)}.`) : value(v);
}

/**
 * An object, or JSON text of an object. Empty text, undefined and null are missing; lists,
 * other JSON values and invalid JSON are refused with one wording: what was wrong, then
 * "Write a JSON object in curly braces, e.g. <example>." The object is returned as given
 * (not copied); `JSON.parse` keeps keys such as `__proto__` as own properties.
 */
export function readJsonObject(
	v: unknown,
	options: { example?: string } = {},
): Reading<Record<string, unknown>> {
	const write = `Write a JSON object in curly braces, e.g. ${options.example ?? DEFAULT_EXAMPLE}.`;
	if (v === undefined || v === null) return MISSING;
	if (typeof v === 'string') {
		const text = v.trim();
		if (text === '') return MISSING;
		if (text.includes('{{'))
			return invalid(
				`it holds an expression that was not evaluated. Switch the field to Expression (or start it with =). ${write}`,
			);
		let parsed: unknown;
		try {
			parsed = JSON.parse(text) as unknown;
		} catch (error) {
			const quotes = /'/.test(text) && !/"/.test(text) ? ' (JSON needs double quotes "…")' : '';
			return invalid(`it is not valid JSON: ${(error as Error).message}${quotes}. ${write}`);
		}
		if (isPlainObject(parsed)) return shallowEnough(parsed);
		return invalid(`it is ${jsonKind(parsed)}, not an object. ${write}`);
	}
	if (isPlainObject(v)) return shallowEnough(v);
	return invalid(`it is ${jsonKind(v)}, not an object. ${write}`);
}

/**
 * Key/value pairs (n8n fixedCollection rows `{ key, value }`, as a list or as `{ pairs: [...] }`)
 * as an object of text values, for additional info. Keys are trimmed and kept as typed
 * (`__proto__` too). A pair without a key is refused; numbers and booleans become text,
 * objects and lists JSON text, empty values "". The same key twice is fine with the same
 * value and refused with different values (one would be lost). No pairs is missing.
 */
export function readKeyValuePairs(pairs: unknown): Reading<Record<string, string>> {
	if (pairs === undefined || pairs === null) return MISSING;
	// n8n gives a fixedCollection without rows as {} and with rows as { pairs: [...] }
	if (isPlainObject(pairs) && Object.keys(pairs).length === 0) return MISSING;
	const rows = isPlainObject(pairs) && 'pairs' in pairs ? pairs.pairs : pairs;
	if (rows === undefined || rows === null) return MISSING;
	const deep = pathDeeperThan(rows);
	if (deep) return invalid(`${tooDeepReason(deep)}.`);
	if (!Array.isArray(rows))
		return invalid(`it is ${kindOf(rows)}, not a list of key/value pairs. Add pairs with a key.`);
	const out: Record<string, string> = {};
	const firstPair = new Map<string, number>();
	for (let i = 0; i < rows.length; i++) {
		const row: unknown = rows[i];
		const { key, value: raw } = isPlainObject(row) ? row : ({} as Record<string, unknown>);
		const name = typeof key === 'string' ? key.trim() : typeof key === 'number' ? String(key) : '';
		if (name === '')
			return invalid(`pair ${i + 1} has no key. Give every pair a key, or remove the pair.`);
		const text =
			raw === undefined || raw === null
				? ''
				: typeof raw === 'string'
					? raw
					: typeof raw === 'object'
						? JSON.stringify(raw)
						: String(raw);
		const earlier = firstPair.get(name);
		if (earlier !== undefined && out[name] !== text)
			return invalid(
				`pairs ${earlier + 1} and ${i + 1} both have the key "${name}", with different values. Keep one of them, or rename one key.`,
			);
		if (earlier === undefined) firstPair.set(name, i);
		setOwn(out, name, text);
	}
	return Object.keys(out).length === 0 ? MISSING : value(out);
}

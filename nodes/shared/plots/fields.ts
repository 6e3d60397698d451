/**
 * Per-plot fields of Plot → Register, read from what users map in (pure; no n8n imports).
 * The readers live in the input layer (`nodes/shared/input/`); these names stay for their
 * importers.
 */
import type { Reading } from '../input';
import { readKeyValuePairs, readLooseNumber } from '../input';

export type { Commodity } from '../input';
export { COMMODITIES, readCommodity, readText } from '../input';

export type FieldReading<T> = Reading<T>;

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
 * Additional info as the service takes it: an object of string values (`readKeyValuePairs`:
 * pairs without a key and the same key with different values are errors; keys such as
 * `__proto__` are kept).
 */
export function readAdditionalInfo(
	pairs: ReadonlyArray<{ key?: unknown; value?: unknown }>,
): FieldReading<Record<string, string>> {
	return readKeyValuePairs(pairs);
}

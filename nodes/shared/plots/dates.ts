/**
 * The harvest-date reader of Plot → Register, kept for its importers: the reading itself is
 * `readDate` of the input layer (`nodes/shared/input/dates.ts`), which every date field uses.
 */
import type { DateOrder } from '../input/dates';
import { readDate } from '../input/dates';

export type { DateOrder } from '../input/dates';

export type DateReading =
	| { kind: 'missing' }
	| { kind: 'invalid'; reason: string }
	| { kind: 'date'; value: string };

/** `readDate` with the date under `kind: 'date'`. */
export function readHarvestDate(value: unknown, order: DateOrder = 'reject'): DateReading {
	const read = readDate(value, order);
	return read.kind === 'value' ? { kind: 'date', value: read.value } : read;
}

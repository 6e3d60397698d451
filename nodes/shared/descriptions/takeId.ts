/**
 * The one way an operation reads an id field of an item (Plot ID, Plot IDs, Job IDs, Area ID,
 * Run ID, Check Names): the parameter through the input layer's `readIdList` / `readId`,
 * taken into `problems` under the field's label, empty refused with `missingIdReason` unless
 * the field may stay empty.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { IdNoun } from '../input';
import { missingIdReason, readId, readIdList } from '../input';
import type { Problems } from '../runner';

export interface IdField {
	/** The parameter's name, e.g. `plotIds`. */
	name: string;
	/** The field's label in the panel, e.g. `Plot IDs`: problems name it. */
	label: string;
	noun: IdNoun;
	/** Whether an empty field is a problem (default true). */
	required?: boolean;
}

function parameter(ctx: IExecuteFunctions, itemIndex: number, field: IdField): unknown {
	return ctx.getNodeParameter(field.name, itemIndex, '');
}

function whenEmpty(field: IdField): string | undefined {
	return field.required === false ? undefined : missingIdReason(field.noun);
}

/** The ids of one item's id field (one or several); `[]` after its problem is recorded. */
export function takeIdList(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Pick<Problems, 'take'>,
	field: IdField,
): string[] {
	const read = readIdList(parameter(ctx, itemIndex, field), field.noun);
	return problems.take(field.label, read, whenEmpty(field)) ?? [];
}

/**
 * The one id of one item's id field. After its problem is recorded it is `''`, which is never
 * used: the runner neither runs nor sends an item that has a problem.
 */
export function takeId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Pick<Problems, 'take'>,
	field: IdField,
): string {
	const read = readId(parameter(ctx, itemIndex, field), field.noun);
	return problems.take(field.label, read, whenEmpty(field)) ?? '';
}

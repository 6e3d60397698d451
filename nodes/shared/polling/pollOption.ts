/**
 * One number of a trigger's Options collection, read through the input layer with its range
 * (both triggers read their options so): the value, its default when left empty, or an error
 * naming the option and saying what to enter.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { NumberRule } from '../input/numbers';
import { readNumber } from '../input/numbers';

export interface PollOptionField {
	/** The option's name in the collection. */
	name: string;
	/** Its display name, as the error names it. */
	label: string;
	default: number;
	rule: NumberRule;
	/** What to enter instead, in the error's description. */
	hint: string;
}

export function readPollOption(
	ctx: IPollFunctions,
	options: IDataObject,
	field: PollOptionField,
): number {
	const read = readNumber(options[field.name], field.rule);
	if (read.kind === 'missing') return field.default;
	if (read.kind === 'value') return read.value;
	throw new NodeOperationError(ctx.getNode(), `Field "${field.label}": ${read.reason}`, {
		description: field.hint,
	});
}

/** The node's "Poll Times" (n8n adds it to every polling node), or {} when it cannot be read. */
export function pollTimesOf(ctx: IPollFunctions): unknown {
	try {
		return ctx.getNodeParameter('pollTimes', {});
	} catch {
		return {};
	}
}

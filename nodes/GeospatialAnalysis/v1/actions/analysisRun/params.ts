import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Reads an ID parameter of one item: a non-empty string (numbers are accepted and turned
 * into text). Fails with a NodeOperationError naming the item and the field.
 */
export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
	hint: string,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text =
		typeof value === 'number' && Number.isFinite(value)
			? String(value)
			: typeof value === 'string'
				? value.trim()
				: '';
	if (text === '') {
		const empty =
			value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		const got = empty
			? 'is empty'
			: `is not an ID (got a ${Array.isArray(value) ? 'list' : typeof value})`;
		throw new NodeOperationError(
			ctx.getNode(),
			`Item ${itemIndex}: the field "${displayName}" ${got}`,
			{
				itemIndex,
				description: hint,
			},
		);
	}
	return text;
}

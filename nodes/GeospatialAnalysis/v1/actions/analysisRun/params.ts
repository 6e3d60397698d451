import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../helpers/items';

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
	const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') {
		const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
		const got = empty ? 'is empty' : `is not an ID (got a ${Array.isArray(value) ? 'list' : typeof value})`;
		throw new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: the field "${displayName}" ${got}`, {
			itemIndex,
			description: hint,
		});
	}
	return text;
}

/**
 * Reads every item's parameters before any request is sent. Without Continue On Fail the
 * first bad item stops the node here, so nothing is sent; with it, each bad item keeps its
 * error (to become an error item) and the good ones go on.
 */
export function readAllItems<T>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	read: (itemIndex: number) => T,
): Array<{ value: T } | { error: unknown }> {
	return items.map((_, i) => {
		try {
			return { value: read(i) };
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, i);
			return { error };
		}
	});
}

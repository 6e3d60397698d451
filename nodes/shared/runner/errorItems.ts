import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputProblems, problemItem } from './preflight';

/** The error item n8n users expect under Continue On Fail: `error`, and `description` when known. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	if (error instanceof InputProblems)
		return problemItem({ itemIndex, lines: error.lines, hints: [] });
	const e = error as { message?: string; description?: string | null } | undefined;
	const json: IDataObject = { error: e?.message ?? String(error) };
	if (e?.description) json.description = e.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The error to throw for an item: n8n's own error classes are kept as they are (their
 * constructors return the same instance) with the item index added; anything else is
 * wrapped in a NodeOperationError.
 */
export function asNodeError(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context ??= {};
		if (itemIndex !== undefined) error.context.itemIndex ??= itemIndex;
	}
	if (error instanceof NodeApiError)
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

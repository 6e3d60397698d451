import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Runs `work` for each input item, pairing each output with its item.
 *
 * When `prepare` is given, it first runs for EVERY item (reading and checking its
 * parameters, no requests): if any item is invalid, the node stops before anything is
 * sent, naming that item; with Continue On Fail, invalid items become error items and the
 * others go on. Then `work` runs item by item with what `prepare` returned; a failing
 * item stops the node, or becomes an error item with Continue On Fail.
 */
export async function forEachItem<P>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	work: (itemIndex: number, prepared: NoInfer<P>) => Promise<IDataObject | IDataObject[]>,
	prepare?: (itemIndex: number) => P,
): Promise<INodeExecutionData[]> {
	return await forEachItemData(
		ctx,
		items,
		async (i, prepared) => {
			const result = await work(i, prepared);
			return (Array.isArray(result) ? result : [result]).map((json) => ({
				json,
				pairedItem: { item: i },
			}));
		},
		prepare,
	);
}

/** As forEachItem, for work that makes whole output items (e.g. with binary data). */
export async function forEachItemData<P>(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	work: (itemIndex: number, prepared: NoInfer<P>) => Promise<INodeExecutionData[]>,
	prepare?: (itemIndex: number) => P,
): Promise<INodeExecutionData[]> {
	const prepared: Array<{ value: P } | { error: unknown }> = [];
	for (let i = 0; i < items.length; i++) {
		try {
			prepared.push({ value: prepare ? prepare(i) : (undefined as P) });
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, i);
			prepared.push({ error });
		}
	}
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const p = prepared[i];
		if ('error' in p) {
			out.push(errorItem(p.error, i));
			continue;
		}
		try {
			out.push(...(await work(i, p.value)));
		} catch (error) {
			if (!ctx.continueOnFail()) throw asNodeError(ctx, error, i);
			out.push(errorItem(error, i));
		}
	}
	return out;
}

/** The error item n8n users expect under Continue On Fail. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const e = error as { message?: string; description?: string | null };
	const json: IDataObject = { error: e.message ?? String(error) };
	if (e.description) json.description = e.description;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The error to throw for an item: n8n's own error classes are kept as they are (their
 * constructors return the same instance) with the item index added; anything else is
 * wrapped in a NodeOperationError. Without an item index (a trigger's poll, which has no
 * input items) the error is kept or wrapped the same way, naming no item.
 */
export function asNodeError(
	ctx: Pick<IExecuteFunctions | IPollFunctions, 'getNode'>,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (
		itemIndex !== undefined &&
		(error instanceof NodeApiError || error instanceof NodeOperationError)
	) {
		error.context ??= {};
		error.context.itemIndex ??= itemIndex;
	}
	if (error instanceof NodeApiError)
		return new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

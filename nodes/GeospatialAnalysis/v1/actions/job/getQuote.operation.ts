import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { asNodeError, errorItem } from '../../../../shared/helpers/items';
import { apiRequest } from '../../../../shared/transport/request';
import { normaliseBalance } from '../account/getTokenBalance.operation';
import type { ItemPlots, JobSettings } from './jobRequest';
import {
	buildBody,
	groupItems,
	readJobSettings,
	requestFields,
	validateChecks,
} from './jobRequest';

export const description: INodeProperties[] = [...requestFields(['getQuote'])];

/** POST /jobs/make_job with X-Dry-Run: true: the exact cost, nothing stored or reserved. */
export async function dryRun(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	return (await apiRequest.call(ctx, 'POST', '/jobs/make_job', {
		body,
		headers: { 'X-Dry-Run': 'true' },
		idempotent: true,
		itemIndex,
	})) as IDataObject;
}

/** The quote as output: token_cost, the free balance, whether it suffices, plus the raw quote. */
export async function quoteOutput(
	ctx: IExecuteFunctions,
	quote: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	let balance: IDataObject;
	if (quote.balance && typeof quote.balance === 'object') balance = normaliseBalance(quote.balance);
	else
		balance = normaliseBalance(
			await apiRequest.call(ctx, 'GET', '/users/check_tokens', { itemIndex }),
		);
	const cost = typeof quote.token_cost === 'number' ? quote.token_cost : Number(quote.token_cost);
	const free = typeof balance.free === 'number' ? balance.free : null;
	return {
		...quote,
		token_cost: Number.isFinite(cost) ? cost : (quote.token_cost ?? null),
		balance,
		free_tokens: free,
		sufficient:
			typeof quote.sufficient === 'boolean'
				? quote.sufficient
				: free !== null && Number.isFinite(cost)
					? free >= cost
					: null,
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	const onError = (error: unknown, i: number) => {
		if (this.continueOnFail()) return errorItem(error, i);
		throw asNodeError(this, error, i);
	};
	const groups = groupItems(this, items, out, onError);
	for (const group of groups) {
		const first = group[0].itemIndex;
		try {
			const settings: JobSettings = readJobSettings(this, first);
			await validateChecks(this, settings.checks, first);
			const quote = await dryRun(this, buildBody(group as ItemPlots[], settings), first);
			out.push({
				json: await quoteOutput(this, quote, first),
				pairedItem: group.map((g) => ({ item: g.itemIndex })),
			});
		} catch (error) {
			for (const g of group) out.push(onError(error, g.itemIndex));
		}
	}
	return out;
}

/** The exact token quote of a job: a dry-run make_job, with the free balance beside it. */
import type { IDataObject } from 'n8n-workflow';

import { normaliseBalance, BALANCE_PATH } from '../account/balance';
import type { ServiceContext } from '../transport/serviceContext';
import { apiRequest } from '../transport/request';
import { num } from '../values/answerValues';

/** POST /jobs/make_job with X-Dry-Run: true: the exact cost, nothing stored or reserved. */
export async function dryRun(
	ctx: ServiceContext,
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
	ctx: ServiceContext,
	quote: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	let balance: IDataObject;
	if (quote.balance && typeof quote.balance === 'object') balance = normaliseBalance(quote.balance);
	else balance = normaliseBalance(await apiRequest.call(ctx, 'GET', BALANCE_PATH, { itemIndex }));
	const cost = num(quote.token_cost);
	const free = typeof balance.free === 'number' ? balance.free : null;
	return {
		...quote,
		token_cost: cost ?? quote.token_cost ?? null,
		balance,
		free_tokens: free,
		sufficient:
			typeof quote.sufficient === 'boolean'
				? quote.sufficient
				: free !== null && cost !== null
					? free >= cost
					: null,
	};
}

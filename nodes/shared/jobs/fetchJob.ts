import type { IDataObject } from 'n8n-workflow';

import type { ServiceContext } from '../transport/serviceContext';
import { apiRequest } from '../transport/request';

/**
 * GET /jobs/job/{id}: the job with its status, token cost, visualisation URLs and, when the
 * service embeds them, its plots. Free of charge. Used by Job → Get, Wait for Completion,
 * Get Results and the trigger. `itemIndex` names the input item in errors (none in a trigger);
 * `timeoutMs` shortens the request's deadline (what is left of a wait).
 */
export async function fetchJob(
	ctx: ServiceContext,
	jobId: string,
	itemIndex?: number,
	retryPolicy?: { maxAttempts: number },
	timeoutMs?: number,
): Promise<IDataObject> {
	return (await apiRequest.call(ctx, 'GET', `/jobs/job/${encodeURIComponent(jobId)}`, {
		...(itemIndex !== undefined ? { itemIndex } : {}),
		...(retryPolicy ? { retryPolicy } : {}),
		...(timeoutMs !== undefined ? { timeoutMs } : {}),
	})) as IDataObject;
}

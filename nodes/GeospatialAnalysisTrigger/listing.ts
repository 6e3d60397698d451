/**
 * The trigger's listing of jobs by creation time (`GET /jobs?created_at_from=`), newest first,
 * page by page. Bounded, so that no answer of the service makes a poll loop: it stops with an
 * error on a cursor sent before (A, B, A …), on `has_more: true` without a cursor, on an empty
 * page that says more follow, on an answer without the `jobs` list, and after MAX_LISTING_PAGES
 * pages. Stopping with an error (rather than using what was read) keeps the trigger's state as
 * it was: the listing is newest first, so a cut-off listing would lack the oldest jobs of the
 * window, and a state built on it could skip them for good. The next poll tries again.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/runner/errors';
import { PaginationError, paginate } from '../shared/transport/paginate';

/**
 * Most pages one poll reads (each of up to 1,000 jobs): 100,000 jobs created within the
 * listing window, which is the overlap window once caught up and the watch period at most
 * after activation. More than that is not a listing the trigger can follow.
 */
export const MAX_LISTING_PAGES = 100;

/** Every job created at or after `fromMs`, newest first (the transport's bounded paging). */
export async function listJobsCreatedSince(
	ctx: IPollFunctions,
	fromMs: number,
	maxPages = MAX_LISTING_PAGES,
): Promise<IDataObject[]> {
	try {
		return (await paginate.call(ctx, '/jobs', 'jobs', {
			qs: { created_at_from: new Date(fromMs).toISOString() },
			maxPages,
		})) as IDataObject[];
	} catch (error) {
		if (!(error instanceof PaginationError)) throw asNodeError(ctx, error);
		const tooMany = /more pages follow after/.test(error.message);
		throw new NodeOperationError(ctx.getNode(), error.message, {
			description: `The trigger stopped after ${error.page} request${error.page === 1 ? '' : 's'} (${error.recordsRead} jobs read) and emitted nothing, rather than loop or miss jobs; its state is unchanged, so the next poll tries again and nothing is lost. ${
				tooMany
					? 'Lower "Watch Unfinished Jobs For (Days)" (the first poll lists the jobs created within it), or report it to the service if the account does not have that many jobs.'
					: 'If it persists, report it to the service (the listing of jobs misbehaves).'
			}`,
		});
	}
}

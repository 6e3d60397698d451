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

import { MAX_PAGE_SIZE } from '../shared/transport/paginate';
import { apiRequest } from '../shared/transport/request';

/**
 * Most pages one poll reads (each of MAX_PAGE_SIZE jobs): 100,000 jobs created within the
 * listing window, which is the overlap window once caught up and the watch period at most
 * after activation. More than that is not a listing the trigger can follow.
 */
export const MAX_LISTING_PAGES = 100;

/** Why a page loop cannot go on, as said to the user. */
function pagingError(
	ctx: IPollFunctions,
	page: number,
	read: number,
	problem: string,
	advice: string,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The service's pages of GET /jobs cannot be followed: ${problem} (page ${page})`,
		{
			description: `The trigger stopped after ${page} request${page === 1 ? '' : 's'} (${read} jobs read) and emitted nothing, rather than loop or miss jobs; its state is unchanged, so the next poll tries again and nothing is lost. ${advice}`,
		},
	);
}

const REPORT = 'If it persists, report it to the service (the listing of jobs misbehaves).';

/** Every job created at or after `fromMs`, newest first. */
export async function listJobsCreatedSince(
	ctx: IPollFunctions,
	fromMs: number,
	maxPages = MAX_LISTING_PAGES,
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const sent = new Set<string>();
	let cursor: string | undefined;
	for (let page = 1; ; page++) {
		const qs: IDataObject = {
			created_at_from: new Date(fromMs).toISOString(),
			limit: MAX_PAGE_SIZE,
		};
		if (cursor !== undefined) qs.cursor = cursor;
		const body = (await apiRequest.call(ctx, 'GET', '/jobs', { qs })) as IDataObject | null;
		const list = body && typeof body === 'object' && !Array.isArray(body) ? body.jobs : body;
		if (!Array.isArray(list))
			throw pagingError(ctx, page, out.length, 'the answer has no "jobs" list', REPORT);
		out.push(...(list as IDataObject[]));
		const meta = (
			body && typeof body === 'object' && !Array.isArray(body) && body.meta ? body.meta : {}
		) as IDataObject;
		const next =
			typeof meta.next_cursor === 'string' && meta.next_cursor !== ''
				? meta.next_cursor
				: typeof meta.next_cursor === 'number'
					? String(meta.next_cursor)
					: undefined;
		if (meta.has_more === true && next === undefined)
			throw pagingError(
				ctx,
				page,
				out.length,
				'the answer says more pages follow (has_more: true) but gives no next_cursor',
				REPORT,
			);
		if (meta.has_more === false || next === undefined) return out;
		if (list.length === 0)
			throw pagingError(
				ctx,
				page,
				out.length,
				'an empty page says more pages follow (has_more with a next_cursor)',
				REPORT,
			);
		if (sent.has(next) || next === cursor)
			throw pagingError(
				ctx,
				page,
				out.length,
				'the service sent a page cursor it had sent before, so the pages would repeat',
				REPORT,
			);
		if (page >= maxPages)
			throw pagingError(
				ctx,
				page,
				out.length,
				`more pages follow after ${page}, more than one poll reads (${maxPages} pages of ${MAX_PAGE_SIZE} jobs)`,
				'Lower "Watch Unfinished Jobs For (Days)" (the first poll lists the jobs created within it), or report it to the service if the account does not have that many jobs.',
			);
		sent.add(next);
		cursor = next;
	}
}

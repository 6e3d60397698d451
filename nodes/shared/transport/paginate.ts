import type { IDataObject } from 'n8n-workflow';

import { PageTrail } from './pageTrail';
import type { ServiceContext } from './serviceContext';
import { apiRequest } from './request';

export { PageTrail, PaginationError, maxPages } from './pageTrail';

export const MAX_PAGE_SIZE = 1000;

export interface PaginateOptions {
	/** Stop after this many records; undefined means all. */
	limit?: number;
	qs?: IDataObject;
	/** Page size to ask for (default: the most the service allows, or what is left). */
	pageSize?: number;
	/** Fewer pages than the limit allows at most (e.g. one poll of the trigger). */
	maxPages?: number;
}

/**
 * Follows the service's keyset cursors (`meta.next_cursor` / `meta.has_more`) until the end
 * or until `limit` records are collected, never asking for more than is still needed. Bounded
 * (see pageTrail.ts): a missing list, a repeated cursor, `has_more` without a cursor or more pages
 * than possible stop it with a PaginationError naming the endpoint and the page.
 */
export async function paginate<T = IDataObject>(
	this: ServiceContext,
	path: string,
	itemsKey: string,
	options: PaginateOptions = {},
): Promise<T[]> {
	const out: T[] = [];
	const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
	const trail = new PageTrail<T>(path, itemsKey, options.limit, options.maxPages);
	let cursor: string | undefined;
	for (;;) {
		const remaining = options.limit === undefined ? pageSize : options.limit - out.length;
		if (remaining <= 0) break;
		const qs: IDataObject = { ...(options.qs ?? {}), limit: Math.min(pageSize, remaining) };
		if (cursor) qs.cursor = cursor;
		const page = trail.read(await apiRequest.call(this, 'GET', path, { qs }));
		out.push(
			...page.records.slice(
				0,
				options.limit === undefined ? page.records.length : options.limit - out.length,
			),
		);
		if (page.next === undefined) break;
		cursor = page.next;
	}
	return out;
}

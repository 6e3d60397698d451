/**
 * The bounds of a keyset page loop (GET /plots, GET /jobs), so that no answer of the service
 * can make it loop: `PageTrail` reads each page's answer and says whether another page
 * follows, and stops with a PaginationError on
 * - an answer without the list (`plots` / `jobs`) or with a list that is not an array;
 * - `has_more: true` without a `next_cursor`, or an empty page that says more follow;
 * - a cursor sent before (a loop, however long: A, B, A, …);
 * - more pages than possible: every page must bring at least one record, so a Limit of N
 *   records needs at most N pages (fewer when pages are full); Return All reads at most
 *   MAX_RETURN_ALL_PAGES pages (MAX_RETURN_ALL_PAGES × the page size records).
 *
 * Used by `paginate` (Plot → Get Many, Job → Get Many, the job lookups and the trigger's
 * listing); a caller with its own page loop uses a PageTrail the same way. Pure.
 */
import { isObject } from '../values/answerValues';
import { describeBody, endpointName } from './answers';
import { attachFailure, describeFailure } from './serviceFailure';

/** Most pages one Return All reads (1,000,000 records at the largest page size). */
export const MAX_RETURN_ALL_PAGES = 1000;

/** The page limit of a listing: Limit N → N pages (each page brings ≥ 1 record); Return All → MAX. */
export function maxPages(limit: number | undefined): number {
	if (limit === undefined) return MAX_RETURN_ALL_PAGES;
	return Math.max(1, Math.min(Math.ceil(limit), MAX_RETURN_ALL_PAGES));
}

/**
 * A page loop that cannot go on, with what was read so far. The request that answered was
 * carried out (a list changes nothing): `serviceErrorOf` says kind 'unexpected-answer'.
 */
export class PaginationError extends Error {
	readonly description: string;

	constructor(
		readonly endpoint: string,
		/** 1-based number of the page whose answer stopped the loop. */
		readonly page: number,
		problem: string,
		/** Records read, those of this page included. */
		readonly recordsRead: number,
	) {
		super(`The service's pages of ${endpoint} cannot be followed: ${problem} (page ${page})`);
		this.name = 'PaginationError';
		this.description = `The node stopped after ${page} request${page === 1 ? '' : 's'} (${recordsRead} records read) rather than loop or return an incomplete list as if it were whole. Run again later; if it persists, use a Limit or the Created After / Before filters to list fewer, and report this to the service.`;
		attachFailure(this, describeFailure({ kind: 'unexpected-answer', status: 200 }));
	}
}

export interface PageRead<T> {
	/** The records of this page. */
	records: T[];
	/** The cursor of the next page, or undefined when this was the last one. */
	next?: string;
}

export class PageTrail<T = Record<string, unknown>> {
	private readonly seen = new Set<string>();

	private pages = 0;

	private records = 0;

	readonly endpoint: string;

	readonly maxPages: number;

	private readonly limit?: number;

	/**
	 * @param path the listing's path (named in errors)
	 * @param itemsKey the list key of its answer (`plots`, `jobs`)
	 * @param limit the most records wanted; undefined for Return All
	 * @param pageBound a lower bound on pages than the limit gives (e.g. one poll of the trigger)
	 */
	constructor(
		path: string,
		private readonly itemsKey: string,
		limit?: number,
		pageBound?: number,
	) {
		this.endpoint = endpointName('GET', path);
		this.maxPages = Math.min(maxPages(limit), pageBound ?? Infinity);
		this.limit = limit;
	}

	/** Pages read so far. */
	get pageCount(): number {
		return this.pages;
	}

	/** Reads one page's answer; throws a PaginationError when the loop cannot go on. */
	read(body: unknown): PageRead<T> {
		this.pages++;
		const fail = (problem: string) =>
			new PaginationError(this.endpoint, this.pages, problem, this.records);
		if (!isObject(body) || !(this.itemsKey in body))
			throw fail(
				`the answer has no "${this.itemsKey}" list (it was ${describeBody({ kind: 'json', value: body })})`,
			);
		const list = body[this.itemsKey];
		if (!Array.isArray(list))
			throw fail(
				`"${this.itemsKey}" is not a list (it was ${describeBody({ kind: 'json', value: list })})`,
			);
		const records = list as T[];
		this.records += records.length;
		// Enough records: whatever the answer says of further pages, none is asked for.
		if (this.limit !== undefined && this.records >= this.limit) return { records };
		const meta = isObject(body.meta) ? body.meta : {};
		const cursor =
			typeof meta.next_cursor === 'string' && meta.next_cursor !== ''
				? meta.next_cursor
				: typeof meta.next_cursor === 'number'
					? String(meta.next_cursor)
					: undefined;
		const hasMore = meta.has_more;
		if (hasMore === true && cursor === undefined)
			throw fail('the answer says more pages follow (has_more: true) but gives no next_cursor');
		if (hasMore === false || cursor === undefined) return { records };
		if (records.length === 0)
			throw fail('an empty page says more pages follow (has_more with a next_cursor)');
		if (this.seen.has(cursor))
			throw fail('the service sent a page cursor it had sent before, so the pages would repeat');
		if (this.pages >= this.maxPages)
			throw fail(
				`more pages follow after ${this.pages}, more than this listing can have (${this.maxPages === MAX_RETURN_ALL_PAGES ? `Return All reads at most ${MAX_RETURN_ALL_PAGES} pages` : this.limit === undefined ? `at most ${this.maxPages} pages are read` : 'each page must bring at least one of the records asked for'})`,
			);
		this.seen.add(cursor);
		return { records, next: cursor };
	}
}

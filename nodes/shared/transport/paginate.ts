import type { IDataObject } from 'n8n-workflow';

import type { ServiceContext } from './request';
import { apiRequest } from './request';

export const MAX_PAGE_SIZE = 1000;

export interface PageMeta {
	next_cursor?: string | null;
	limit?: number;
	count?: number;
	has_more?: boolean;
}

export interface PaginateOptions {
	/** Stop after this many records; undefined means all. */
	limit?: number;
	qs?: IDataObject;
	/** Page size to ask for (default: the most the service allows, or what is left). */
	pageSize?: number;
}

/**
 * Follows the service's keyset cursors (`meta.next_cursor` / `meta.has_more`) until the end
 * or until `limit` records are collected, never asking for more than is still needed.
 */
export async function paginate<T = IDataObject>(
	this: ServiceContext,
	path: string,
	itemsKey: string,
	options: PaginateOptions = {},
): Promise<T[]> {
	const out: T[] = [];
	const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
	let cursor: string | undefined;
	for (;;) {
		const remaining = options.limit === undefined ? pageSize : options.limit - out.length;
		if (remaining <= 0) break;
		const qs: IDataObject = { ...(options.qs ?? {}), limit: Math.min(pageSize, remaining) };
		if (cursor) qs.cursor = cursor;
		const body = (await apiRequest.call(this, 'GET', path, { qs })) as IDataObject;
		const page = Array.isArray(body?.[itemsKey])
			? (body[itemsKey] as T[])
			: Array.isArray(body)
				? (body as unknown as T[])
				: [];
		out.push(
			...page.slice(0, options.limit === undefined ? page.length : options.limit - out.length),
		);
		const meta = (body?.meta ?? {}) as PageMeta;
		const next = meta.next_cursor ?? undefined;
		if (!next || meta.has_more === false || page.length === 0) break;
		cursor = next;
	}
	return out;
}

/** Keyset pagination shared by GET /plots and GET /jobs: newest first, opaque base64url cursors. */
import { cursorError } from '../http-error';
import { isObj } from './common';

export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

interface Cursor {
	k: string;
	t: number;
	i: number;
}

function encodeCursor(c: Cursor): string {
	return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(s: string, kind: string): Cursor {
	try {
		if (!/^[A-Za-z0-9_-]+={0,2}$/.test(s)) throw new Error('charset');
		const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
		if (!isObj(c) || c.k !== kind || typeof c.t !== 'number' || typeof c.i !== 'number')
			throw new Error('shape');
		return c as unknown as Cursor;
	} catch {
		throw cursorError('Cursor not found');
	}
}

export function parseTimeParam(v: string, name: string): number {
	let s = v.trim();
	if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s))
		throw cursorError(`Invalid ${name} '${v}': expected an ISO-8601 timestamp`);
	s = s.replace(' ', 'T');
	if (s.length > 10 && !/(Z|[+-]\d{2}:?\d{2})$/.test(s)) s += 'Z';
	// trim sub-millisecond digits, which Date.parse does not accept everywhere
	s = s.replace(/(\.\d{3})\d+/, '$1');
	const ms = Date.parse(s);
	if (Number.isNaN(ms)) throw cursorError(`Invalid ${name} '${v}': expected an ISO-8601 timestamp`);
	return ms;
}

export function paginate<T extends { createdMs: number; num: number }>(
	items: T[],
	q: Record<string, string>,
	kind: string,
): {
	page: T[];
	meta: { next_cursor: string | null; limit: number; count: number; has_more: boolean };
} {
	let limit = DEFAULT_PAGE;
	if (q.limit !== undefined) {
		if (!/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > MAX_PAGE)
			throw cursorError(`Invalid limit '${q.limit}': must be an integer between 1 and ${MAX_PAGE}`);
		limit = Number(q.limit);
	}
	const from = q.created_at_from ? parseTimeParam(q.created_at_from, 'created_at_from') : -Infinity;
	const until = q.created_at_until
		? parseTimeParam(q.created_at_until, 'created_at_until')
		: Infinity;
	const cur = q.cursor ? decodeCursor(q.cursor, kind) : undefined;
	const sorted = items
		.filter((x) => x.createdMs >= from && x.createdMs <= until)
		.filter((x) => !cur || x.createdMs < cur.t || (x.createdMs === cur.t && x.num < cur.i))
		.sort((a, b) => b.createdMs - a.createdMs || b.num - a.num);
	const page = sorted.slice(0, limit);
	const hasMore = sorted.length > limit;
	const last = page[page.length - 1];
	return {
		page,
		meta: {
			next_cursor:
				hasMore && last ? encodeCursor({ k: kind, t: last.createdMs, i: last.num }) : null,
			limit,
			count: page.length,
			has_more: hasMore,
		},
	};
}

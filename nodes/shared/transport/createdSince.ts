/**
 * The one "created since" listing (`GET /plots` or `GET /jobs` with `created_at_from`), used by
 * plot recovery, job recovery and the trigger. The bound is sent in the service's own style
 * (`serviceTimestamp`: UTC without zone, floored to the second, so it stays inclusive), and
 * records the answer dates before that second are dropped here (a service that ignored the
 * filter). Records without a readable `created_at`, and entries that are not objects, are
 * kept: unknown is never "no", the caller decides what they mean.
 */
import { floorToSecond, parseServiceTimestamp, serviceTimestamp } from '../time/serviceTime';
import { isObject } from '../values/answerValues';
import { paginate } from './paginate';
import type { ServiceContext } from './serviceContext';

export interface CreatedSinceOptions {
	/** Stop after this many records (newest first); undefined means all. */
	limit?: number;
	/** Most pages read; more stop the listing with a PaginationError (see paginate). */
	maxPages?: number;
}

export interface CreatedSince {
	/** The records created at or after the bound's second, newest first. */
	records: unknown[];
	/** False when the listing stopped at `limit` (older records may exist that it lacks). */
	complete: boolean;
}

/** Every record of `path` (under `itemsKey`) created at or after `fromMs`'s second, newest first. */
export async function listCreatedSince(
	ctx: ServiceContext,
	path: '/plots' | '/jobs',
	itemsKey: 'plots' | 'jobs',
	fromMs: number,
	options: CreatedSinceOptions = {},
): Promise<CreatedSince> {
	const listed = (await paginate.call(ctx, path, itemsKey, {
		qs: { created_at_from: serviceTimestamp(fromMs) },
		...options,
	})) as unknown[];
	const earliest = floorToSecond(fromMs);
	const records = listed.filter((record) => {
		if (!isObject(record)) return true;
		const created = parseServiceTimestamp(record.created_at);
		return created === undefined || created >= earliest;
	});
	return { records, complete: options.limit === undefined || listed.length < options.limit };
}

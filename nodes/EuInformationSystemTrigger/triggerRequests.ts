/**
 * The requests of one poll, each through the EU node's reads (soapRequest: the 5 calls/s limiter,
 * retries of reads, redaction): one search by internal reference per kind of statement, then the
 * refresh batches the tracker planned (≤ 100 UUIDs each). Every answer is kept by UUID for the
 * items of the changes.
 */
import type { SkippedOverviews } from '../shared/dds/answers';
import { skippedOverviews } from '../shared/dds/answers';
import type { StatementOverview } from '../shared/dds/statement';
import type { ServiceContext } from '../shared/transport/serviceContext';
import type { StatementReads } from './statementReads';
import { observe } from './statementReads';
import { uuidKey } from './statementState';
import type { RefreshBatch, StatementObservation } from './statementTracker';
import { MAX_UUIDS_PER_CALL } from './statementTracker';

export interface ReadStatements {
	observed: StatementObservation[];
	/** UUID (lower case) → the overview as the EU sent it. */
	overviews: Map<string, StatementOverview>;
	/** Kinds whose search returned the EU's most (100): statements beyond may not be seen. */
	capped: StatementReads['kind'][];
	/** Statements the EU listed without a valid UUID: left out, never stored. */
	skipped: SkippedOverviews;
}

function collect(into: ReadStatements, kind: StatementReads['kind'], found: StatementOverview[]) {
	for (const o of found) {
		into.observed.push(observe(o, kind));
		into.overviews.set(uuidKey(o.uuid), o);
	}
}

function empty(): ReadStatements {
	return { observed: [], overviews: new Map(), capped: [], skipped: skippedOverviews() };
}

/** One search per kind for the prefix (the EU's search is a substring search: the tracker filters). */
export async function searchStatements(
	ctx: ServiceContext,
	prefix: string,
	reads: readonly StatementReads[],
): Promise<ReadStatements> {
	const out = empty();
	for (const kind of reads) {
		const before = out.skipped.count;
		const found = await kind.byInternalReference(ctx, prefix, out.skipped);
		// a listed statement left out still counts towards the EU's cap of 100
		if (found.length + out.skipped.count - before >= MAX_UUIDS_PER_CALL) out.capped.push(kind.kind);
		collect(out, kind.kind, found);
	}
	return out;
}

/** The refresh batches, one request each, in order. */
export async function refreshStatements(
	ctx: ServiceContext,
	batches: readonly RefreshBatch[],
	reads: readonly StatementReads[],
): Promise<ReadStatements> {
	const out = empty();
	for (const batch of batches) {
		const kind = reads.find((r) => r.kind === batch.kind);
		if (!kind || batch.uuids.length === 0) continue;
		const uuids = batch.uuids.slice(0, MAX_UUIDS_PER_CALL);
		collect(out, batch.kind, await kind.byUuid(ctx, uuids, out.skipped));
	}
	return out;
}

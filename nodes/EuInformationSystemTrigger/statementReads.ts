/**
 * What the trigger reads of one kind of statement, behind one small interface so that another
 * kind plugs in beside the due diligence statement (the simplified declaration's reads, when
 * present): a search by internal reference and a read of up to 100 UUIDs, each one request.
 * And the overview as the tracker sees it (statementTracker.ts's StatementObservation).
 */
import type { SkippedOverviews } from '../shared/dds/answers';
import { statementsByInternalReference, statementsByUuid } from '../shared/dds/euReads';
import { declarationsByInternalReference, declarationsByUuid } from '../shared/dds/sdReads';
import type { StatementOverview } from '../shared/dds/statement';
import { parseServiceTimestamp } from '../shared/time/serviceTime';
import type { ServiceContext } from '../shared/transport/serviceContext';
import { communicationKey } from './statementState';
import type { StatementKind } from './statementState';
import type { StatementObservation } from './statementTracker';

/**
 * Both reads leave out the statements whose UUID is not a UUID and count them in `skipped`:
 * nothing of them is watched or stored.
 */
export interface StatementReads {
	kind: StatementKind;
	/** The statements the EU lists for a search string (≤ 100; one request). */
	byInternalReference(
		ctx: ServiceContext,
		reference: string,
		skipped: SkippedOverviews,
	): Promise<StatementOverview[]>;
	/** The overviews of up to 100 UUIDs (those the EU does not show are absent; one request). */
	byUuid(
		ctx: ServiceContext,
		uuids: readonly string[],
		skipped: SkippedOverviews,
	): Promise<StatementOverview[]>;
}

export const DDS_READS: StatementReads = {
	kind: 'dds',
	byInternalReference: async (ctx, reference, skipped) =>
		await statementsByInternalReference(ctx, reference, undefined, skipped),
	byUuid: async (ctx, uuids, skipped) => await statementsByUuid(ctx, uuids, undefined, skipped),
};

/** Simplified declarations: their current version (no version asked). */
export const SD_READS: StatementReads = {
	kind: 'sd',
	byInternalReference: async (ctx, reference, skipped) =>
		await declarationsByInternalReference(ctx, reference, undefined, skipped),
	byUuid: async (ctx, uuids, skipped) =>
		await declarationsByUuid(
			ctx,
			uuids.map((uuid) => ({ uuid })),
			undefined,
			skipped,
		),
};

/** The reads of every kind the trigger can watch. */
export const STATEMENT_READS: readonly StatementReads[] = [DDS_READS, SD_READS];

/** The reads of the kinds selected (parameter `statementTypes`). */
export function readsFor(kinds: readonly StatementKind[]): StatementReads[] {
	return STATEMENT_READS.filter((r) => kinds.includes(r.kind));
}

/** What the tracker needs of an overview. */
export function observe(o: StatementOverview, kind: StatementKind): StatementObservation {
	return {
		uuid: o.uuid,
		kind,
		internalReferenceNumber: o.internalReferenceNumber,
		status: o.status,
		dateMs: parseServiceTimestamp(o.date) ?? null,
		communication: communicationKey(o.communicationToOperator),
		communicationMs: parseServiceTimestamp(o.communicationToOperator?.date) ?? null,
	};
}

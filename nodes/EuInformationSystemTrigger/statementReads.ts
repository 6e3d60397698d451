/**
 * What the trigger reads of one kind of statement, behind one small interface so that another
 * kind plugs in beside the due diligence statement (the simplified declaration's reads, when
 * present): a search by internal reference and a read of up to 100 UUIDs, each one request.
 * And the overview as the tracker sees it (statementTracker.ts's StatementObservation).
 */
import { statementsByInternalReference, statementsByUuid } from '../shared/dds/euReads';
import { declarationsByInternalReference, declarationsByUuid } from '../shared/dds/sdReads';
import type { StatementOverview } from '../shared/dds/statement';
import { parseServiceTimestamp } from '../shared/time/serviceTime';
import type { ServiceContext } from '../shared/transport/serviceContext';
import { communicationKey } from './statementState';
import type { StatementKind } from './statementState';
import type { StatementObservation } from './statementTracker';

export interface StatementReads {
	kind: StatementKind;
	/** The statements the EU lists for a search string (≤ 100; one request). */
	byInternalReference(ctx: ServiceContext, reference: string): Promise<StatementOverview[]>;
	/** The overviews of up to 100 UUIDs (those the EU does not show are absent; one request). */
	byUuid(ctx: ServiceContext, uuids: readonly string[]): Promise<StatementOverview[]>;
}

export const DDS_READS: StatementReads = {
	kind: 'dds',
	byInternalReference: async (ctx, reference) =>
		await statementsByInternalReference(ctx, reference),
	byUuid: async (ctx, uuids) => await statementsByUuid(ctx, uuids),
};

/** Simplified declarations: their current version (no version asked). */
export const SD_READS: StatementReads = {
	kind: 'sd',
	byInternalReference: async (ctx, reference) =>
		await declarationsByInternalReference(ctx, reference),
	byUuid: async (ctx, uuids) =>
		await declarationsByUuid(
			ctx,
			uuids.map((uuid) => ({ uuid })),
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

/**
 * What the EU Information System node outputs for a statement overview: with Simplify, the
 * fields a compliance officer acts on first (status, reference and verification numbers),
 * then the UUID, the internal reference, the rejection reason and the authority's
 * communication; without it, the overview as read (unknown fields passed through).
 * Pure: no n8n imports.
 */
import type { StatementOverview } from './statement';

/** Statuses after which the internal reference may be filed again. */
export const INACTIVE_STATUSES: readonly string[] = ['REJECTED', 'WITHDRAWN'];

/** Why a statement has no reference or verification number yet (null with a reason). */
export const NUMBERS_NOT_YET =
	'The EU Information System shows the reference and verification numbers only once the statement is AVAILABLE: ask for it with Get no sooner than about 30 minutes after submitting.';

/**
 * The simplified output's names for what the panel calls "Internal Reference" and for the
 * EU's last-update time, and the names they had before (kept, last, for the expressions of
 * saved workflows: `$json.internalReferenceNumber`, `$json.date`). docs/notes/i35-cred.md.
 */
export const RENAMED_OUTPUT_FIELDS = {
	internalReference: 'internalReferenceNumber',
	updatedAt: 'date',
} as const;

/**
 * `version`: also the version after the update time (the SD's versions, made by Update; the
 * DDS's simplified output has none). `updatedAt` is the EU's time of the statement's last
 * update (the overview's `date`); null when the EU gave none, e.g. right after Submit, whose
 * answer carries only the UUID.
 */
export function simplifyOverview(o: StatementOverview, version = false): Record<string, unknown> {
	const out: Record<string, unknown> = {
		status: o.status,
		referenceNumber: o.referenceNumber,
		verificationNumber: o.verificationNumber,
		uuid: o.uuid,
		internalReference: o.internalReferenceNumber,
		rejectionReason: o.rejectionReason,
		communication: o.communicationToOperator?.content ?? null,
		communicationDate: o.communicationToOperator?.date ?? null,
		updatedAt: o.date,
		...(version ? { version: o.version } : {}),
	};
	const note = numbersNoteOf(o);
	if (note !== undefined) out.numbersNote = note;
	// the names before issue 35, kept for saved workflows' expressions
	out.internalReferenceNumber = o.internalReferenceNumber;
	out.date = o.date;
	return out;
}

/**
 * Why an overview has no reference number, only when it has none: not yet (SUBMITTED), or the
 * EU's answer carries none (any other status but REJECTED, which never gets one).
 */
export function numbersNoteOf(o: StatementOverview): string | undefined {
	if (o.referenceNumber !== null || o.status === 'REJECTED') return undefined;
	if (o.status === 'SUBMITTED') return NUMBERS_NOT_YET;
	return `The EU Information System shows no reference or verification number for this statement (status ${o.status || 'unknown'}).`;
}

/** The overview as output: simplified, or as read. */
export function overviewOutput(
	o: StatementOverview,
	simplify: boolean,
	version = false,
): Record<string, unknown> {
	return simplify ? simplifyOverview(o, version) : { ...o };
}

/** The overviews the EU listed for a lookup whose internal reference is exactly `reference`. */
export function exactReferenceMatches(
	overviews: readonly StatementOverview[],
	reference: string,
): StatementOverview[] {
	return overviews.filter((o) => o.internalReferenceNumber === reference);
}

/** The statements that still stand (neither rejected nor withdrawn; unknown statuses stand). */
export function activeStatements(overviews: readonly StatementOverview[]): StatementOverview[] {
	return overviews.filter((o) => !INACTIVE_STATUSES.includes(o.status));
}

/** "UUID …, status …, reference number …" of a statement, for messages. */
export function describeStatement(o: StatementOverview): string {
	return `UUID ${o.uuid}, status ${o.status}, reference number ${o.referenceNumber ?? '(none yet)'}`;
}

/**
 * The reads of Simplified Declarations: by internal reference, by UUID (and version), and the
 * content by reference and verification number. Reads are idempotent (the transport retries
 * them); "nothing found" (NotFoundException) is an empty list. The overviews are read by
 * answers.ts's tolerant reader, the same as the DDS's (unknown statuses and fields passed
 * through).
 */
import type { ServiceContext } from '../transport/serviceContext';
import { contentOf, lookupOverviews, overviews } from './euReads';
import type { ReferenceLookup } from './referenceMatch';
import { getSdBody, getSdByIdentifiersBody, getSdByInternalReferenceBody } from './sdRequests';
import type { StatementOverview } from './statement';

/** Every SD the EU lists for `internalReference` (a case-insensitive substring search there). */
export async function declarationsByInternalReference(
	ctx: ServiceContext,
	internalReference: string,
	itemIndex?: number,
): Promise<StatementOverview[]> {
	return (await searchDeclarations(ctx, internalReference, itemIndex)).overviews;
}

/** The SD lookup by internal reference with the count of entries listed (at most LOOKUP_CAP). */
export async function searchDeclarations(
	ctx: ServiceContext,
	internalReference: string,
	itemIndex?: number,
): Promise<ReferenceLookup> {
	const body = getSdByInternalReferenceBody(internalReference);
	return await lookupOverviews(ctx, 'sd', 'getSdByInternalReference', body, itemIndex);
}

/**
 * The overviews of up to 100 SDs (a version asks for that version, none for the current one);
 * those the EU does not know are absent.
 */
export async function declarationsByUuid(
	ctx: ServiceContext,
	wanted: ReadonlyArray<{ uuid: string; version?: number }>,
	itemIndex?: number,
): Promise<StatementOverview[]> {
	return await overviews(ctx, 'sd', 'getSd', getSdBody(wanted), itemIndex);
}

/** The full content of an SD (geolocation decoded), by its reference and verification numbers. */
export async function declarationContent(
	ctx: ServiceContext,
	referenceNumber: string,
	verificationNumber: string,
	itemIndex?: number,
): Promise<Record<string, unknown>> {
	const body = getSdByIdentifiersBody(referenceNumber, verificationNumber);
	return await contentOf(ctx, 'sd', 'getSdByIdentifiers', body, itemIndex);
}

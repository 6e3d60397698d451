/**
 * The reads the EU Information System node makes before and after changing anything: the
 * statements with an internal reference, the overviews of UUIDs. Reads are idempotent (the
 * transport retries them); "nothing found" (NotFoundException) is an empty list.
 */
import { euFailureOf } from '../transport/euFailure';
import type { ServiceContext } from '../transport/serviceContext';
import { soapRequest } from '../transport/soapRequest';
import type { SkippedOverviews } from './answers';
import { overviewEntryCount, readOverviews, readStatementContent } from './answers';
import type { ReferenceLookup } from './referenceMatch';
import { getDdsBody, getDdsByIdentifiersBody, getDdsByInternalReferenceBody } from './requests';
import type { StatementOverview } from './statement';

function isNotFound(error: unknown): boolean {
	return euFailureOf(error)?.faultName === 'NotFoundException';
}

/**
 * A lookup's overviews (DDS: getDds, getDdsByInternalReference; SD: getSd,
 * getSdByInternalReference) and how many entries the answer listed; "nothing found"
 * (NotFoundException) is an empty list. An entry whose UUID is not a UUID fails the lookup, or,
 * given `skipped`, is left out and counted there (answers.ts's readOverviews).
 */
export async function lookupOverviews(
	ctx: ServiceContext,
	service: 'dds' | 'sd',
	operation: 'getDds' | 'getDdsByInternalReference' | 'getSd' | 'getSdByInternalReference',
	body: string,
	itemIndex: number | undefined,
	skipped?: SkippedOverviews,
): Promise<ReferenceLookup> {
	let failed: unknown;
	try {
		const ok = await soapRequest.call(ctx, {
			service,
			operation,
			body,
			idempotent: true,
			itemIndex,
		});
		return {
			overviews: readOverviews(ok.element, skipped),
			listed: overviewEntryCount(ok.element),
		};
	} catch (error) {
		failed = error;
	}
	if (isNotFound(failed)) return { overviews: [], listed: 0 };
	throw failed;
}

/** A lookup's overviews (lookupOverviews without the count); `skipped`: see lookupOverviews. */
export async function overviews(
	...lookup: Parameters<typeof lookupOverviews>
): Promise<StatementOverview[]> {
	return (await lookupOverviews(...lookup)).overviews;
}

/**
 * Every statement the EU lists for `internalReference` (a case-insensitive substring search
 * there); `skipped`: see `lookupOverviews`.
 */
export async function statementsByInternalReference(
	ctx: ServiceContext,
	internalReference: string,
	itemIndex?: number,
	skipped?: SkippedOverviews,
): Promise<StatementOverview[]> {
	return (await searchStatements(ctx, internalReference, itemIndex, skipped)).overviews;
}

/** The DDS lookup by internal reference with the count of entries listed (at most LOOKUP_CAP). */
export async function searchStatements(
	ctx: ServiceContext,
	internalReference: string,
	itemIndex?: number,
	skipped?: SkippedOverviews,
): Promise<ReferenceLookup> {
	const body = getDdsByInternalReferenceBody(internalReference);
	return await lookupOverviews(ctx, 'dds', 'getDdsByInternalReference', body, itemIndex, skipped);
}

/** The overviews of up to 100 UUIDs (those the EU does not know are absent); `skipped`: see `overviews`. */
export async function statementsByUuid(
	ctx: ServiceContext,
	uuids: readonly string[],
	itemIndex?: number,
	skipped?: SkippedOverviews,
): Promise<StatementOverview[]> {
	return await overviews(ctx, 'dds', 'getDds', getDdsBody(uuids), itemIndex, skipped);
}

/** The full content of a statement (DDS: getDdsByIdentifiers; SD: getSdByIdentifiers), geolocation decoded. */
export async function contentOf(
	ctx: ServiceContext,
	service: 'dds' | 'sd',
	operation: 'getDdsByIdentifiers' | 'getSdByIdentifiers',
	body: string,
	itemIndex: number | undefined,
): Promise<Record<string, unknown>> {
	const ok = await soapRequest.call(ctx, { service, operation, body, idempotent: true, itemIndex });
	return readStatementContent(ok.element);
}

/** The full content of a DDS (geolocation decoded), by its reference and verification numbers. */
export async function statementContent(
	ctx: ServiceContext,
	referenceNumber: string,
	verificationNumber: string,
	itemIndex?: number,
): Promise<Record<string, unknown>> {
	const body = getDdsByIdentifiersBody(referenceNumber, verificationNumber);
	return await contentOf(ctx, 'dds', 'getDdsByIdentifiers', body, itemIndex);
}

/**
 * The activity type of a filed statement, read from its content (by reference and
 * verification number), or undefined when the EU does not show it to this account (SME
 * downstream operators may not read content) or the read fails: the EU then decides.
 */
export async function filedActivityType(
	ctx: ServiceContext,
	overview: StatementOverview,
	itemIndex?: number,
): Promise<string | undefined> {
	if (!overview.referenceNumber || !overview.verificationNumber) return undefined;
	try {
		const content = await statementContent(
			ctx,
			overview.referenceNumber,
			overview.verificationNumber,
			itemIndex,
		);
		const activity = content.activityType;
		return typeof activity === 'string' && activity !== '' ? activity : undefined;
	} catch {
		return undefined;
	}
}

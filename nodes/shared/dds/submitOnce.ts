/**
 * Submit a statement exactly once. A statement filed in the EU Information System has legal
 * value, and the EU's lookup by internal reference matches substrings, case-insensitively, lists
 * at most 100 statements and can lag behind a submission (pack README §6, §12). So:
 * 1. this process remembers what it sent in the last 30 minutes (submitMemory.ts): a reference
 *    remembered is never sent again — with its UUID known the statement is output (read by
 *    UUID, or as known when the EU does not show it yet); with its answer lost (or another
 *    execution sending it now) it is refused, naming when it was sent and when to look again;
 * 2. otherwise the internal reference is looked up before sending (referenceMatch.ts; several
 *    statements of one run by one search of their common prefix, referenceLookups.ts):
 *    - a statement standing with exactly this reference (not REJECTED or WITHDRAWN) is
 *      returned, or refused with "If Already Filed: Fail";
 *    - one standing with the reference in another letter case is refused before sending;
 *    - an answer that reached the cap without the reference proves nothing: refused before
 *      sending, naming the reference and what to do;
 *    - only a complete answer without it lets the statement be sent;
 * 3. after a failure where the submission may have arrived (no answer, a timeout, a 5xx, an
 *    answer that cannot be read), nothing is said before the EU is asked again over the
 *    look-again window (five lookups over about a minute, submitTiming.ts): found, the statement
 *    is output ("this run, answer lost"); not found, the error says it is NOT KNOWN whether it
 *    was filed, why, and what to do when — never that running again is safe;
 * 4. a submission refused before processing with "too many calls" (HTTP 429) waits the
 *    Retry-After (bounded) and goes again through 1 and 2, at most THROTTLED_SUBMIT_TRIES
 *    times; a submission is never resent by the transport.
 * The same for a Simplified Declaration (`SD_FILING`: submitSd, looked up by its mandatory
 * internal reference with getSdByInternalReference).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { cancelSignalOf } from '../transport/deadline';
import { euCredential } from '../transport/euCredential';
import { euFailureOf } from '../transport/euFailure';
import { soapRequest } from '../transport/soapRequest';
import { AnswerShapeError, readSubmitAnswer } from './answers';
import { searchStatements, statementsByUuid } from './euReads';
import type { RunLookups } from './referenceLookups';
import type { ReferenceLookup, Verdict } from './referenceMatch';
import { verdictOf } from './referenceMatch';
import { declarationsByUuid, searchDeclarations } from './sdReads';
import type { StatementOverview } from './statement';
import {
	INACTIVE_STATUSES,
	NUMBERS_NOT_YET,
	describeStatement,
	overviewOutput,
} from './statementOutput';
import type { Remembered } from './submitMemory';
import { forget, memoryKey, recall, remember, update } from './submitMemory';
import type { Subject, Unsettled } from './submitMessages';
import {
	alreadyFiledError,
	cappedError,
	caseVariantError,
	notKnownError,
	rememberedNote,
	unresolvedError,
	utc,
} from './submitMessages';
import {
	LOOK_AGAIN_DELAYS_MS,
	MAX_THROTTLE_WAIT_MS,
	THROTTLED_SUBMIT_TRIES,
	THROTTLE_WAIT_MS,
	submitTiming,
} from './submitTiming';

export type IfAlreadyFiled = 'returnExisting' | 'fail';

/** How the output statement came to be. */
export const FILED_BY = {
	now: 'this run',
	earlier: 'before this run',
	recovered: 'this run, answer lost',
} as const;

/** What is filed: the service, its submit operation, its lookups and its words. */
export interface Filing {
	service: 'dds' | 'sd';
	operation: 'submitDds' | 'submitSd';
	/** The lookup by internal reference (a case-insensitive substring search), with its count. */
	search: (
		ctx: IExecuteFunctions,
		internalReference: string,
		itemIndex: number,
	) => Promise<ReferenceLookup>;
	/** The overview of one statement by its UUID. */
	byUuid: (ctx: IExecuteFunctions, uuid: string, itemIndex: number) => Promise<StatementOverview[]>;
	/** "statement" / "declaration", in messages. */
	noun: string;
	/** The operation that changes a filed one ("Amend" / "Update"). */
	change: string;
}

export const DDS_FILING: Filing = {
	service: 'dds',
	operation: 'submitDds',
	search: searchStatements,
	byUuid: async (ctx, uuid, i) => await statementsByUuid(ctx, [uuid], i),
	noun: 'statement',
	change: 'Amend',
};

export const SD_FILING: Filing = {
	service: 'sd',
	operation: 'submitSd',
	search: searchDeclarations,
	byUuid: async (ctx, uuid, i) => await declarationsByUuid(ctx, [{ uuid }], i),
	noun: 'declaration',
	change: 'Update',
};

export interface SubmitOnce {
	/** What is filed; the DDS when absent. */
	filing?: Filing;
	internalReference: string;
	/** The SubmitDdsRequest / SubmitSdRequest body (built and size-checked in the pre-flight). */
	body: string;
	itemIndex: number;
	ifAlreadyFiled: IfAlreadyFiled;
	simplify: boolean;
	/** Input items of the statement, for messages ("items 0, 1"). */
	itemsLabel: string;
	/** The lookups of the whole run (prefix searches); one lookup of the reference when absent. */
	lookups?: RunLookups;
}

const filingOf = (o: SubmitOnce): Filing => o.filing ?? DDS_FILING;

function subjectOf(o: SubmitOnce): Subject {
	const { noun, change } = filingOf(o);
	return {
		noun,
		change,
		internalReference: o.internalReference,
		itemsLabel: o.itemsLabel,
		itemIndex: o.itemIndex,
	};
}

function output(
	filing: Filing,
	overview: StatementOverview,
	simplify: boolean,
	filedBy: string,
): Record<string, unknown> {
	return { ...overviewOutput(overview, simplify, filing.service === 'sd'), filedBy };
}

/** The statement as known from a submission's answer (SUBMITTED, no numbers yet). */
function submitted(uuid: string, reference: string): StatementOverview {
	return {
		uuid,
		internalReferenceNumber: reference,
		referenceNumber: null,
		verificationNumber: null,
		status: 'SUBMITTED',
		rejectionReason: null,
		communicationToOperator: null,
		date: null,
		updatedBy: null,
		version: null,
	};
}

/** Files the statement unless it stands already; returns the statement(s) to output. */
export async function submitOnce(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
): Promise<Array<Record<string, unknown>>> {
	for (let tries = 1; ; tries++) {
		let failed: unknown;
		try {
			// a try after a 429 looks the reference up alone, afresh
			return await fileOnce(ctx, tries === 1 ? o : { ...o, lookups: undefined });
		} catch (error) {
			failed = error;
		}
		const failure = euFailureOf(failed);
		const wait = failure?.retryAfterMs ?? THROTTLE_WAIT_MS;
		if (
			failure?.kind !== 'throttled' ||
			failure.mayHaveArrived ||
			tries >= THROTTLED_SUBMIT_TRIES ||
			wait > MAX_THROTTLE_WAIT_MS
		)
			throw failed;
		await submitTiming().sleep(wait, cancelSignalOf(ctx));
	}
}

/** What a lookup's verdict means before sending: an output, a refusal, or "send". */
function settle(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
	verdict: Verdict,
): Array<Record<string, unknown>> | undefined {
	const node = ctx.getNode();
	switch (verdict.kind) {
		case 'standing':
			if (o.ifAlreadyFiled === 'fail')
				throw alreadyFiledError(node, subjectOf(o), verdict.statements);
			return verdict.statements.map((s) => output(filingOf(o), s, o.simplify, FILED_BY.earlier));
		case 'caseVariant':
			throw caseVariantError(
				node,
				subjectOf(o),
				verdict.statements.map((s) => ({
					internalReferenceNumber: s.internalReferenceNumber,
					describe: describeStatement(s),
				})),
			);
		case 'capped':
			throw cappedError(node, subjectOf(o), verdict.listed);
		case 'notFiled':
			return undefined;
	}
}

async function fileOnce(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
): Promise<Array<Record<string, unknown>>> {
	const f = filingOf(o);
	const timing = submitTiming();
	const key = memoryKey(await euCredential.call(ctx), f.service, o.internalReference);
	const known = recall(key, timing.now());
	if (known) return await fromMemory(ctx, o, key, known);
	const verdict = o.lookups
		? await o.lookups.verdict(ctx, f.search, o.internalReference, o.itemIndex)
		: verdictOf(await f.search(ctx, o.internalReference, o.itemIndex), o.internalReference);
	const settled = settle(ctx, o, verdict);
	if (settled) return settled;
	// another execution of this process may have sent it while this one looked
	const sentAt = timing.now();
	const claimed = recall(key, sentAt);
	if (claimed) return await fromMemory(ctx, o, key, claimed);
	remember(key, { reference: o.internalReference, sentAt, state: 'sending' });
	let failed: unknown;
	try {
		const ok = await soapRequest.call(ctx, {
			service: f.service,
			operation: f.operation,
			body: o.body,
			idempotent: false,
			itemIndex: o.itemIndex,
		});
		const { uuid } = readSubmitAnswer(ok.element);
		update(key, { state: 'filed', uuid });
		const out = output(f, submitted(uuid, o.internalReference), o.simplify, FILED_BY.now);
		out.numbersNote = NUMBERS_NOT_YET;
		return [out];
	} catch (error) {
		failed = error;
	}
	// An answer we cannot read came from the service: the submission arrived.
	const mayHaveArrived = failed instanceof AnswerShapeError || euFailureOf(failed)?.mayHaveArrived;
	if (!mayHaveArrived) {
		forget(key);
		throw failed;
	}
	update(key, { state: 'lost' });
	return await recover(ctx, o, key, failed, sentAt);
}

/**
 * A reference this process sent within REMEMBER_MS: never sent again. With its UUID, the
 * statement is output (as the EU shows it by UUID, or as known); otherwise it is looked up once
 * more, and refused when not listed.
 */
async function fromMemory(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
	key: string,
	known: Remembered,
): Promise<Array<Record<string, unknown>>> {
	const f = filingOf(o);
	const node = ctx.getNode();
	if (known.reference !== o.internalReference)
		throw caseVariantError(node, subjectOf(o), [
			{
				internalReferenceNumber: known.reference,
				describe: `sent by this n8n at ${utc(known.sentAt)}${known.uuid ? `, UUID ${known.uuid}` : ''}`,
			},
		]);
	if (known.state === 'filed' && known.uuid) {
		let found: StatementOverview | undefined;
		try {
			found = (await f.byUuid(ctx, known.uuid, o.itemIndex)).find((s) => s.uuid === known.uuid);
		} catch {
			found = undefined;
		}
		if (found && INACTIVE_STATUSES.includes(found.status)) {
			// rejected or withdrawn since: the reference may be filed again, looked up first
			forget(key);
			return await fileOnce(ctx, o);
		}
		const note = rememberedNote(f.noun, known.sentAt, found !== undefined);
		const overview = found ?? submitted(known.uuid, known.reference);
		if (o.ifAlreadyFiled === 'fail')
			throw alreadyFiledError(node, subjectOf(o), [overview], `${note} `);
		return [{ ...output(f, overview, o.simplify, FILED_BY.earlier), note }];
	}
	const verdict = verdictOf(
		await f.search(ctx, o.internalReference, o.itemIndex),
		o.internalReference,
	);
	if (verdict.kind === 'standing') {
		if (known.state === 'lost') update(key, { state: 'filed', uuid: verdict.statements[0].uuid });
		return settle(ctx, o, verdict) ?? [];
	}
	throw unresolvedError(
		node,
		subjectOf(o),
		known.sentAt,
		known.state === 'sending' ? 'sending' : 'lost',
	);
}

/**
 * After a submission whose answer was lost: the EU is asked again over the look-again window
 * (its lookups can lag); what it shows decides what is said, and "not listed" is never "not
 * filed".
 */
async function recover(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
	key: string,
	error: unknown,
	sentAt: number,
): Promise<Array<Record<string, unknown>>> {
	const f = filingOf(o);
	const timing = submitTiming();
	const what = (error as { message?: string }).message ?? String(error);
	let lookups = 0;
	let failures = 0;
	let why: Unsettled = 'notListed';
	for (const delay of LOOK_AGAIN_DELAYS_MS) {
		if (delay > 0) await timing.sleep(delay, cancelSignalOf(ctx));
		lookups++;
		let lookup: ReferenceLookup;
		try {
			lookup = await f.search(ctx, o.internalReference, o.itemIndex);
		} catch {
			failures++;
			continue;
		}
		const verdict = verdictOf(lookup, o.internalReference);
		if (verdict.kind === 'standing') {
			update(key, { state: 'filed', uuid: verdict.statements[0].uuid });
			return verdict.statements.map((s) => output(f, s, o.simplify, FILED_BY.recovered));
		}
		// a capped answer stays capped: looking again cannot settle it
		if (verdict.kind === 'capped') {
			why = 'capped';
			break;
		}
	}
	if (why !== 'capped' && failures === lookups) why = 'lookupsFailed';
	const seconds = Math.round(LOOK_AGAIN_DELAYS_MS.reduce((a, b) => a + b, 0) / 1000);
	throw notKnownError(ctx.getNode(), subjectOf(o), { what, sentAt, lookups, seconds, why });
}

/**
 * Submit a statement exactly once. A statement filed in the EU Information System has legal
 * value, so:
 * 1. before sending, the internal reference is looked up (the EU matches substrings,
 *    case-insensitively: only exact matches count); a statement that still stands (not
 *    REJECTED or WITHDRAWN) is returned, or refused with "If Already Filed: Fail";
 * 2. after a failure where the submission may have arrived (no answer, a timeout, a 5xx, a
 *    lost answer), the internal reference is looked up again before anything is said: a
 *    statement found is the one this run filed (its answer was lost); none found is an
 *    error saying so, and that running again is safe because the node checks first;
 * 3. a submission is never sent twice in one run (the transport never retries it).
 * The same for a Simplified Declaration (`SD_FILING`: submitSd, looked up by its mandatory
 * internal reference with getSdByInternalReference).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { euFailureOf } from '../transport/euFailure';
import { soapRequest } from '../transport/soapRequest';
import { AnswerShapeError, readSubmitAnswer } from './answers';
import { statementsByInternalReference } from './euReads';
import { declarationsByInternalReference } from './sdReads';
import type { StatementOverview } from './statement';
import {
	NUMBERS_NOT_YET,
	activeStatements,
	describeStatement,
	exactReferenceMatches,
	overviewOutput,
} from './statementOutput';

export type IfAlreadyFiled = 'returnExisting' | 'fail';

/** How the output statement came to be. */
export const FILED_BY = {
	now: 'this run',
	earlier: 'before this run',
	recovered: 'this run, answer lost',
} as const;

/** What is filed: the service, its submit operation, its lookup and its words. */
export interface Filing {
	service: 'dds' | 'sd';
	operation: 'submitDds' | 'submitSd';
	lookup: (
		ctx: IExecuteFunctions,
		internalReference: string,
		itemIndex: number,
	) => Promise<StatementOverview[]>;
	/** "statement" / "declaration", in messages. */
	noun: string;
	/** The operation that changes a filed one ("Amend" / "Update"). */
	change: string;
}

export const DDS_FILING: Filing = {
	service: 'dds',
	operation: 'submitDds',
	lookup: statementsByInternalReference,
	noun: 'statement',
	change: 'Amend',
};

export const SD_FILING: Filing = {
	service: 'sd',
	operation: 'submitSd',
	lookup: declarationsByInternalReference,
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
}

const filingOf = (o: SubmitOnce): Filing => o.filing ?? DDS_FILING;

async function standing(ctx: IExecuteFunctions, o: SubmitOnce): Promise<StatementOverview[]> {
	const found = await filingOf(o).lookup(ctx, o.internalReference, o.itemIndex);
	return activeStatements(exactReferenceMatches(found, o.internalReference));
}

function output(
	filing: Filing,
	overview: StatementOverview,
	simplify: boolean,
	filedBy: string,
): Record<string, unknown> {
	return { ...overviewOutput(overview, simplify, filing.service === 'sd'), filedBy };
}

/** Files the statement unless it stands already; returns the statement(s) to output. */
export async function submitOnce(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
): Promise<Array<Record<string, unknown>>> {
	const { service, operation, noun, change } = filingOf(o);
	const before = await standing(ctx, o);
	if (before.length > 0) {
		if (o.ifAlreadyFiled === 'fail')
			throw new NodeOperationError(
				ctx.getNode(),
				`A ${noun} with Internal Reference "${o.internalReference}" (${o.itemsLabel}) is already filed: ${before.map(describeStatement).join('; ')}`,
				{
					itemIndex: o.itemIndex,
					description: `Nothing was sent. To output the ${noun} already filed instead, set the option "If Already Filed" to "Return the Existing ${noun === 'statement' ? 'Statement' : 'Declaration'}"; to change it, use ${change} with its UUID; to file a new one, give another Internal Reference.`,
				},
			);
		return before.map((s) => output(filingOf(o), s, o.simplify, FILED_BY.earlier));
	}
	let failed: unknown;
	try {
		const ok = await soapRequest.call(ctx, {
			service,
			operation,
			body: o.body,
			idempotent: false,
			itemIndex: o.itemIndex,
		});
		const { uuid } = readSubmitAnswer(ok.element);
		const fresh: StatementOverview = {
			uuid,
			internalReferenceNumber: o.internalReference,
			referenceNumber: null,
			verificationNumber: null,
			status: 'SUBMITTED',
			rejectionReason: null,
			communicationToOperator: null,
			date: null,
			updatedBy: null,
			version: null,
		};
		const out = output(filingOf(o), fresh, o.simplify, FILED_BY.now);
		out.numbersNote = NUMBERS_NOT_YET;
		return [out];
	} catch (error) {
		failed = error;
	}
	// An answer we cannot read came from the service: the submission arrived.
	const mayHaveArrived = failed instanceof AnswerShapeError || euFailureOf(failed)?.mayHaveArrived;
	if (!mayHaveArrived) throw failed;
	return await recover(ctx, o, failed);
}

/** After a submission whose answer was lost: what the EU shows now decides what is said. */
async function recover(
	ctx: IExecuteFunctions,
	o: SubmitOnce,
	error: unknown,
): Promise<Array<Record<string, unknown>>> {
	const what = (error as { message?: string }).message ?? String(error);
	const { noun } = filingOf(o);
	let after: StatementOverview[];
	try {
		after = await standing(ctx, o);
	} catch {
		throw new NodeOperationError(
			ctx.getNode(),
			`The submission of ${noun} "${o.internalReference}" (${o.itemsLabel}) may have reached the EU Information System, but its answer was lost and the check that followed failed too`,
			{
				itemIndex: o.itemIndex,
				description: `${what} Whether the ${noun} was filed is not known. Running the workflow again is safe: the node looks up the Internal Reference before submitting and does not file it twice. Or look for "${o.internalReference}" in the EU Information System first.`,
			},
		);
	}
	if (after.length > 0)
		return after.map((s) => output(filingOf(o), s, o.simplify, FILED_BY.recovered));
	throw new NodeOperationError(
		ctx.getNode(),
		`The ${noun} "${o.internalReference}" (${o.itemsLabel}) was not filed: its submission got no answer, and the EU Information System shows no ${noun} with this Internal Reference now`,
		{
			itemIndex: o.itemIndex,
			description: `${what} As far as the EU Information System shows now, the submission did not arrive. Running the workflow again is safe: the node looks up the Internal Reference before submitting and does not file it twice.`,
		},
	);
}

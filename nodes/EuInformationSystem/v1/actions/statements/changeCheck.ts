/**
 * Before Amend or Withdraw (DDS), Update or Withdraw (SD): the statement as the EU shows it
 * now (a fresh getDds / getSd of its UUID), and the refusal the EU would certainly give (DDS:
 * grouped, status, activity type change; SD: grouped, status) said before anything is sent.
 * Left to the EU: a withdrawal of a SUBMITTED statement (withdrawn live, pack §12) and the 72
 * hours after submission (no answer carries the submission date: the overview's date is the
 * last update). When the EU refuses a change as no longer possible, its error says when the
 * statement was last updated (sentChange). And after the EU refused the change for its rate
 * limit (nothing was processed), the read that decides whether to send it again
 * (recheckRefusedChange).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { filedActivityType, statementsByUuid } from '../../../../shared/dds/euReads';
import { changeRefusal, windowNote } from '../../../../shared/dds/rules';
import { declarationsByUuid } from '../../../../shared/dds/sdReads';
import { sdChangeRefusal } from '../../../../shared/dds/sdRules';
import type { ActivityType, StatementOverview } from '../../../../shared/dds/statement';
import { describeStatement } from '../../../../shared/dds/statementOutput';
import { euFailureOf } from '../../../../shared/transport/euFailure';
import { normaliseEuCode } from '../../../../shared/transport/euFaultCodes';
import type { Recheck } from '../../../../shared/transport/euRefusal';
import type { SoapOk, SoapRequest } from '../../../../shared/transport/soapRequest';
import { soapRequest } from '../../../../shared/transport/soapRequest';

interface Check {
	uuid: string;
	itemIndex: number;
	verb: string;
	/** "statement" / "declaration", and its UUID field's label. */
	noun: string;
	label: string;
}

function notVisible(ctx: IExecuteFunctions, c: Check): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`No ${c.noun} with UUID ${c.uuid} is visible to this account in the EU Information System, so it cannot be ${c.verb}`,
		{
			itemIndex: c.itemIndex,
			description: `Nothing was sent. Check the ${c.label} (the uuid Submit output) and that the credential is the one of the operator that filed it.`,
		},
	);
}

function refused(
	ctx: IExecuteFunctions,
	c: Check,
	found: StatementOverview,
	refusal: string,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The ${c.noun} ${c.uuid} cannot be ${c.verb}: ${refusal}`,
		{
			itemIndex: c.itemIndex,
			description: `Nothing was sent. The ${c.noun}: ${describeStatement(found)}.`,
		},
	);
}

export async function checkedOverview(
	ctx: IExecuteFunctions,
	o: {
		action: 'amend' | 'withdraw';
		uuid: string;
		itemIndex: number;
		newActivityType?: ActivityType;
	},
): Promise<StatementOverview> {
	const found = (await statementsByUuid(ctx, [o.uuid], o.itemIndex)).find((s) => s.uuid === o.uuid);
	const verb = o.action === 'amend' ? 'amended' : 'withdrawn';
	const check: Check = { ...o, verb, noun: 'statement', label: 'Statement UUID' };
	if (!found) throw notVisible(ctx, check);
	// the activity type may not change on amend: the overview does not carry it, the content does
	const previous =
		o.action === 'amend' && o.newActivityType
			? await filedActivityType(ctx, found, o.itemIndex)
			: undefined;
	const refusal = changeRefusal({
		action: o.action,
		overview: found,
		newActivityType: o.newActivityType,
		previousActivityType: previous as ActivityType | undefined,
	});
	if (refusal) throw refused(ctx, check, found, refusal);
	return found;
}

/** The SD's check before Update or Withdraw: visible, AVAILABLE and not grouped. */
export async function checkedDeclaration(
	ctx: IExecuteFunctions,
	o: { action: 'update' | 'withdraw'; uuid: string; itemIndex: number },
): Promise<StatementOverview> {
	// the current version: the highest the EU lists (an unknown version counts as the lowest)
	const found = (await declarationsByUuid(ctx, [{ uuid: o.uuid }], o.itemIndex))
		.filter((s) => s.uuid === o.uuid)
		.sort((a, b) => (Number(b.version) || 0) - (Number(a.version) || 0))[0];
	const verb = o.action === 'update' ? 'updated' : 'withdrawn';
	const check: Check = { ...o, verb, noun: 'declaration', label: 'Declaration UUID' };
	if (!found) throw notVisible(ctx, check);
	const refusal = sdChangeRefusal({ action: o.action, overview: found });
	if (refusal) throw refused(ctx, check, found, refusal);
	return found;
}

/** The EU's codes for an amendment or a withdrawal no longer possible, or not in this status. */
const NOT_POSSIBLE = 'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE';
const NOT_FOR_STATUS = 'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS';

/** What the node knows that the EU's refusal of a change does not say, or undefined. */
function refusalNote(
	codes: string[],
	before: StatementOverview,
	noun: 'statement' | 'declaration',
): string | undefined {
	if (noun === 'statement' && codes.includes(NOT_POSSIBLE))
		return windowNote(before, new Date(Date.now()));
	if (codes.includes(NOT_FOR_STATUS) && before.status === 'SUBMITTED')
		return `The ${noun} was SUBMITTED when read just before: the EU Information System did not take its withdrawal before processing it. Wait until it is AVAILABLE (about 30 minutes after submitting), then run again.`;
	return undefined;
}

/**
 * Sends an Amend, an Update or a Withdraw of what was read before (`before`), never resent by
 * the transport (not idempotent); when the EU
 * refuses it, its error also says what the node knows: for a DDS no longer changeable, when
 * it was last updated (the EU gives no submission date, so the node never judges the 72 hours
 * itself); for a SUBMITTED one whose withdrawal is refused, to wait until it is AVAILABLE.
 */
export async function sentChange(
	ctx: IExecuteFunctions,
	before: StatementOverview,
	change: Omit<SoapRequest, 'idempotent'>,
	noun: 'statement' | 'declaration' = 'statement',
): Promise<SoapOk> {
	let failed: unknown;
	try {
		// a change is never resent blind: not idempotent
		return await soapRequest.call(ctx, { ...change, idempotent: false });
	} catch (error) {
		failed = error;
	}
	const codes = (euFailureOf(failed)?.errors ?? []).map((e) => normaliseEuCode(e.id));
	const note = refusalNote(codes, before, noun);
	if (note && failed instanceof NodeOperationError)
		failed.description = [failed.description, note].filter(Boolean).join(' ');
	throw failed;
}

/** The overview's version as a number (an unknown one is NaN). */
const versionOf = (o: StatementOverview) => (o.version === null ? NaN : Number(o.version));

/**
 * The statement as the EU shows it after an Amend or an Update, for the numbers it carries: a
 * fresh read of its UUID (`read`), kept when it shows the change (a higher version than
 * `before`'s, or versions that cannot be compared); otherwise, or when the read fails (the
 * change is done all the same), no overview and why. Never throws.
 */
export async function readAfterChange(
	read: () => Promise<StatementOverview[]>,
	before: StatementOverview,
): Promise<{ overview?: StatementOverview; why?: string }> {
	let found: StatementOverview | undefined;
	try {
		found = (await read())
			.filter((s) => s.uuid === before.uuid)
			.sort((a, b) => (versionOf(b) || 0) - (versionOf(a) || 0))[0];
	} catch (error) {
		return { why: `reading it again failed (${(error as Error).message ?? String(error)})` };
	}
	if (!found) return { why: 'the EU did not list it when read again' };
	if (versionOf(found) <= versionOf(before))
		return { why: `the EU still showed version ${found.version} when read again` };
	return { overview: found };
}

/**
 * After the EU refused a change for its rate limit (HTTP 429 or its throttling fault: nothing
 * was processed; euRefusal.ts sends it again only after this): the statement read again.
 * - Withdraw: WITHDRAWN now (withdrawn meanwhile, e.g. by another run) → nothing is sent again;
 *   `done` (Withdraw's) gives the answer from the statement as the EU shows it.
 * - Amend / Update replace the whole statement with this run's: sent again only if the
 *   statement is still the version this run read before sending (when the EU gives versions:
 *   the SD always); a new version meanwhile → refused, so that this run's change never lands
 *   blindly over another's. (The last-update date is no sign: the EU's own processing, e.g.
 *   SUBMITTED → AVAILABLE, moves it.) Without versions, sending the same whole statement again
 *   gives what one amendment would have given: the refused one changed nothing.
 * - Then every check before a change again (visible, status, grouped), on a new read.
 */
export async function recheckRefusedChange<T>(
	ctx: IExecuteFunctions,
	o: {
		kind: 'dds' | 'sd';
		action: 'amend' | 'update' | 'withdraw';
		uuid: string;
		itemIndex: number;
		before: StatementOverview;
	},
	done?: (now: StatementOverview) => T,
): Promise<Recheck<T>> {
	const dds = o.kind === 'dds';
	const read = dds
		? await statementsByUuid(ctx, [o.uuid], o.itemIndex)
		: await declarationsByUuid(ctx, [{ uuid: o.uuid }], o.itemIndex);
	const now = read
		.filter((s) => s.uuid === o.uuid)
		.sort((a, b) => (Number(b.version) || 0) - (Number(a.version) || 0))[0];
	if (done && now && o.action === 'withdraw' && now.status === 'WITHDRAWN')
		return { done: done(now) };
	const noun = dds ? 'statement' : 'declaration';
	const change = o.action === 'amend' ? 'amendment' : o.action;
	if (
		now &&
		o.action !== 'withdraw' &&
		now.version !== null &&
		o.before.version !== null &&
		String(now.version) !== String(o.before.version)
	)
		throw new NodeOperationError(
			ctx.getNode(),
			`The ${noun} ${o.uuid} changed while this ${change} waited: the EU Information System had refused the ${change} for its limit of calls a second (nothing was changed then), and the ${change} was not sent again`,
			{
				itemIndex: o.itemIndex,
				description: `When this run read it: version ${o.before.version}; now: version ${now.version} (${describeStatement(now)}). Someone changed the ${noun} in the meantime; get it to see what changed, then run ${o.action === 'amend' ? 'Amend' : 'Update'} again if your change is still needed.`,
			},
		);
	if (dds)
		await checkedOverview(ctx, {
			action: o.action as 'amend' | 'withdraw',
			uuid: o.uuid,
			itemIndex: o.itemIndex,
		});
	else
		await checkedDeclaration(ctx, {
			action: o.action as 'update' | 'withdraw',
			uuid: o.uuid,
			itemIndex: o.itemIndex,
		});
	return { resend: true };
}

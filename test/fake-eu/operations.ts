/** The six operations of EUDRDueDiligenceStatementServiceV3 on the fake's store [W-DDS], [OPREF §4.1, §5.1]. */
import type { FaultError } from './faults';
import { EuFault, businessFault, notFoundFault } from './faults';
import { statementRuleErrors } from './rules';
import type { FakeEuUser } from './security';
import type { FakeStatement, Store } from './store';
import { AMEND_WINDOW_MS, groupedReferences, newUuid, storedStatement } from './store';
import type { El } from './xml';
import { COMMON_NS, DDS_NS, escapeText, kid, kidText, kids } from './xml';

export interface OperationOptions {
	/** getDds: unknown UUIDs answered with a NotFoundException instead of being omitted. */
	notFoundFaultOnGet: boolean;
	/** getDdsByInternalReference: no match answered with a NotFoundException instead of an empty list. */
	notFoundFaultOnEmptySearch: boolean;
	/** A rejection reason for a submitted/amended statement, or undefined to make it AVAILABLE. */
	reject: (o: {
		statementXml: string;
		comment: string;
		internalReference: string;
	}) => string | undefined;
}

export interface OperationContext {
	user: FakeEuUser;
	now: number;
	store: Store;
	options: OperationOptions;
}

const NS = `xmlns:ns5="${DDS_NS}" xmlns:ns3="${COMMON_NS}"`;
const t = (name: string, value: string, prefix = 'ns5') =>
	`<${prefix}:${name}>${escapeText(value)}</${prefix}:${name}>`;

export const OPERATIONS: Record<
	string,
	{ request: string; run: (el: El, ctx: OperationContext) => string }
> = {
	submitDds: { request: 'SubmitDdsRequest', run: submit },
	amendDds: { request: 'AmendDdsRequest', run: amend },
	withdrawDds: { request: 'WithdrawDdsRequest', run: withdraw },
	getDds: { request: 'GetDdsRequest', run: getDds },
	getDdsByInternalReference: {
		request: 'GetDdsByInternalReferenceRequest',
		run: getByInternalReference,
	},
	getDdsByIdentifiers: { request: 'GetDdsByIdentifiersRequest', run: getByIdentifiers },
};

function checkGroups(
	statement: El,
	ctx: OperationContext,
	self?: FakeStatement,
): { refs: string[]; errors: FaultError[] } {
	const refs = groupedReferences(statement);
	const errors: FaultError[] = [];
	refs.forEach((ref, i) => {
		const target = ctx.store.byReference(ref, ctx.now);
		if (!target || target.status !== 'AVAILABLE' || (self && target.uuid === self.uuid))
			errors.push({
				id: 'EUDR_REFERENCED_STATEMENT_NOT_FOUND',
				message: `Referenced statement ${ref} was not found or is not AVAILABLE`,
				field: `groupedDeclarations[${i + 1}].groupedDeclaration`,
			});
	});
	return { refs, errors };
}

function applyGroups(owner: FakeStatement, refs: string[], ctx: OperationContext): void {
	for (const ref of refs) {
		const target = ctx.store.byReference(ref, ctx.now);
		if (target) {
			target.status = 'GROUPED';
			target.groupedBy = owner.uuid;
			target.updatedAt = ctx.now;
		}
	}
	owner.groups = refs;
}

function releaseGroups(owner: FakeStatement, ctx: OperationContext): void {
	for (const s of ctx.store.list(ctx.now))
		if (s.groupedBy === owner.uuid) {
			s.groupedBy = null;
			s.status = 'AVAILABLE';
			s.updatedAt = ctx.now;
		}
	owner.groups = [];
}

function rejectionOf(statement: El, xml: string, ctx: OperationContext): string | null {
	return (
		ctx.options.reject({
			statementXml: xml,
			comment: kidText(statement, DDS_NS, 'comment') ?? '',
			internalReference: kidText(statement, DDS_NS, 'internalReferenceNumber') ?? '',
		}) ?? null
	);
}

function submit(el: El, ctx: OperationContext): string {
	const role = (kidText(el, DDS_NS, 'operatorRole') ?? '').trim();
	const statement = kid(el, DDS_NS, 'statement') as El;
	const groups = checkGroups(statement, ctx);
	const errors = [...statementRuleErrors(statement, role, ctx.user), ...groups.errors];
	if (errors.length) throw businessFault(errors);
	const xml = storedStatement(statement);
	const s: FakeStatement = {
		uuid: newUuid(),
		kind: 'dds',
		operator: ctx.user.operator.name,
		submittedBy: ctx.user.username,
		role,
		internalReferenceNumber: (kidText(statement, DDS_NS, 'internalReferenceNumber') ?? '').trim(),
		activityType: (kidText(statement, DDS_NS, 'activityType') ?? '').trim(),
		status: 'SUBMITTED',
		referenceNumber: null,
		verificationNumber: null,
		rejectionReason: null,
		submittedAt: ctx.now,
		updatedAt: ctx.now,
		version: 1,
		groups: [],
		groupedBy: null,
		xml,
		pendingRejection: null,
		communication: null,
	};
	s.pendingRejection = rejectionOf(statement, xml, ctx);
	ctx.store.add(s);
	applyGroups(s, groups.refs, ctx);
	return `<ns5:SubmitDdsResponse ${NS}>${t('uuid', s.uuid)}</ns5:SubmitDdsResponse>`;
}

/** The amend/withdraw refusals of README §7 (CF5/CF6 §6.3), in the order they are checked. */
function changeRefusal(
	action: 'amend' | 'withdraw',
	s: FakeStatement | undefined,
	ctx: OperationContext,
): FaultError | undefined {
	if (!s) return { id: 'EUDR_API_NO_DDS', message: 'No statement with this UUID', field: 'uuid' };
	if (s.status === 'GROUPED' || s.groupedBy)
		return {
			id: 'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
			message: 'The statement is referenced by another declaration',
			field: 'uuid',
		};
	if (s.status !== 'AVAILABLE')
		return action === 'amend'
			? {
					id: 'EUDR_API_AMEND_NOT_ALLOWED_FOR_STATUS',
					message: `Amend is not allowed for status ${s.status}`,
					field: 'uuid',
				}
			: {
					id: 'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
					message: `Withdraw is not allowed for status ${s.status}`,
					field: 'uuid',
				};
	if (ctx.now > s.submittedAt + AMEND_WINDOW_MS)
		return {
			id: 'EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE',
			message: 'The 72-hour window after submission has passed',
			field: 'uuid',
		};
	return undefined;
}

function amend(el: El, ctx: OperationContext): string {
	const uuid = (kidText(el, DDS_NS, 'uuid') ?? '').trim();
	const statement = kid(el, DDS_NS, 'statement') as El;
	const s = ctx.store.byUuid(uuid, ctx.user.operator.name, ctx.now);
	const refusal = changeRefusal('amend', s, ctx);
	if (refusal || !s) throw businessFault([refusal as FaultError]);
	const activity = (kidText(statement, DDS_NS, 'activityType') ?? '').trim();
	const errors: FaultError[] = [];
	if (activity !== s.activityType)
		errors.push({
			id: 'EUDR_API_AMEND_ACTIVITY_TYPE_CHANGE_NOT_ALLOWED',
			message: `The activity type cannot change from ${s.activityType}`,
			field: 'statement.activityType',
		});
	const groups = checkGroups(statement, ctx, s);
	errors.push(...statementRuleErrors(statement, s.role, ctx.user), ...groups.errors);
	if (errors.length) throw businessFault(errors);
	releaseGroups(s, ctx);
	s.xml = storedStatement(statement);
	s.internalReferenceNumber = (kidText(statement, DDS_NS, 'internalReferenceNumber') ?? '').trim();
	s.version += 1;
	s.updatedAt = ctx.now;
	const rejection = rejectionOf(statement, s.xml, ctx);
	if (rejection) {
		s.status = 'REJECTED';
		s.rejectionReason = rejection;
	}
	applyGroups(s, groups.refs, ctx);
	return `<ns5:AmendDdsResponse ${NS}>${t('uuid', s.uuid)}${t('status', s.status)}</ns5:AmendDdsResponse>`;
}

function withdraw(el: El, ctx: OperationContext): string {
	const uuid = (kidText(el, DDS_NS, 'uuid') ?? '').trim();
	const s = ctx.store.byUuid(uuid, ctx.user.operator.name, ctx.now);
	const refusal = changeRefusal('withdraw', s, ctx);
	if (refusal || !s) throw businessFault([refusal as FaultError]);
	releaseGroups(s, ctx);
	s.status = 'WITHDRAWN';
	s.updatedAt = ctx.now;
	return `<ns5:WithdrawDdsResponse ${NS}>${t('uuid', s.uuid)}${t('status', s.status)}</ns5:WithdrawDdsResponse>`;
}

export function overview(s: FakeStatement): string {
	return (
		'<ns5:ddsOverviewList>' +
		t('uuid', s.uuid, 'ns3') +
		t('internalReferenceNumber', s.internalReferenceNumber, 'ns3') +
		(s.referenceNumber ? t('referenceNumber', s.referenceNumber, 'ns3') : '') +
		(s.verificationNumber ? t('verificationNumber', s.verificationNumber, 'ns3') : '') +
		t('status', s.status, 'ns3') +
		(s.rejectionReason ? t('rejectionReason', s.rejectionReason.slice(0, 1000), 'ns3') : '') +
		(s.communication
			? '<ns3:communicationToOperator>' +
				t('date', new Date(s.communication.date).toISOString(), 'ns3') +
				t('content', s.communication.content, 'ns3') +
				'</ns3:communicationToOperator>'
			: '') +
		t('date', new Date(s.updatedAt).toISOString(), 'ns3') +
		t('updatedBy', s.submittedBy, 'ns3') +
		t('version', String(s.version), 'ns3') +
		'</ns5:ddsOverviewList>'
	);
}

function getDds(el: El, ctx: OperationContext): string {
	const uuids = kids(el, DDS_NS, 'uuidList').map((u) => (u.textContent ?? '').trim());
	const found = uuids
		.map((u) => ctx.store.byUuid(u, ctx.user.operator.name, ctx.now))
		.filter((s): s is FakeStatement => s !== undefined);
	if (ctx.options.notFoundFaultOnGet && found.length < uuids.length)
		throw notFoundFault(
			uuids
				.filter((u) => !found.some((s) => s.uuid === u.toLowerCase()))
				.map((u) => ({
					id: 'EUDR_WEBSERVICE_STATEMENT_NOT_FOUND',
					message: `Statement ${u} not found`,
					field: 'uuidList',
				})),
		);
	return `<ns5:GetDdsResponse ${NS}>${found.map(overview).join('')}</ns5:GetDdsResponse>`;
}

export const MAX_SEARCH_RESULTS = 100;

function getByInternalReference(el: El, ctx: OperationContext): string {
	const wanted = (kidText(el, DDS_NS, 'internalReference') ?? '').trim().toLowerCase();
	const found = ctx.store
		.list(ctx.now)
		.filter(
			(s) =>
				s.operator === ctx.user.operator.name &&
				wanted !== '' &&
				s.internalReferenceNumber.toLowerCase().includes(wanted),
		)
		.slice(0, MAX_SEARCH_RESULTS);
	if (found.length === 0 && ctx.options.notFoundFaultOnEmptySearch)
		throw notFoundFault([
			{
				id: 'EUDR_WEBSERVICE_STATEMENT_NOT_FOUND',
				message: 'No statement has this internal reference',
				field: 'internalReference',
			},
		]);
	return `<ns5:GetDdsByInternalReferenceResponse ${NS}>${found.map(overview).join('')}</ns5:GetDdsByInternalReferenceResponse>`;
}

function getByIdentifiers(el: El, ctx: OperationContext): string {
	if (ctx.user.operator.sme)
		throw new EuFault('PermissionDeniedException', 'Permission denied', [
			{
				id: 'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
				message: 'Retrieval by reference and verification number is for non-SME operators only',
				field: null,
			},
		]);
	const pair = kid(el, DDS_NS, 'referenceAndVerificationNumber');
	const ref = (kidText(pair, COMMON_NS, 'referenceNumber') ?? '').trim();
	const ver = (kidText(pair, COMMON_NS, 'verificationNumber') ?? '').trim();
	const errors: FaultError[] = [];
	if (!ref)
		errors.push({
			id: 'EUDR_NUMBER_EMPTY',
			message: 'The reference number is empty',
			field: 'referenceNumber',
		});
	else if (!/^[A-Z0-9]{14}$/.test(ref))
		errors.push({
			id: 'EUDR_REFERENCE_NUMBER_INVALID',
			message: 'The reference number is invalid',
			field: 'referenceNumber',
		});
	if (!ver)
		errors.push({
			id: 'EUDR_NUMBER_EMPTY',
			message: 'The verification number is empty',
			field: 'verificationNumber',
		});
	else if (ver.length > 35)
		errors.push({
			id: 'EUDR_VERIFICATION_NUMBER_TOO_LONG',
			message: 'The verification number is too long',
			field: 'verificationNumber',
		});
	else if (!/^[A-Z0-9]+$/.test(ver))
		errors.push({
			id: 'EUDR_VERIFICATION_NUMBER_INVALID',
			message: 'The verification number is invalid',
			field: 'verificationNumber',
		});
	if (errors.length) throw businessFault(errors);
	const s = ctx.store.byReference(ref, ctx.now);
	if (!s || s.verificationNumber !== ver || !['AVAILABLE', 'ARCHIVED'].includes(s.status))
		throw notFoundFault([
			{
				id: 'EUDR_WEBSERVICE_STATEMENT_NOT_FOUND',
				message: 'No available statement has these numbers',
				field: 'referenceNumber',
			},
		]);
	const inner = s.xml.replace(/^<([A-Za-z0-9_.-]+:)?statement\b/, '<$1statement');
	return `<ns5:GetDdsByIdentifiersResponse ${NS}>${inner}</ns5:GetDdsByIdentifiersResponse>`;
}

/** The operation's answer body, or the fault it raised (any other error propagates). */
export function runOperation(operation: string, el: El, ctx: OperationContext): string | EuFault {
	let answer: string | EuFault;
	try {
		answer = OPERATIONS[operation].run(el, ctx);
	} catch (error) {
		if (!(error instanceof EuFault))
			answer = new EuFault(null, `Internal error of the fake: ${String(error)}`, [], 'S:Server');
		else answer = error;
	}
	return answer;
}

/**
 * The six operations of EUDRDueDiligenceStatementServiceV3 on the fake's store [W-DDS],
 * [OPREF §4.1, §5.1], and the pieces the SD service (sd.ts) shares with them: grouping, the
 * reject rule, the amend/withdraw refusals, the searches, overviews.
 */
import type { FaultError } from './faults';
import { EuFault, businessFault, notFoundFault } from './faults';
import { statementRuleErrors } from './rules';
import type { FakeEuUser } from './security';
import type { FakeStatement, StatementKind, Store } from './store';
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
	/** verifyDeclaration: the statuses answered EXISTING_USABLE (default ['AVAILABLE']). */
	usableStatuses: string[];
	/** Lagging lookups (pack §12): changed in place by `setLookupLag` and the control API. */
	lookupLag: LookupLag;
}

/**
 * Lagging lookups, as seen live on V3 acceptance (pack README §12: getDds and
 * getDdsByInternalReference answered an empty list right after a submission): a statement is
 * left out of the answers of getDds, getDdsByInternalReference, getSd and
 * getSdByInternalReference for its first `lookups` lookups (every lookup that would have
 * listed it counts, from its submission on, whether the switch was on or not) or while the
 * lifecycle clock is less than `ms` after its submission. 0 and 0: no lag (the default).
 */
export interface LookupLag {
	lookups: number;
	ms: number;
	/** Lookups that would have listed each statement so far (by uuid). */
	seen: Map<string, number>;
}

export function newLookupLag(lookups = 0, ms = 0): LookupLag {
	return { lookups, ms, seen: new Map() };
}

/** Whether this lookup leaves the statement out (and counts the lookup). */
export function lagging(s: FakeStatement, ctx: OperationContext): boolean {
	const lag = ctx.options.lookupLag;
	const n = lag.seen.get(s.uuid) ?? 0;
	lag.seen.set(s.uuid, n + 1);
	return n < lag.lookups || ctx.now < s.submittedAt + lag.ms;
}

export interface OperationContext {
	user: FakeEuUser;
	now: number;
	store: Store;
	options: OperationOptions;
}

/** One operation of a service: its request element, its SOAPAction (as the WSDL binds it), its work. */
export interface Operation {
	request: string;
	action: string;
	run: (el: El, ctx: OperationContext) => string;
}

const NS = `xmlns:ns5="${DDS_NS}" xmlns:ns3="${COMMON_NS}"`;
export const t = (name: string, value: string, prefix = 'ns5') =>
	`<${prefix}:${name}>${escapeText(value)}</${prefix}:${name}>`;

const dds = (request: string, run: Operation['run'], operation: string): Operation => ({
	request,
	action: `${DDS_NS}/${operation}`,
	run,
});

export const DDS_OPERATIONS: Record<string, Operation> = {
	submitDds: dds('SubmitDdsRequest', submit, 'submitDds'),
	amendDds: dds('AmendDdsRequest', amend, 'amendDds'),
	withdrawDds: dds('WithdrawDdsRequest', withdraw, 'withdrawDds'),
	getDds: dds('GetDdsRequest', getDds, 'getDds'),
	getDdsByInternalReference: dds(
		'GetDdsByInternalReferenceRequest',
		getByInternalReference,
		'getDdsByInternalReference',
	),
	getDdsByIdentifiers: dds('GetDdsByIdentifiersRequest', getByIdentifiers, 'getDdsByIdentifiers'),
};

/**
 * The grouped references must be AVAILABLE statements, not the statement itself; a DDS may
 * group DDS and SD, an SD only SD (`only: 'sd'`, pack §6 [W-SD]).
 */
export function checkGroups(
	statement: El,
	ctx: OperationContext,
	self?: FakeStatement,
	ns = DDS_NS,
	only?: StatementKind,
): { refs: string[]; errors: FaultError[] } {
	const refs = groupedReferences(statement, ns);
	const errors: FaultError[] = [];
	refs.forEach((ref, i) => {
		const target = ctx.store.byReference(ref, ctx.now);
		const field = `groupedDeclarations[${i + 1}].groupedDeclaration`;
		if (target && only && target.kind !== only)
			errors.push({
				id: 'EUDR_REFERENCED_STATEMENT_NOT_FOUND',
				message: `Referenced statement ${ref} is a due diligence statement: a simplified declaration may group simplified declarations only`,
				field,
			});
		else if (!target || target.status !== 'AVAILABLE' || (self && target.uuid === self.uuid))
			errors.push({
				id: 'EUDR_REFERENCED_STATEMENT_NOT_FOUND',
				message: `Referenced statement ${ref} was not found or is not AVAILABLE`,
				field,
			});
	});
	return { refs, errors };
}

export function applyGroups(owner: FakeStatement, refs: string[], ctx: OperationContext): void {
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

export function releaseGroups(owner: FakeStatement, ctx: OperationContext): void {
	for (const s of ctx.store.list(ctx.now))
		if (s.groupedBy === owner.uuid) {
			s.groupedBy = null;
			s.status = 'AVAILABLE';
			s.updatedAt = ctx.now;
		}
	owner.groups = [];
}

export function rejectionOf(
	statement: El,
	xml: string,
	ctx: OperationContext,
	ns = DDS_NS,
): string | null {
	return (
		ctx.options.reject({
			statementXml: xml,
			comment: kidText(statement, ns, 'comment') ?? '',
			internalReference: kidText(statement, ns, 'internalReferenceNumber') ?? '',
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
		history: [],
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

/**
 * The amend/withdraw refusals of README §7 (CF5/CF6 §6.3), in the order they are checked; the
 * 72-hour window is the DDS's only (`window: false` for SD, pack §5).
 */
export function changeRefusal(
	action: 'amend' | 'withdraw',
	s: FakeStatement | undefined,
	ctx: OperationContext,
	window = true,
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
	if (window && ctx.now > s.submittedAt + AMEND_WINDOW_MS)
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

/**
 * One OverviewType entry (prefix ns5 = the response's service namespace, ns3 = common). `old`:
 * a superseded version, answered with its own reference, date and version and the status
 * OBSOLETE ("superseded declaration" [OPREF §6.1.5]; our reading, pack §5 UNCERTAIN).
 */
export function overview(
	s: FakeStatement,
	list = 'ddsOverviewList',
	old?: FakeStatement['history'][number],
): string {
	if (old)
		return (
			`<ns5:${list}>` +
			t('uuid', s.uuid, 'ns3') +
			t('internalReferenceNumber', old.internalReferenceNumber, 'ns3') +
			(s.referenceNumber ? t('referenceNumber', s.referenceNumber, 'ns3') : '') +
			(s.verificationNumber ? t('verificationNumber', s.verificationNumber, 'ns3') : '') +
			t('status', 'OBSOLETE', 'ns3') +
			t('date', new Date(old.updatedAt).toISOString(), 'ns3') +
			t('updatedBy', s.submittedBy, 'ns3') +
			t('version', String(old.version), 'ns3') +
			`</ns5:${list}>`
		);
	return (
		`<ns5:${list}>` +
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
		`</ns5:${list}>`
	);
}

function getDds(el: El, ctx: OperationContext): string {
	const uuids = kids(el, DDS_NS, 'uuidList').map((u) => (u.textContent ?? '').trim());
	const found = uuids
		.map((u) => ctx.store.byUuid(u, ctx.user.operator.name, ctx.now, 'dds'))
		.filter((s): s is FakeStatement => s !== undefined && !lagging(s, ctx));
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
	return `<ns5:GetDdsResponse ${NS}>${found.map((s) => overview(s)).join('')}</ns5:GetDdsResponse>`;
}

export const MAX_SEARCH_RESULTS = 100;

/** The operator's statements of this kind whose internal reference contains the search (case-insensitive, ≤ 100). */
export function searchByInternalReference(
	el: El,
	ctx: OperationContext,
	ns: string,
	kind: StatementKind,
): FakeStatement[] {
	const wanted = (kidText(el, ns, 'internalReference') ?? '').trim().toLowerCase();
	const found = ctx.store
		.list(ctx.now)
		.filter(
			(s) =>
				s.kind === kind &&
				s.operator === ctx.user.operator.name &&
				wanted !== '' &&
				s.internalReferenceNumber.toLowerCase().includes(wanted),
		)
		.filter((s) => !lagging(s, ctx))
		.slice(0, MAX_SEARCH_RESULTS);
	if (found.length === 0 && ctx.options.notFoundFaultOnEmptySearch)
		throw notFoundFault([
			{
				id: 'EUDR_WEBSERVICE_STATEMENT_NOT_FOUND',
				message: 'No statement has this internal reference',
				field: 'internalReference',
			},
		]);
	return found;
}

function getByInternalReference(el: El, ctx: OperationContext): string {
	const found = searchByInternalReference(el, ctx, DDS_NS, 'dds');
	return `<ns5:GetDdsByInternalReferenceResponse ${NS}>${found.map((s) => overview(s)).join('')}</ns5:GetDdsByInternalReferenceResponse>`;
}

/**
 * The full-content lookup of getDdsByIdentifiers / getSdByIdentifiers: non-SME operators only
 * (pack §9), the number checks of CF7, and only AVAILABLE or ARCHIVED statements (pack §5).
 */
export function identifiersLookup(
	el: El,
	ctx: OperationContext,
	ns: string,
	kind: StatementKind,
): FakeStatement {
	if (ctx.user.operator.sme)
		throw new EuFault('PermissionDeniedException', 'Permission denied', [
			{
				id: 'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
				message: 'Retrieval by reference and verification number is for non-SME operators only',
				field: null,
			},
		]);
	const pair = kid(el, ns, 'referenceAndVerificationNumber');
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
	const s = ctx.store.byReference(ref, ctx.now, kind);
	if (!s || s.verificationNumber !== ver || !['AVAILABLE', 'ARCHIVED'].includes(s.status))
		throw notFoundFault([
			{
				id: 'EUDR_WEBSERVICE_STATEMENT_NOT_FOUND',
				message: 'No available statement has these numbers',
				field: 'referenceNumber',
			},
		]);
	return s;
}

function getByIdentifiers(el: El, ctx: OperationContext): string {
	const s = identifiersLookup(el, ctx, DDS_NS, 'dds');
	return `<ns5:GetDdsByIdentifiersResponse ${NS}>${s.xml}</ns5:GetDdsByIdentifiersResponse>`;
}

/** The operation's answer body, or the fault it raised (any other error propagates). */
export function runOperation(
	operation: Operation,
	el: El,
	ctx: OperationContext,
): string | EuFault {
	let answer: string | EuFault;
	try {
		answer = operation.run(el, ctx);
	} catch (error) {
		if (!(error instanceof EuFault))
			answer = new EuFault(null, `Internal error of the fake: ${String(error)}`, [], 'S:Server');
		else answer = error;
	}
	return answer;
}

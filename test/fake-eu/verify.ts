/**
 * verifyDeclaration of EUDRVerifyDeclarationServiceV3 [W-V], [X-V], [DSREF §4.1, §5.1] (pack
 * README §4.3, §9): a DDS or an SD found by reference number and verification number, any
 * operator's. EXISTING_USABLE (with its status) when its status is usable, EXISTING_NON_USABLE
 * with the status otherwise, NON_EXISTENT (HTTP 200, no status) when nothing matches — also
 * when the verification number differs, or the statement has no numbers yet (SUBMITTED).
 * `dateTime` is the lifecycle clock's now (the samples give the same value for all three
 * outcomes, NON_EXISTENT included: the time of the check).
 *
 * Which statuses are usable is UNCERTAIN in the pack (§4.3): the fake's default is AVAILABLE
 * only (the samples: AVAILABLE usable; WITHDRAWN, REJECTED, SUSPENDED not); ARCHIVED, GROUPED
 * and every other status are EXISTING_NON_USABLE. Option `verifyUsableStatuses` changes it.
 */
import type { FaultError } from './faults';
import { EuFault, businessFault } from './faults';
import type { Operation, OperationContext } from './operations';
import { t } from './operations';
import type { El } from './xml';
import { VERIFY_ACTION, VERIFY_NS, kidText } from './xml';

export const DEFAULT_USABLE_STATUSES = ['AVAILABLE'];

export const VERIFY_OPERATIONS: Record<string, Operation> = {
	verifyDeclaration: {
		request: 'VerifyDeclarationRequest',
		action: VERIFY_ACTION,
		run: verifyDeclaration,
	},
};

function verifyDeclaration(el: El, ctx: OperationContext): string {
	if (ctx.user.operator.mayVerify === false)
		throw new EuFault('PermissionDeniedException', 'Permission denied', [
			{
				id: 'EUDR_WEBSERVICE_USER_ACTIVITY_NOT_ALLOWED',
				message: 'The user may not verify declarations',
				field: null,
			},
		]);
	const ref = (kidText(el, VERIFY_NS, 'referenceNumber') ?? '').trim();
	const ver = (kidText(el, VERIFY_NS, 'verificationNumber') ?? '').trim();
	const errors: FaultError[] = [];
	// the XSD bounds the lengths (≤ 14; 5–35); the business check is the reference's format
	// ("Reference number format is invalid", [DSREF §5.1.5]): 14 upper-case letters or digits,
	// as the EU's reference numbers (DDS `26BE7XTVCZAQ2S`, SD `S26FRNMNBSA96Q`). The
	// verification number has no format check (the EU's own sample is `VN-2025-ABC12`).
	if (!ref)
		errors.push({
			id: 'EUDR_NUMBER_EMPTY',
			message: 'The reference number is empty',
			field: 'referenceNumber',
		});
	else if (!/^[A-Z0-9]{14}$/.test(ref))
		errors.push({
			id: 'EUDR_REFERENCE_NUMBER_INVALID',
			message: 'Reference number format is invalid',
			field: 'referenceNumber',
		});
	if (!ver)
		errors.push({
			id: 'EUDR_NUMBER_EMPTY',
			message: 'The verification number is empty',
			field: 'verificationNumber',
		});
	if (errors.length) throw businessFault(errors);
	const s = ctx.store.byReference(ref, ctx.now);
	const dateTime = t('dateTime', new Date(ctx.now).toISOString(), 'verify');
	const open = `<verify:VerifyDeclarationResponse xmlns:verify="${VERIFY_NS}">`;
	const close = '</verify:VerifyDeclarationResponse>';
	if (!s || s.verificationNumber !== ver)
		return `${open}${t('result', 'NON_EXISTENT', 'verify')}${dateTime}${close}`;
	const usable = ctx.options.usableStatuses.includes(s.status);
	return (
		open +
		t('result', usable ? 'EXISTING_USABLE' : 'EXISTING_NON_USABLE', 'verify') +
		t('status', s.status, 'verify') +
		dateTime +
		close
	);
}

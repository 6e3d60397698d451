/**
 * The Verify Declaration service V3 (pack §4.3): does a reference number with its verification
 * number name a statement (DDS or SD) that can be used? One request element, its answer read
 * tolerantly (unknown results and statuses passed through), the XSD's facets checked before
 * anything is sent, and the answer said in plain words. Pure: no n8n imports.
 *
 * NON_EXISTENT is an answer (HTTP 200, no status), not an error [DSREF §5.1.4]: the caller
 * outputs it like the others. Which statuses the EU counts as usable is UNCERTAIN (pack §4.3):
 * `usable` follows the EU's `result` only, never our guess from the status.
 */
import { xmlTextProblem } from '../input/text';
import { escapeXml } from '../soap/escape';
import type { XmlElement } from '../soap/xmlElement';
import { AnswerShapeError } from './answers';

export const VERIFY_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/verify-declaration/v3';

/** ReferenceNumberType (common schema): at most 14 characters. */
export const MAX_REFERENCE_NUMBER = 14;
/** VerificationNumberType (common schema): 5 to 35 characters. */
export const MIN_VERIFICATION_NUMBER = 5;
export const MAX_VERIFICATION_NUMBER = 35;

/** VerifyResultType; any other value the EU sends is passed through. */
export const VERIFY_RESULTS = ['EXISTING_USABLE', 'EXISTING_NON_USABLE', 'NON_EXISTENT'] as const;

export interface VerifyAnswer {
	/** The EU's result, as sent (an unknown value unchanged). */
	result: string;
	/** The statement's status, when the EU gives one (never for NON_EXISTENT). */
	status: string | null;
	/** When the EU checked (xs:dateTime as sent), or null when the answer lacks it. */
	dateTime: string | null;
}

/** The VerifyDeclarationRequest element, with its own namespace declaration (XSD order). */
export function verifyDeclarationBody(referenceNumber: string, verificationNumber: string): string {
	const v = (name: string, text: string) => `<v:${name}>${escapeXml(text)}</v:${name}>`;
	return (
		`<v:VerifyDeclarationRequest xmlns:v="${VERIFY_NS}">` +
		v('referenceNumber', referenceNumber) +
		v('verificationNumber', verificationNumber) +
		'</v:VerifyDeclarationRequest>'
	);
}

function textOf(el: XmlElement, name: string): string | null {
	const c = el.children.find((x) => x.name === name);
	const text = c ? c.text.trim() : '';
	return text === '' ? null : text;
}

/**
 * VerifyDeclarationResponse, children matched by local name in any namespace; without a
 * result (mandatory) it is AnswerShapeError (the caller names the operation).
 */
export function readVerifyAnswer(el: XmlElement): VerifyAnswer {
	const result = textOf(el, 'result');
	if (result === null)
		throw new AnswerShapeError(`the answer (${el.name}) has no verification result (result)`);
	return { result, status: textOf(el, 'status'), dateTime: textOf(el, 'dateTime') };
}

/** What is wrong with a reference number before sending it, or undefined. */
export function referenceNumberProblem(referenceNumber: string): string | undefined {
	const badChar = xmlTextProblem(referenceNumber);
	if (badChar) return `${badChar}.`;
	const length = [...referenceNumber].length;
	if (length > MAX_REFERENCE_NUMBER)
		return `"${referenceNumber}" has ${length} characters; a reference number has at most ${MAX_REFERENCE_NUMBER} (e.g. 25NLSN6LX69730). Check that the reference number, not the verification number or the internal reference, is mapped here.`;
	return undefined;
}

/** What is wrong with a verification number before sending it, or undefined. */
export function verificationNumberProblem(verificationNumber: string): string | undefined {
	const badChar = xmlTextProblem(verificationNumber);
	if (badChar) return `${badChar}.`;
	const length = [...verificationNumber].length;
	if (length < MIN_VERIFICATION_NUMBER || length > MAX_VERIFICATION_NUMBER)
		return `"${verificationNumber}" has ${length} characters; a verification number has ${MIN_VERIFICATION_NUMBER} to ${MAX_VERIFICATION_NUMBER} (e.g. K7R8LA90). Check the number the supplier gave with the reference number.`;
	return undefined;
}

/** true when the EU says usable, false when it says not usable or not found, null when unknown. */
export function usableOf(result: string): boolean | null {
	if (result === 'EXISTING_USABLE') return true;
	if (result === 'EXISTING_NON_USABLE' || result === 'NON_EXISTENT') return false;
	return null;
}

/**
 * Why a status makes a statement not usable, in a few plain words (unknown: nothing added). A
 * Map: the status is the EU's text, so `constructor` or `__proto__` must find nothing.
 */
const STATUS_WORDS: ReadonlyMap<string, string> = new Map([
	['WITHDRAWN', 'it was withdrawn by the operator who filed it'],
	['REJECTED', 'the EU Information System rejected it'],
	['SUSPENDED', 'it is suspended'],
	['ARCHIVED', 'it is archived'],
	['GROUPED', 'it is grouped into another declaration'],
	['OBSOLETE', 'it was replaced by a newer one'],
	['SUBMITTED', 'it is still being processed'],
]);

/** The answer in plain words, naming the numbers asked about. */
export function verifyMessage(
	referenceNumber: string,
	verificationNumber: string,
	answer: VerifyAnswer,
): string {
	const which = `The statement with reference number ${referenceNumber} and verification number ${verificationNumber}`;
	const status = answer.status;
	switch (answer.result) {
		case 'EXISTING_USABLE':
			return `${which} exists and can be used${status ? ` (status ${status})` : ''}.`;
		case 'EXISTING_NON_USABLE': {
			if (!status) return `${which} exists but cannot be used; the EU did not say why.`;
			const why = STATUS_WORDS.get(status);
			return `${which} exists but cannot be used: its status is ${status}${why ? ` (${why})` : ''}. Ask the supplier for a valid statement.`;
		}
		case 'NON_EXISTENT':
			return `No statement matches reference number ${referenceNumber} with verification number ${verificationNumber}. Check both numbers with the supplier: the verification number must be the one given with this reference number.`;
		default:
			return `The EU Information System answered "${answer.result}"${status ? ` with status ${status}` : ''} for reference number ${referenceNumber}, an answer this node does not know: check the statement in TRACES before relying on it.`;
	}
}

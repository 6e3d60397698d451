/**
 * One reading of a SOAP fault's kind, for the credential test and every call of a run alike
 * (both go through callEu, soapRequest.ts): whether the EU refused the credential — and then
 * which part of it: the key or username, the Web Service Client ID, or this machine's clock —,
 * is limiting calls, or answered with a fault of its own. The words are looked for in the
 * fault's name, its faultstring and its errors: the echo service puts them in `errorMessage`,
 * the other services in error/v01 `Error`s or in the faultstring alone (pack §7). A fault the
 * services declare (business rules, permission, not found) is the service's answer, never a
 * login failure. Pure: no n8n imports.
 */
import type { CredentialCause, EuFailure } from './euFailure';

const AUTH_FAULT = /unauthenticated|authenticat|password|credential|security|not authori[sz]ed/i;
/**
 * Words that call the client id wrong: "Invalid WebServiceClientId" (seen live), "Missing
 * WebServiceClientId" (OPREF §3.9), "client id … not valid". A fault that merely quotes the
 * request (its WebServiceClientId element) does not match.
 */
const CLIENT_ID = '(?:web\\s*service\\s*)?client[\\s_-]?id';
const BAD =
	'(?:invalid|missing|unknown|wrong|incorrect|bad|not\\s+(?:valid|found|known|recogni[sz]ed|allowed|authori[sz]ed|match\\w*))';
const CLIENT_ID_FAULT = new RegExp(
	`${BAD}\\W+(?:\\w+\\W+){0,3}?${CLIENT_ID}|\\b${CLIENT_ID}\\b\\W+(?:\\w+\\W+){0,3}?${BAD}`,
	'i',
);
/** Words that blame the time: "Timestamp expired" (OPREF §3.9), "The message has expired", "clock skew". */
const TIME_FAULT =
	/\bexpired\b|\bclock\b|\bskew\b|(?:timestamp|created)\W+(?:\w+\W+){0,3}?(?:invalid|not\s+valid|too\s+old|in\s+the\s+future|out\s+of\s+range)/i;
/** Faults the services declare: their words are the service's answer, not a login failure. */
const SERVICE_FAULTS = new Set([
	'BusinessRulesValidationException',
	'PermissionDeniedException',
	'NotFoundException',
]);
const THROTTLE_FAULT = /throttl|rate limit|too many|quota|limit (?:exceeded|reached)/i;

export interface FaultWords {
	faultName: string | null;
	faultString: string;
	errors: ReadonlyArray<{ message: string }>;
}

/** The kind of a fault answer and, for a refused credential, the part it names. */
export function faultKindOf(
	fault: FaultWords,
	clockDiffers: boolean,
): {
	kind: Extract<EuFailure['kind'], 'authentication' | 'throttled' | 'fault'>;
	cause?: CredentialCause;
} {
	const all = `${fault.faultName ?? ''} ${fault.faultString} ${fault.errors.map((e) => e.message).join(' ')}`;
	const declared = SERVICE_FAULTS.has(fault.faultName ?? '');
	if (!declared && CLIENT_ID_FAULT.test(all)) return { kind: 'authentication', cause: 'clientId' };
	// "Timestamp expired" alone (the echo service's fault) is a refused security header too
	if (!declared && TIME_FAULT.test(all)) return { kind: 'authentication', cause: 'clock' };
	if (fault.faultName === 'UnauthenticatedException' || (!declared && AUTH_FAULT.test(all)))
		return {
			kind: 'authentication',
			cause: clockDiffers || TIME_FAULT.test(all) ? 'clock' : 'key',
		};
	return { kind: THROTTLE_FAULT.test(all) ? 'throttled' : 'fault' };
}

/** The service's own words of a refusal: its errors' messages, else its faultstring. */
export function refusalWords(failure: Pick<EuFailure, 'errors'>, faultString: string): string {
	const messages = failure.errors.map((e) => e.message.trim()).filter((m) => m !== '');
	return messages.length > 0 ? messages.join('; ') : faultString;
}

/**
 * The words of a failed EU Information System call: what happened and what to do (the codes'
 * sentences from euFaultCodes.ts), whether the call may have arrived, and the WS_REQUEST_ID
 * the support desk asks for. Texts given here are already redacted.
 */
import type { EuFailure } from './euFailure';
import { euCodeSentence } from './euFaultCodes';

/** Longest text of the service kept in a message (cut after redaction). */
const MAX_SERVICE_TEXT = 2000;
const SUPPORT =
	"for a support ticket to SANTE-TRACES@ec.europa.eu, subject starting with 'EUDR API'";

export function cut(text: string): string {
	return text.length > MAX_SERVICE_TEXT ? `${text.slice(0, MAX_SERVICE_TEXT)}…` : text;
}

/** The message and description of a failure, in plain words. */
export function describeEuFailure(
	failure: EuFailure,
	serviceText: string,
	skew?: { ours: string; theirs: string },
): { message: string; description: string } {
	const said = serviceText.trim() ? ` The service said: "${cut(serviceText.trim())}".` : '';
	const errors = failure.errors
		.map((e) => {
			const sentence = euCodeSentence(e.id);
			const field = e.field ? ` (field: ${e.field})` : '';
			return `${e.id}: ${sentence ?? e.message}${field}${sentence && e.message ? ` [${cut(e.message)}]` : ''}`;
		})
		.join('; ');
	const skewText = skew
		? ` This machine's clock says ${skew.ours} and the EU Information System's says ${skew.theirs}: the message's timestamp must be within 5 minutes of the service's time. Set this machine's clock right (NTP).`
		: '';
	let message: string;
	switch (failure.kind) {
		case 'authentication':
			message = `The EU Information System did not accept the username and authentication key: check the EU Login Username, the Authentication Key, the Web Service Client ID and the Environment of the credential; Acceptance and Production keys differ.${skewText}${said}`;
			break;
		case 'throttled':
			message = `The EU Information System is limiting the number of calls${failure.status ? ` (HTTP ${failure.status})` : ''}: wait a while and run the workflow again.${said}`;
			break;
		case 'fault':
			if (failure.faultName === 'BusinessRulesValidationException')
				message = `The EU Information System refused the request under its business rules: ${errors || cut(serviceText)}`;
			else if (failure.faultName === 'PermissionDeniedException')
				message = `The EU Information System refused access: the EU Login user of the credential may not do this for this operator.${errors ? ` ${errors}` : said}`;
			else if (failure.faultName === 'NotFoundException')
				message = `The EU Information System found nothing for this request (NotFoundException).${errors ? ` ${errors}` : said}`;
			else if (/schema|unmarshal|cvc-|xml/i.test(serviceText))
				message = `The EU Information System says the message does not match its schema.${said}${errors ? ` ${errors}` : ''}`;
			else
				message = `The EU Information System answered with a fault${failure.faultName ? ` (${failure.faultName})` : ''}.${errors ? ` ${errors}` : said}${skewText}`;
			break;
		case 'notSoap':
			message = `The EU Information System answered${failure.status ? ` HTTP ${failure.status}` : ''} with a web page or text instead of a SOAP message: the Environment or Custom URL of the credential is probably wrong, or the service is down.`;
			break;
		case 'http':
			message = `The EU Information System answered HTTP ${failure.status ?? '?'} without a SOAP message.${said}`;
			break;
		case 'redirect':
			message = `The EU Information System redirected the call, and it was not followed: ${serviceText}. Check the Environment or Custom URL of the credential.`;
			break;
		case 'timeout':
			message = 'The EU Information System did not answer in time.';
			break;
		case 'cancelled':
			message = 'The execution was cancelled while calling the EU Information System.';
			break;
		case 'network':
			message = `The EU Information System could not be reached (${cut(serviceText)}): check the network and the Environment of the credential.`;
			break;
		case 'tooLarge':
			message = serviceText;
			break;
	}
	const parts: string[] = [];
	if (failure.mayHaveArrived)
		parts.push(
			'The request may have reached the EU Information System: a statement may have been filed or changed. Look it up (Get by Internal Reference) before sending it again.',
		);
	if (failure.requestId)
		parts.push(`Request ID (WS_REQUEST_ID): ${failure.requestId}, ${SUPPORT}.`);
	return { message, description: parts.join(' ') };
}

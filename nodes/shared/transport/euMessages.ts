/**
 * The words of a failed EU Information System call: what happened and what to do (the codes'
 * sentences from euFaultCodes.ts), whether the call may have arrived, and the WS_REQUEST_ID
 * the support desk asks for. Texts given here are already redacted.
 */
import { refusalWords } from './euCredentialFault';
import type { EuFailure } from './euFailure';
import { euCodeSentence } from './euFaultCodes';

/** Longest text of the service kept in a message (cut after redaction). */
const MAX_SERVICE_TEXT = 2000;
const SUPPORT =
	"for a support ticket to SANTE-TRACES@ec.europa.eu, subject starting with 'EUDR API'";

export function cut(text: string): string {
	return text.length > MAX_SERVICE_TEXT ? `${text.slice(0, MAX_SERVICE_TEXT)}…` : text;
}

/**
 * A text of the service without the punctuation around it (": Invalid …" → "Invalid …"), so
 * that a sentence built around it reads without a stray ". :".
 */
export function tidy(text: string): string {
	return text
		.trim()
		.replace(/^[\s:;,.|\-–—]+/, '')
		.replace(/[\s:;,|\-–—]+$/, '');
}

/** A sentence's end after a text of the service: a full stop unless it has one. */
const stop = (text: string) => (/[.!?…]["')\]]?$/.test(text) ? text : `${text}.`);

/** The errors of a fault, each with its code's sentence, and how many more were not kept. */
function errorsText(failure: EuFailure): string {
	const listed = failure.errors.map((e) => {
		const sentence = e.id ? euCodeSentence(e.id) : undefined;
		const field = e.field ? ` (field: ${e.field})` : '';
		const message = tidy(e.message);
		const words = `${sentence ?? message}${field}${sentence && message ? ` [${cut(message)}]` : ''}`;
		return e.id ? `${e.id}: ${words}` : words;
	});
	const more = failure.moreErrors ?? 0;
	if (more > 0)
		listed.push(
			`and ${more} more error${more === 1 ? '' : 's'} not shown (the first ${failure.errors.length} are above)`,
		);
	return listed.join('; ');
}

/** The credential of the call, as far as a message may name it (never the key). */
export interface CredentialNames {
	clientId: string;
}

/**
 * A refused credential, in one wording for the credential test and every run: the part the
 * EU named (client id, clock, else the key or username), then the EU's own words.
 */
function credentialMessage(
	failure: EuFailure,
	said: string,
	skewText: string,
	who: CredentialNames | undefined,
): string {
	if (failure.cause === 'clientId')
		return `The EU Information System did not accept the Web Service Client ID of the credential${who ? ` ("${who.clientId}")` : ''}: enter the client id shown in your EU Information System profile under "Web Services Access" (eudr-test on Acceptance), for the Environment the credential uses.${said}`;
	if (failure.cause === 'clock')
		return `The EU Information System did not accept the call's timestamp: this machine's clock is probably off.${skewText || " The message's timestamp must be within 5 minutes of the service's time. Set this machine's clock right (NTP)."}${said}`;
	return `The EU Information System did not accept the username and authentication key: check the EU Login Username, the Authentication Key, the Web Service Client ID and the Environment of the credential; Acceptance and Production keys differ.${skewText}${said}`;
}

/** The message and description of a failure, in plain words. */
export function describeEuFailure(
	failure: EuFailure,
	serviceText: string,
	skew?: { ours: string; theirs: string },
	who?: CredentialNames,
): { message: string; description: string } {
	const quote = (text: string) => (text.trim() ? ` The service said: "${cut(text.trim())}".` : '');
	const said = quote(serviceText);
	const errors = errorsText(failure);
	const skewText = skew
		? ` This machine's clock says ${skew.ours} and the EU Information System's says ${skew.theirs}: the message's timestamp must be within 5 minutes of the service's time. Set this machine's clock right (NTP).`
		: '';
	let message: string;
	switch (failure.kind) {
		case 'authentication':
			message = credentialMessage(
				failure,
				quote(refusalWords(failure, serviceText)),
				skewText,
				who,
			);
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
			else {
				// a fault the node has no words of its own for: the service's words, quoted whole
				const words = errors || tidy(cut(serviceText));
				const name = failure.faultName ? ` (${failure.faultName})` : '';
				message = `The EU Information System answered with a fault${name}${words && words !== failure.faultName ? `: ${stop(words)}` : ', without saying why.'} It names no field of the request and no part of the credential: run it again later${failure.requestId ? ", and if it comes back, send the Request ID below to the EU's support" : ''}.${skewText}`;
			}
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
		case 'answerTooLarge':
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

/**
 * What one attempt of an EU Information System call ended with, read from the answer the
 * service gave (any HTTP status): a SOAP body, a fault (its kind: credential, throttling,
 * service), a refusal for the rate limit, a page that is not SOAP, or an answer over the byte
 * limit. The call itself (envelope, sending, redirects, retries) is soapRequest.ts's; this is
 * what it makes of an answer. Texts kept for errors are redacted by the caller's `clean`
 * before anything is shortened.
 */
import type { EuFailure } from './euFailure';
import { EU_MAX_ANSWER_BYTES, bytesText } from './euAnswer';
import { faultKindOf } from './euCredentialFault';
import { readSoapAnswer } from '../soap/soapAnswer';
import type { SoapAnswer } from '../soap/soapAnswer';

/** A clock further than this from the service's (Date header) is named in the error. */
const MAX_SKEW_MS = 5 * 60_000;

export type Skew = { ours: string; theirs: string };

/** What one attempt ended with. */
export type Attempt =
	| { ok: true; answer: Extract<SoapAnswer, { kind: 'body' }> }
	| {
			ok: false;
			failure: EuFailure;
			text: string;
			retryable: boolean;
			networkCode?: string;
			retryAfter?: string;
			skew?: { ours: string; theirs: string };
	  };

function looksHtml(text: string): boolean {
	return /^\s*(?:<!doctype html|<html)/i.test(text);
}

function skewOf(headers: Record<string, string>, now: number) {
	const theirs = headers.date ? Date.parse(headers.date) : NaN;
	if (Number.isNaN(theirs) || Math.abs(theirs - now) <= MAX_SKEW_MS) return undefined;
	return { ours: new Date(now).toISOString(), theirs: new Date(theirs).toISOString() };
}

/** The attempt's outcome from an answer (any status). */
export function readAnswer(
	status: number,
	headers: Record<string, string>,
	raw: string,
	clean: (t: string) => string,
	now: number,
): Attempt {
	const skew = skewOf(headers, now);
	const base = { status, errors: [], requestId: null, faultName: null };
	let answer: SoapAnswer | undefined;
	try {
		// parsed as it came; every string of the decoded tree is redacted before it is read
		answer = readSoapAnswer(raw, clean);
	} catch {
		answer = undefined;
	}
	if (answer?.kind === 'body' && status >= 200 && status < 300) return { ok: true, answer };
	if (answer?.kind === 'fault') {
		const { kind, cause } = faultKindOf(answer, skew !== undefined);
		const timeSkew =
			skew ??
			(cause === 'clock' && headers.date
				? { ours: new Date(now).toISOString(), theirs: headers.date }
				: undefined);
		return {
			ok: false,
			failure: {
				kind,
				cause,
				mayHaveArrived: false,
				status,
				faultName: answer.faultName,
				errors: answer.errors,
				moreErrors: answer.moreErrors,
				requestId: answer.requestId,
			},
			text: answer.faultString,
			retryable: kind === 'throttled',
			retryAfter: headers['retry-after'],
			skew: timeSkew,
		};
	}
	// the raw text, kept for the error: redacted over the whole of it, before it is shortened
	const text = clean(raw);
	if (status === 429 || status === 503)
		return {
			ok: false,
			failure: { ...base, kind: 'throttled', mayHaveArrived: status === 503 },
			text,
			retryable: true,
			retryAfter: headers['retry-after'],
		};
	if (status === 401 || status === 403)
		return {
			ok: false,
			failure: { ...base, kind: 'authentication', mayHaveArrived: false },
			text,
			retryable: false,
			skew,
		};
	const html = looksHtml(text);
	const arrived = status >= 500 || (status >= 200 && status < 300) || html;
	return {
		ok: false,
		failure: { ...base, kind: html || status < 300 ? 'notSoap' : 'http', mayHaveArrived: arrived },
		text,
		// a page of a wrong address (4xx) is not worth another try; a gateway's or proxy's is
		retryable: status >= 500 || (html && status < 300),
	};
}

/**
 * An answer over EU_MAX_ANSWER_BYTES: abandoned at the limit (or refused on its announced
 * Content-Length), never read further. The service answered, so the call arrived: a submit,
 * amend or withdraw may have been carried out (`mayHaveArrived`, the node looks it up).
 * Not retried: the same call would get the same answer.
 */
export function answerTooLarge(status: number, bytes: number, announced: boolean): Attempt {
	const how = announced
		? `it announced ${bytesText(bytes)} bytes, and was not read`
		: `it was abandoned after ${bytesText(bytes)} bytes, and nothing past that was read`;
	return {
		ok: false,
		failure: {
			kind: 'answerTooLarge',
			mayHaveArrived: true,
			status,
			errors: [],
			requestId: null,
		},
		text: `The EU Information System's answer (HTTP ${status}) is larger than ${bytesText(EU_MAX_ANSWER_BYTES)} bytes, the most this node reads (the EU's own messages are at most 25 MB): ${how}. No answer of the EU is that large: check the Environment or Custom URL of the credential (a proxy may be answering in its place).`,
		retryable: false,
	};
}

/**
 * One call of the EU Information System's SOAP API: the envelope (WS-Security with a fresh
 * nonce and Created per attempt, WebServiceClientId, BodyIdentity when set) posted through
 * n8n's plain request helper to the environment's endpoint, within the rate limit
 * (euRateLimit.ts), the deadline (deadline.ts) and the same-origin redirect rule
 * (redirects.ts); idempotent calls retried with the package's policy (retry.ts): a refusal
 * for the rate limit (HTTP 429 or the EU's throttling fault) is waited out (its Retry-After,
 * within the call's deadline) and slows the pace down (euRateLimit.ts), other transient
 * failures are retried a few times. Submit, amend and withdraw are never sent again here (a
 * refusal for the rate limit is resent by their callers after a check: euRefusal.ts). The
 * answer is read as a stream with a byte limit (euAnswer.ts) and made an attempt's outcome
 * (euAttemptOutcome.ts). Every failure becomes an error
 * in plain words with an EuFailure attached (euFailure.ts, euMessages.ts; credential faults
 * read once for runs and the credential test, euCredentialFault.ts); the key is redacted, in
 * every encoding, from the raw text kept and from every string of the decoded answer
 * (euRedaction.ts).
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bodyIdentityHeader, clientIdHeader, soapEnvelope } from '../soap/envelope';
import { securityHeader } from '../soap/wsSecurity';
import type { XmlElement } from '../soap/xmlElement';
import {
	AttemptAborted,
	DEFAULT_REQUEST_TIMEOUT_MS,
	cancelSignalOf,
	requestTimeoutMs,
	withDeadline,
} from './deadline';
import type { EuCredential } from './euCredential';
import { euCredential } from './euCredential';
import type { EuFailure } from './euFailure';
import { attachEuFailure } from './euFailure';
import { ANSWER_AS_STREAM, EU_MAX_ANSWER_BYTES, readAnswerText, releaseAnswer } from './euAnswer';
import type { Attempt, Skew } from './euAttemptOutcome';
import { answerTooLarge, readAnswer } from './euAttemptOutcome';
import { describeEuFailure } from './euMessages';
import { euCallAccepted, euCallRefused, spacingFor, waitForEuSlot } from './euRateLimit';
import { euRedactor } from './euRedaction';
import { isRedirect, nextRedirect, refusalText } from './redirects';
import { neverSent, parseRetryAfter, refusalDelay, retryDelay } from './retry';
import { normaliseHeaders } from './sendAttempt';
import type { ServiceContext } from './serviceContext';
import { networkCodeOf } from './serviceFailure';
import { sleepUnlessCancelled } from '../time/sleep';

/** The EU Information System's services (pack §2): due-diligence statements, simplified declarations, verification, echo. */
export type EuService = 'dds' | 'sd' | 'verify' | 'echo';
export const EU_MAX_MESSAGE_BYTES = 25_000_000;

export interface SoapRequest {
	service: EuService;
	operation: string;
	body: string;
	idempotent: boolean;
	itemIndex?: number;
	timeoutMs?: number;
}

export interface SoapOk {
	element: XmlElement;
	requestId: string | null;
	envelopeBytes: number;
}

const DDS_SERVICE_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const SD_SERVICE_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/simplified-declaration/v3';
const ECHO_ACTION = 'http://ec.europa.eu/tracesnt/eudr/echo';
/** The Verify service's one action, as its WSDL binds it (it does not match the service namespace). */
const VERIFY_ACTION =
	'http://ec.europa.eu/tracesnt/certificate/eudr/verification/v3/verify-declaration';
/** The SD operations the SD WSDL binds to SD-namespace actions; its reads use the DDS namespace (an EU quirk, pack §2). */
const SD_WRITES = new Set(['submitSd', 'updateSd', 'withdrawSd']);
const SERVICE_PATHS: Record<Exclude<EuService, 'echo'>, string> = {
	dds: 'ws/EUDRDueDiligenceStatementServiceV3',
	sd: 'ws/EUDRSimplifiedDeclarationServiceV3',
	verify: 'ws/EUDRVerifyDeclarationServiceV3',
};

/** The endpoint of a service under the credential's Base URL. */
export function euEndpoint(credential: EuCredential, service: EuService): string {
	return credential.baseUrl + (service === 'echo' ? credential.echoPath : SERVICE_PATHS[service]);
}

/** The SOAPAction of an operation, as in the WSDL binding. */
export function soapActionOf(service: EuService, operation: string): string {
	if (service === 'echo') return ECHO_ACTION;
	if (service === 'verify') return VERIFY_ACTION;
	if (service === 'sd' && SD_WRITES.has(operation)) return `${SD_SERVICE_NS}/${operation}`;
	return `${DDS_SERVICE_NS}/${operation}`;
}

/** The envelope for `body` at `now` (a fresh nonce unless one is given). */
export function buildEnvelope(
	credential: EuCredential,
	service: EuService,
	body: string,
	now: Date,
	nonce?: Uint8Array,
): string {
	const headers = [
		securityHeader({ username: credential.username, key: credential.key, now, nonce }),
		clientIdHeader(credential.clientId),
	];
	// BodyIdentity is bound on every DDS and SD operation, not on verifyDeclaration (pack §3.1).
	if ((service === 'dds' || service === 'sd') && credential.operatorAccessIdentifier)
		headers.push(bodyIdentityHeader(credential.operatorAccessIdentifier));
	return soapEnvelope({ headers, body });
}

/** The exact byte size of the envelope (nonce, digest and timestamps have fixed lengths). */
export function envelopeBytesFor(credential: EuCredential, service: EuService, body: string) {
	return Buffer.byteLength(
		buildEnvelope(credential, service, body, new Date(), new Uint8Array(16)),
		'utf8',
	);
}

export async function envelopeBytes(
	this: ServiceContext,
	service: EuService,
	body: string,
): Promise<number> {
	return envelopeBytesFor(await euCredential.call(this), service, body);
}

/**
 * Every text kept from the service, with the key redacted in each of its encodings
 * (euRedaction.ts): the raw text kept for errors, over the whole of it, and every string of
 * the decoded answer (readSoapAnswer). Keys shorter than MIN_EU_KEY_CHARS never get here
 * (euCredential.ts), so redaction cannot blank an identifier by chance.
 */
function redactor(credential: EuCredential): (text: string) => string {
	return euRedactor(credential.secrets);
}

/** One attempt: the POST and the same-origin redirects it is sent on, within the deadline. */
async function attempt(
	ctx: EuCallContext,
	credential: EuCredential,
	request: SoapRequest,
	envelope: string,
	timeoutMs: number,
	clean: (t: string) => string,
): Promise<Attempt> {
	let url = euEndpoint(credential, request.service);
	let answered = false;
	try {
		return await withDeadline(timeoutMs, cancelSignalOf(ctx), async (signal) => {
			for (let hops = 0; ; hops++) {
				const options: IHttpRequestOptions = {
					method: 'POST',
					url,
					headers: {
						'Content-Type': 'text/xml; charset=utf-8',
						SOAPAction: `"${soapActionOf(request.service, request.operation)}"`,
					},
					body: envelope,
					...ANSWER_AS_STREAM,
					timeout: timeoutMs + 1000,
					abortSignal: signal,
				};
				const response = (await ctx.helpers.httpRequest(options)) as {
					body: unknown;
					headers: unknown;
					statusCode: number;
				};
				answered = true;
				const headers = normaliseHeaders(response.headers);
				if (!isRedirect(response.statusCode)) {
					const read = await readAnswerText(response.body, headers, EU_MAX_ANSWER_BYTES, signal);
					if (!read.ok) return answerTooLarge(response.statusCode, read.bytes, read.announced);
					return readAnswer(response.statusCode, headers, read.text, clean, Date.now());
				}
				releaseAnswer(response.body);
				const step = nextRedirect({
					status: response.statusCode,
					location: headers.location,
					currentUrl: url,
					method: 'POST',
					allowedOrigin: credential.origin,
					hops,
				});
				if (!step.follow)
					return {
						ok: false,
						failure: {
							kind: 'redirect',
							// a redirect is an answer: the call was not carried out there
							mayHaveArrived: false,
							status: response.statusCode,
							errors: [],
							requestId: null,
						},
						text: refusalText(step.refusal),
						retryable: false,
					} satisfies Attempt;
				url = step.url;
			}
		});
	} catch (error) {
		if (error instanceof AttemptAborted)
			return {
				ok: false,
				failure: {
					kind: error.reason === 'deadline' ? 'timeout' : 'cancelled',
					mayHaveArrived: true,
					errors: [],
					requestId: null,
				},
				text: '',
				retryable: error.reason === 'deadline',
				networkCode: 'ETIMEDOUT',
			};
		const networkCode = networkCodeOf(error) ?? 'ECONNRESET';
		return {
			ok: false,
			failure: {
				kind: 'network',
				mayHaveArrived: answered || !neverSent({ networkCode }),
				errors: [],
				requestId: null,
			},
			text: clean(String((error as Error)?.message ?? error)),
			retryable: true,
			networkCode,
		};
	}
}

/** What the calls need of an n8n context: its request helper (and a cancel signal, if any). */
export interface EuCallContext {
	helpers: { httpRequest: ServiceContext['helpers']['httpRequest'] };
}

/** Makes the error a failure is thrown as (a NodeOperationError in nodes, an Error in the credential). */
export type EuErrorMaker = (message: string, description: string) => Error;

/**
 * The call itself, for nodes (soapRequest) and the credential's check: size cap, rate limit,
 * attempts with a fresh security header each, retries of idempotent calls, plain-words errors
 * with the key redacted and an EuFailure attached.
 */
export async function callEu(
	ctx: EuCallContext,
	credential: EuCredential,
	request: SoapRequest,
	makeError: EuErrorMaker,
): Promise<SoapOk> {
	const clean = redactor(credential);
	const fail = (failure: EuFailure, text: string, skew?: Skew): never => {
		const safe: EuFailure = {
			...failure,
			errors: failure.errors.map((e) => ({
				id: clean(e.id),
				message: clean(e.message),
				field: e.field === null ? null : clean(e.field),
			})),
		};
		const { message, description } = describeEuFailure(safe, clean(text), skew, {
			clientId: credential.clientId,
		});
		throw attachEuFailure(makeError(clean(message), clean(description)), safe);
	};
	const origin = credential.origin;
	const size = envelopeBytesFor(credential, request.service, request.body);
	if (size > EU_MAX_MESSAGE_BYTES)
		return fail(
			{ kind: 'tooLarge', mayHaveArrived: false, errors: [], requestId: null },
			`The message would be ${size} bytes, more than the ${EU_MAX_MESSAGE_BYTES} bytes the EU Information System accepts: it was not sent. Simplify the geolocation or split the statement.`,
		);
	const timeoutMs = request.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const signal = cancelSignalOf(ctx);
	const spacing = spacingFor(credential.callsPerSecond);
	// waiting out the rate limit ends within the Request Timeout from the first refusal
	let deadline: number | undefined;
	let failures = 0;
	let refusals = 0;
	for (;;) {
		const startedAt = await waitForEuSlot(origin, signal, undefined, spacing);
		const envelope = buildEnvelope(credential, request.service, request.body, new Date());
		const result = await attempt(ctx, credential, request, envelope, timeoutMs, clean);
		if (result.ok) {
			euCallAccepted(origin);
			return {
				element: result.answer.element,
				requestId: result.answer.requestId,
				envelopeBytes: Buffer.byteLength(envelope, 'utf8'),
			};
		}
		const { failure } = result;
		const refused = failure.kind === 'throttled' && !failure.mayHaveArrived;
		if (refused)
			euCallRefused(
				origin,
				startedAt,
				Date.now(),
				spacing,
				result.retryAfter === undefined ? 0 : parseRetryAfter(result.retryAfter, Date.now()),
			);
		else if (failure.status !== undefined && failure.kind !== 'throttled') euCallAccepted(origin);
		let delay: number | undefined;
		if (!request.idempotent) delay = undefined;
		else if (refused) {
			deadline ??= Date.now() + timeoutMs;
			delay = refusalDelay({
				retryAfter: result.retryAfter,
				refusals: ++refusals,
				now: Date.now(),
				deadline,
			});
		} else if (result.retryable)
			delay = retryDelay(
				result.networkCode !== undefined
					? { networkCode: result.networkCode }
					: { status: 503, retryAfter: result.retryAfter },
				++failures,
				true,
			);
		if (delay === undefined) {
			const after =
				result.retryAfter === undefined
					? undefined
					: parseRetryAfter(result.retryAfter, Date.now());
			return fail(
				after === undefined ? failure : { ...failure, retryAfterMs: after },
				result.text,
				result.skew,
			);
		}
		await sleepUnlessCancelled(delay, signal);
	}
}

/** Sends one SOAP request; returns the Body's first element or throws a plain-words error. */
export async function soapRequest(this: ServiceContext, request: SoapRequest): Promise<SoapOk> {
	const credential = await euCredential.call(this);
	const timeoutMs = request.timeoutMs ?? requestTimeoutMs(this);
	return await callEu(
		this,
		credential,
		{ ...request, timeoutMs },
		(message, description) =>
			new NodeOperationError(this.getNode(), message, {
				itemIndex: request.itemIndex,
				description,
			}),
	);
}

/**
 * One attempt of a request: sent through n8n's helper (which authenticates it; a login
 * credential's expired session is renewed once), on the same-origin redirects it is sent on
 * (a redirect elsewhere is refused: the credential stays home), within its deadline, and its
 * answer read: secrets redacted over the whole body first, a 2xx checked to be JSON of the
 * expected shape, anything else kept as the parts of an error (requestError.ts).
 */
import type {
	IAdditionalCredentialOptions,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_JSON_DEPTH, pathDeeperThan } from '../input/depth';
import type { ParsedBody } from './answers';
import { describeBody, parseBody } from './answers';
import type { ServiceContext } from './serviceContext';
import { currentSecrets } from './nodeCredential';
import { AttemptAborted, cancelSignalOf, contextWithSignal, withDeadline } from './deadline';
import {
	MIN_SECRET_CHARS,
	MIN_SECRET_CHARS_IN_DATA,
	mayHoldSecret,
	redact,
	redactValue,
} from './redaction';
import { isRedirect, nextRedirect } from './redirects';
import type { ErrorParts } from './requestError';
import { TOO_DEEP } from './requestError';
import type { RetryPolicy } from './retry';
import { CREDENTIAL_FAILURE, attachFailure, networkCodeOf } from './serviceFailure';

/** What n8n's helper returns with `returnFullResponse`. */
export interface FullResponse<T> {
	body: T;
	headers: Record<string, string>;
	statusCode: number;
}

/** A request ready to send, and what the steps after sending need to know about it. */
export interface PreparedRequest {
	method: IHttpRequestMethods;
	path: string;
	url: string;
	/** The origin of the credential's Base URL: redirects elsewhere are refused. */
	baseOrigin: string;
	itemIndex?: number;
	idempotent: boolean;
	policy: RetryPolicy;
	credentialType: string;
	/** The login credential: a 401 means the session token expired and n8n can renew it. */
	renewsSession: boolean;
	secrets: string[];
	headers: Record<string, string>;
	qs?: IDataObject;
	body?: unknown;
	returnFullResponse: boolean;
	timeoutMs: number;
	expect?: (body: unknown) => string | undefined;
}

/** What one attempt ended with: the value of a 2xx, or the parts of an error. */
export type AttemptResult = { ok: true; value: unknown } | { ok: false; parts: ErrorParts };

/** One hop of an attempt: the first address, or where a same-origin redirect pointed. */
interface Hop {
	url: string;
	method: IHttpRequestMethods;
	body?: unknown;
	/** The query of the request goes on the first address only (a Location carries its own). */
	first: boolean;
}

/** The message of what n8n's helper threw (its wrapper keeps the original in `messages`). */
function originalMessage(error: unknown): string {
	const e = error as { message?: unknown; messages?: unknown };
	const wrapped = Array.isArray(e?.messages)
		? e.messages.find((m) => typeof m === 'string' && m)
		: undefined;
	return String(wrapped ?? e?.message ?? error);
}

/** Response headers as one lower-cased record of strings (a list joined with ", "). */
export function normaliseHeaders(headers: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	if (!headers || typeof headers !== 'object') return out;
	const source =
		typeof (headers as { toJSON?: () => unknown }).toJSON === 'function'
			? ((headers as { toJSON: () => unknown }).toJSON() as Record<string, unknown>)
			: (headers as Record<string, unknown>);
	for (const [key, value] of Object.entries(source)) {
		if (value === undefined || value === null) continue;
		out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return out;
}

/** The body as JSON text. */
function jsonText(body: unknown): string {
	return JSON.stringify(body);
}

/**
 * How every request of the package asks n8n's helper for its answer: the body as text, the
 * status and headers with it, every status returned (not thrown), redirects not followed
 * (the credential stays on its origin). Shared by the JSON transport and the SOAP one.
 */
export const ANSWER_AS_TEXT = {
	json: false,
	encoding: 'text',
	returnFullResponse: true,
	ignoreHttpStatusErrors: true,
	disableFollowRedirect: true,
} as const;

/**
 * The options of one hop for n8n's helper. Every status comes back to us (the service's own
 * message, its body and headers such as Retry-After are read here; n8n's wrapped errors drop
 * them), the body as text (so that a cut-off answer is told apart from JSON), redirects are
 * not followed by n8n (it would send the credential to any host), and the request is aborted
 * by `signal` at its deadline. n8n's own `timeout` (an idle timeout) is a backstop only.
 */
function hopOptions(
	request: PreparedRequest,
	hop: Hop,
	signal: AbortSignal,
	timeoutMs: number,
): IHttpRequestOptions {
	const headers = { ...request.headers };
	if (hop.body === undefined) delete headers['Content-Type'];
	return {
		method: hop.method,
		url: hop.url,
		headers,
		...(hop.first && request.qs ? { qs: request.qs } : {}),
		// Sent as the JSON text of the body: n8n's helper copies an object body key by key,
		// which drops a key such as `__proto__` (Additional Info keys are sent as typed).
		...(hop.body !== undefined ? { body: jsonText(hop.body) } : {}),
		...ANSWER_AS_TEXT,
		timeout: timeoutMs + 1000,
		abortSignal: signal,
	};
}

/**
 * Sends one request through n8n, which authenticates it (the credential goes only to its own
 * Base URL: callers check the origin). With the login credential a 401 means the session token
 * expired: the same request goes once more with the stored credential's session token blanked,
 * so that n8n logs in first (preAuthentication), stores the new token and sends the request
 * with it. One 401, one login, one retried request: a 401 is answered before anything is
 * processed, so this never doubles an action.
 *
 * `sendCtx` is the context the helper runs on (its getExecutionCancelSignal is the attempt's
 * deadline signal, see deadline.ts).
 */
export async function sendToService(
	ctx: ServiceContext,
	sendCtx: ServiceContext,
	credential: { type: string; renewsSession: boolean },
	options: IHttpRequestOptions,
): Promise<FullResponse<unknown>> {
	const send = async (extra?: IAdditionalCredentialOptions) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(
			sendCtx,
			credential.type,
			{ ...options, headers: { ...(options.headers ?? {}) } },
			extra,
		)) as FullResponse<unknown>;
	const response = await send();
	if (response.statusCode !== 401 || !credential.renewsSession) return response;
	// The answer of the 401 is not needed: release its connection if it is a stream.
	(response.body as { destroy?: () => void } | null)?.destroy?.();
	const stored = await ctx.getCredentials(credential.type);
	const renewed = await send({
		credentialsDecrypted: {
			id: 'session-renewal',
			name: 'session renewal',
			type: credential.type,
			data: { ...stored, sessionToken: '' },
		},
	});
	if (renewed !== null && typeof renewed === 'object') afterRenewal.add(renewed);
	return renewed;
}

/** Answers to a request sent again with a new session token (the secrets to redact changed). */
const afterRenewal = new WeakSet<object>();

/**
 * A body with every secret redacted over the whole of it, before anything reads, describes or
 * cuts it: in the values and keys of JSON, in the text of anything else. In an answer that
 * succeeded only secrets of MIN_SECRET_CHARS_IN_DATA characters or more are redacted (a
 * short password would blank dates and names).
 */
function redactedBody(
	raw: unknown,
	parsed: ParsedBody,
	secrets: string[],
	success: boolean,
): ParsedBody {
	const min = success ? MIN_SECRET_CHARS_IN_DATA : MIN_SECRET_CHARS;
	// Most answers hold neither a secret nor an escape: nothing to walk through.
	if (secrets.length === 0 || (typeof raw === 'string' && !mayHoldSecret(raw, secrets, min)))
		return parsed;
	if (parsed.kind === 'text') return { kind: 'text', text: redact(parsed.text, secrets, min) };
	if (parsed.kind === 'json')
		return { kind: 'json', value: redactValue(parsed.value, secrets, min, false) };
	return parsed;
}

/** Step 3: the body (or the full response) of a 2xx; the parts of anything else. */
function readResponse(response: FullResponse<unknown>, request: PreparedRequest): AttemptResult {
	const headers = normaliseHeaders(response.headers);
	const success = response.statusCode >= 200 && response.statusCode < 300;
	const read = parseBody(response.body);
	// Checked before anything walks it (redaction, the shape checks, n8n's copy of the output).
	if (read.kind === 'json' && pathDeeperThan(read.value, MAX_JSON_DEPTH) !== undefined)
		return { ok: false, parts: { status: response.statusCode, headers, unexpected: TOO_DEEP } };
	const parsed = redactedBody(response.body, read, request.secrets, success);
	if (success) {
		const status = response.statusCode;
		if (parsed.kind !== 'json' || parsed.value === null)
			return {
				ok: false,
				parts: {
					status,
					headers,
					body: parsed.kind === 'text' ? parsed.text : response.body,
					unexpected: `it was ${describeBody(parsed)}`,
				},
			};
		const problem = request.expect?.(parsed.value);
		if (problem !== undefined)
			return { ok: false, parts: { status, headers, body: parsed.value, unexpected: problem } };
		const value = request.returnFullResponse
			? { body: parsed.value, headers, statusCode: status }
			: parsed.value;
		return { ok: true, value };
	}
	const body =
		parsed.kind === 'json' ? parsed.value : parsed.kind === 'text' ? parsed.text : undefined;
	return { ok: false, parts: { status: response.statusCode, body, headers } };
}

/**
 * Step 4: what a thrown request tells: a status (n8n kept part of the answer), or a network
 * error (a refused TLS certificate included). Anything else is not a transport failure (the
 * credential's own check, or a failed login) and is thrown at once with its own message.
 */
function classifyThrown(ctx: ServiceContext, error: unknown, request: PreparedRequest): ErrorParts {
	const httpCode = Number((error as { httpCode?: unknown }).httpCode);
	if (Number.isInteger(httpCode) && httpCode >= 400)
		return {
			status: httpCode,
			body: (error as { context?: { data?: unknown } }).context?.data ?? (error as Error).message,
		};
	const networkCode = networkCodeOf(error);
	if (networkCode !== undefined) return { networkCode };
	// n8n's wrapper keeps the original message in `messages`.
	const credentialError = new NodeOperationError(
		ctx.getNode(),
		redact(originalMessage(error), request.secrets),
		{
			itemIndex: request.itemIndex,
			description: 'Open the credential of this node and check it.',
		},
	);
	throw attachFailure(credentialError, CREDENTIAL_FAILURE);
}

/**
 * Step 2: one attempt: the request and the same-origin redirects it is sent on, within the
 * deadline. A redirect to another origin is refused (the credential stays home).
 */
export async function attemptOnce(
	ctx: ServiceContext,
	request: PreparedRequest,
): Promise<AttemptResult> {
	try {
		return await withDeadline(request.timeoutMs, cancelSignalOf(ctx), async (signal) => {
			const sendCtx = contextWithSignal(ctx, signal);
			const credential = { type: request.credentialType, renewsSession: request.renewsSession };
			let hop: Hop = { url: request.url, method: request.method, body: request.body, first: true };
			for (let hops = 0; ; hops++) {
				const options = hopOptions(request, hop, signal, request.timeoutMs);
				const response = await sendToService(ctx, sendCtx, credential, options);
				// A new session token is redacted from this answer on, like the old one.
				if (afterRenewal.has(response))
					request.secrets = await currentSecrets(ctx, request.secrets);
				if (!isRedirect(response.statusCode)) return readResponse(response, request);
				const headers = normaliseHeaders(response.headers);
				const step = nextRedirect({
					status: response.statusCode,
					location: headers.location,
					currentUrl: hop.url,
					method: hop.method,
					allowedOrigin: request.baseOrigin,
					hops,
				});
				if (!step.follow)
					return {
						ok: false,
						parts: { status: response.statusCode, headers, redirect: step.refusal },
					};
				hop = {
					url: step.url,
					method: step.method as IHttpRequestMethods,
					body: step.keepBody ? hop.body : undefined,
					first: false,
				};
			}
		});
	} catch (error) {
		if (error instanceof AttemptAborted)
			return {
				ok: false,
				parts:
					error.reason === 'deadline'
						? { networkCode: 'ETIMEDOUT', timedOutAfterMs: request.timeoutMs }
						: { networkCode: 'ECONNABORTED' },
			};
		return { ok: false, parts: classifyThrown(ctx, error, request) };
	}
}

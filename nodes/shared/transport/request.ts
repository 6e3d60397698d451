import type {
	IAdditionalCredentialOptions,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { sleepUnlessCancelled } from '../helpers/sleep';
import { MAX_JSON_DEPTH, pathDeeperThan } from '../input/depth';
import { CredentialSetupError, checkApiKey, normaliseBaseUrl } from '../../../credentials/common';
import type { ParsedBody } from './answers';
import { boundedBody, describeBody, parseBody } from './answers';
import {
	AttemptAborted,
	DEFAULT_REQUEST_TIMEOUT_MS,
	MAX_REQUEST_TIMEOUT_MS,
	cancelSignalOf,
	contextWithSignal,
	withDeadline,
} from './deadline';
import {
	MIN_SECRET_CHARS,
	MIN_SECRET_CHARS_IN_DATA,
	mapServiceError,
	mayHoldSecret,
	redact,
	redactValue,
} from './errors';
import { CREDENTIAL_FAILURE, attachFailure, describeFailure, networkCodeOf } from './failure';
import type { RedirectRefusal } from './redirects';
import { isRedirect, nextRedirect } from './redirects';
import type { RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from './retry';

export type ServiceContext =
	| IExecuteFunctions
	| IPollFunctions
	| ILoadOptionsFunctions
	| IHookFunctions;

export const API_VERSION = '3';

export type AuthenticationMethod = 'apiKey' | 'login';

export const CREDENTIAL_TYPES: Record<AuthenticationMethod, string> = {
	apiKey: 'geospatialAnalysisApi',
	login: 'geospatialAnalysisLoginApi',
};

/** The node parameter (seconds) read as the deadline of each request, when the node has it. */
export const REQUEST_TIMEOUT_PARAMETER = 'requestTimeout';

export interface ApiRequestOptions {
	qs?: IDataObject;
	body?: unknown;
	headers?: Record<string, string>;
	/**
	 * Safe to send twice (GETs and dry-run quotes are). Defaults to true for GET, false
	 * otherwise: a request that creates something is never retried once it may have arrived.
	 */
	idempotent?: boolean;
	/** Item the request is made for, named in errors. */
	itemIndex?: number;
	/**
	 * A deadline for this request shorter than the node's Request Timeout, in milliseconds
	 * (a status check of Wait for Completion gets what is left of Max Wait).
	 */
	timeoutMs?: number;
	retryPolicy?: Partial<RetryPolicy>;
	/** Return { body, headers, statusCode } instead of the body. */
	returnFullResponse?: boolean;
	/**
	 * The shape a 2xx answer must have: returns what is wrong with the body (it becomes an
	 * "Unexpected answer" error naming the endpoint), or undefined when it is fine. Whatever
	 * this says, every 2xx answer must be JSON other than null.
	 */
	expect?: (body: unknown) => string | undefined;
}

export interface FullResponse<T> {
	body: T;
	headers: Record<string, string>;
	statusCode: number;
}

function authenticationMethod(ctx: ServiceContext): AuthenticationMethod {
	let value: unknown;
	try {
		value = (ctx as IExecuteFunctions).getNodeParameter('authentication', 0, 'apiKey');
	} catch {
		value = 'apiKey';
	}
	return value === 'login' ? 'login' : 'apiKey';
}

/**
 * The deadline of each request, in milliseconds: the node's "Request Timeout (Seconds)" when
 * it has that option and it is set, else DEFAULT_REQUEST_TIMEOUT_MS. A value that is not a
 * number of seconds between 1 and 3600 fails before any request.
 */
export function requestTimeoutMs(ctx: ServiceContext): number {
	let value: unknown;
	// Top level (action node version 1, trigger), or inside Options (action node version 2).
	for (const name of [REQUEST_TIMEOUT_PARAMETER, `options.${REQUEST_TIMEOUT_PARAMETER}`]) {
		try {
			value =
				'getInputData' in ctx
					? (ctx as IExecuteFunctions).getNodeParameter(name, 0, '')
					: (ctx as IPollFunctions).getNodeParameter(name, '');
		} catch {
			value = '';
		}
		if (value !== '' && value !== undefined && value !== null) break;
	}
	if (value === '' || value === undefined || value === null) return DEFAULT_REQUEST_TIMEOUT_MS;
	const seconds = typeof value === 'string' ? Number(value.trim()) : Number(value);
	if (
		!Number.isFinite(seconds) ||
		seconds < 1 ||
		seconds * 1000 > MAX_REQUEST_TIMEOUT_MS ||
		typeof value === 'boolean'
	) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Request Timeout must be a number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_MS / 1000}; it is ${JSON.stringify(value)}`,
			{
				description: `Enter how long one request may take, in seconds (for example ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}), or leave it empty for the default.`,
			},
		);
	}
	return Math.round(seconds * 1000);
}

interface CredentialInfo {
	type: string;
	baseUrl: string;
	/** `scheme://host:port` of the Base URL: the only origin the credential is sent to. */
	origin: string;
	secrets: string[];
}

/**
 * What the caches of one node run (the credential here, the catalog in catalog.ts) are kept
 * for: the context object, which n8n makes anew for each execution of the action node. n8n's
 * poller keeps one context for every poll of an activation, so the trigger opens a run scope
 * at the start of each poll (`openRunScope`): the credential and the catalog are then read
 * again, and an edited credential is used from the next poll on.
 */
const runScopes = new WeakMap<object, object>();

/** The key of the current run of `ctx` for per-run caches. */
export function runScopeOf(ctx: object): object {
	return runScopes.get(ctx) ?? ctx;
}

/** Starts a new run for a context that n8n reuses (one poll of the trigger). */
export function openRunScope(ctx: object): void {
	runScopes.set(ctx, {});
}

/**
 * The credential as read once per node run (see runScopeOf): a node that sends hundreds of
 * requests does not decrypt and check it hundreds of times. Errors re-read it (`fresh`), so
 * that a session token renewed meanwhile is redacted too.
 */
const credentialCache = new WeakMap<object, Promise<CredentialInfo>>();

/** Reads and checks the credential in use (base URL; API key shape) before any request. */
export async function credentialInfo(this: ServiceContext, fresh = false): Promise<CredentialInfo> {
	const run = runScopeOf(this);
	const cached = fresh ? undefined : credentialCache.get(run);
	if (cached) return await cached;
	// The promise is cached, so that parallel requests starting together read it once.
	const reading = readCredentialInfo.call(this);
	credentialCache.set(run, reading);
	reading.catch(() => credentialCache.get(run) === reading && credentialCache.delete(run));
	return await reading;
}

/** The value of the HTTP Basic header the login sends (`username:password` in base64). */
function basicValue(username: unknown, password: unknown): string | undefined {
	if (typeof username !== 'string' || typeof password !== 'string' || password === '')
		return undefined;
	return Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

async function readCredentialInfo(this: ServiceContext): Promise<CredentialInfo> {
	const method = authenticationMethod(this);
	const type = CREDENTIAL_TYPES[method];
	const credentials = await this.getCredentials(type);
	const secrets = [
		credentials.apiKey,
		credentials.password,
		credentials.sessionToken,
		basicValue(credentials.username, credentials.password),
	]
		.filter((v): v is string => typeof v === 'string')
		// As stored and as sent (n8n may trim what was pasted with a space).
		.flatMap((v) => [v, v.trim()])
		.filter((v, i, all) => v.length > 0 && all.indexOf(v) === i);
	try {
		if (method === 'apiKey') checkApiKey(credentials.apiKey);
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		return { type, baseUrl, origin: new URL(baseUrl).origin, secrets };
	} catch (error) {
		const setupError = new NodeOperationError(this.getNode(), (error as Error).message, {
			description:
				error instanceof CredentialSetupError
					? 'Open the credential of this node and correct it.'
					: 'Open the credential of this node and check it.',
		});
		throw attachFailure(setupError, CREDENTIAL_FAILURE);
	}
}

interface ErrorParts {
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	networkCode?: string;
	/** A 3xx answer that was not followed, and why. */
	redirect?: RedirectRefusal;
	/** The attempt was abandoned at its deadline (milliseconds). */
	timedOutAfterMs?: number;
	/** A 2xx answer without the documented shape: what is wrong with it. */
	unexpected?: string;
}

/** The secrets to redact from an error: those read at the start plus any renewed since. */
async function currentSecrets(ctx: ServiceContext, known: string[]): Promise<string[]> {
	try {
		return [...new Set([...known, ...(await credentialInfo.call(ctx, true)).secrets])];
	} catch {
		return known;
	}
}

function originalMessage(error: unknown): string {
	const e = error as { message?: unknown; messages?: unknown };
	const wrapped = Array.isArray(e?.messages)
		? e.messages.find((m) => typeof m === 'string' && m)
		: undefined;
	return String(wrapped ?? e?.message ?? error);
}

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

/** Why an answer is refused whatever its shape: it nests deeper than any walk can follow. */
const TOO_DEEP = `it nests more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether a body (a parsed value, or text that is JSON) nests more than MAX_JSON_DEPTH levels:
 * every recursive walk over it (redaction, a copy, JSON.stringify, n8n's deep copy) would
 * overflow the call stack, so it is checked, without recursion, before any of them.
 */
function nestsTooDeep(body: unknown): boolean {
	if (typeof body === 'string') {
		if (!/^\s*[[{]/.test(body)) return false;
		try {
			return pathDeeperThan(JSON.parse(body) as unknown, MAX_JSON_DEPTH) !== undefined;
		} catch {
			return false;
		}
	}
	return pathDeeperThan(body, MAX_JSON_DEPTH) !== undefined;
}

function redactDeep(value: unknown, secrets: string[]): unknown {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) {
			if (/^(authorization|api[-_]?key|password|token|session[-_]?token)$/i.test(k)) continue;
			out[k] = redactDeep(v, secrets);
		}
		return out;
	}
	return value;
}

/**
 * Builds the NodeApiError a user sees: the service's own message (clipped), a description
 * saying what to do, and a sanitised, bounded copy of the response (never the request, which
 * holds the credential).
 */
export function toNodeApiError(
	ctx: ServiceContext,
	parts: ErrorParts,
	request: {
		method: string;
		path: string;
		itemIndex?: number;
		baseOrigin?: string;
		idempotent?: boolean;
	},
	secrets: string[],
): NodeApiError {
	// A body too deep to walk is not kept (nor walked): the error says why it was refused.
	if (nestsTooDeep(parts.body))
		parts = { ...parts, body: undefined, unexpected: parts.unexpected ?? TOO_DEEP };
	// Every secret out of the whole body first: messages and kept bodies are cut afterwards.
	const clean: ErrorParts = {
		...parts,
		body: redactValue(parts.body, secrets),
		...(parts.unexpected !== undefined ? { unexpected: redact(parts.unexpected, secrets) } : {}),
	};
	const mapped = mapServiceError({
		...clean,
		method: request.method,
		path: request.path,
		baseOrigin: request.baseOrigin,
		idempotent: request.idempotent,
	});
	const body = boundedBody(redactDeep(clean.body, secrets));
	const response: JsonObject = {
		status: parts.status ?? null,
		kind: mapped.kind,
		method: request.method,
		path: request.path,
		body: (body ?? null) as JsonObject,
		...(mapped.details as JsonObject),
	};
	if (parts.redirect) response.redirect = { ...parts.redirect } as JsonObject;
	if (parts.timedOutAfterMs !== undefined) response.timeout_ms = parts.timedOutAfterMs;
	const retryAfter = parts.headers?.['retry-after'];
	const retryAfterMs =
		retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, Date.now());
	if (retryAfterMs !== undefined) response.retry_after_ms = retryAfterMs;
	const error = new NodeApiError(ctx.getNode(), response, {
		message: redact(mapped.message, secrets),
		description: redact(mapped.description, secrets),
		httpCode: mapped.httpCode,
		itemIndex: request.itemIndex,
	});
	return attachFailure(
		error,
		describeFailure({
			kind: mapped.kind,
			status: parts.status,
			networkCode: parts.networkCode,
			retryAfterMs,
			details: mapped.details,
		}),
	);
}

function cancelSignal(ctx: ServiceContext): AbortSignal | undefined {
	return cancelSignalOf(ctx);
}

/** A request ready to send, and what the steps after sending need to know about it. */
interface PreparedRequest {
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

type AttemptResult = { ok: true; value: unknown } | { ok: false; parts: ErrorParts };

/** One hop of an attempt: the first address, or where a same-origin redirect pointed. */
interface Hop {
	url: string;
	method: IHttpRequestMethods;
	body?: unknown;
	/** The query of the request goes on the first address only (a Location carries its own). */
	first: boolean;
}

/** Step 1: the URL, the headers (version, JSON), the deadline and the retry settings. */
function buildRequest(
	ctx: ServiceContext,
	credential: CredentialInfo,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions,
): PreparedRequest {
	const headers: Record<string, string> = {
		'X-API-Version': API_VERSION,
		Accept: 'application/json',
		...(options.headers ?? {}),
	};
	if (options.body !== undefined) headers['Content-Type'] = 'application/json';
	return {
		method,
		path,
		url: `${credential.baseUrl}${path.startsWith('/') ? path : `/${path}`}`,
		baseOrigin: credential.origin,
		itemIndex: options.itemIndex,
		idempotent: options.idempotent ?? method === 'GET',
		policy: { ...DEFAULT_RETRY_POLICY, ...(options.retryPolicy ?? {}) },
		credentialType: credential.type,
		renewsSession: credential.type === CREDENTIAL_TYPES.login,
		secrets: credential.secrets,
		headers,
		qs: options.qs,
		body: options.body,
		returnFullResponse: options.returnFullResponse === true,
		timeoutMs: Math.max(
			1,
			Math.min(requestTimeoutMs(ctx), options.timeoutMs ?? Number.POSITIVE_INFINITY),
		),
		expect: options.expect,
	};
}

/** The body as JSON text. */
function jsonText(body: unknown): string {
	return JSON.stringify(body);
}

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
		json: false,
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
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
async function attemptOnce(ctx: ServiceContext, request: PreparedRequest): Promise<AttemptResult> {
	try {
		return await withDeadline(request.timeoutMs, cancelSignal(ctx), async (signal) => {
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

/** Step 5: how long to wait before the next attempt, or undefined to give up (retry.ts). */
function nextAttemptDelay(
	ctx: ServiceContext,
	request: PreparedRequest,
	parts: ErrorParts,
	attempt: number,
): number | undefined {
	if (cancelSignal(ctx)?.aborted) return undefined;
	// An attempt that used up its whole deadline is not repeated: the node ends within it.
	if (parts.timedOutAfterMs !== undefined) return undefined;
	if (parts.redirect !== undefined || parts.unexpected !== undefined) return undefined;
	const outcome = {
		status: parts.status,
		networkCode: parts.networkCode,
		retryAfter: parts.headers?.['retry-after'],
	};
	return retryDelay(outcome, attempt, request.idempotent, request.policy);
}

/** Step 6: waits before the next attempt; false when the execution was cancelled meanwhile. */
async function waitBeforeRetry(ctx: ServiceContext, delayMs: number): Promise<boolean> {
	try {
		await sleepUnlessCancelled(delayMs, cancelSignal(ctx));
		return true;
	} catch {
		return false;
	}
}

/** The error of a request that failed for good, with secrets renewed meanwhile redacted too. */
async function failureError(
	ctx: ServiceContext,
	parts: ErrorParts,
	request: PreparedRequest,
): Promise<NodeApiError> {
	return toNodeApiError(ctx, parts, request, await currentSecrets(ctx, request.secrets));
}

/**
 * The one way this package talks to the service: adds the version header, authenticates
 * through n8n (so proxies, credential tests and the 401 re-login work), keeps the credential
 * to its Base URL's origin (redirects elsewhere are refused), gives every attempt a deadline,
 * retries what is safe to retry, checks that a 2xx answer is JSON of the expected shape, and
 * maps every error to a message the user can act on, with its ServiceFailure attached (read
 * it with `serviceErrorOf`).
 */
export async function apiRequest<T = unknown>(
	this: ServiceContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const request = buildRequest(this, await credentialInfo.call(this), method, path, options);
	for (let attempt = 1; ; attempt++) {
		const result = await attemptOnce(this, request);
		if (result.ok) return result.value as T;
		const delay = nextAttemptDelay(this, request, result.parts, attempt);
		if (delay === undefined || !(await waitBeforeRetry(this, delay)))
			throw await failureError(this, result.parts, request);
	}
}

import type {
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
import { CredentialSetupError, checkApiKey, normaliseBaseUrl } from '../../../credentials/common';
import { mapServiceError, redact } from './errors';
import { CREDENTIAL_FAILURE, attachFailure, describeFailure, networkCodeOf } from './failure';
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
	retryPolicy?: Partial<RetryPolicy>;
	/** Return { body, headers, statusCode } instead of the body. */
	returnFullResponse?: boolean;
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

interface CredentialInfo {
	type: string;
	baseUrl: string;
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

async function readCredentialInfo(this: ServiceContext): Promise<CredentialInfo> {
	const method = authenticationMethod(this);
	const type = CREDENTIAL_TYPES[method];
	const credentials = await this.getCredentials(type);
	const secrets = [credentials.apiKey, credentials.password, credentials.sessionToken].filter(
		(v): v is string => typeof v === 'string' && v.length > 0,
	);
	try {
		if (method === 'apiKey') checkApiKey(credentials.apiKey);
		return { type, baseUrl: normaliseBaseUrl(credentials.baseUrl), secrets };
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

function normaliseHeaders(headers: unknown): Record<string, string> {
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
 * Builds the NodeApiError a user sees: the service's own message, a description saying
 * what to do, and a sanitised copy of the response (never the request, which holds the
 * credential).
 */
export function toNodeApiError(
	ctx: ServiceContext,
	parts: ErrorParts,
	request: { method: string; path: string; itemIndex?: number },
	secrets: string[],
): NodeApiError {
	const mapped = mapServiceError({ ...parts, method: request.method, path: request.path });
	const body = redactDeep(parts.body, secrets);
	const response: JsonObject = {
		status: parts.status ?? null,
		kind: mapped.kind,
		method: request.method,
		path: request.path,
		body: (body ?? null) as JsonObject,
		...(mapped.details as JsonObject),
	};
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
	const fn = (ctx as IExecuteFunctions).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

/** A request ready to send, and what the steps after sending need to know about it. */
interface PreparedRequest {
	method: IHttpRequestMethods;
	path: string;
	itemIndex?: number;
	idempotent: boolean;
	policy: RetryPolicy;
	credentialType: string;
	/** The login credential: a 401 means the session token expired and n8n can renew it. */
	renewsSession: boolean;
	secrets: string[];
	http: IHttpRequestOptions;
	returnFullResponse: boolean;
}

type AttemptResult = { ok: true; value: unknown } | { ok: false; parts: ErrorParts };

/** Step 1: the URL, the headers (version, JSON) and the retry settings of one request. */
function buildRequest(
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
		itemIndex: options.itemIndex,
		idempotent: options.idempotent ?? method === 'GET',
		policy: { ...DEFAULT_RETRY_POLICY, ...(options.retryPolicy ?? {}) },
		credentialType: credential.type,
		renewsSession: credential.type === CREDENTIAL_TYPES.login,
		secrets: credential.secrets,
		returnFullResponse: options.returnFullResponse === true,
		http: {
			method,
			url: `${credential.baseUrl}${path.startsWith('/') ? path : `/${path}`}`,
			headers,
			qs: options.qs,
			body: options.body as IDataObject,
			json: true,
			returnFullResponse: true,
			// Every status comes back to us, so that the service's own message, its body shape
			// and headers such as Retry-After can be read (n8n's wrapped errors drop them).
			ignoreHttpStatusErrors: true,
		},
	};
}

/**
 * Step 2: sends through n8n (which authenticates). On a 401 with the login credential the
 * session token expired: the same request goes again without ignoring the status, so that n8n
 * logs in again (preAuthentication), stores the new token and retries once. A 401 is answered
 * before anything is processed, so this never doubles an action.
 */
async function sendWithRelogin(
	ctx: ServiceContext,
	request: PreparedRequest,
): Promise<FullResponse<unknown>> {
	const send = async (http: IHttpRequestOptions) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(ctx, request.credentialType, {
			...http,
			headers: { ...(http.headers as Record<string, string>) },
		})) as FullResponse<unknown>;
	const response = await send(request.http);
	if (response.statusCode !== 401 || !request.renewsSession) return response;
	return await send({ ...request.http, ignoreHttpStatusErrors: false });
}

/** Step 3: the body (or the full response) of a 2xx; the parts of anything else. */
function readResponse(response: FullResponse<unknown>, request: PreparedRequest): AttemptResult {
	const headers = normaliseHeaders(response.headers);
	if (response.statusCode >= 200 && response.statusCode < 300) {
		const value = request.returnFullResponse
			? { body: response.body, headers, statusCode: response.statusCode }
			: response.body;
		return { ok: true, value };
	}
	return { ok: false, parts: { status: response.statusCode, body: response.body, headers } };
}

/**
 * Step 4: what a thrown request tells: a status (only the re-login path throws on one; n8n
 * kept part of the answer), or a network error. Anything else is not a transport failure (the
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

/** One attempt: send, then read the answer or classify the failure. */
async function attemptOnce(ctx: ServiceContext, request: PreparedRequest): Promise<AttemptResult> {
	let response: FullResponse<unknown>;
	try {
		response = await sendWithRelogin(ctx, request);
	} catch (error) {
		return { ok: false, parts: classifyThrown(ctx, error, request) };
	}
	return readResponse(response, request);
}

/** Step 5: how long to wait before the next attempt, or undefined to give up (retry.ts). */
function nextAttemptDelay(
	ctx: ServiceContext,
	request: PreparedRequest,
	parts: ErrorParts,
	attempt: number,
): number | undefined {
	if (cancelSignal(ctx)?.aborted) return undefined;
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
 * through n8n (so proxies, credential tests and the 401 re-login work), retries what is
 * safe to retry, and maps every error to a message the user can act on, with its
 * ServiceFailure attached (read it with `serviceErrorOf`).
 */
export async function apiRequest<T = unknown>(
	this: ServiceContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const request = buildRequest(await credentialInfo.call(this), method, path, options);
	for (let attempt = 1; ; attempt++) {
		const result = await attemptOnce(this, request);
		if (result.ok) return result.value as T;
		const delay = nextAttemptDelay(this, request, result.parts, attempt);
		if (delay === undefined || !(await waitBeforeRetry(this, delay)))
			throw await failureError(this, result.parts, request);
	}
}

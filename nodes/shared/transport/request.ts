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
 * The credential as read once per node run (one context object): a node that sends
 * hundreds of requests does not decrypt and check it hundreds of times. Errors re-read it
 * (`fresh`), so that a session token renewed meanwhile is redacted too.
 */
const credentialCache = new WeakMap<object, Promise<CredentialInfo>>();

/** Reads and checks the credential in use (base URL; API key shape) before any request. */
export async function credentialInfo(this: ServiceContext, fresh = false): Promise<CredentialInfo> {
	const cached = fresh ? undefined : credentialCache.get(this);
	if (cached) return await cached;
	// The promise is cached, so that parallel requests starting together read it once.
	const reading = readCredentialInfo.call(this);
	credentialCache.set(this, reading);
	reading.catch(() => credentialCache.delete(this));
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
		throw new NodeOperationError(this.getNode(), (error as Error).message, {
			description:
				error instanceof CredentialSetupError
					? 'Open the credential of this node and correct it.'
					: 'Open the credential of this node and check it.',
		});
	}
}

interface ErrorParts {
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	networkCode?: string;
}

/** n8n-workflow's descriptive messages for network errors, mapped back to their codes. */
const N8N_NETWORK_MESSAGES: Array<[RegExp, string]> = [
	[/refused the connection/i, 'ECONNREFUSED'],
	[/closed unexpectedly/i, 'ECONNRESET'],
	[/incorrect host/i, 'ENOTFOUND'],
	[/timed out/i, 'ETIMEDOUT'],
	[/connection was aborted/i, 'ECONNABORTED'],
	[/host is unreachable/i, 'EHOSTUNREACH'],
	[/DNS server returned an error/i, 'EAI_AGAIN'],
	[/socket hang up/i, 'ECONNRESET'],
];

/**
 * Finds the network error code in what n8n's request helper threw. n8n wraps the
 * original error in a NodeApiError and keeps only its messages, so read those.
 */
export function networkCodeOf(error: unknown): string | undefined {
	const e = error as { code?: unknown; message?: unknown; messages?: unknown; cause?: unknown };
	if (typeof e?.code === 'string' && /^(E[A-Z_]{3,}|UND_ERR\w*)$/.test(e.code)) return e.code;
	const texts = [...(Array.isArray(e?.messages) ? e.messages : []), e?.message].filter(
		(t): t is string => typeof t === 'string',
	);
	for (const t of texts) {
		const code =
			/\b(E(?:CONN[A-Z]+|TIMEDOUT|NOTFOUND|AI_AGAIN|PIPE|HOSTUNREACH|SOCKETTIMEDOUT))\b/.exec(
				t,
			)?.[1];
		if (code) return code;
	}
	for (const t of texts) {
		for (const [pattern, code] of N8N_NETWORK_MESSAGES) if (pattern.test(t)) return code;
	}
	if (e?.cause && e.cause !== error) return networkCodeOf(e.cause);
	return undefined;
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
	return new NodeApiError(ctx.getNode(), response, {
		message: redact(mapped.message, secrets),
		description: redact(mapped.description, secrets),
		httpCode: mapped.httpCode,
		itemIndex: request.itemIndex,
	});
}

function cancelSignal(ctx: ServiceContext): AbortSignal | undefined {
	const fn = (ctx as IExecuteFunctions).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

/**
 * The one way this package talks to the service: adds the version header, authenticates
 * through n8n (so proxies, credential tests and the 401 re-login work), retries what is
 * safe to retry, and maps every error to a message the user can act on.
 */
export async function apiRequest<T = unknown>(
	this: ServiceContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const { type, baseUrl, secrets } = await credentialInfo.call(this);
	const idempotent = options.idempotent ?? method === 'GET';
	const policy = { ...DEFAULT_RETRY_POLICY, ...(options.retryPolicy ?? {}) };
	const headers: Record<string, string> = {
		'X-API-Version': API_VERSION,
		Accept: 'application/json',
		...(options.headers ?? {}),
	};
	if (options.body !== undefined) headers['Content-Type'] = 'application/json';

	const requestOptions: IHttpRequestOptions = {
		method,
		url: `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`,
		headers,
		qs: options.qs,
		body: options.body as IDataObject,
		json: true,
		returnFullResponse: true,
		// Every status comes back to us, so that the service's own message, its body shape
		// and headers such as Retry-After can be read (n8n's wrapped errors drop them).
		ignoreHttpStatusErrors: true,
	};
	const renewsSession = type === CREDENTIAL_TYPES.login;
	const request = { method, path, itemIndex: options.itemIndex };

	for (let attempt = 1; ; attempt++) {
		let parts: ErrorParts;
		try {
			let response = (await this.helpers.httpRequestWithAuthentication.call(this, type, {
				...requestOptions,
				headers: { ...headers },
			})) as FullResponse<T>;
			if (response.statusCode === 401 && renewsSession) {
				// The session token expired. Send the same request without ignoring the status:
				// n8n then logs in again (preAuthentication), stores the new token and retries once.
				// A 401 is answered before anything is processed, so this never doubles an action.
				response = (await this.helpers.httpRequestWithAuthentication.call(this, type, {
					...requestOptions,
					headers: { ...headers },
					ignoreHttpStatusErrors: false,
				})) as FullResponse<T>;
			}
			if (response.statusCode >= 200 && response.statusCode < 300) {
				if (options.returnFullResponse) {
					return {
						body: response.body,
						headers: normaliseHeaders(response.headers),
						statusCode: response.statusCode,
					} as unknown as T;
				}
				return response.body;
			}
			parts = {
				status: response.statusCode,
				body: response.body,
				headers: normaliseHeaders(response.headers),
			};
		} catch (error) {
			const httpCode = Number((error as { httpCode?: unknown }).httpCode);
			if (Number.isInteger(httpCode) && httpCode >= 400) {
				// Only the re-login path throws on a status; keep what n8n kept of the answer.
				parts = {
					status: httpCode,
					body:
						(error as { context?: { data?: unknown } }).context?.data ?? (error as Error).message,
				};
			} else {
				const networkCode = networkCodeOf(error);
				if (networkCode === undefined) {
					// Not a transport failure (the credential's own check, or a failed login): keep the
					// original message, which n8n's wrapper keeps in `messages`.
					throw new NodeOperationError(this.getNode(), redact(originalMessage(error), secrets), {
						itemIndex: options.itemIndex,
						description: 'Open the credential of this node and check it.',
					});
				}
				parts = { networkCode };
			}
		}
		const signal = cancelSignal(this);
		const delay = signal?.aborted
			? undefined
			: retryDelay(
					{
						status: parts.status,
						networkCode: parts.networkCode,
						retryAfter: parts.headers?.['retry-after'],
					},
					attempt,
					idempotent,
					policy,
				);
		if (delay === undefined)
			throw toNodeApiError(this, parts, request, await currentSecrets(this, secrets));
		try {
			await sleepUnlessCancelled(delay, signal);
		} catch {
			throw toNodeApiError(this, parts, request, await currentSecrets(this, secrets));
		}
	}
}

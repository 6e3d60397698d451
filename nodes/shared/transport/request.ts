/**
 * apiRequest: every HTTP call of the package. Builds the request (version header, JSON, the
 * credential's Base URL, the deadline), makes attempts (sendAttempt.ts) and retries what is safe
 * to retry (retry.ts), and throws the error of requestError.ts when it fails for good. Steps
 * 1, 5 and 6 are here; steps 2 to 4 (one attempt) in sendAttempt.ts.
 */
import type { IDataObject, IHttpRequestMethods, NodeApiError } from 'n8n-workflow';

import { sleepUnlessCancelled } from '../time/sleep';
import type { PreparedRequest } from './sendAttempt';
import { attemptOnce } from './sendAttempt';
import type { ServiceContext } from './serviceContext';
import type { CredentialInfo } from './nodeCredential';
import { CREDENTIAL_TYPES, credentialInfo, currentSecrets } from './nodeCredential';
import { cancelSignalOf, requestTimeoutMs } from './deadline';
import type { ErrorParts } from './requestError';
import { toNodeApiError } from './requestError';
import type { RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, retryDelay } from './retry';

export const API_VERSION = '3';

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

/** Step 5: how long to wait before the next attempt, or undefined to give up (retry.ts). */
function nextAttemptDelay(
	ctx: ServiceContext,
	request: PreparedRequest,
	parts: ErrorParts,
	attempt: number,
): number | undefined {
	if (cancelSignalOf(ctx)?.aborted) return undefined;
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
		await sleepUnlessCancelled(delayMs, cancelSignalOf(ctx));
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

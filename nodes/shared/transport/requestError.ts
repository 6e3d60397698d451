/**
 * The error a request that failed for good throws: the row of serviceErrors.ts that describes
 * the failure (message and hint, secrets redacted over the whole text before anything is cut),
 * a sanitised, bounded copy of the answer (never the request, which holds the credential),
 * and the ServiceFailure attached for `serviceErrorOf`.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { MAX_JSON_DEPTH, pathDeeperThan } from '../input/depth';
import { boundedBody } from './answers';
import type { ServiceContext } from './serviceContext';
import { redact, redactDeep, redactValue } from './redaction';
import type { RedirectRefusal } from './redirects';
import { parseRetryAfter } from './retry';
import { mapServiceError } from './serviceErrors';
import { attachFailure, describeFailure } from './serviceFailure';

/** What a failed attempt left to describe it. */
export interface ErrorParts {
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

/** Why an answer is refused whatever its shape: it nests deeper than any walk can follow. */
export const TOO_DEEP = `it nests more than ${MAX_JSON_DEPTH} levels deep`;

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

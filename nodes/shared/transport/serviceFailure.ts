/**
 * What went wrong with a request, as data. The transport attaches a ServiceFailure to every
 * error it throws, when it builds the error; callers read it with `serviceErrorOf` instead of
 * reading messages, status codes or bodies themselves. Pure: no n8n imports.
 */
import { isTransient, mayHaveArrived } from './retry';

/**
 * What kind of failure the service's answer (or its absence) was: the `kind` of each row of
 * the table in serviceErrors.ts. Callers ask the kind, never the status code.
 */
export type ServiceErrorKind =
	| 'missing-api-version'
	| 'invalid-api-version'
	| 'invalid-json'
	| 'unknown-property'
	| 'invalid-check-type'
	| 'invalid-commodity'
	| 'unclosed-ring'
	| 'invalid-geometry'
	| 'invalid-cursor'
	| 'insufficient-tokens'
	| 'bad-request'
	| 'unauthorized'
	| 'forbidden-role'
	| 'forbidden-owner'
	| 'forbidden'
	| 'not-found'
	| 'token-balance-unavailable'
	| 'method-not-allowed'
	| 'not-acceptable'
	| 'request-timeout'
	| 'unsupported-media-type'
	| 'rate-limited'
	| 'server-error'
	| 'unavailable'
	| 'network'
	| 'certificate'
	| 'redirect'
	| 'unexpected-answer'
	| 'unknown';

/** The kinds of serviceErrors.ts, plus 'credential' (the credential failed its check or its login). */
export type FailureKind = ServiceErrorKind | 'credential';

/**
 * The kinds of an answer the service would give again to the same request: it refused it
 * (a 4xx other than 408 and 429, 'unknown' included: a refusal no row knows, or an error the
 * transport did not make), or the setup cannot work (the credential, a refused redirect or
 * certificate). Waiting or asking again does not change them.
 */
const LASTING_KINDS: ReadonlySet<FailureKind> = new Set<FailureKind>([
	'missing-api-version',
	'invalid-api-version',
	'invalid-json',
	'unknown-property',
	'invalid-check-type',
	'invalid-commodity',
	'unclosed-ring',
	'invalid-geometry',
	'invalid-cursor',
	'insufficient-tokens',
	'bad-request',
	'unauthorized',
	'forbidden-role',
	'forbidden-owner',
	'forbidden',
	'not-found',
	'token-balance-unavailable',
	'method-not-allowed',
	'not-acceptable',
	'unsupported-media-type',
	'certificate',
	'redirect',
	'credential',
	'unknown',
]);

/** Whether asking again later would get the same failure (see LASTING_KINDS). */
export function isLasting(failure: Pick<ServiceFailure, 'kind'>): boolean {
	return LASTING_KINDS.has(failure.kind);
}

/** The item asked for is not there for this credential: it does not exist, or is another account's. */
export function itemGone(failure: Pick<ServiceFailure, 'kind'>): boolean {
	return (
		failure.kind === 'not-found' ||
		failure.kind === 'forbidden-owner' ||
		failure.kind === 'forbidden-role' ||
		failure.kind === 'forbidden'
	);
}

/** Token numbers an insufficient-tokens answer carried; absent when the service gave none. */
export interface TokenShortage {
	needed?: number;
	free?: number;
}

export interface ServiceFailure {
	/** 'unknown' for an error the transport did not make (or a 4xx no row of serviceErrors.ts knows). */
	kind: FailureKind;
	/** HTTP status of the service's answer; absent when no answer arrived. */
	status?: number;
	/** Network error code (ECONNRESET, ETIMEDOUT, …) when no answer arrived. */
	networkCode?: string;
	/** How long the service asked to wait (Retry-After), in milliseconds, on any status. */
	retryAfterMs?: number;
	/** Set when kind is 'insufficient-tokens'. */
	tokens?: TokenShortage;
	/**
	 * The request may have reached the service and been carried out although it failed (the
	 * connection broke after sending, or a gateway answered 502/504): a request that creates
	 * something may then have created it. False when it certainly was not carried out.
	 */
	mayHaveArrived: boolean;
	/** Worth another try later if the request is safe to repeat (the transport's retry policy). */
	transient: boolean;
}

const FAILURE = Symbol.for('n8n-nodes-geospatial-analysis.serviceFailure');

const FOREIGN: ServiceFailure = Object.freeze({
	kind: 'unknown',
	mayHaveArrived: false,
	transient: false,
});

/** Keeps `failure` on `error` (not enumerable: never serialised into what users see). */
export function attachFailure<E extends object>(error: E, failure: ServiceFailure): E {
	const frozen = Object.freeze({
		...failure,
		...(failure.tokens ? { tokens: Object.freeze({ ...failure.tokens }) } : {}),
	});
	Object.defineProperty(error, FAILURE, { value: frozen, enumerable: false, configurable: true });
	return error;
}

/**
 * The failure behind any thrown value: what the transport attached to it or to an error it
 * wraps (`cause`), or kind 'unknown' for anything else. Ask the error apiRequest threw (or
 * what asNodeError returns for it, the same instance): n8n's own error classes drop the
 * cause when they wrap an error in a new one.
 */
export function serviceErrorOf(error: unknown): ServiceFailure {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current !== null && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const found = (current as Record<symbol, unknown>)[FAILURE];
		if (found) return found as ServiceFailure;
		current = (current as { cause?: unknown }).cause;
	}
	return FOREIGN;
}

function tokenCount(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** The token numbers among the body fields serviceErrors.ts keeps (`details`). */
export function tokenShortage(details: Record<string, unknown>): TokenShortage {
	const needed = [details.required, details.required_tokens, details.needed, details.token_cost]
		.map(tokenCount)
		.find((n) => n !== undefined);
	const free = [details.available, details.available_tokens, details.free]
		.map(tokenCount)
		.find((n) => n !== undefined);
	return {
		...(needed !== undefined ? { needed } : {}),
		...(free !== undefined ? { free } : {}),
	};
}

/** The failure of a request, from what the transport saw of it. */
export function describeFailure(seen: {
	kind: FailureKind;
	status?: number;
	networkCode?: string;
	retryAfterMs?: number;
	details?: Record<string, unknown>;
}): ServiceFailure {
	const outcome = { status: seen.status, networkCode: seen.networkCode };
	// Without a status only a network failure says anything about the request's fate.
	const sent = seen.status !== undefined || seen.kind === 'network';
	const failure: ServiceFailure = {
		kind: seen.kind,
		mayHaveArrived: sent && mayHaveArrived(outcome),
		transient: sent && isTransient(outcome),
	};
	// A 2xx answer that could not be read: the request was carried out, and repeating it
	// would get the same answer.
	if (seen.kind === 'unexpected-answer') {
		failure.mayHaveArrived = true;
		failure.transient = false;
	}
	if (seen.status !== undefined) failure.status = seen.status;
	else if (seen.networkCode !== undefined) failure.networkCode = seen.networkCode;
	if (seen.retryAfterMs !== undefined) failure.retryAfterMs = seen.retryAfterMs;
	if (seen.kind === 'insufficient-tokens') failure.tokens = tokenShortage(seen.details ?? {});
	return failure;
}

/** A failure that happened before anything was sent (the credential's check, its login). */
export const CREDENTIAL_FAILURE: ServiceFailure = describeFailure({ kind: 'credential' });

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
	[/certificate|self[- ]signed/i, 'CERT_UNTRUSTED'],
];

/** Node.js network codes, and the TLS codes of a certificate that was not accepted. */
const NETWORK_CODE =
	/^(E[A-Z_]{3,}|UND_ERR\w*|CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|HOSTNAME_MISMATCH)$/;

/**
 * The network error code of what n8n's request helper threw, read once by the transport when
 * it classifies the failure. n8n wraps the original error in a NodeApiError that keeps its code
 * as `httpCode` (and drops the cause); older releases keep only the messages, so those are the
 * fallback. Undefined when the error is not a network error.
 */
export function networkCodeOf(error: unknown): string | undefined {
	const e = error as {
		code?: unknown;
		httpCode?: unknown;
		message?: unknown;
		messages?: unknown;
		cause?: unknown;
	};
	for (const field of [e?.code, e?.httpCode])
		if (typeof field === 'string' && NETWORK_CODE.test(field)) return field;
	const texts = [...(Array.isArray(e?.messages) ? e.messages : []), e?.message].filter(
		(t): t is string => typeof t === 'string',
	);
	for (const t of texts) {
		const code =
			/\b(E(?:CONN[A-Z]+|TIMEDOUT|NOTFOUND|AI_AGAIN|PIPE|HOSTUNREACH|NETUNREACH|SOCKETTIMEDOUT)|ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+)\b/.exec(
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

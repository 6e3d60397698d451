/**
 * The retry policy of the transport. Pure: unit-tested without n8n.
 *
 * - Idempotent requests (GET, and a dry-run quote) are retried on 429, 502, 503, 504
 *   and on connection errors, with exponential backoff and full jitter, a bounded
 *   number of times; a 429's Retry-After is honoured.
 * - Any other request (a POST that creates something) is retried only when it
 *   certainly never reached the service (the connection was refused or the host
 *   name did not resolve). It is never retried after it may have arrived.
 */

export interface RetryPolicy {
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Upper bound for an honoured Retry-After. */
	maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 8000,
	maxRetryAfterMs: 60_000,
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_ERRORS = new Set([
	...NEVER_SENT,
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
]);

export interface AttemptOutcome {
	status?: number;
	networkCode?: string;
	retryAfter?: string;
}

/** Milliseconds to wait before the next attempt, or undefined when not to retry. */
export function retryDelay(
	outcome: AttemptOutcome,
	attempt: number,
	idempotent: boolean,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
	random: () => number = Math.random,
	now: () => number = Date.now,
): number | undefined {
	if (attempt >= policy.maxAttempts) return undefined;
	const { status, networkCode } = outcome;
	let retryable = false;
	if (status === undefined) {
		if (networkCode && NEVER_SENT.has(networkCode)) retryable = true;
		else if (idempotent && (networkCode === undefined || CONNECTION_ERRORS.has(networkCode)))
			retryable = true;
	} else if (idempotent && RETRYABLE_STATUS.has(status)) {
		retryable = true;
	}
	if (!retryable) return undefined;
	const backoff = backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, random);
	if (status === 429 && outcome.retryAfter !== undefined) {
		const after = parseRetryAfter(outcome.retryAfter, now());
		if (after !== undefined) return Math.min(Math.max(after, backoff / 2), policy.maxRetryAfterMs);
	}
	return backoff;
}

/** Exponential backoff with "equal jitter": half fixed, half random, capped. attempt starts at 1. */
export function backoffDelay(
	attempt: number,
	baseMs: number,
	capMs: number,
	random: () => number = Math.random,
): number {
	const exp = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
	return Math.round(exp / 2 + random() * (exp / 2));
}

/** Retry-After as seconds or an HTTP date → milliseconds from now. */
export function parseRetryAfter(value: string, nowMs: number): number | undefined {
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
	return undefined;
}

/**
 * The retry policy of the package: one decision, used by the transport for every request
 * and by Job → Wait for Completion between its status checks. Pure: unit-tested without n8n.
 *
 * - A failure is transient (worth another try of a request that is safe to repeat) on 429,
 *   502, 503 and 504 and on connection errors. Not on 500: the contract defines it as an
 *   unhandled server error that the service has logged under an ID, i.e. a failure of the
 *   service's own, not an overload; repeating it would only repeat the error, add log entries
 *   and delay the ID the user needs for support. Any other status is an answer, not a failure
 *   of the transport.
 * - Idempotent requests (GET, and a dry-run quote) are retried on transient failures, with
 *   exponential backoff and jitter, a bounded number of times; a Retry-After is honoured on
 *   every status that carries one (429 and 503 in practice).
 * - Any other request (a POST that creates something) is retried only when it certainly
 *   was not carried out: no connection could be made, or the service refused it with 429
 *   (rate limited: refused before anything is processed). It is never retried after it may
 *   have arrived.
 * - A call the EU refused because of its rate limit (HTTP 429, or its throttling fault) was not
 *   processed: refusalDelay says how long to wait before sending it again (the Retry-After it
 *   gave, seconds or an HTTP date, else the backoff), bounded by the call's deadline and
 *   MAX_REFUSALS; these refusals do not count against maxAttempts (they say "not now", and the
 *   pace adapts to them, euRateLimit.ts).
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

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUS = new Set([429, 502, 503, 504]);
/** Statuses after which a request may have been carried out although it failed (a gateway's). */
const OUTCOME_UNKNOWN_STATUS = new Set([502, 504]);
/** Statuses the service answers before processing anything: safe to repeat even a create. */
const REFUSED_UNPROCESSED_STATUS = new Set([429]);
/** Network errors raised before any byte of the request could reach the service. */
const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
const CONNECTION_ERRORS = new Set([
	...NEVER_SENT,
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
]);

/** What one attempt ended with: an HTTP status, or a network error code when none arrived. */
export interface AttemptOutcome {
	status?: number;
	networkCode?: string;
	/** The Retry-After header, as sent. */
	retryAfter?: string;
}

/**
 * Whether a failure is worth another try of a request that is safe to repeat. A network
 * failure without a known code counts as a connection error.
 */
export function isTransient(outcome: Pick<AttemptOutcome, 'status' | 'networkCode'>): boolean {
	if (outcome.status === undefined)
		return outcome.networkCode === undefined || CONNECTION_ERRORS.has(outcome.networkCode);
	return TRANSIENT_STATUS.has(outcome.status);
}

/** Whether the request certainly never reached the service (no connection was made). */
export function neverSent(outcome: Pick<AttemptOutcome, 'status' | 'networkCode'>): boolean {
	return (
		outcome.status === undefined &&
		outcome.networkCode !== undefined &&
		NEVER_SENT.has(outcome.networkCode)
	);
}

/**
 * Whether the request may have reached the service and been carried out although no answer
 * said so: the connection broke after it was sent, or a gateway answered 502/504. An error
 * answer of the service itself (4xx, 500, 503) says the request was not carried out.
 */
export function mayHaveArrived(outcome: Pick<AttemptOutcome, 'status' | 'networkCode'>): boolean {
	if (outcome.status === undefined) return !neverSent(outcome);
	return OUTCOME_UNKNOWN_STATUS.has(outcome.status);
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
	const retryable = idempotent
		? isTransient(outcome)
		: neverSent(outcome) ||
			(outcome.status !== undefined && REFUSED_UNPROCESSED_STATUS.has(outcome.status));
	if (!retryable) return undefined;
	const backoff = backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, random);
	const after =
		outcome.retryAfter === undefined ? undefined : parseRetryAfter(outcome.retryAfter, now());
	if (after === undefined) return backoff;
	return Math.min(Math.max(after, backoff / 2), policy.maxRetryAfterMs);
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

/** At most this many refusals for the rate limit (429 / throttling fault) of one call are waited out. */
export const MAX_REFUSALS = 8;

/**
 * After the EU refused a call because of its rate limit (refused before processing): the
 * milliseconds to wait before sending it again, or undefined when not to, because this was
 * refusal number MAX_REFUSALS, or the wait would end after `deadline` (the call's own: the
 * Request Timeout from its first refusal), or the EU asked for more than maxRetryAfterMs.
 * The wait is the Retry-After the EU gave (seconds or an HTTP date), else the backoff.
 * `refusals` counts this one (1 for the first).
 */
export function refusalDelay(
	o: {
		/** The Retry-After header as sent, or … */
		retryAfter?: string;
		/** … already read (EuFailure's retryAfterMs). */
		retryAfterMs?: number;
		refusals: number;
		now: number;
		deadline: number;
	},
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
	random: () => number = Math.random,
): number | undefined {
	if (o.refusals >= MAX_REFUSALS) return undefined;
	const asked =
		o.retryAfterMs ??
		(o.retryAfter === undefined ? undefined : parseRetryAfter(o.retryAfter, o.now));
	if (asked !== undefined && asked > policy.maxRetryAfterMs) return undefined;
	const wait = asked ?? backoffDelay(o.refusals, policy.baseDelayMs, policy.maxDelayMs, random);
	return o.now + wait > o.deadline ? undefined : wait;
}

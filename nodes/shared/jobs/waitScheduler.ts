/**
 * The timing of Job → Wait for Completion. Pure: the clock and the sleep are injected,
 * so tests drive time without waiting for real (production uses Date.now and n8n's sleep).
 *
 * Schedule: the first check after `firstDelayMs`, then each next one after
 * `firstDelayMs × 2^round`, capped at `capMs`, with ±20 % jitter (never above the cap,
 * never below the first delay); a 429's Retry-After pushes the next check further out.
 */

export interface WaitTiming {
	now: () => number;
	/** Waits `ms`; ends early (rejecting) when `signal`, the execution's cancel signal, aborts. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	random: () => number;
}

let testTiming: Partial<WaitTiming> | undefined;

/**
 * Test seam: replaces the clock, the sleep and/or the jitter source used by Wait for
 * Completion. Pass undefined to restore the real ones.
 */
export function setWaitTimingForTests(timing: Partial<WaitTiming> | undefined): void {
	testTiming = timing;
}

/** The timing in force: the test overrides, or the given production defaults. */
export function waitTiming(defaults: WaitTiming): WaitTiming {
	return { ...defaults, ...(testTiming ?? {}) };
}

export interface PollSchedule {
	firstDelayMs: number;
	capMs: number;
}

export const DEFAULT_FIRST_DELAY_MS = 2_000;
export const DEFAULT_POLL_CAP_MS = 30_000;
export const MAX_MAX_WAIT_MS = 24 * 60 * 60_000;
/** Jitter: the delay is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.2;

/** Milliseconds before check number `round` (0 = the first check). */
export function pollDelay(
	round: number,
	schedule: PollSchedule,
	random: () => number = Math.random,
): number {
	const first = Math.max(0, schedule.firstDelayMs);
	const cap = Math.max(first, schedule.capMs);
	if (round <= 0) return first;
	const exp = Math.min(cap, first * 2 ** Math.min(round, 40));
	const jittered = exp * (1 - JITTER + 2 * JITTER * Math.min(1, Math.max(0, random())));
	return Math.round(Math.min(cap, Math.max(first, jittered)));
}

/** The next delay, honouring a Retry-After (ms) the service asked for. */
export function nextDelay(
	round: number,
	schedule: PollSchedule,
	retryAfterMs?: number,
	random?: () => number,
): number {
	const base = pollDelay(round, schedule, random);
	return retryAfterMs !== undefined && retryAfterMs > base ? retryAfterMs : base;
}

/**
 * The most checks a wait can make: a hard bound so the loop ends whatever the clock,
 * the sleep or the service do.
 */
export function maxRounds(maxWaitMs: number, schedule: PollSchedule): number {
	const first = Math.max(1, schedule.firstDelayMs);
	return Math.ceil(maxWaitMs / first) + 2;
}

/**
 * The Retry-After (ms) of a failed request: the transport keeps it on the error as
 * `errorResponse.retry_after_ms`; the "retry after N s" wording is a fallback.
 */
export function retryAfterFromError(error: unknown): number | undefined {
	const e = error as {
		description?: unknown;
		message?: unknown;
		errorResponse?: { retry_after_ms?: unknown };
	};
	const kept = e?.errorResponse?.retry_after_ms;
	if (typeof kept === 'number' && Number.isFinite(kept) && kept >= 0) return kept;
	const texts = [e?.description, e?.message].filter((t): t is string => typeof t === 'string');
	for (const t of texts) {
		const m = /retry after (\d+(?:\.\d+)?) ?s/i.exec(t);
		if (m) return Math.round(Number(m[1]) * 1000);
	}
	return undefined;
}

/** Whether a poll failure is worth another try on the next round (rate limit, outage, network). */
export function isTransientPollError(httpCode: unknown): boolean {
	const code = Number(httpCode);
	if (!Number.isFinite(code) || code === 0) return true; // network error: no HTTP status
	return code === 429 || code === 500 || code === 502 || code === 503 || code === 504;
}

export interface PendingJob {
	job_id: string;
	status: string;
}

/** The message of a wait that ran out of time. */
export function maxWaitMessage(pending: PendingJob[], maxWaitMs: number): string {
	const list = pending.map((p) => `${p.job_id} (${p.status || 'unknown'})`).join(', ');
	const minutes = Math.round((maxWaitMs / 60_000) * 10) / 10;
	return `${pending.length === 1 ? 'Job' : 'Jobs'} still running after the Max Wait of ${minutes} min: ${list}`;
}

/**
 * The schedule of Job → Wait for Completion (the loop itself is waitForJobs.ts). Pure: the
 * randomness is passed in.
 *
 * Schedule: the first check after `firstDelayMs`, then each next one after
 * `firstDelayMs × 2^round`, capped at `capMs`, with ±20 % jitter (never above the cap,
 * never below the first delay); a Retry-After the service sent pushes the next check further
 * out.
 */

export interface PollSchedule {
	firstDelayMs: number;
	capMs: number;
}

export const DEFAULT_FIRST_DELAY_MS = 2_000;
export const DEFAULT_POLL_CAP_MS = 30_000;
export const MAX_MAX_WAIT_MS = 24 * 60 * 60_000;
/** Jitter: the delay is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
const JITTER = 0.2;

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

interface PendingJob {
	job_id: string;
	status: string;
}

/** The message of a wait that ran out of time. */
export function maxWaitMessage(pending: PendingJob[], maxWaitMs: number): string {
	const list = pending.map((p) => `${p.job_id} (${p.status || 'unknown'})`).join(', ');
	const minutes = Math.round((maxWaitMs / 60_000) * 10) / 10;
	return `${pending.length === 1 ? 'Job' : 'Jobs'} still running after the Max Wait of ${minutes} min: ${list}`;
}

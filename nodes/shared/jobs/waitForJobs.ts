/**
 * The polling loop of Job → Wait for Completion: checks every job of the execution in one
 * loop until all are final, Max Wait runs out or the execution is cancelled. The status
 * request, the clock, the sleep and the randomness are passed in (no n8n imports), so the
 * loop is tested on a virtual clock.
 *
 * A wait is a loop of checks: a failed check (a 500, a timeout, a dropped connection, a
 * gateway's 502/503/504, a 429, an answer that could not be read) is one missed round, and
 * the next check follows on schedule (a Retry-After, or a 429 without one, pauses the rest of
 * the round) until Max Wait; the job then times out with the failure of its last check. Only
 * an answer that another check would not change ends the wait for that job with its error
 * (the job does not exist or is not the account's: 400/401/403/404 and the other 4xx, a
 * credential that cannot be used, a redirect or certificate that was refused), while the other
 * jobs go on.
 *
 * Max Wait is a hard bound: each status check gets what is left of Max Wait (plus
 * CHECK_GRACE_MS for the last one) as its deadline, so a service that never answers ends the
 * wait within Max Wait plus CHECK_GRACE_MS.
 */
import type { Timing } from '../time/sleep';
import { isFinalStatus } from '../results/flatten';
import type { ServiceFailure } from '../transport/serviceFailure';
import { isLasting, serviceErrorOf } from '../transport/serviceFailure';
import type { PollSchedule } from './waitScheduler';
import { maxRounds, nextDelay } from './waitScheduler';

interface WaitForJobsInput<J extends { status?: unknown }> {
	/** Jobs to wait for; duplicates are checked once. */
	jobIds: readonly string[];
	/**
	 * The status request (GET /jobs/job/{id}), without retries of its own (the loop owns them),
	 * ending within `timeoutMs` (what is left of Max Wait).
	 */
	fetchJob: (jobId: string, timeoutMs: number) => Promise<J>;
	schedule: PollSchedule;
	maxWaitMs: number;
	timing: Timing;
	/** The execution's cancel signal. */
	signal?: AbortSignal;
}

export interface JobWait<J> {
	jobId: string;
	/** The job as the service last returned it; absent before a check succeeded. */
	job?: J;
	/** Its last known status; 'unknown' before a check succeeded. */
	status: string;
	/** It reached a final status. */
	finished: boolean;
	/** A check failed in a way another check would not mend: the wait for it stopped here. */
	error?: unknown;
	/** Still running when Max Wait ran out. */
	timedOut: boolean;
	/** The failure of its last check, when that check failed (transiently): `status` is older. */
	lastCheckError?: unknown;
}

export interface WaitForJobsResult<J> {
	/** The execution was cancelled: the loop stopped at once, the jobs are as they were then. */
	cancelled: boolean;
	/** Every job, in the order of `jobIds`. */
	jobs: Map<string, JobWait<J>>;
}

/** Time a status check may take beyond Max Wait: the check made at the deadline. */
export const CHECK_GRACE_MS = 2_000;
/** A check is not started with less time left than this: it could not get an answer. */
const MIN_CHECK_MS = 250;

/**
 * Whether a failed status check ends the wait for its job: only an answer that the next check
 * would repeat (a refusal: not found, another account's, a bad request, …) or a setup that
 * cannot work (the credential, a refused redirect or certificate), and an error the transport
 * did not make (`isLasting`). A server error, an unavailable service, a rate limit, a timeout,
 * a dropped connection and an answer that could not be read are one missed round.
 */
export function endsWait(failure: ServiceFailure): boolean {
	return isLasting(failure);
}

function stillWaiting(entry: JobWait<unknown>): boolean {
	return !entry.finished && entry.error === undefined;
}

/**
 * Checks one job. Returns how long the service asked the loop to pause (Retry-After, or the
 * poll cap for a 429 without one), or undefined.
 */
async function checkJob<J extends { status?: unknown }>(
	entry: JobWait<J>,
	fetchJob: (jobId: string, timeoutMs: number) => Promise<J>,
	capMs: number,
	timeoutMs: number,
): Promise<number | undefined> {
	try {
		const job = await fetchJob(entry.jobId, timeoutMs);
		entry.job = job;
		entry.status = typeof job.status === 'string' ? job.status : String(job.status ?? 'unknown');
		entry.finished = isFinalStatus(job.status);
		entry.lastCheckError = undefined;
		return undefined;
	} catch (error) {
		const failure = serviceErrorOf(error);
		if (endsWait(failure)) {
			entry.error = error;
			return undefined;
		}
		entry.lastCheckError = error;
		if (failure.retryAfterMs !== undefined) return failure.retryAfterMs;
		return failure.kind === 'rate-limited' ? capMs : undefined;
	}
}

/**
 * Waits for the jobs. Schedule (waitScheduler.ts): the first check after the first delay,
 * then exponential backoff with jitter up to the cap, the last check at the deadline; at most
 * `maxRounds` rounds whatever the clock, the sleep or the service do.
 */
export async function waitForJobs<J extends { status?: unknown }>(
	input: WaitForJobsInput<J>,
): Promise<WaitForJobsResult<J>> {
	const { schedule, maxWaitMs, timing, signal } = input;
	const jobs = new Map<string, JobWait<J>>();
	for (const jobId of input.jobIds)
		if (!jobs.has(jobId))
			jobs.set(jobId, { jobId, status: 'unknown', finished: false, timedOut: false });
	const cancelled = () => ({ cancelled: true, jobs });

	const deadline = timing.now() + maxWaitMs;
	const hardEnd = deadline + CHECK_GRACE_MS;
	const bound = maxRounds(maxWaitMs, schedule);
	let pauseMs: number | undefined;
	for (let round = 0; round < bound; round++) {
		const pending = [...jobs.values()].filter(stillWaiting);
		if (pending.length === 0) break;
		const remaining = deadline - timing.now();
		if (remaining <= 0 && round > 0) break;
		const delay = Math.min(
			nextDelay(round, schedule, pauseMs, timing.random),
			Math.max(0, remaining),
		);
		pauseMs = undefined;
		if (signal?.aborted) return cancelled();
		const slept = await timing.sleep(delay, signal).then(
			() => undefined,
			(error: unknown) => ({ error }),
		);
		if (signal?.aborted) return cancelled();
		if (slept) throw slept.error; // a sleep that failed for another reason than the cancel
		for (const entry of pending) {
			if (signal?.aborted) return cancelled();
			const left = hardEnd - timing.now();
			if (left < MIN_CHECK_MS) break; // Max Wait is spent: no check could end in time
			pauseMs = await checkJob(entry, input.fetchJob, schedule.capMs, left);
			if (pauseMs !== undefined) break; // the rest of this round waits as the service asked
		}
		if (timing.now() >= deadline) break;
	}
	if (signal?.aborted) return cancelled();
	for (const entry of jobs.values()) if (stillWaiting(entry)) entry.timedOut = true;
	return { cancelled: false, jobs };
}

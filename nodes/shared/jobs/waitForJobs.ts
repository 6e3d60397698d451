/**
 * The polling loop of Job → Wait for Completion: checks every job of the execution in one
 * loop until all are final, Max Wait runs out or the execution is cancelled. The status
 * request, the clock, the sleep and the randomness are passed in (no n8n imports), so the
 * loop is tested on a virtual clock.
 *
 * A failed check is judged by the transport's retry policy (`transient` of its
 * ServiceFailure): a transient failure is tried again on the next round (a Retry-After, or a
 * 429 without one, pauses the rest of the round); any other failure ends the wait for that
 * job with its error, while the other jobs go on.
 */
import type { Timing } from '../helpers/sleep';
import { isFinalStatus } from '../results/flatten';
import { serviceErrorOf } from '../transport/failure';
import type { PollSchedule } from './waitScheduler';
import { maxRounds, nextDelay } from './waitScheduler';

export interface WaitForJobsInput<J extends { status?: unknown }> {
	/** Jobs to wait for; duplicates are checked once. */
	jobIds: readonly string[];
	/** The status request (GET /jobs/job/{id}), without retries of its own: the loop owns them. */
	fetchJob: (jobId: string) => Promise<J>;
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

function stillWaiting(entry: JobWait<unknown>): boolean {
	return !entry.finished && entry.error === undefined;
}

/**
 * Checks one job. Returns how long the service asked the loop to pause (Retry-After, or the
 * poll cap for a 429 without one), or undefined.
 */
async function checkJob<J extends { status?: unknown }>(
	entry: JobWait<J>,
	fetchJob: (jobId: string) => Promise<J>,
	capMs: number,
): Promise<number | undefined> {
	try {
		const job = await fetchJob(entry.jobId);
		entry.job = job;
		entry.status = typeof job.status === 'string' ? job.status : String(job.status ?? 'unknown');
		entry.finished = isFinalStatus(job.status);
		entry.lastCheckError = undefined;
		return undefined;
	} catch (error) {
		const failure = serviceErrorOf(error);
		if (!failure.transient) {
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
			pauseMs = await checkJob(entry, input.fetchJob, schedule.capMs);
			if (pauseMs !== undefined) break; // the rest of this round waits as the service asked
		}
		if (timing.now() >= deadline) break;
	}
	if (signal?.aborted) return cancelled();
	for (const entry of jobs.values()) if (stillWaiting(entry)) entry.timedOut = true;
	return { cancelled: false, jobs };
}

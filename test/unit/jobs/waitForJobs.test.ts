import type { Timing } from '../../../nodes/shared/time/sleep';
import { CHECK_GRACE_MS, waitForJobs } from '../../../nodes/shared/jobs/waitForJobs';
import { attachFailure, describeFailure } from '../../../nodes/shared/transport/serviceFailure';
import type { FailureKind } from '../../../nodes/shared/transport/serviceFailure';

/**
 * The Wait for Completion loop on a virtual clock: the timing is an argument, so each sleep
 * only moves the clock forward, and the status request is a function over a table of jobs.
 */
interface Job {
	job_id: string;
	status: string;
}

function serviceError(kind: FailureKind, status?: number, retryAfterMs?: number): Error {
	return attachFailure(
		new Error(`HTTP ${status ?? 'network'}`),
		describeFailure({
			kind,
			status,
			retryAfterMs,
			networkCode: kind === 'network' ? 'ECONNRESET' : undefined,
		}),
	);
}

function world(finishAt: Record<string, number>) {
	let now = 1_000_000;
	const start = now;
	const sleeps: number[] = [];
	const checks: Array<{ id: string; at: number }> = [];
	/** Failures to throw, in order, per job id. */
	const failures: Record<string, unknown[]> = {};
	const timing: Timing = {
		now: () => now,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		},
		random: () => 0.5, // no jitter: delays are exactly first × 2^n, capped
	};
	const fetchJob = async (id: string): Promise<Job> => {
		checks.push({ id, at: now - start });
		const failure = failures[id]?.shift();
		if (failure !== undefined) throw failure;
		return { job_id: id, status: now - start >= finishAt[id] ? 'done' : 'pending' };
	};
	return { timing, fetchJob, sleeps, checks, failures, elapsed: () => now - start };
}

const schedule = { firstDelayMs: 2000, capMs: 30000 };

describe('waitForJobs', () => {
	it('waits for three jobs of different lengths in one loop, backing off', async () => {
		const w = world({ a: 1500, b: 3500, c: 6500 });
		const result = await waitForJobs({
			jobIds: ['a', 'b', 'c'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		// Checks at 2 s (all three), 6 s (the two still running), 14 s (the last).
		expect(w.sleeps).toEqual([2000, 4000, 8000]);
		expect(w.checks).toEqual([
			{ id: 'a', at: 2000 },
			{ id: 'b', at: 2000 },
			{ id: 'c', at: 2000 },
			{ id: 'b', at: 6000 },
			{ id: 'c', at: 6000 },
			{ id: 'c', at: 14000 },
		]);
		expect(result.cancelled).toBe(false);
		expect(
			[...result.jobs.values()].map((j) => [j.jobId, j.status, j.finished, j.timedOut]),
		).toEqual([
			['a', 'done', true, false],
			['b', 'done', true, false],
			['c', 'done', true, false],
		]);
		expect(result.jobs.get('c')?.job).toEqual({ job_id: 'c', status: 'done' });
	});

	it('checks a job named twice once per round', async () => {
		const w = world({ a: 0 });
		const result = await waitForJobs({
			jobIds: ['a', 'a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 60_000,
			timing: w.timing,
		});
		expect(w.checks).toHaveLength(1);
		expect([...result.jobs.keys()]).toEqual(['a']);
	});

	it('caps the backoff at the configured interval', async () => {
		const w = world({ a: 100_000 });
		await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule: { firstDelayMs: 2000, capMs: 10_000 },
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(Math.max(...w.sleeps)).toBe(10_000);
		expect(w.sleeps.slice(0, 5)).toEqual([2000, 4000, 8000, 10000, 10000]);
	});

	it('ends at Max Wait with the last check at the deadline; the job is marked timed out', async () => {
		const w = world({ a: Infinity });
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 120_000,
			timing: w.timing,
		});
		expect(w.sleeps.reduce((a, b) => a + b, 0)).toBe(120_000);
		// 2, 4, 8, 16, 30, 30, 30 → 120 s: seven checks, the last one at the deadline.
		expect(w.sleeps).toEqual([2000, 4000, 8000, 16000, 30000, 30000, 30000]);
		expect(w.checks).toHaveLength(7);
		expect(w.checks[6].at).toBe(120_000);
		expect(result.jobs.get('a')).toMatchObject({
			status: 'pending',
			finished: false,
			timedOut: true,
		});
		expect(result.jobs.get('a')?.lastCheckError).toBeUndefined();
	});

	it('a service that keeps failing (transient) never makes it loop forever; the last failure is kept', async () => {
		const w = world({ a: 0 });
		const unavailable = serviceError('unavailable', 503);
		w.failures.a = Array.from({ length: 1000 }, () => unavailable);
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 60_000,
			timing: w.timing,
		});
		expect(w.checks.length).toBeLessThanOrEqual(10);
		expect(w.elapsed()).toBe(60_000);
		expect(result.jobs.get('a')).toMatchObject({ status: 'unknown', timedOut: true });
		expect(result.jobs.get('a')?.lastCheckError).toBe(unavailable);
		expect(result.jobs.get('a')?.error).toBeUndefined();
	});

	it('a transient failure is tried again on the next round, and a success clears it', async () => {
		const w = world({ a: 0 });
		w.failures.a = [serviceError('network')];
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 60_000,
			timing: w.timing,
		});
		expect(w.sleeps).toEqual([2000, 4000]);
		expect(result.jobs.get('a')).toMatchObject({ status: 'done', finished: true });
		expect(result.jobs.get('a')?.lastCheckError).toBeUndefined();
	});

	it('a 429 with Retry-After: 3 s delays the next check by 3 s and pauses the rest of the round', async () => {
		const w = world({ a: 0, b: 0 });
		w.failures.a = [serviceError('rate-limited', 429, 3000)];
		const result = await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: w.fetchJob,
			schedule: { firstDelayMs: 500, capMs: 30000 },
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(w.sleeps[0]).toBe(500);
		expect(w.sleeps[1]).toBeGreaterThanOrEqual(3000);
		// b was not checked in the round the service asked to pause.
		expect(w.checks.map((c) => c.id)).toEqual(['a', 'a', 'b']);
		expect(w.checks[1].at - w.checks[0].at).toBe(3000);
		expect([...result.jobs.values()].every((j) => j.finished)).toBe(true);
	});

	it('a 429 without Retry-After pauses for the poll cap', async () => {
		const w = world({ a: 0 });
		w.failures.a = [serviceError('rate-limited', 429)];
		await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule: { firstDelayMs: 500, capMs: 5000 },
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(w.sleeps).toEqual([500, 5000]);
	});

	it('a 503 with Retry-After is honoured like a 429', async () => {
		const w = world({ a: 0, b: 0 });
		w.failures.a = [serviceError('unavailable', 503, 7000)];
		await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: w.fetchJob,
			schedule: { firstDelayMs: 500, capMs: 30000 },
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(w.sleeps).toEqual([500, 7000]);
		expect(w.checks.map((c) => c.id)).toEqual(['a', 'a', 'b']);
	});

	it('a 503 without Retry-After goes on with the other jobs of the round', async () => {
		const w = world({ a: 0, b: 0 });
		w.failures.a = [serviceError('unavailable', 503)];
		await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(w.checks.map((c) => [c.id, c.at])).toEqual([
			['a', 2000],
			['b', 2000],
			['a', 6000],
		]);
	});

	it.each([
		['a 404', serviceError('not-found', 404)],
		['a 403 of another account', serviceError('forbidden-owner', 403)],
		['the credential failing', serviceError('credential')],
		['an error the transport did not make', new TypeError('bug')],
	])('%s ends the wait for that job with its error; the others go on', async (_label, error) => {
		const w = world({ a: 0, b: 3000 });
		w.failures.a = [error];
		const result = await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 600_000,
			timing: w.timing,
		});
		expect(w.checks.map((c) => c.id)).toEqual(['a', 'b', 'b']);
		expect(result.jobs.get('a')).toMatchObject({ finished: false, timedOut: false, error });
		expect(result.jobs.get('b')).toMatchObject({ finished: true, status: 'done' });
	});

	it.each([
		['a 500 (the service logged an unhandled error)', serviceError('server-error', 500)],
		['a dropped connection', serviceError('network')],
		['an answer that could not be read', serviceError('unexpected-answer', 200)],
	])(
		'%s is one missed round: the next check follows and the job finishes',
		async (_label, error) => {
			const w = world({ a: 0, b: 3000 });
			w.failures.a = [error];
			const result = await waitForJobs({
				jobIds: ['a', 'b'],
				fetchJob: w.fetchJob,
				schedule,
				maxWaitMs: 600_000,
				timing: w.timing,
			});
			// Round 1: a fails, b pending; round 2 (after 4 s): both answer done.
			expect(w.checks.map((c) => c.id)).toEqual(['a', 'b', 'a', 'b']);
			expect(result.jobs.get('a')).toMatchObject({ finished: true, status: 'done' });
			expect(result.jobs.get('a')?.error).toBeUndefined();
			expect(result.jobs.get('a')?.lastCheckError).toBeUndefined();
			expect(result.jobs.get('b')).toMatchObject({ finished: true, status: 'done' });
		},
	);

	it('a 500 on every check keeps checking until Max Wait, then times out with the last error', async () => {
		const w = world({ a: Infinity });
		const errors = Array.from({ length: 50 }, () => serviceError('server-error', 500));
		w.failures.a = [...errors];
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 120_000,
			timing: w.timing,
		});
		// 2, 4, 8, 16, 30, 30, 30 → 120 s: seven checks, the last one at the deadline.
		expect(w.checks).toHaveLength(7);
		expect(w.elapsed()).toBe(120_000);
		expect(result.jobs.get('a')).toMatchObject({ finished: false, timedOut: true });
		expect(result.jobs.get('a')?.lastCheckError).toBe(errors[6]);
	});

	it('gives each check what is left of Max Wait (plus the grace of the last check) as its deadline', async () => {
		const w = world({ a: Infinity });
		const deadlines: number[] = [];
		await waitForJobs({
			jobIds: ['a'],
			fetchJob: async (id, timeoutMs) => {
				deadlines.push(timeoutMs);
				return await w.fetchJob(id);
			},
			schedule,
			maxWaitMs: 20_000,
			timing: w.timing,
		});
		// Checks at 2, 6, 14 and 20 s.
		expect(deadlines).toEqual([18_000, 14_000, 6_000, 0].map((left) => left + CHECK_GRACE_MS));
	});

	it('stops at once when cancelled during a sleep: no further check', async () => {
		const w = world({ a: Infinity });
		const controller = new AbortController();
		const timing: Timing = {
			...w.timing,
			sleep: async (ms, signal) => {
				w.sleeps.push(ms);
				controller.abort();
				if (signal?.aborted) throw new Error('cancelled');
			},
		};
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 600_000,
			timing,
			signal: controller.signal,
		});
		expect(result.cancelled).toBe(true);
		expect(w.sleeps).toEqual([2000]);
		expect(w.checks).toHaveLength(0);
		expect(result.jobs.get('a')?.timedOut).toBe(false);
	});

	it('stops between two checks of a round when cancelled', async () => {
		const w = world({ a: Infinity, b: Infinity });
		const controller = new AbortController();
		const result = await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: async (id) => {
				const job = await w.fetchJob(id);
				controller.abort();
				return job;
			},
			schedule,
			maxWaitMs: 600_000,
			timing: w.timing,
			signal: controller.signal,
		});
		expect(result.cancelled).toBe(true);
		expect(w.checks.map((c) => c.id)).toEqual(['a']);
	});

	it('does not start when already cancelled', async () => {
		const w = world({ a: 0 });
		const controller = new AbortController();
		controller.abort();
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule,
			maxWaitMs: 60_000,
			timing: w.timing,
			signal: controller.signal,
		});
		expect(result.cancelled).toBe(true);
		expect(w.sleeps).toEqual([]);
	});

	it('passes a sleep failure that is not a cancel on', async () => {
		const w = world({ a: 0 });
		const broken = new Error('timer broke');
		await expect(
			waitForJobs({
				jobIds: ['a'],
				fetchJob: w.fetchJob,
				schedule,
				maxWaitMs: 60_000,
				timing: { ...w.timing, sleep: async () => await Promise.reject(broken) },
			}),
		).rejects.toBe(broken);
	});

	it('ends after a bounded number of rounds even when the clock stands still', async () => {
		const w = world({ a: Infinity });
		const result = await waitForJobs({
			jobIds: ['a'],
			fetchJob: w.fetchJob,
			schedule: { firstDelayMs: 1000, capMs: 1000 },
			maxWaitMs: 10_000,
			timing: { ...w.timing, sleep: async () => undefined },
		});
		expect(w.checks).toHaveLength(12); // maxRounds(10 s, 1 s first delay)
		expect(result.jobs.get('a')?.timedOut).toBe(true);
	});

	it('passes any status through as text, and treats done-with-errors as final', async () => {
		const answers: Record<string, unknown> = { a: 'done-with-errors', b: 7 };
		let now = 0;
		const result = await waitForJobs({
			jobIds: ['a', 'b'],
			fetchJob: async (id) => ({ job_id: id, status: answers[id] }),
			schedule,
			maxWaitMs: 3000,
			timing: {
				now: () => now,
				sleep: async (ms) => {
					now += ms;
				},
				random: () => 0.5,
			},
		});
		expect(result.jobs.get('a')).toMatchObject({ status: 'done-with-errors', finished: true });
		expect(result.jobs.get('b')).toMatchObject({ status: '7', finished: false, timedOut: true });
	});
});

import type { IDataObject } from 'n8n-workflow';

import type { FakeService, FakeServiceOptions } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { storeWithApiKey, useFakeService, useFakeServicePerTest } from '../../helpers/fakeService';
import { create, fake, seed, statusGets, store, useJobService } from './helpers';
import { mockTiming, recordingSystemTiming, waitLoops } from './timing';

/**
 * The wait loop runs on the timing each describe block below sets in `mockTiming` (see
 * ./timing.ts): this file's module registry gives the operation's `systemTiming` to it.
 */
jest.mock('../../../nodes/shared/time/sleep', () =>
	jest.requireActual<typeof import('./timing')>('./timing').sleepModuleWithTestTiming(),
);
/** The wait loops, recorded (./timing.ts): a test waits for a loop's end, never for a time. */
jest.mock('../../../nodes/shared/jobs/waitForJobs', () =>
	jest.requireActual<typeof import('./timing')>('./timing').waitForJobsModuleRecordingLoops(),
);

/**
 * Job → Wait for Completion through the n8n engine against the fake over loopback HTTP.
 * Waiting runs on a virtual clock: each sleep advances our virtual clock and the fake's
 * (frozen) clock by the same amount, so no test waits for real.
 */
describe('Job resource (through the n8n engine, against the fake)', () => {
	let virtualNow: number;
	let sleeps: number[];

	useJobService();
	beforeEach(() => {
		virtualNow = 1_000_000;
		sleeps = [];
		mockTiming.current = {
			now: () => virtualNow,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				virtualNow += ms;
				fake.clock.advance(ms);
			},
			random: () => 0.5, // no jitter: delays are exactly first × 2^n, capped
		};
	});
	afterAll(() => {
		mockTiming.current = undefined;
	});

	it('waits for three jobs of different lengths in one loop, with backoff visible in the request log', async () => {
		const jobs = [
			await create(seed(1, 'A')),
			await create(seed(3, 'B')),
			await create(seed(6, 'C')),
		];
		// Done on the fake clock 1.5 s, 3.5 s and 6.5 s after creation (500 ms creating + 1 s per plot).
		fake.log.clear();
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: '={{ $json.job_id }}',
			},
			input: jobs.map((j) => ({ job_id: j.job_id })),
			store,
		});
		expect(error).toBeUndefined();
		// Checks at 2 s (all three), 6 s (the two still running), 14 s (the last).
		expect(sleeps).toEqual([2000, 4000, 8000]);
		expect(statusGets().map((e) => e.path)).toEqual([
			`/jobs/job/${jobs[0].job_id}`,
			`/jobs/job/${jobs[1].job_id}`,
			`/jobs/job/${jobs[2].job_id}`,
			`/jobs/job/${jobs[1].job_id}`,
			`/jobs/job/${jobs[2].job_id}`,
			`/jobs/job/${jobs[2].job_id}`,
		]);
		const times = [...new Set(statusGets().map((e) => Date.parse(e.fakeAt)))];
		expect(times.slice(1).map((t, i) => t - times[i])).toEqual([4000, 8000]);
		expect(items.map((i) => [i.json.job_id, i.json.status, i.pairedItem])).toEqual([
			[jobs[0].job_id, 'done', { item: 0 }],
			[jobs[1].job_id, 'done', { item: 1 }],
			[jobs[2].job_id, 'done', { item: 2 }],
		]);
	});

	it('caps the backoff at the configured interval', async () => {
		fake.setPerPlotDuration(100_000);
		const job = await create(seed(1));
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				options: { pollIntervalCap: 10 },
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(Math.max(...sleeps)).toBe(10_000);
		expect(sleeps.slice(0, 5)).toEqual([2000, 4000, 8000, 10000, 10000]);
	});

	it.each([
		[
			{ firstCheckAfter: 0 },
			'First Check After (Seconds)',
			/0 is below the smallest allowed value, 0\.1\. Give the seconds before the first status check as a number of 0\.1 or more\./,
		],
		[{ firstCheckAfter: 'soon' }, 'First Check After (Seconds)', /"soon" is not a number\./],
		[
			{ pollIntervalCap: 0.5 },
			'Max Poll Interval (Seconds)',
			/0\.5 is below the smallest allowed value, 1\./,
		],
		[
			{ pollIntervalCap: 7200 },
			'Max Poll Interval (Seconds)',
			/7200 is above the largest allowed value, 3600\. Give the longest pause between two status checks in seconds as a number from 1 to 3600\./,
		],
	])(
		'options %p refuse the item naming the option, before any status check',
		async (options, field, reason) => {
			const job = await create(seed(1));
			fake.log.clear();
			const { error, items } = await runNode({
				parameters: {
					resource: 'job',
					operation: 'waitForCompletion',
					jobIds: job.job_id,
					options,
				},
				store,
			});
			expect(items).toHaveLength(0);
			expect(String(error?.message)).toMatch(
				new RegExp(`^Item 0, field "${field.replace(/[()]/g, '\\$&')}": `),
			);
			expect(String(error?.message)).toMatch(reason);
			expect(statusGets()).toHaveLength(0);
			expect(sleeps).toEqual([]);
		},
	);

	it('First Check After as numeric text, with a cap below it: the cap is the first delay', async () => {
		fake.setPerPlotDuration(100_000);
		const job = await create(seed(1));
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				maxWaitMinutes: 0.5,
				onTimeout: 'output',
				options: { firstCheckAfter: '5', pollIntervalCap: 2 },
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(sleeps.slice(0, 3)).toEqual([5000, 5000, 5000]);
	});

	it('a job that never finishes ends at Max Wait: fails naming the job and its status (default)', async () => {
		fake.setPerPlotDuration(10 * 24 * 3600 * 1000);
		const job = await create(seed(1));
		const { error, items } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				maxWaitMinutes: 2,
			},
			store,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toBe(
			`Job still running after the Max Wait of 2 min: ${job.job_id} (pending)`,
		);
		expect(sleeps.reduce((a, b) => a + b, 0)).toBe(120_000);
		// 2, 4, 8, 16, 30, 30, 30 → 120 s: seven checks, the last one at the deadline.
		expect(statusGets()).toHaveLength(7);
	});

	it('a job that never finishes ends at Max Wait: outputs its current status by choice', async () => {
		fake.setPerPlotDuration(10 * 24 * 3600 * 1000);
		const job = await create(seed(1));
		const { error, items } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				maxWaitMinutes: 1,
				onTimeout: 'output',
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json)).toEqual([
			expect.objectContaining({ job_id: job.job_id, status: 'pending', timed_out: true }),
		]);
	});

	it('a service that keeps failing never makes the wait loop forever', async () => {
		const job = await create(seed(1));
		fake.faults.add({
			kind: 'status',
			status: 503,
			times: 1000,
			match: { method: 'GET', path: `/jobs/job/${job.job_id}` },
		});
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				maxWaitMinutes: 1,
			},
			store,
		});
		expect(error?.message).toMatch(/still running after the Max Wait of 1 min/);
		expect(statusGets().length).toBeLessThanOrEqual(10);
		// It does not claim more than the service said: the status checks failed.
		expect(error?.description).toMatch(
			new RegExp(`^The last status check of job ${job.job_id} failed: .+\\. The jobs keep running`),
		);
	});

	it('a 429 with Retry-After: 3 delays the next poll by at least 3 s', async () => {
		const job = await create(seed(4));
		fake.faults.add({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 3,
			times: 1,
			match: { method: 'GET', path: `/jobs/job/${job.job_id}` },
		});
		const { error, items } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				options: { firstCheckAfter: 0.5 },
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('done');
		expect(sleeps[0]).toBe(500);
		expect(sleeps[1]).toBeGreaterThanOrEqual(3000);
		const gets = statusGets();
		expect(gets[0].status).toBe(429);
		expect(Date.parse(gets[1].fakeAt) - Date.parse(gets[0].fakeAt)).toBeGreaterThanOrEqual(3000);
		// The transport did not retry on its own: one request per check.
		expect(gets).toHaveLength(sleeps.length);
	});

	it('per-plot results of a done-with-errors job mark failed plots, and their tokens are refunded', async () => {
		const ids = seed(3, 'Mixed');
		fake.setFailingPlotIds([ids[1]]);
		const before = fake.getBalance('alice');
		const job = await create(ids);
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: job.job_id,
				output: 'perPlot',
				simplify: true,
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => [i.json.plot_id, i.json.failed, i.json.job_status])).toEqual([
			[ids[0], false, 'done-with-errors'],
			[ids[1], true, 'done-with-errors'],
			[ids[2], false, 'done-with-errors'],
		]);
		expect(items[1].json.failure_reason).toMatch(/failed/i);
		expect(items[0].json.risk_level).toMatch(/Low|Medium|High/);
		expect(items[0].json.image_url).toEqual(expect.stringContaining(`/${ids[0]}.png`));
		const settled = fake.getJob(job.job_id as string)!;
		expect(settled.tokensRefunded).toBeGreaterThan(0);
		const after = fake.getBalance('alice');
		expect(after.reserved).toBe(before.reserved);
		expect(after.total).toBe(before.total - (Number(job.token_cost) - settled.tokensRefunded));
		// Balance as the node reports it.
		const balance = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store,
		});
		expect(balance.items[0].json.total).toBe(after.total);

		// Get Results returns the same rows without waiting; raw mode keeps the nested analysis.
		fake.log.clear();
		const results = await runNode({
			parameters: { resource: 'job', operation: 'getResults', jobId: job.job_id, simplify: false },
			store,
		});
		expect(results.error).toBeUndefined();
		expect(results.items).toHaveLength(3);
		expect(results.items[1].json).toMatchObject({
			plot_id: ids[1],
			failed: true,
			// shape variants `silent` / `job-id`: the service leaves a failed plot as it was
			analysis: fake.variant.plotFailure === 'status' ? { status: 'failed' } : {},
		});
		expect(statusGets()).toHaveLength(1);
	});
});

/**
 * A fake on a virtual clock (each of the node's sleeps advances it), a login credential for
 * it, and a job over `plots` new plots created through the node. The fake comes from `start`
 * (useFakeServicePerTest), which closes it after the test whatever happens next.
 */
async function loginJobOnVirtualClock(
	start: (options: FakeServiceOptions) => Promise<FakeService>,
	options: FakeServiceOptions,
	plots: number,
	commodity: string,
) {
	const fake = await start(options);
	fake.clock.setScale(0);
	let now = 0;
	mockTiming.current = {
		now: () => now,
		sleep: async (ms: number) => {
			now += ms;
			fake.clock.advance(ms);
		},
		random: () => 0.5,
	};
	const store = new CredentialStore({
		geospatialAnalysisLoginApi: {
			baseUrl: fake.url,
			username: fake.users.alice.username,
			password: fake.users.alice.password,
			sessionToken: '',
		},
	});
	const ids = fake.seedPlots('alice', plots, { commodity });
	const created = await runNode({
		parameters: {
			authentication: 'login',
			resource: 'job',
			operation: 'create',
			plotIds: ids.join(','),
		},
		store,
	});
	expect(created.error).toBeUndefined();
	/** The virtual clock's time: what the node slept in all. */
	const slept = () => now;
	return { fake, store, created, ids, slept };
}

describe('Job → Wait for Completion with a login (JWT) credential', () => {
	const startFake = useFakeServicePerTest();
	afterAll(() => {
		mockTiming.current = undefined;
	});

	it('the JWT expiring during a long wait does not fail the wait', async () => {
		const { fake, store, created } = await loginJobOnVirtualClock(
			startFake,
			{ perPlotDurationMs: 60_000, jwtLifetimeSeconds: 60 },
			4,
			'soy',
		);
		const { items, error } = await runNode({
			parameters: {
				authentication: 'login',
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: String(created.items[0].json.job_id),
				// longer than the 4 minutes of analysis (the default Max Wait is 4 minutes)
				maxWaitMinutes: 10,
				output: 'perPlot',
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		expect(items.every((i) => i.json.failed === false)).toBe(true);
		// 4 minutes of analysis with a 1-minute JWT: the node logged in again on the way.
		expect(store.logins).toBeGreaterThanOrEqual(2);
		expect(
			fake.log.entries().some((e) => e.path.startsWith('/jobs/job/') && e.status === 401),
		).toBe(true);
	});
});

/**
 * A wait is a loop of checks: a 500 and a dropped connection on status checks during a job of
 * about 90 s are missed rounds, not the end (the scenario of a real n8n run: Create Job, then
 * Wait for Completion with a login credential whose JWT lives 10 s, 8 plots).
 */
describe('Job → Wait for Completion through failed status checks', () => {
	const startFake = useFakeServicePerTest();
	afterAll(() => {
		mockTiming.current = undefined;
	});

	it('a 500 and a dropped connection during a 90-second wait still give every per-plot row', async () => {
		const { fake, store, created, ids, slept } = await loginJobOnVirtualClock(
			startFake,
			{ perPlotDurationMs: 11_000, jwtLifetimeSeconds: 10 },
			8,
			'cocoa',
		);
		const jobId = String(created.items[0].json.job_id);
		const status = { method: 'GET', path: `/jobs/job/${jobId}` };
		// The second check answers 500; the fourth loses its connection.
		fake.faults.add({ kind: 'status', status: 500, times: 1, skip: 1, match: status });
		fake.faults.add({ kind: 'drop-before', times: 1, skip: 1, match: status });
		fake.log.clear();
		const { items, error } = await runNode({
			parameters: {
				authentication: 'login',
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: jobId,
				output: 'perPlot',
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.plot_id)).toEqual(ids);
		expect(items.every((i) => i.json.failed === false && i.json.job_status === 'done')).toBe(true);
		const checks = fake.log.entries().filter((e) => e.path === status.path);
		expect(checks.some((e) => e.status === 500)).toBe(true);
		expect(checks.some((e) => e.dropped === true)).toBe(true);
		// The job took about 90 s on the fake's clock, and the wait went on after both failures.
		expect(slept()).toBeGreaterThanOrEqual(88_000);
		expect(checks[checks.length - 1].status).toBe(200);
	});
});

/**
 * Job → Wait for Completion with real timing (n8n's sleep), its sleeps recorded: when the
 * execution is cancelled (the editor's Stop button, or a timeout), the wait stops polling at once.
 */
describe('Job → Wait for Completion stops when the execution is cancelled', () => {
	useFakeService({ perPlotDurationMs: 10 * 24 * 3600 * 1000 });
	afterAll(() => {
		mockTiming.current = undefined;
	});

	const store = () => storeWithApiKey(fake);

	it('stops its polling loop at once (no further waits, no status request)', async () => {
		// Real sleeps, recorded: a loop that ignored the cancel would go on sleeping and polling
		// (in the background, holding the worker) until Max Wait.
		const sleeps: number[] = [];
		let sleepStarted!: () => void;
		const firstSleep = new Promise<void>((resolve) => (sleepStarted = resolve));
		mockTiming.current = recordingSystemTiming(sleeps, () => sleepStarted());
		const [plotId] = fake.seedPlots('alice', 1, { commodity: 'coffee' });
		const created = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: plotId },
			store: store(),
		});
		expect(created.error).toBeUndefined();
		const jobId = String((created.items[0].json as IDataObject).job_id);
		fake.log.clear();
		waitLoops.length = 0;

		// First check after 1 s, then 2 s, 4 s … ; the execution is cancelled as the first wait starts.
		const { run } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: jobId,
				maxWaitMinutes: 10,
				options: { firstCheckAfter: 1 },
			},
			store: store(),
			cancelWhen: firstSleep,
		});
		expect(run.status).toBe('canceled');
		// n8n reports the run at once; the loop ends when it notices the cancel. Without the
		// cancel, it would sleep 1 s, check, sleep 2 s, check, sleep 4 s … until Max Wait.
		expect(waitLoops).toHaveLength(1);
		await expect(waitLoops[0]).resolves.toMatchObject({ cancelled: true });
		expect(sleeps).toEqual([1000]);
		expect(statusGets()).toHaveLength(0);
	});
});

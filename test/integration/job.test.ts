import type { IDataObject } from 'n8n-workflow';

import type { Timing } from '../../nodes/shared/helpers/sleep';
import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

/**
 * The timing Wait for Completion runs on in this file. The operation passes `systemTiming`
 * to its loop; this file's module registry gives it a virtual one instead (the rest of
 * helpers/sleep, which the transport uses, stays real). Production code has no test seam.
 */
const mockTiming: { current?: Timing } = {};
jest.mock('../../nodes/shared/helpers/sleep', () => {
	const actual = jest.requireActual('../../nodes/shared/helpers/sleep');
	const timing = (): Timing => {
		if (!mockTiming.current)
			throw new Error('This test file runs the wait loop on a virtual clock only');
		return mockTiming.current;
	};
	return {
		...actual,
		systemTiming: {
			now: () => timing().now(),
			sleep: async (ms: number, signal?: AbortSignal) => await timing().sleep(ms, signal),
			random: () => timing().random(),
		},
	};
});

/**
 * Job resource through the n8n engine against the fake over loopback HTTP. Waiting runs on
 * a virtual clock: each sleep advances our virtual clock and the fake's (frozen) clock by
 * the same amount, so no test waits for real.
 */
describe('Job resource (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	let virtualNow: number;
	let sleeps: number[];

	beforeAll(async () => {
		fake = await startFakeService({ perPlotDurationMs: 1000 });
	});
	afterAll(async () => {
		mockTiming.current = undefined;
		await fake.close();
	});
	beforeEach(() => {
		fake.reset();
		fake.clock.setScale(0);
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
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

	const seed = (n: number, prefix = 'Plot') =>
		fake.seedPlots('alice', n, { commodity: 'soy', namePrefix: prefix });
	const makeJobs = () =>
		fake.log.entries().filter((e) => e.method === 'POST' && e.path === '/jobs/make_job');
	const statusGets = () =>
		fake.log.entries().filter((e) => e.method === 'GET' && e.path.startsWith('/jobs/job/'));

	type Job = IDataObject & { job_id: string; token_cost: number };
	async function create(plotIds: string[], extra: IDataObject = {}): Promise<Job> {
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: plotIds.join(','), ...extra },
			store,
		});
		expect(error).toBeUndefined();
		return items[0].json as Job;
	}

	async function listJobs(): Promise<IDataObject[]> {
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getMany', returnAll: true },
			store,
		});
		expect(error).toBeUndefined();
		return items.map((i) => i.json);
	}

	it('Get Quote is a dry run: it returns the cost and the balance and changes no balance', async () => {
		const ids = seed(3);
		const before = fake.getBalance('alice');
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getQuote', plotIds: ids.join(', ') },
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.token_cost).toEqual(expect.any(Number));
		expect(items[0].json.token_cost as number).toBeGreaterThan(0);
		expect(items[0].json.free_tokens).toBe(before.free);
		expect(items[0].json.sufficient).toBe(true);
		expect(fake.getBalance('alice')).toEqual(before);
		expect(makeJobs().map((e) => e.headers['x-dry-run'])).toEqual(['true']);
		expect(await listJobs()).toHaveLength(0);
	});

	it('Max Tokens below the quote creates nothing and says why', async () => {
		const ids = seed(2);
		const before = fake.getBalance('alice');
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids.join(','),
				options: { maxTokens: 1 },
			},
			store,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/would cost \d+ tokens, more than Max Tokens \(1\); nothing was created/,
		);
		expect(error?.description).toMatch(new RegExp(`free balance: ${before.free} tokens`));
		// Only the dry run reached make_job.
		expect(makeJobs()).toHaveLength(1);
		expect(makeJobs()[0].headers['x-dry-run']).toBe('true');
		expect(fake.getBalance('alice')).toEqual(before);
	});

	it('Max Tokens at or above the quote creates the job once', async () => {
		const ids = seed(2);
		const job = await create(ids, {
			options: { maxTokens: 100000 },
			additionalFields: { jobName: 'Budgeted', notes: 'n' },
		});
		expect(job).toMatchObject({ job_name: 'Budgeted', notes: 'n', plot_ids: ids });
		expect(makeJobs().map((e) => e.headers['x-dry-run'] ?? 'real')).toEqual(['true', 'real']);
	});

	it('a dropped connection after the create was processed yields exactly one job, which the node returns', async () => {
		const ids = seed(2);
		fake.faults.add({ kind: 'drop-after', match: { method: 'POST', path: '/jobs/make_job' } });
		const job = await create(ids, { additionalFields: { jobName: 'Dropped once' } });
		expect(makeJobs()).toHaveLength(1); // never re-sent
		const jobs = await listJobs();
		expect(jobs).toHaveLength(1);
		expect(job).toMatchObject({
			job_id: jobs[0].job_id,
			job_name: 'Dropped once',
			recovered_after_connection_error: true,
		});
	});

	it('an insufficient balance says how many tokens are needed and free', async () => {
		const ids = seed(2);
		fake.setBalance('alice', 1);
		const { error } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: ids.join(',') },
			store,
		});
		expect(error?.message).toMatch(/needs \d+ tokens and 1 are free/);
	});

	it('bad input fails before any request: no plot ids, bad date, bad config against the input schema', async () => {
		const ids = seed(1);
		const noIds = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: '={{ $json.missing }}' },
			store,
		});
		expect(noIds.error?.message).toMatch(/^Item 0, field "Plot IDs": no plot id was given/);
		const badDate = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				harvestDate: '2025-02-30',
			},
			store,
		});
		expect(badDate.error?.message).toMatch(
			/^Item 0, field "Harvest Date": "2025-02-30" has the day 30, which does not exist/,
		);
		expect(fake.log.count()).toBe(0);
		const badConfig = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				checkSource: 'names',
				checkNames: 'data_center_site_suitability',
				checkConfigs: { config: [{ check: 'data_center_site_suitability', json: '{}' }] },
			},
			store,
		});
		expect(badConfig.error?.message).toMatch(
			/Invalid config for check "data_center_site_suitability" in item 0: config\.power_mw: is required/,
		);
		expect(makeJobs()).toHaveLength(0);
		const unknown = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				checkSource: 'names',
				checkNames: 'no_such_check',
			},
			store,
		});
		expect(unknown.error?.message).toMatch(/Unknown check "no_such_check"/);
		expect(makeJobs()).toHaveLength(0);
	});

	it('one job per item with per-plot values mapped from items; Continue On Fail keeps good items going', async () => {
		const ids = fake.seedPlots('alice', 2, { commodity: null });
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				jobPer: 'item',
				plotIds: '={{ $json.id }}',
				perPlot: { commodity: '={{ $json.crop }}', harvestDate: '={{ $json.harvest }}' },
			},
			input: [
				{ id: ids[0], crop: 'cocoa', harvest: '2025-10-01' },
				{ id: '', crop: 'soy' },
				{ id: ids[1], crop: 'coffee', harvest: '' },
			],
			store,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		// Output in input order (the item runner's one rule), each paired with its item.
		expect(items.map((i) => i.pairedItem)).toEqual([[{ item: 0 }], { item: 1 }, [{ item: 2 }]]);
		expect(items[1].json.error).toMatch(/no plot id was given/);
		expect(makeJobs().map((e) => (e.body as IDataObject).per_plot)).toEqual([
			{ [ids[0]]: { commodity: 'cocoa', harvest_date: '2025-10-01' } },
			{ [ids[1]]: { commodity: 'coffee' } },
		]);
	});

	it('one job for all items aggregates the plot ids of every item', async () => {
		const ids = seed(3);
		const { items } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: '={{ $json.plot_id }}' },
			input: ids.map((plot_id) => ({ plot_id })),
			store,
		});
		expect(items).toHaveLength(1);
		expect(items[0].json.plot_ids).toEqual(ids);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
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
			analysis: { status: 'failed' },
		});
		expect(statusGets()).toHaveLength(1);
	});

	it('downloads visualisations as binary data', async () => {
		const job = await create(seed(2));
		fake.clock.advance(10_000);
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: job.job_id,
				downloadImages: true,
			},
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		for (const item of items) {
			expect(item.binary?.data).toBeDefined();
			expect(item.binary?.data.mimeType).toBe('image/png');
		}
	});

	it('Get Results refuses a job that is still running, and Get returns it', async () => {
		const job = await create(seed(1));
		const results = await runNode({
			parameters: { resource: 'job', operation: 'getResults', jobId: job.job_id },
			store,
		});
		expect(results.error?.message).toMatch(/has not finished yet \(status: creating\)/);
		const got = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: job.job_id },
			store,
		});
		expect(got.items[0].json).toMatchObject({ job_id: job.job_id, status: 'creating' });
	});

	it('Get Many honours Limit and created_at filters', async () => {
		for (let i = 0; i < 3; i++) {
			await create(seed(1));
			fake.clock.advance(60_000);
		}
		const limited = await runNode({
			parameters: { resource: 'job', operation: 'getMany', limit: 2 },
			store,
		});
		expect(limited.items).toHaveLength(2);
		const all = await listJobs();
		const oldest = all[2].created_at as string;
		const filtered = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getMany',
				returnAll: true,
				filters: { createdAtUntil: oldest },
			},
			store,
		});
		expect(filtered.items.map((i) => i.json.job_id)).toEqual([all[2].job_id]);
	});
});

describe('Job → Wait for Completion with a login (JWT) credential', () => {
	let fake: FakeService;
	afterAll(async () => {
		mockTiming.current = undefined;
		await fake.close();
	});

	it('the JWT expiring during a long wait does not fail the wait', async () => {
		fake = await startFakeService({ perPlotDurationMs: 60_000, jwtLifetimeSeconds: 60 });
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
		const ids = fake.seedPlots('alice', 4, { commodity: 'soy' });
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

/**
 * Acceptance: with 5,000 historical jobs, a poll costs a constant number of requests once
 * caught up (counted in the fake's request log), and the static data stays under a fixed bound.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_SETTINGS } from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';
import type { FakeService } from '../../fake-service';
import { idPattern } from '../../fake-service';
import { useFakeService } from '../../helpers/fakeService';
import { CredentialStore, makeJob, runPoll } from '../../helpers/poll';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** Bytes per remembered job id (id, created ms, JSON punctuation) — generous. */
const BYTES_PER_ENTRY = 40;
const STATE_BOUND =
	(DEFAULT_SETTINGS.maxPending + DEFAULT_SETTINGS.maxSeen) * BYTES_PER_ENTRY + 200;

describe('Trigger with 5,000 historical jobs', () => {
	let fake: FakeService;
	let store: CredentialStore;
	useFakeService({ perPlotDurationMs: MIN, resetBeforeEach: true }, (started) => (fake = started));
	beforeEach(() => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});

	const size = (data: IDataObject) => Buffer.byteLength(JSON.stringify(data));

	it('costs a constant number of requests per poll once caught up, with small static data', async () => {
		const now = fake.clock.now().getTime();
		// 5,000 finished jobs over the last ~31 days, newest first in the listing
		fake.seedJobs('alice', 5000, { createdAt: (i) => new Date(now - (5000 - i) * 9 * MIN) });
		// 3 old jobs still running (created 2 days ago, 3 days of work): watched by single-job requests
		const plots = fake.seedPlots('alice', 3);
		const running = fake.seedJobs('alice', 3, {
			createdAt: (i) => new Date(now - 2 * DAY + i * MIN),
			plotIds: [plots[0]],
			perPlotMs: 3 * DAY,
		});
		expect(fake.getJob(running[0])!.status).toBe('pending');

		fake.log.clear();
		const activation = await runPoll({ parameters: {}, store });
		expect(activation.error).toBeUndefined();
		expect(activation.items).toBeNull(); // no flood of old jobs
		// the first poll lists only the watch period (7 days ≈ 1,120 jobs: 2 pages), never the whole history
		const firstCost = fake.log.count();
		expect(firstCost).toBe(2);
		expect(fake.log.count({ method: 'GET', path: '/jobs/job/' + running[0] })).toBe(0);

		let staticData = activation.staticData;
		expect(size(staticData)).toBeLessThan(1024);
		const costs: number[] = [];
		for (let k = 0; k < 6; k++) {
			fake.clock.advance(5 * MIN);
			fake.log.clear();
			const r = await runPoll({ parameters: {}, store, staticData });
			expect(r.error).toBeUndefined();
			expect(r.items).toBeNull();
			costs.push(fake.log.count());
			expect(fake.log.count({ method: 'GET', path: '/jobs' })).toBe(1);
			staticData = r.staticData;
			expect(size(staticData)).toBeLessThan(1024);
		}
		// one listing of the overlap window + one request per old unfinished job; nothing from history
		expect(costs).toEqual([4, 4, 4, 4, 4, 4]);

		// new jobs that complete cost no extra requests with the Job output
		const a = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[1]],
			job_name: 'A',
		});
		const b = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[2]],
			job_name: 'B',
		});
		fake.clock.advance(5 * MIN);
		fake.log.clear();
		const withNew = await runPoll({ parameters: {}, store, staticData });
		expect(withNew.items?.map((i) => i.json.job_id).sort()).toEqual([a.job_id, b.job_id].sort());
		expect(fake.log.count()).toBe(4);
		staticData = withNew.staticData;

		// the running jobs finish: each emitted once, and then the cost drops to one request
		fake.clock.advance(3 * DAY);
		const finished = await runPoll({ parameters: {}, store, staticData });
		expect(finished.items?.map((i) => i.json.job_id)).toEqual(running);
		fake.log.clear();
		const idle = await runPoll({ parameters: {}, store, staticData: finished.staticData });
		expect(idle.items).toBeNull();
		expect(fake.log.count()).toBe(1);
		expect(size(idle.staticData)).toBeLessThan(1024);
	});

	it('keeps the static data under its bound with more unfinished jobs than it watches, and warns', async () => {
		const now = fake.clock.now().getTime();
		const plots = fake.seedPlots('alice', 1);
		const count = DEFAULT_SETTINGS.maxPending + 100;
		const ids = fake.seedJobs('alice', count, {
			createdAt: (i) => new Date(now - DAY + i * MIN),
			plotIds: plots,
			perPlotMs: 10 * DAY,
		});
		const activation = await runPoll({ parameters: {}, store });
		expect(activation.error).toBeUndefined();
		const tracker = activation.nodeStaticData.tracker as { pending: Record<string, number> };
		expect(Object.keys(tracker.pending)).toHaveLength(DEFAULT_SETTINGS.maxPending);
		expect(tracker.pending[ids[0]]).toBeUndefined(); // the oldest are dropped
		expect(tracker.pending[ids[count - 1]]).toBeDefined();
		const warnings = activation.logs.filter((l) => l.level === 'warn');
		expect(warnings).toHaveLength(100);
		expect(warnings[0].message).toMatch(
			new RegExp(`stopped watching job ${idPattern(fake.variant)}: more than 500 unfinished jobs`),
		);
		expect(size(activation.staticData)).toBeLessThan(STATE_BOUND);
	});
});

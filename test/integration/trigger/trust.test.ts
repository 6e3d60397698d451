/**
 * Issue 21 (Trust III), item 3: nothing a service sends back stalls the trigger.
 *
 * - A job dated 2099 beside jobs that finish later: the window and the ages come from the
 *   trigger's own clock; every job fires once over three polls (fake service, both ways n8n
 *   keeps the state). Static data an earlier version moved into 2098 is started afresh.
 * - Job ids `constructor`, `toString`, `__proto__` (and other Object.prototype names) fire.
 * - `{"jobs":[null,5]}` (and a single-job answer that is no job) stops the poll with an
 *   error naming the request; the state stays as it was, and the poll after it goes on.
 * - 500 watched ids of 20 KB each: the static data stays under its byte cap, and what is
 *   dropped is logged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import {
	MAX_PENDING_BYTES,
	MAX_SEEN_BYTES,
} from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';
import type { FakeService } from '../../fake-service';
import { useFakeService } from '../../helpers/fakeService';
import type { SharedClock, StateKeeping } from '../../helpers/poll';
import {
	CredentialStore,
	makeJob,
	Poller,
	runPoll,
	useFakeWithTriggerClock,
} from '../../helpers/poll';

const MIN = 60_000;
const Y2099 = Date.UTC(2099, 0, 1);

const emittedIds = (items: Array<{ json: IDataObject }> | null) =>
	(items ?? []).map((i) => String(i.json.job_id));

describe('Trigger: service times in the future (fake service, the trigger clock following the fake)', () => {
	let fake: FakeService;
	let clock: SharedClock;
	useFakeWithTriggerClock((f, c) => {
		fake = f;
		clock = c;
	});

	const key = () => fake.users.alice.apiKey;
	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: fake.url, apiKey: key() } });

	it.each<StateKeeping>(['default', 'durable'])(
		'a job dated 2099 beside jobs that finish later: each fires once over three polls (%s)',
		async (keeping) => {
			const plots = fake.seedPlots('alice', 4);
			const now = fake.clock.now().getTime();
			// a real job, created 10 minutes ago, finishing in 15 minutes
			const [real] = fake.seedJobs('alice', 1, {
				createdAt: () => new Date(now - 10 * MIN),
				plotIds: [plots[0]],
				perPlotMs: 25 * MIN,
			});
			// a job the service dates 2099-01-01, running now, finishing in 20 minutes
			const [future] = fake.seedJobs('alice', 1, {
				createdAt: () => new Date(Y2099),
				startAt: () => new Date(now),
				plotIds: [plots[1]],
				perPlotMs: 20 * MIN,
			});
			expect(String(fake.getJob(future)!.created_at)).toMatch(/^2099-01-01/);
			const poller = new Poller({ parameters: {}, store: store(), keeping });

			const activation = await poller.poll();
			expect(activation.error).toBeUndefined();
			expect(activation.items).toBeNull();
			expect(activation.logs.filter((l) => l.level === 'warn')).toEqual([]);
			const tracker = () =>
				(poller.saved?.['node:Geospatial Analysis Trigger'] as IDataObject | undefined)?.tracker as
					| { from: number; pending: Record<string, number> }
					| undefined;

			// a new job, created after activation, done in a minute
			const fresh = await makeJob(fake.url, key(), { plot_ids: [plots[2]] });
			clock.advance(5 * MIN);
			const first = await poller.poll();
			expect(first.error).toBeUndefined();
			expect(emittedIds(first.items)).toEqual([String(fresh.job_id)]);
			// the window follows the trigger's clock, not 2099
			expect(tracker()!.from).toBeLessThanOrEqual(Date.now());
			expect(Object.keys(tracker()!.pending).sort()).toEqual([real, future].sort());

			clock.advance(11 * MIN); // the real job is done
			const second = await poller.poll();
			expect(second.error).toBeUndefined();
			expect(emittedIds(second.items)).toEqual([real]);

			const later = await makeJob(fake.url, key(), { plot_ids: [plots[3]] });
			clock.advance(5 * MIN); // the 2099 job and the later one are done
			const third = await poller.poll();
			expect(third.error).toBeUndefined();
			expect(emittedIds(third.items).sort()).toEqual([future, String(later.job_id)].sort());
			expect(third.logs.filter((l) => l.level === 'warn')).toEqual([]);

			// nothing fires again, and no job is reported as too old
			for (let k = 0; k < 2; k++) {
				clock.advance(10 * MIN);
				const idle = await poller.poll();
				expect(idle.error).toBeUndefined();
				expect(idle.items).toBeNull();
				expect(idle.logs.filter((l) => l.level === 'warn')).toEqual([]);
			}
			expect(tracker()!.from).toBeLessThanOrEqual(Date.now());
		},
	);

	it('testing in the editor returns the most recently finished job by believable times, not the one dated 2099', async () => {
		const plots = fake.seedPlots('alice', 2);
		const now = fake.clock.now().getTime();
		fake.seedJobs('alice', 1, {
			createdAt: () => new Date(Y2099),
			startAt: () => new Date(now - 60 * MIN),
			plotIds: [plots[0]],
			perPlotMs: MIN,
		});
		const [recent] = fake.seedJobs('alice', 1, {
			createdAt: () => new Date(now - 10 * MIN),
			plotIds: [plots[1]],
			perPlotMs: MIN,
		});
		const manual = await runPoll({ parameters: {}, store: store(), mode: 'manual' });
		expect(manual.error).toBeUndefined();
		expect(emittedIds(manual.items)).toEqual([recent]);
	});

	it('a state an earlier version moved into 2098 starts afresh (with a warning), and jobs fire again', async () => {
		const plots = fake.seedPlots('alice', 1);
		const now = fake.clock.now().getTime();
		const poisoned = {
			'node:Geospatial Analysis Trigger': {
				tracker: {
					v: 2,
					from: Y2099 - 10 * MIN,
					newest: Y2099,
					polledAt: Y2099,
					service: fake.url,
					pending: {},
					seen: { '7001': Y2099 },
				},
			},
		};
		const poller = new Poller({
			parameters: {},
			store: store(),
			keeping: 'default',
			staticData: poisoned,
		});
		const job = await makeJob(fake.url, key(), { plot_ids: plots });
		const first = await poller.poll();
		expect(first.error).toBeUndefined();
		expect(first.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(/stored state not usable \(its listing window starts at 2098-12-31/),
		]);
		clock.advance(2 * MIN);
		const next = await poller.poll();
		expect(emittedIds(next.items)).toEqual([String(job.job_id)]);
		const tracker = next.nodeStaticData.tracker as { from: number };
		expect(tracker.from).toBeLessThanOrEqual(now + 2 * MIN);
	});
});

describe('Trigger: job ids that are names of object properties (fake service)', () => {
	let fake: FakeService;
	let clock: SharedClock;
	useFakeWithTriggerClock((f, c) => {
		fake = f;
		clock = c;
	});

	const IDS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

	it.each<StateKeeping>(['default', 'durable'])(
		'ids constructor, toString, __proto__, … watched while running, each fires once (%s)',
		async (keeping) => {
			const plots = fake.seedPlots('alice', 1);
			fake.seedJobs('alice', IDS.length, {
				id: (i) => IDS[i],
				createdAt: (i) => new Date(fake.clock.now().getTime() - 5 * MIN + i),
				plotIds: plots,
				perPlotMs: 10 * MIN,
			});
			const poller = new Poller({
				parameters: {},
				store: new CredentialStore({
					geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
				}),
				keeping,
			});
			const activation = await poller.poll();
			expect(activation.error).toBeUndefined();
			expect(activation.items).toBeNull();
			const pending = (activation.nodeStaticData.tracker as { pending: object }).pending;
			// stored under a key no copy by assignment can lose (storedKey)
			expect(Object.keys(pending).sort()).toEqual(
				IDS.map((id) => (id === '__proto__' ? '~__proto__' : id)).sort(),
			);

			clock.advance(2 * MIN);
			expect((await poller.poll()).items).toBeNull(); // still running
			clock.advance(10 * MIN);
			const done = await poller.poll();
			expect(done.error).toBeUndefined();
			expect(emittedIds(done.items).sort()).toEqual([...IDS].sort());
			clock.advance(2 * MIN);
			const again = await poller.poll();
			expect(again.error).toBeUndefined();
			expect(again.items).toBeNull();
		},
	);

	it('ids constructor, toString, __proto__ first listed already finished (after activation) fire once', async () => {
		const poller = new Poller({
			parameters: {},
			store: new CredentialStore({
				geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
			}),
			keeping: 'default',
		});
		expect((await poller.poll()).items).toBeNull();
		clock.advance(MIN);
		fake.seedJobs('alice', 3, {
			id: (i) => IDS[i],
			createdAt: (i) => new Date(fake.clock.now().getTime() - 30_000 + i),
		});
		const first = await poller.poll();
		expect(first.error).toBeUndefined();
		expect(emittedIds(first.items).sort()).toEqual(IDS.slice(0, 3).sort());
		clock.advance(MIN);
		expect((await poller.poll()).items).toBeNull();
	});
});

describe('Trigger: malformed answers (loopback server)', () => {
	let server: http.Server;
	let url: string;
	let answer: (path: string) => unknown;
	let requests: string[];
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
			requests.push(path);
			res.setHeader('Content-Type', 'application/json');
			res.end(JSON.stringify(answer(path)));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		requests = [];
	});

	const store = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: url, apiKey: 'service_live_loopback_test_key' },
		});
	const meta = { next_cursor: null, has_more: false, limit: 1000, count: 2 };
	const ts = (ms: number) => new Date(ms).toISOString();

	it('{"jobs":[null,5]} stops every poll with an error naming GET /jobs, not a TypeError; the state is kept', async () => {
		answer = () => ({ jobs: [null, 5], meta });
		const activation = await runPoll({ parameters: {}, store: store() });
		expect(activation.error?.message).toBe(
			'The service answered GET /jobs with 2 entries in "jobs" that are not a job (entry 1: null; entry 2: 5)',
		);
		expect(activation.error).not.toBeInstanceOf(TypeError);
		expect(activation.error?.description).toMatch(/kept its state/);

		const now = Date.now();
		const state = {
			'node:Geospatial Analysis Trigger': {
				tracker: {
					v: 2,
					from: now - 10 * MIN,
					newest: now - 5 * MIN,
					polledAt: now - MIN,
					service: url,
					pending: { '7': now - 5 * MIN },
					seen: {},
				},
			},
		};
		const later = await runPoll({ parameters: {}, store: store(), staticData: state });
		expect(later.error?.message).toMatch(/^The service answered GET \/jobs with 2 entries/);
		// a poll that throws keeps nothing: n8n keeps the state it had
		expect(later.staticData).toEqual(state);

		// manual mode (testing the trigger in the editor): the same error
		const manual = await runPoll({ parameters: {}, store: store(), mode: 'manual' });
		expect(manual.error?.message).toMatch(/^The service answered GET \/jobs with 2 entries/);

		// once the service answers properly, the watched job fires
		answer = (path) =>
			path === '/jobs'
				? {
						jobs: [
							{
								job_id: '7',
								status: 'done',
								created_at: ts(now - 5 * MIN),
								updated_at: ts(now),
							},
						],
						meta: { ...meta, count: 1 },
					}
				: {};
		const fixed = await runPoll({ parameters: {}, store: store(), staticData: state });
		expect(fixed.error).toBeUndefined();
		expect(emittedIds(fixed.items)).toEqual(['7']);
	});

	it('a single-job answer that is not a job stops the poll naming GET /jobs/job/{id}; the job stays watched', async () => {
		const now = Date.now();
		const state = {
			'node:Geospatial Analysis Trigger': {
				tracker: {
					v: 2,
					from: now - 10 * MIN,
					newest: now - 5 * MIN,
					polledAt: now - MIN,
					service: url,
					pending: { '3': now - 3 * 24 * 60 * MIN },
					seen: {},
				},
			},
		};
		answer = (path) => (path === '/jobs' ? { jobs: [], meta: { ...meta, count: 0 } } : null);
		const r = await runPoll({ parameters: {}, store: store(), staticData: state });
		// the transport refuses it first (an answer that is no object), naming the request
		expect(r.error?.message).toMatch(/GET \/jobs\/job\/3\b/);
		expect(r.error).not.toBeInstanceOf(TypeError);
		expect(requests).toContain('/jobs/job/3');
		expect(r.staticData).toEqual(state);
	});
});

describe('Trigger: static data capped in bytes (fake service)', () => {
	let fake: FakeService;
	useFakeService({ perPlotDurationMs: MIN, resetBeforeEach: true }, (started) => (fake = started));

	it('500 watched ids of 20 KB each: static data under the byte caps, every drop logged with a short id', async () => {
		const plots = fake.seedPlots('alice', 1);
		const now = fake.clock.now().getTime();
		const longId = (i: number) => `${String(i).padStart(4, '0')}-${'x'.repeat(20_000)}`;
		fake.seedJobs('alice', 500, {
			id: longId,
			createdAt: (i) => new Date(now - 60 * MIN + i * 1000),
			plotIds: plots,
			perPlotMs: 24 * 60 * MIN,
		});
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		const activation = await runPoll({ parameters: {}, store });
		expect(activation.error).toBeUndefined();
		const bytes = Buffer.byteLength(JSON.stringify(activation.staticData));
		expect(bytes).toBeLessThan(MAX_PENDING_BYTES + MAX_SEEN_BYTES + 1024);
		const tracker = activation.nodeStaticData.tracker as {
			pending: Record<string, number>;
			seen: Record<string, number>;
		};
		const watched = Object.keys(tracker.pending);
		// the newest are watched, as many as fit
		expect(watched.length).toBe(Math.floor(MAX_PENDING_BYTES / 20_020));
		expect(watched).toContain(longId(499));
		const warnings = activation.logs.filter((l) => l.level === 'warn').map((l) => l.message);
		const drops = warnings.filter((m) => m.includes('stopped watching job'));
		expect(drops).toHaveLength(500 - watched.length);
		expect(drops[0]).toBe(
			`Geospatial Analysis Trigger: stopped watching job ${longId(0).slice(0, 40)}… (20005 characters): the ids of the unfinished jobs watched take more than 64 KB of the workflow's static data; the oldest are dropped; it will not fire`,
		);
		expect(warnings).toContainEqual(expect.stringMatching(/window shortened to \d+ ms/));
		// the log stays small too
		expect(Buffer.byteLength(warnings.join('\n'))).toBeLessThan(200 * 1024);

		// the next poll reads it back and keeps within the caps
		fake.clock.advance(5 * MIN);
		const next = await runPoll({ parameters: {}, store, staticData: activation.staticData });
		expect(next.error).toBeUndefined();
		expect(next.items).toBeNull();
		expect(Buffer.byteLength(JSON.stringify(next.staticData))).toBeLessThan(
			MAX_PENDING_BYTES + MAX_SEEN_BYTES + 1024,
		);
		expect(next.logs.filter((l) => l.level === 'warn')).toEqual([]);
	});
});

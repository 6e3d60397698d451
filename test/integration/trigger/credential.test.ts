/**
 * The trigger follows its credential: n8n's default poller reuses one context for every poll
 * of an activation (test/helpers/poll.ts, Poller 'default'), and a credential edited while the
 * trigger is active is used from the next poll on, the capability catalog read again by every
 * poll that needs it. Two fakes are two services (their job ids collide); a change of account
 * on the same service keeps watching what can be watched.
 */
import type { FakeService } from '../../fake-service';
import type { SharedClock } from '../../helpers/poll';
import { useFakeService } from '../../helpers/fakeService';
import { CredentialStore, makeJob, Poller } from '../../helpers/poll';

const MIN = 60_000;

describe('Trigger follows its credential (one context for every poll, as n8n polls)', () => {
	let a: FakeService;
	let b: FakeService;
	let clock: SharedClock;
	// before each test: both reset, stopped (scale 0), b at a's time, and the clock synced
	useFakeService(
		{ perPlotDurationMs: MIN, count: 2, followClock: true, resetBeforeEach: true },
		(_first, setup) => {
			[a, b] = setup.fakes;
			clock = setup.clock!;
		},
	);

	const key = (fake: FakeService) => fake.users.alice.apiKey;

	it("an edited Base URL and key are used from the next poll on; the new service's jobs fire, even with ids seen on the old one", async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: a.url, apiKey: key(a) },
		});
		const poller = new Poller({ parameters: {}, store, keeping: 'default' });
		const plotsA = a.seedPlots('alice', 4);
		const plotB = b.seedPlots('alice', 1);
		expect((await poller.poll()).items).toBeNull();
		const onA = await makeJob(a.url, key(a), { plot_ids: [plotsA[0]] });
		const runningOnA = await makeJob(a.url, key(a), { plot_ids: plotsA.slice(1) });
		clock.advance(2 * MIN);
		const first = await poller.poll();
		expect(first.items?.map((i) => i.json.job_id)).toEqual([onA.job_id]);

		// the credential is edited: the other service, its key
		store.data.geospatialAnalysisApi = { baseUrl: b.url, apiKey: key(b) };
		const requestsToA = a.log.count();
		const onB = await makeJob(b.url, key(b), { plot_ids: plotB });
		expect(onB.job_id).toBe(onA.job_id); // the same id, on another service
		clock.advance(2 * MIN);
		const switched = await poller.poll();
		expect(switched.error).toBeUndefined();
		expect(switched.items?.map((i) => i.json.job_id)).toEqual([onB.job_id]);
		expect(switched.items?.[0].json.job_visualization_url).toEqual([
			expect.stringContaining(b.url),
		]);
		expect(switched.logs.filter((l) => l.level === 'warn')).toEqual([]);
		expect(switched.logs.map((l) => l.message)).toContainEqual(
			expect.stringContaining(`the credential now points to ${b.url}`),
		);
		clock.advance(10 * MIN); // the job left running on A finishes: it is A's, not watched
		expect((await poller.poll()).items).toBeNull();
		expect(a.log.count()).toBe(requestsToA);
		expect(String(a.getJob(String(runningOnA.job_id))!.status)).toBe('done');
		const tracker = poller.saved?.['node:Geospatial Analysis Trigger'] as {
			tracker: { service: string };
		};
		expect(tracker.tracker.service).toBe(b.url);
	});

	it('reads the capability catalog again for every poll that emits per-plot rows', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: a.url, apiKey: key(a) },
		});
		const poller = new Poller({ parameters: { output: 'perPlot' }, store, keeping: 'default' });
		const plots = a.seedPlots('alice', 1);
		await poller.poll();
		const catalogReads = () => a.log.count({ method: 'GET', path: '/v3/discovery/capabilities' });
		for (let k = 1; k <= 3; k++) {
			await makeJob(a.url, key(a), { plot_ids: plots });
			clock.advance(2 * MIN);
			const r = await poller.poll();
			expect(r.items).toHaveLength(1);
			expect(catalogReads()).toBe(k);
		}
		clock.advance(2 * MIN);
		expect((await poller.poll()).items).toBeNull();
		expect(catalogReads()).toBe(3); // a poll that emits nothing does not need it
	});

	it("another account on the same service: its running jobs are watched, the old account's are let go with a warning", async () => {
		const store = new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: a.url,
				username: 'alice',
				password: a.users.alice.password,
			},
		});
		const poller = new Poller({
			parameters: { authentication: 'login' },
			store,
			keeping: 'default',
		});
		const alicePlots = a.seedPlots('alice', 3);
		const bobPlots = a.seedPlots('bob', 3);
		// bob's job started an hour ago and runs for hours; alice's job runs on too
		a.setPerPlotDuration(2 * 60 * MIN);
		const bobsLong = await makeJob(a.url, a.users.bob.apiKey, { plot_ids: bobPlots });
		a.setPerPlotDuration(MIN);
		clock.advance(60 * MIN);
		expect((await poller.poll()).items).toBeNull();
		const alicesRunning = await makeJob(a.url, key(a), { plot_ids: alicePlots });
		clock.advance(MIN);
		expect((await poller.poll()).items).toBeNull();

		// the credential is edited: bob's user name and password, same service
		store.data.geospatialAnalysisLoginApi = {
			baseUrl: a.url,
			username: 'bob',
			password: a.users.bob.password,
		};
		const bobsQuick = await makeJob(a.url, a.users.bob.apiKey, { plot_ids: [bobPlots[0]] });
		clock.advance(2 * MIN);
		const switched = await poller.poll();
		expect(switched.error).toBeUndefined();
		expect(switched.items?.map((i) => i.json.job_id)).toEqual([bobsQuick.job_id]);
		expect(switched.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(
				new RegExp(`stopped watching job ${String(alicesRunning.job_id)}: .*another account`),
			),
		]);
		clock.advance(6 * 60 * MIN);
		const later = await poller.poll();
		expect(later.items?.map((i) => i.json.job_id)).toEqual([bobsLong.job_id]);
		clock.advance(MIN);
		expect((await poller.poll()).items).toBeNull();
	});
});

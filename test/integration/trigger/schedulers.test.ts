/**
 * Exactly once under n8n's schedulers (test/helpers/poll.ts, StateKeeping): the case of the
 * report behind issue 14, 30 jobs that finish right after activation, under n8n's default
 * poller, its durable-cursor scheduler (the activation poll's state is dropped when it emitted
 * nothing) and a keeper that drops the state of every poll that emitted nothing. Every job is
 * emitted once, by the first poll after it finished; none again. The trigger's clock follows
 * the fake's.
 */
import type { FakeService } from '../../fake-service';
import type { SharedClock, StateKeeping } from '../../helpers/poll';
import { CredentialStore, makeJob, Poller } from '../../helpers/poll';
import { useFakeService } from '../../helpers/fakeService';

const MIN = 60_000;

describe('Trigger under n8n schedulers: jobs finishing right after activation', () => {
	let fake: FakeService;
	let store: CredentialStore;
	let clock: SharedClock;
	useFakeService(
		{ perPlotDurationMs: 5_000, followClock: true, resetBeforeEach: true },
		(started, setup) => {
			fake = started;
			clock = setup.clock!;
		},
	);
	beforeEach(() => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});

	it.each<StateKeeping>(['default', 'durable', 'emitted'])(
		'%s: 30 jobs that finish after an activation poll that emitted nothing fire once each',
		async (keeping) => {
			const plots = fake.seedPlots('alice', 2);
			const old = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[0]] });
			clock.advance(30 * MIN); // finished long before activation

			const poller = new Poller({ parameters: {}, store, keeping });
			const activation = await poller.poll();
			expect(activation.error).toBeUndefined();
			expect(activation.items).toBeNull();
			expect(activation.kept).toBe(keeping === 'default');

			const ids: string[] = [];
			for (let i = 0; i < 30; i++) {
				const job = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[i % 2]] });
				ids.push(String(job.job_id));
			}
			clock.advance(MIN); // all done before the next poll (n8n's default: every minute)
			fake.log.clear();
			const next = await poller.poll();
			expect(next.error).toBeUndefined();
			expect(next.items?.map((i) => String(i.json.job_id)).sort()).toEqual([...ids].sort());
			expect(next.kept).toBe(true);
			// one listing, no single-job requests
			expect(fake.log.count()).toBe(1);

			for (let k = 0; k < 3; k++) {
				clock.advance(MIN);
				const later = await poller.poll();
				expect(later.error).toBeUndefined();
				expect(later.items).toBeNull();
			}
			// one more job after the emitting poll: fires once; the old one never
			const last = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: [plots[0]] });
			clock.advance(MIN);
			const lastPoll = await poller.poll();
			expect(lastPoll.items?.map((i) => i.json.job_id)).toEqual([last.job_id]);
			clock.advance(MIN);
			expect((await poller.poll()).items).toBeNull();
			expect(JSON.stringify(poller.saved)).not.toContain(`"${String(old.job_id)}":`);
		},
	);

	it('emitted: a job finishing between polls whose state is dropped fires once, also after failed polls', async () => {
		const plots = fake.seedPlots('alice', 1);
		const poller = new Poller({ parameters: {}, store, keeping: 'emitted' });
		for (let k = 0; k < 3; k++) {
			const r = await poller.poll();
			expect(r.items).toBeNull();
			expect(r.kept).toBe(false);
			clock.advance(MIN);
		}
		expect(poller.saved).toBeUndefined();
		const job = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: plots });
		clock.advance(MIN);
		// the next poll fails: the one after it still sees the job within its grace period
		fake.faults.add({ kind: 'status', status: 500, match: { method: 'GET', path: '/jobs' } });
		expect((await poller.poll()).error).toBeDefined();
		fake.faults.clear();
		clock.advance(MIN);
		const r = await poller.poll();
		expect(r.items?.map((i) => i.json.job_id)).toEqual([job.job_id]);
		expect(r.kept).toBe(true);
		clock.advance(MIN);
		expect((await poller.poll()).items).toBeNull();
	});
});

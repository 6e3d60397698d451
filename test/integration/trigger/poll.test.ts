import type { FakeService } from '../../fake-service';
import type { IDataObject } from 'n8n-workflow';
import type { SharedClock } from '../../helpers/poll';
import { CredentialStore, makeJob, runPoll, useFakeWithTriggerClock } from '../../helpers/poll';

const MIN = 60_000;

describe('Geospatial Analysis Trigger (poll through n8n PollContext, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	// The trigger's clock (Date.now) follows the fake's, as n8n's and the service's agree in
	// production: the trigger believes a service time only up to 5 minutes ahead of its own.
	let clock: SharedClock;
	useFakeWithTriggerClock((f, c) => {
		fake = f;
		clock = c;
	});
	beforeEach(() => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});

	it('skips jobs finished before activation and emits a later job once, when it is done', async () => {
		const plots = fake.seedPlots('alice', 3);
		const old = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[0]],
			job_name: 'Old',
		});
		clock.advance(15 * MIN); // beyond the overlap window of the newest job
		const running = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Running',
		});
		clock.advance(MIN);

		const first = await runPoll({ parameters: {}, store });
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		expect(first.nodeStaticData.tracker).toMatchObject({
			pending: { [String(running.job_id)]: expect.any(Number) },
		});

		const fresh = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[1]],
			job_name: 'Fresh',
		});
		const second = await runPoll({ parameters: {}, store, staticData: first.staticData });
		expect(second.items).toBeNull();

		clock.advance(2 * MIN); // Fresh done, Running not yet
		const third = await runPoll({ parameters: {}, store, staticData: second.staticData });
		expect(third.items?.map((i) => i.json.job_id)).toEqual([fresh.job_id]);
		expect(third.items?.[0].json).toMatchObject({ status: 'done', job_name: 'Fresh' });
		expect(third.items?.[0].json.plots).toBeUndefined();

		clock.advance(10 * MIN);
		const fourth = await runPoll({ parameters: {}, store, staticData: third.staticData });
		expect(fourth.items?.map((i) => i.json.job_id)).toEqual([running.job_id]);
		const fifth = await runPoll({ parameters: {}, store, staticData: fourth.staticData });
		expect(fifth.items).toBeNull();
		expect(JSON.stringify(fifth.staticData)).not.toContain(`"${String(old.job_id)}"`);
	});

	it('emits one item per plot (simplified, failed plots marked) and honours the status and name filters', async () => {
		const plots = fake.seedPlots('alice', 2, { namePrefix: 'Farm' });
		fake.setFailingPlotIds([plots[1]]);
		const first = await runPoll({ parameters: { output: 'perPlot' }, store });
		expect(first.error).toBeUndefined();
		const bad = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'EUDR weekly A',
		});
		const other = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Ad hoc',
		});
		fake.setFailingPlotIds([]);
		const good = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[0]],
			job_name: 'eudr WEEKLY B',
		});
		clock.advance(10 * MIN);

		const params = {
			output: 'perPlot',
			simplify: true,
			statuses: ['done-with-errors'],
			options: { jobName: 'eudr weekly' },
		};
		const perPlot = await runPoll({ parameters: params, store, staticData: first.staticData });
		expect(perPlot.error).toBeUndefined();
		const rows = perPlot.items!.map((i) => i.json);
		expect(rows.map((r) => [r.job_id, r.plot_id, r.failed])).toEqual([
			[bad.job_id, plots[0], false],
			[bad.job_id, plots[1], true],
		]);
		// Shape variant `plotFailure=job-id`: each analysis names its job, and plot 0's is now
		// the later job "good"'s: the row shows no results as this job's (never another job's).
		expect(rows[0]).toMatchObject(
			fake.variant.plotFailure === 'job-id'
				? {
						job_status: 'done-with-errors',
						status: 'not analysed',
						failed: false,
						risk_level: null,
						results_reason: `not this job's results: the plot's analysis is from job ${good.job_id}`,
					}
				: { job_status: 'done-with-errors', status: 'analysed', risk_level: expect.any(String) },
		);
		expect(rows[1].failure_reason).toEqual(expect.stringContaining('failed'));
		expect([other.job_id, good.job_id]).not.toContain(rows[0].job_id);

		const raw = await runPoll({
			parameters: { output: 'jobWithPlots' },
			store,
			staticData: first.staticData,
		});
		const jobs = raw.items!.map((i) => i.json);
		// in order of completion: the one-plot job finished first; "bad" and "other" finished (and
		// were created) at the same instant, so their ids decide: in creation order when numeric,
		// in text order under the fake's `ids=uuid` variant
		const tied = [String(bad.job_id), String(other.job_id)];
		expect(jobs.map((j) => j.job_id)).toEqual([
			good.job_id,
			...(fake.variant.ids === 'numeric' ? tied : [...tied].sort()),
		]);
		expect((jobs[0].plots as IDataObject[]).map((p) => p.plot_id)).toEqual([plots[0]]);
	});

	it('with a look-back period, also emits jobs that finished shortly before activation', async () => {
		const plots = fake.seedPlots('alice', 1);
		const longAgo = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Long ago',
		});
		clock.advance(5 * 3_600_000);
		const recent = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Recent',
		});
		clock.advance(30 * MIN);
		const first = await runPoll({ parameters: { options: { lookBackHours: 2 } }, store });
		expect(first.items?.map((i) => i.json.job_id)).toEqual([recent.job_id]);
		expect(first.items?.map((i) => i.json.job_id)).not.toContain(longAgo.job_id);
		const second = await runPoll({
			parameters: { options: { lookBackHours: 2 } },
			store,
			staticData: first.staticData,
		});
		expect(second.items).toBeNull();
	});

	it('manual mode returns the most recently completed job and leaves the stored state alone', async () => {
		const plots = fake.seedPlots('alice', 3);
		const none = await runPoll({ parameters: {}, store, mode: 'manual' });
		expect(none.items).toBeNull();
		expect(none.error?.message).toMatch(/No finished job found/);
		expect(none.error?.description).toMatch(/Job → Create/);

		const slow = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Slow',
		}); // done at +3.5 min
		const quick = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: [plots[0]],
			job_name: 'Quick',
		}); // done at +1.5 min
		clock.advance(MIN);
		await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: plots, job_name: 'Unfinished' }); // done at +4.5 min
		clock.advance(MIN);
		const stored = {
			'node:Geospatial Analysis Trigger': {
				tracker: { v: 1, from: 1, newest: null, pending: {}, seen: {} },
			},
		};
		const manual = await runPoll({ parameters: {}, store, mode: 'manual', staticData: stored });
		expect(manual.error).toBeUndefined();
		expect(manual.items?.map((i) => i.json.job_id)).toEqual([quick.job_id]);
		expect(manual.staticData).toEqual(stored);
		clock.advance(2 * MIN);
		const later = await runPoll({ parameters: {}, store, mode: 'manual' });
		expect(later.items?.map((i) => i.json.job_id)).toEqual([slow.job_id]);
	});

	it('a failed request throws and leaves the state as it was; the next poll catches up', async () => {
		const plots = fake.seedPlots('alice', 1);
		const first = await runPoll({ parameters: {}, store });
		const job = await makeJob(fake.url, fake.users.alice.apiKey, { plot_ids: plots });
		clock.advance(5 * MIN);
		fake.faults.add({ kind: 'status', status: 500, match: { method: 'GET', path: '/jobs' } });
		const failed = await runPoll({ parameters: {}, store, staticData: first.staticData });
		expect(failed.error?.message).toBeDefined();
		expect(failed.items).toBeNull();
		expect(failed.staticData).toEqual(first.staticData);
		const next = await runPoll({ parameters: {}, store, staticData: first.staticData });
		expect(next.items?.map((i) => i.json.job_id)).toEqual([job.job_id]);
	});

	it('works with the login credential and rejects an empty status selection before any request', async () => {
		const loginStore = new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: 'alice',
				password: fake.users.alice.password,
			},
		});
		const first = await runPoll({ parameters: { authentication: 'login' }, store: loginStore });
		expect(first.error).toBeUndefined();
		expect(fake.log.count({ method: 'POST', path: '/login' })).toBe(1);

		fake.log.clear();
		const bad = await runPoll({ parameters: { statuses: [] }, store });
		expect(bad.error?.message).toMatch(/No job status selected/);
		expect(fake.log.count()).toBe(0);
	});
});

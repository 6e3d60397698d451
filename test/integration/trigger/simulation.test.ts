/**
 * Acceptance: the trigger's poll, run through n8n's real PollContext against the fake over
 * HTTP, with jobs created and completed at random times and out of order, polls failing at
 * random, and the workflow's static data kept the way n8n keeps it (test/helpers/poll.ts,
 * StateKeeping):
 *
 * - `default` (n8n's default poller): one context for the activation, reused by every poll;
 *   the state stays in memory; it is written to the database only when a poll emits, so a
 *   restart goes back to the state saved at the last emitting poll (or to none: a fresh
 *   activation);
 * - `durable` (n8n 2.x durable scheduler with durable cursors): a new context per poll; the
 *   state of the activation poll is dropped when it emitted nothing;
 * - `emitted`: the state of every poll that emitted nothing is discarded.
 *
 * After a poll that throws, nothing is kept. In some runs the credential is edited mid-run to
 * point to another service (a second fake with its own jobs and colliding ids): from the next
 * poll on, only the new service is asked.
 *
 * The trigger's clock is the fakes' clock (Date.now follows it). Every job that completes after
 * the activation baseline (the first successful poll of an activation, less the grace period
 * for Poll Times of 20 minutes) must be emitted exactly once, by a poll that ran after it
 * completed; none early, none twice; the jobs of the old service that finished after its last
 * poll, never. Polls are at most 20 minutes apart; where n8n may drop the state of polls, at
 * most one poll fails in a row (so successful polls are at most two intervals apart, within
 * the grace period).
 */
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import { parseServiceTimestamp as parseServiceTime } from '../../../nodes/shared/time/serviceTime';
import { firstPollGraceMs } from '../../../nodes/shared/polling/pollSchedule';
import type { FakeService } from '../../fake-service';
import type { SharedClock, StateKeeping } from '../../helpers/poll';
import { useFakeService } from '../../helpers/fakeService';
import { CredentialStore, makeJob, Poller } from '../../helpers/poll';

const MIN = 60_000;
const FINAL = new Set(['done', 'done-with-errors']);
const POLL_TIMES = { item: [{ mode: 'everyX', value: 20, unit: 'minutes' }] };
const GRACE = firstPollGraceMs(POLL_TIMES);

type Fault = 'none' | 'list' | 'job' | 'restart';
type ServiceName = 'A' | 'B';

interface Step {
	/** jobs created before this poll: plot indexes (0..5) and per-plot duration */
	create: { plots: number[]; perPlotMs: number; named: boolean }[];
	advanceMs: number;
	fault: Fault;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
	create: fc.array(
		fc.record({
			plots: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
			perPlotMs: fc.integer({ min: 5_000, max: 25 * MIN }),
			named: fc.boolean(),
		}),
		{ maxLength: 2 },
	),
	advanceMs: fc.integer({ min: 0, max: 20 * MIN }),
	fault: fc.constantFrom<Fault>('none', 'none', 'none', 'list', 'job', 'restart'),
});

const failing = (f: Fault) => f === 'list' || f === 'job';

const scenarioArb = fc
	.record({
		before: fc.array(
			fc.record({
				plots: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
				perPlotMs: fc.integer({ min: 5_000, max: 25 * MIN }),
				named: fc.constant(true),
			}),
			{ maxLength: 3 },
		),
		steps: fc.array(stepArb, { minLength: 20, maxLength: 30 }),
		output: fc.constantFrom('job', 'perPlot'),
		statuses: fc.constantFrom<string[]>(
			['done', 'done-with-errors'],
			['done-with-errors'],
			['done'],
		),
		jobName: fc.constantFrom('', 'weekly'),
		keeping: fc.constantFrom<StateKeeping>('default', 'durable', 'emitted'),
		/** before which step the credential is switched to service B (none: never) */
		switchAt: fc.option(fc.integer({ min: 0, max: 29 }), { nil: undefined }),
	})
	.map((s) => ({
		...s,
		// where n8n may drop state, a failed poll is followed by one that succeeds
		steps:
			s.keeping === 'default'
				? s.steps
				: s.steps.map((step, i) =>
						i > 0 && failing(s.steps[i - 1].fault) && failing(step.fault)
							? { ...step, fault: 'none' as Fault }
							: step,
					),
	}));

describe('Trigger simulation: exactly once under random schedules, failures, restarts, dropped state and a credential change', () => {
	let fakes: Record<ServiceName, FakeService>;
	/** The fakes' clock, which Date.now follows (the trigger's clock). */
	let clock: SharedClock;
	useFakeService({ count: 2, followClock: true }, (_first, setup) => {
		fakes = { A: setup.fakes[0], B: setup.fakes[1] };
		clock = setup.clock!;
	});

	it('emits every completed job exactly once, none early, none twice', async () => {
		const failed = { list: 0, job: 0 };
		const seen = { keeping: new Set<StateKeeping>(), switched: 0, emptyActivations: 0 };
		await fc.assert(
			fc.asyncProperty(scenarioArb, async (scenario) => {
				for (const fake of Object.values(fakes)) {
					fake.reset();
					fake.clock.setScale(0);
				}
				fakes.B.clock.set(fakes.A.clock.now());
				fakes.B.clock.setScale(0);
				clock.sync();
				const simNow = () => Date.now();
				const credentialOf = (name: ServiceName) => ({
					baseUrl: fakes[name].url,
					apiKey: fakes[name].users.alice.apiKey,
				});
				const store = new CredentialStore({ geospatialAnalysisApi: credentialOf('A') });
				const plots = {
					A: fakes.A.seedPlots('alice', 6),
					B: fakes.B.seedPlots('alice', 6),
				};
				fakes.A.setFailingPlotIds([plots.A[4], plots.A[5]]);
				fakes.B.setFailingPlotIds([plots.B[4], plots.B[5]]);
				const parameters: INodeParameters = {
					output: scenario.output,
					statuses: scenario.statuses,
					options: scenario.jobName ? { jobName: scenario.jobName } : {},
					pollTimes: POLL_TIMES,
				};
				const poller = new Poller({ parameters, store, keeping: scenario.keeping });
				seen.keeping.add(scenario.keeping);

				let current: ServiceName = 'A';
				const jobs: { service: ServiceName; id: string; name: string; plots: number }[] = [];
				const create = async (specs: Step['create']) => {
					const fake = fakes[current];
					for (const spec of specs) {
						fake.setPerPlotDuration(spec.perPlotMs);
						const name = spec.named ? `EUDR Weekly ${jobs.length}` : `Ad hoc ${jobs.length}`;
						const job = await makeJob(fake.url, fake.users.alice.apiKey, {
							plot_ids: spec.plots.map((i) => plots[current][i]),
							job_name: name,
						});
						jobs.push({ service: current, id: String(job.job_id), name, plots: spec.plots.length });
					}
				};

				let baseline: number | undefined; // jobs completing from then on are wanted
				let lastPollOfA: number | undefined; // the last successful poll asking service A
				let requestsToA: number | undefined; // service A's request count at the switch
				const emittedIn = new Map<string, number>(); // service:job id → polls that emitted it
				const rowsOf = new Map<string, number>();

				const poll = async (fault: Fault) => {
					if (fault === 'restart') poller.restart();
					const fake = fakes[current];
					if (fault === 'list')
						fake.faults.add({
							kind: 'status',
							status: 500,
							match: { method: 'GET', path: '/jobs' },
						});
					if (fault === 'job')
						fake.faults.add({
							kind: 'status',
							status: 500,
							match: { method: 'GET', path: /^\/jobs\/job\// },
						});
					const fresh = poller.saved === undefined;
					const result = await poller.poll();
					fake.faults.clear();
					if (result.error) {
						if (failing(fault)) failed[fault]++;
						// the poll threw: n8n keeps nothing of it
						expect(result.items).toBeNull();
						return;
					}
					expect(result.logs.filter((l) => l.level === 'warn')).toEqual([]);
					// An activation without any stored state: what completed up to the grace period
					// before it is not wanted (the activation poll emits what completed within it).
					if (result.activation && fresh) {
						baseline = simNow() - GRACE;
						if (result.items === null) seen.emptyActivations++;
					}
					if (current === 'A') lastPollOfA = simNow();
					const ids = new Set<string>();
					for (const item of result.items ?? []) {
						const key = `${current}:${String(item.json.job_id)}`;
						ids.add(key);
						rowsOf.set(key, (rowsOf.get(key) ?? 0) + 1);
						// none early: the job is final on its service at the time of the poll
						const status = String(fake.getJob(String(item.json.job_id))!.status);
						expect(FINAL.has(status)).toBe(true);
						expect(scenario.statuses).toContain(status);
					}
					for (const key of ids) emittedIn.set(key, (emittedIn.get(key) ?? 0) + 1);
				};

				await create(scenario.before);
				for (const [i, step] of scenario.steps.entries()) {
					if (scenario.switchAt === i) {
						// The credential is edited: another Base URL and key, from the next poll on.
						store.data.geospatialAnalysisApi = credentialOf('B');
						current = 'B';
						requestsToA = fakes.A.log.count();
						seen.switched++;
					}
					await create(step.create);
					clock.advance(step.advanceMs);
					await poll(step.fault);
				}
				// Drain: polls every 20 minutes that succeed, until long after everything finished.
				for (let k = 0; k < 8; k++) {
					clock.advance(20 * MIN);
					await poll('none');
				}

				if (requestsToA !== undefined) expect(fakes.A.log.count()).toBe(requestsToA);
				else expect(fakes.B.log.count()).toBe(0);
				expect(baseline).toBeDefined();
				for (const job of jobs) {
					const info = fakes[job.service].getJob(job.id)!;
					const status = String(info.status);
					expect(FINAL.has(status)).toBe(true);
					const completed = parseServiceTime(info.updated_at)!;
					let wanted =
						completed >= baseline! &&
						scenario.statuses.includes(status) &&
						(scenario.jobName === '' || job.name.toLowerCase().includes(scenario.jobName));
					// the old service is no longer asked: what finished there after its last poll is not seen
					if (job.service === 'A' && requestsToA !== undefined)
						wanted &&= lastPollOfA !== undefined && completed <= lastPollOfA;
					const key = `${job.service}:${job.id}`;
					expect({ job: key, polls: emittedIn.get(key) ?? 0 }).toEqual({
						job: key,
						polls: wanted ? 1 : 0,
					});
					if (wanted) expect(rowsOf.get(key)).toBe(scenario.output === 'perPlot' ? job.plots : 1);
				}
			}),
			{ numRuns: 30 },
		);
		// the random faults really made polls fail (a single-job fault fails a poll only when it makes such a request)
		expect(failed.list).toBeGreaterThan(0);
		// every way of keeping state was exercised, with credential changes and activation polls that emitted nothing
		expect([...seen.keeping].sort()).toEqual(['default', 'durable', 'emitted']);
		expect(seen.switched).toBeGreaterThan(0);
		expect(seen.emptyActivations).toBeGreaterThan(0);
		// 30 random runs take about 10 s alone; room for a loaded 2-core machine
	}, 180_000);
});

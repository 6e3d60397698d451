/**
 * Acceptance: the trigger's poll, run through n8n's real PollContext against the fake over
 * HTTP, with jobs created and completed at random times and out of order, polls failing at
 * random, and the workflow's static data kept the way n8n keeps it:
 *
 * - after a poll that throws, nothing is kept (the next poll starts from the previous state);
 * - after a poll that succeeds, n8n keeps the static data in memory;
 * - n8n writes it to the database only when the poll emitted, so a restart of n8n goes back
 *   to the state saved at the last emitting poll (or to none: a fresh activation).
 *
 * Every job that completes after the (latest) activation must be emitted exactly once, by a
 * poll that ran after it completed; none early, none twice.
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, makeJob, runPoll } from '../helpers/poll';

const MIN = 60_000;
const FINAL = new Set(['done', 'done-with-errors']);

interface Step {
	/** jobs created before this poll: plot indexes (0..5) and per-plot duration */
	create: { plots: number[]; perPlotMs: number; named: boolean }[];
	advanceMs: number;
	fault: 'none' | 'list' | 'job' | 'restart';
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
	fault: fc.constantFrom<Step['fault']>('none', 'none', 'none', 'list', 'job', 'restart'),
});

const scenarioArb = fc.record({
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
	statuses: fc.constantFrom<string[]>(['done', 'done-with-errors'], ['done-with-errors'], ['done']),
	jobName: fc.constantFrom('', 'weekly'),
});

describe('Trigger simulation: exactly once under random schedules, failures and restarts', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService();
	});
	afterAll(async () => await fake.close());

	it('emits every completed job exactly once, none early, none twice', async () => {
		const failed = { list: 0, job: 0 };
		await fc.assert(
			fc.asyncProperty(scenarioArb, async (scenario) => {
				fake.reset();
				fake.clock.setScale(0);
				const key = fake.users.alice.apiKey;
				const store = new CredentialStore({
					geospatialAnalysisApi: { baseUrl: fake.url, apiKey: key },
				});
				const plots = fake.seedPlots('alice', 6);
				fake.setFailingPlotIds([plots[4], plots[5]]);
				const parameters: INodeParameters = {
					output: scenario.output,
					statuses: scenario.statuses,
					options: scenario.jobName ? { jobName: scenario.jobName } : {},
				};

				const jobs: { id: string; name: string; plots: number }[] = [];
				const create = async (specs: Step['create']) => {
					for (const spec of specs) {
						fake.setPerPlotDuration(spec.perPlotMs);
						const name = spec.named ? `EUDR Weekly ${jobs.length}` : `Ad hoc ${jobs.length}`;
						const job = await makeJob(fake.url, key, {
							plot_ids: spec.plots.map((i) => plots[i]),
							job_name: name,
						});
						jobs.push({ id: String(job.job_id), name, plots: spec.plots.length });
					}
				};

				let memory: IDataObject | undefined; // what n8n holds between polls
				let saved: IDataObject | undefined; // what n8n wrote to its database
				let finalAtActivation = new Set<string>();
				const emittedIn = new Map<string, number>(); // job id → polls that emitted it
				const rowsOf = new Map<string, number>();

				const poll = async (fault: Step['fault']) => {
					if (fault === 'restart') memory = saved;
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
					const activating =
						memory === undefined || memory['node:Geospatial Analysis Trigger'] === undefined;
					const result = await runPoll({ parameters, store, staticData: memory });
					fake.faults.clear();
					if (result.error) {
						if (fault === 'list' || fault === 'job') failed[fault]++;
						// the poll threw: n8n keeps nothing of it
						expect(result.items).toBeNull();
						return;
					}
					expect(result.logs.filter((l) => l.level === 'warn')).toEqual([]);
					if (activating) {
						finalAtActivation = new Set(
							jobs.filter((j) => FINAL.has(String(fake.getJob(j.id)!.status))).map((j) => j.id),
						);
					}
					const ids = new Set<string>();
					for (const item of result.items ?? []) {
						const id = String(item.json.job_id);
						ids.add(id);
						rowsOf.set(id, (rowsOf.get(id) ?? 0) + 1);
						// none early: the job is final on the fake at the time of the poll
						const status = String(fake.getJob(id)!.status);
						expect(FINAL.has(status)).toBe(true);
						expect(scenario.statuses).toContain(status);
					}
					for (const id of ids) emittedIn.set(id, (emittedIn.get(id) ?? 0) + 1);
					memory = result.staticData;
					if (result.items) saved = result.staticData; // n8n saves static data when a poll emits
				};

				await create(scenario.before);
				for (const step of scenario.steps) {
					await create(step.create);
					fake.clock.advance(step.advanceMs);
					await poll(step.fault);
				}
				// Drain: long after everything finished, polls that succeed.
				fake.clock.advance(24 * 60 * MIN);
				await poll('none');
				await poll('none');

				for (const job of jobs) {
					const status = String(fake.getJob(job.id)!.status);
					expect(FINAL.has(status)).toBe(true);
					const wanted =
						!finalAtActivation.has(job.id) &&
						scenario.statuses.includes(status) &&
						(scenario.jobName === '' || job.name.toLowerCase().includes(scenario.jobName));
					expect({ id: job.id, polls: emittedIn.get(job.id) ?? 0 }).toEqual({
						id: job.id,
						polls: wanted ? 1 : 0,
					});
					if (wanted)
						expect(rowsOf.get(job.id)).toBe(scenario.output === 'perPlot' ? job.plots : 1);
				}
			}),
			{ numRuns: 25 },
		);
		// the random faults really made polls fail (a single-job fault fails a poll only when it makes such a request)
		expect(failed.list).toBeGreaterThan(0);
	});
});

/**
 * The trigger and the action node make a job's items with the same code: for the same
 * finished job, the trigger's Per-Plot Results are the rows of Job → Get Results, and its
 * Job With Plots is the job Get Results outputs. Both run through n8n (PollContext and
 * WorkflowExecute) against the fake, so the rows cannot drift apart again.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../../fake-service';
import { runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';
import { CredentialStore, makeJob, runPoll } from '../../helpers/poll';

const MIN = 60_000;

describe('Geospatial Analysis Trigger and Job → Get Results give the same items for a job', () => {
	let fake: FakeService;
	let store: CredentialStore;
	useFakeService({ perPlotDurationMs: MIN, resetBeforeEach: true }, (started) => (fake = started));
	beforeEach(() => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});

	/**
	 * A job of three plots, the second failing, with the EUDR bundle, protected areas (result
	 * key protected_areas), a catalog check and a capability added at runtime whose result
	 * key differs from its name (so the rows depend on the live catalog's result keys).
	 * The trigger was activated before it was created; it has finished when this returns.
	 */
	async function finishedJob() {
		fake.addCapability({
			name: 'carbon_stock',
			label: 'Carbon Stock',
			description: 'Above-ground carbon stock of the plot',
			result_key: 'carbon',
		});
		const plots = fake.seedPlots('alice', 3, { namePrefix: 'Farm' });
		fake.setFailingPlotIds([plots[1]]);
		const activation = await runPoll({ parameters: { output: 'perPlot' }, store });
		expect(activation.error).toBeUndefined();
		expect(activation.items).toBeNull();
		const job = await makeJob(fake.url, fake.users.alice.apiKey, {
			plot_ids: plots,
			job_name: 'Parity',
			checks: [
				{ type: 'eudr' },
				{ type: 'protected_area' },
				{ type: 'deforestation_risk' },
				{ type: 'carbon_stock' },
			],
		});
		fake.setFailingPlotIds([]);
		fake.clock.advance(10 * MIN);
		return { job, plots, staticData: activation.staticData };
	}

	it.each([true, false])(
		'Per-Plot Results (Simplify: %s): the trigger emits the rows Get Results outputs',
		async (simplify) => {
			const { job, plots, staticData } = await finishedJob();

			const polled = await runPoll({
				parameters: { output: 'perPlot', simplify },
				store,
				staticData,
			});
			expect(polled.error).toBeUndefined();
			const results = await runNode({
				parameters: {
					resource: 'job',
					operation: 'getResults',
					jobId: String(job.job_id),
					output: 'perPlot',
					simplify,
				},
				store,
			});
			expect(results.error).toBeUndefined();

			const triggerRows = polled.items!.map((i) => i.json);
			expect(triggerRows).toEqual(results.items.map((i) => i.json));

			// The rows compared are the real thing: every plot, the failed one marked, and the
			// results of the checks under the catalog's result keys.
			expect(triggerRows.map((r) => [r.job_id, r.plot_id, r.failed])).toEqual([
				[job.job_id, plots[0], false],
				[job.job_id, plots[1], true],
				[job.job_id, plots[2], false],
			]);
			expect(triggerRows[1].failure_reason).toEqual(expect.stringContaining('failed'));
			if (simplify) {
				expect(triggerRows[0]).toMatchObject({
					status: 'analysed',
					risk_level: expect.any(String),
					protected_area_overlap: expect.any(Boolean),
					deforestation_risk_result: expect.anything(),
					carbon_stock_result: expect.anything(),
				});
				expect(triggerRows[0]).not.toHaveProperty('carbon_result');
			} else {
				expect((triggerRows[0].analysis as IDataObject).carbon).toBeDefined();
			}
			// A trigger has no input items: its items are not paired; Get Results pairs with item 0.
			expect(polled.items!.every((i) => i.pairedItem === undefined)).toBe(true);
			expect(results.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		},
	);

	it('Job With Plots: the trigger emits the job Get Results outputs with Output: Job', async () => {
		const { job, plots, staticData } = await finishedJob();

		const polled = await runPoll({ parameters: { output: 'jobWithPlots' }, store, staticData });
		expect(polled.error).toBeUndefined();
		const results = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: String(job.job_id),
				output: 'job',
			},
			store,
		});
		expect(results.error).toBeUndefined();

		expect(polled.items!.map((i) => i.json)).toEqual(results.items.map((i) => i.json));
		expect(polled.items).toHaveLength(1);
		expect(polled.items![0].json).toMatchObject({ job_id: job.job_id, status: 'done-with-errors' });
		expect((polled.items![0].json.plots as IDataObject[]).map((p) => p.plot_id)).toEqual(plots);
	});
});

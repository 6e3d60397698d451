import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

/**
 * Real timing, with the loop's sleeps recorded: this file's module registry wraps the
 * `systemTiming` the operation passes to its loop (production code has no test seam).
 */
const mockSleeps: number[] = [];
jest.mock('../../nodes/shared/helpers/sleep', () => {
	const actual = jest.requireActual('../../nodes/shared/helpers/sleep');
	return {
		...actual,
		systemTiming: {
			...actual.systemTiming,
			sleep: async (ms: number, signal?: AbortSignal) => {
				mockSleeps.push(ms);
				await actual.systemTiming.sleep(ms, signal);
			},
		},
	};
});

/**
 * Job → Wait for Completion with real timing (n8n's sleep): when the execution is
 * cancelled (the editor's Stop button, or a timeout), the wait stops polling at once.
 */
describe('Job → Wait for Completion stops when the execution is cancelled', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService({ perPlotDurationMs: 10 * 24 * 3600 * 1000 });
	});
	afterAll(async () => await fake.close());

	const store = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	const statusGets = () =>
		fake.log.entries().filter((e) => e.method === 'GET' && e.path.startsWith('/jobs/job/'));

	it('stops its polling loop at once (no further waits, no status request)', async () => {
		// Real sleeps, recorded: a loop that ignored the cancel would go on sleeping and polling
		// (in the background, holding the worker) until Max Wait.
		const sleeps = mockSleeps;
		const [plotId] = fake.seedPlots('alice', 1, { commodity: 'coffee' });
		const created = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: plotId },
			store: store(),
		});
		expect(created.error).toBeUndefined();
		const jobId = String((created.items[0].json as IDataObject).job_id);
		fake.log.clear();

		// First check after 1 s, then 2 s, 4 s … ; the execution is cancelled after 0.3 s.
		const { run } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: jobId,
				maxWaitMinutes: 10,
				options: { firstCheckAfter: 1 },
			},
			store: store(),
			cancelAfterMs: 300,
		});
		expect(run.status).toBe('canceled');
		// Without the cancel, the loop would sleep 1 s, check, sleep 2 s, check, sleep 4 s …
		await new Promise((resolve) => setTimeout(resolve, 3500));
		expect(sleeps).toEqual([1000]);
		expect(statusGets()).toHaveLength(0);
	});
});

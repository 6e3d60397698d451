import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

describe.each([
	['job', '/jobs'],
	['plot', '/plots'],
])('%s → Get Many checks every item before any request', (resource, path) => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService();
	});
	afterAll(async () => await fake.close());
	beforeEach(() => {
		fake.reset();
		fake.seedPlots('alice', 3);
		fake.seedJobs('alice', 3);
	});
	const store = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});

	it('sends nothing when a later item has an invalid filter, naming the item and the field', async () => {
		const { error } = await runNode({
			parameters: {
				resource,
				operation: 'getMany',
				returnAll: true,
				filters: { createdAtFrom: '={{ $json.from }}' },
			},
			input: [{ from: '2026-01-01' }, { from: 'last tuesday' }],
			store: store(),
		});
		expect(error?.message).toMatch(
			/Item 1, field "Created After": "last tuesday" is not an ISO-8601 date/,
		);
		expect(fake.log.count({ path })).toBe(0);
	});

	it('with Continue On Fail, lists for the good items and outputs an error item for the bad one, in input order', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource,
				operation: 'getMany',
				returnAll: true,
				filters: { createdAtFrom: '={{ $json.from }}' },
			},
			input: [{ from: 'nope' }, { from: '2000-01-01' }],
			store: store(),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/Item 0, field "Created After"/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items.slice(1)).toHaveLength(3);
		expect(items.slice(1).every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
		expect(fake.log.count({ path })).toBe(1);
	});
});

describe('Job → Get checks every item before any request', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService();
	});
	afterAll(async () => await fake.close());
	const store = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});

	it('sends nothing when a later item has no job id, naming the item and the field', async () => {
		fake.reset();
		const [jobId] = fake.seedJobs('alice', 1);
		const { error } = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: '={{ $json.id }}' },
			input: [{ id: jobId }, { id: '' }],
			store: store(),
		});
		expect(error?.message).toBe(
			'Item 1, field "Job IDs": no job id was given. Map the job_id of the job, e.g. {{ $json.job_id }}.',
		);
		expect(fake.log.count({ path: /^\/jobs\/job\// })).toBe(0);
	});

	it('with Continue On Fail, gets the good items and marks the bad one', async () => {
		fake.reset();
		const [jobId] = fake.seedJobs('alice', 1);
		const { items } = await runNode({
			parameters: { resource: 'job', operation: 'get', jobId: '={{ $json.id }}' },
			input: [{ id: 'x/y' }, { id: jobId }],
			store: store(),
			continueOnFail: true,
		});
		expect(items.map((i) => [i.pairedItem, i.json.error ?? i.json.job_id])).toEqual([
			[
				{ item: 0 },
				'Item 0, field "Job IDs": "x/y" is not a job id: it contains "/", which cannot be part of an id. Give the job_id only, e.g. 7001.',
			],
			[{ item: 1 }, jobId],
		]);
	});
});

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
	const store = () => new CredentialStore({ geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey } });

	it('sends nothing when a later item has an invalid filter, naming the item and the field', async () => {
		const { error } = await runNode({
			parameters: { resource, operation: 'getMany', returnAll: true, filters: { createdAtFrom: '={{ $json.from }}' } },
			input: [{ from: '2026-01-01' }, { from: 'last tuesday' }],
			store: store(),
		});
		expect(error?.message).toMatch(/Item 1, field "Created After": "last tuesday" is not an ISO-8601 date/);
		expect(fake.log.count({ path })).toBe(0);
	});

	it('with Continue On Fail, lists for the good items and outputs an error item for the bad one, in input order', async () => {
		const { items, error } = await runNode({
			parameters: { resource, operation: 'getMany', returnAll: true, filters: { createdAtFrom: '={{ $json.from }}' } },
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

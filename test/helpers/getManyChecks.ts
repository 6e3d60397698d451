/**
 * What Job → Get Many and Plot → Get Many share: every item's filters are read before any
 * request, so a bad one sends nothing (or, with Continue On Fail, becomes an error item while
 * the good items are listed, in input order). Each operation's test file runs these tests
 * against its own fake.
 */
import { runNode } from './engine';
import { fake, storeWithApiKey, useFakeService } from './fakeService';

/** Defines the tests for the Get Many of `resource`, whose listing is served at `path`. */
export function describeGetManyChecksEveryItemFirst(resource: 'job' | 'plot', path: string): void {
	describe(`${resource} → Get Many checks every item before any request`, () => {
		useFakeService();
		beforeEach(() => {
			fake.reset();
			fake.seedPlots('alice', 3);
			fake.seedJobs('alice', 3);
		});
		const store = () => storeWithApiKey(fake);

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
}

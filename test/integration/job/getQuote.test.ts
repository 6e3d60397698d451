import { runNode } from '../../helpers/engine';
import { fake, listJobs, makeJobs, seed, store, useJobService } from './helpers';

/** Job → Get Quote through the n8n engine, against the fake over loopback HTTP. */
describe('Job resource (through the n8n engine, against the fake)', () => {
	useJobService();

	it('Get Quote is a dry run: it returns the cost and the balance and changes no balance', async () => {
		const ids = seed(3);
		const before = fake.getBalance('alice');
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getQuote', plotIds: ids.join(', ') },
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.token_cost).toEqual(expect.any(Number));
		expect(items[0].json.token_cost as number).toBeGreaterThan(0);
		expect(items[0].json.free_tokens).toBe(before.free);
		expect(items[0].json.sufficient).toBe(true);
		expect(fake.getBalance('alice')).toEqual(before);
		expect(makeJobs().map((e) => e.headers['x-dry-run'])).toEqual(['true']);
		expect(await listJobs()).toHaveLength(0);
	});
});

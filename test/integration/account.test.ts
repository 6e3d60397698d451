import { CredentialStore, runNode } from '../helpers/engine';
import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';

describe('Account → Get Token Balance (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService();
	});
	afterAll(async () => await fake.close());

	it('returns total, reserved and free plus the raw fields with an API key', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const json = items[0].json;
		const balance = fake.getBalance('alice');
		expect(json).toMatchObject({ total: balance.total, reserved: balance.reserved, free: balance.free });
		expect(json['Token balance']).toBe(balance.total);
	});
});

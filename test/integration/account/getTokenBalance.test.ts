import type { CredentialStore } from '../../helpers/engine';
import { runNode } from '../../helpers/engine';
import { makeJob, makePlots } from '../../helpers/fakeSetup';
import { fake, storeWithApiKey, storeWithLogin, useFakeService } from '../../helpers/fakeService';

describe('Account → Get Token Balance (through the n8n engine, against the fake)', () => {
	let apiKeyStore: CredentialStore;
	let loginStore: CredentialStore;
	useFakeService({ perPlotDurationMs: 1000 });
	beforeAll(() => {
		fake.clock.setScale(0);
		apiKeyStore = storeWithApiKey(fake);
		loginStore = storeWithLogin(fake);
	});
	afterEach(() => fake.reset());

	it('returns total, reserved and free plus the raw fields with an API key', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store: apiKeyStore,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		const json = items[0].json;
		const balance = fake.getBalance('alice');
		expect(json).toEqual({
			total: balance.total,
			reserved: balance.reserved,
			free: balance.free,
			'Token balance': balance.total,
			'Reserved Tokens': balance.reserved,
			'Free Tokens': balance.free,
		});
		expect(fake.log.entries().map((e) => e.auth)).toEqual(['api_key']);
	});

	it('returns the same fields with the username and password credential (JWT), without leaking secrets', async () => {
		fake.setBalance('alice', 250);
		const { items, error } = await runNode({
			parameters: { authentication: 'login', resource: 'account', operation: 'getTokenBalance' },
			store: loginStore,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			total: 250,
			reserved: 0,
			free: 250,
			'Token balance': 250,
			'Reserved Tokens': 0,
			'Free Tokens': 250,
		});
		const output = JSON.stringify(items);
		expect(output).not.toContain(fake.users.alice.password);
		const jwt = loginStore.data.geospatialAnalysisLoginApi.sessionToken;
		expect(typeof jwt === 'string' && jwt.length > 20).toBe(true);
		expect(output).not.toContain(jwt as string);
		expect(fake.log.count({ method: 'POST', path: '/login' })).toBe(1);
		expect(fake.log.entries().find((e) => e.path === '/users/check_tokens')?.auth).toBe('jwt');
	});

	it('shows tokens reserved by a running job, and the free rest', async () => {
		fake.setBalance('alice', 1000);
		const plots = await makePlots(fake, fake.users.alice.apiKey, [
			'Balance plot 1',
			'Balance plot 2',
		]);
		await makeJob(fake, fake.users.alice.apiKey, plots, [{ type: 'eudr' }]);
		const running = fake.getBalance('alice');
		expect(running.reserved).toBeGreaterThan(0);
		const { items } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store: apiKeyStore,
		});
		expect(items[0].json).toMatchObject({
			total: 1000,
			reserved: running.reserved,
			free: 1000 - running.reserved,
		});
	});

	it('answers one balance per input item, each paired with its item', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			input: [{ a: 1 }, { a: 2 }],
			store: apiKeyStore,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[1].json.total).toBe(fake.getBalance('alice').total);
	});

	it("reports the service's plain-string 404 when the account has no token balance, with a description", async () => {
		fake.deleteBalance('alice');
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store: apiKeyStore,
		});
		expect(items).toHaveLength(0);
		expect(String(error?.httpCode)).toBe('404');
		expect(error?.message).toContain("Token balance not found for user 'alice'");
		expect(error?.description).toBeTruthy();
		expect(JSON.stringify(error)).not.toContain(fake.users.alice.apiKey);
	});

	it('with Continue On Fail, the 404 becomes an error item', async () => {
		fake.deleteBalance('alice');
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store: apiKeyStore,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toContain('Token balance not found');
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});
});

import { CredentialStore, runNode } from '../../helpers/engine';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

const HIDDEN = [
	'precipitation',
	'water_detection',
	'land_cover',
	'fire_damage',
	'flood_water_history',
];

describe('Capability → Get Many (through the n8n engine, against the fake)', () => {
	let alice: CredentialStore;
	const path = '/v3/discovery/capabilities';

	useFakeService();
	beforeAll(() => {
		alice = storeWithApiKey(fake);
	});
	afterEach(() => fake.reset());

	const catalog = async (include?: string) => {
		const response = await fetch(`${fake.url}${path}${include ? `?include=${include}` : ''}`, {
			headers: { 'X-API-Version': '3', Authorization: `Bearer ${fake.users.alice.apiKey}` },
		});
		return (await response.json()) as Array<Record<string, unknown>>;
	};

	it('returns one item per capability of the default listing, without hidden ones or methodology', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'capability', operation: 'getMany' },
			store: alice,
		});
		expect(error).toBeUndefined();
		expect(
			fake.log
				.entries()
				.filter((e) => e.path === path)
				.map((e) => e.query),
		).toEqual([{}]);
		expect(items.map((i) => i.json)).toEqual(await catalog());
		expect(items).toHaveLength(28);
		const names = items.map((i) => i.json.name);
		expect(names).toEqual(
			expect.arrayContaining([
				'eudr',
				'deforestation',
				'protected_area',
				'data_center_site_suitability',
			]),
		);
		for (const hidden of HIDDEN) expect(names).not.toContain(hidden);
		for (const item of items) {
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.methodology).toBeUndefined();
		}
	});

	it('Include Hidden Capabilities adds the hidden ones (include=hidden)', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource: 'capability',
				operation: 'getMany',
				options: { includeHidden: true },
			},
			store: alice,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(33);
		expect(items.map((i) => i.json.name)).toEqual(expect.arrayContaining(HIDDEN));
		expect(items[0].json.methodology).toBeUndefined();
	});

	it('Include Methodology adds each methodology (include=doc)', async () => {
		const { items, error } = await runNode({
			parameters: {
				resource: 'capability',
				operation: 'getMany',
				options: { includeMethodology: true },
			},
			store: alice,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(28);
		for (const item of items) expect(item.json.methodology).toEqual(expect.any(String));
		expect(items.map((i) => i.json.name)).not.toContain('precipitation');
	});

	it('both options together send include=doc,hidden', async () => {
		const { items } = await runNode({
			parameters: {
				resource: 'capability',
				operation: 'getMany',
				options: { includeMethodology: true, includeHidden: true },
			},
			store: alice,
		});
		expect(items).toHaveLength(33);
		expect(
			fake.log
				.entries()
				.filter((e) => e.path === path)
				.map((e) => e.query),
		).toEqual([{ include: 'doc,hidden' }]);
		expect(items.map((i) => i.json)).toEqual(await catalog('doc,hidden'));
	});

	it('Simplify flattens cost hint and configuration fields', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'capability', operation: 'getMany', simplify: true },
			store: alice,
		});
		expect(error).toBeUndefined();
		const byName = Object.fromEntries(items.map((i) => [i.json.name, i.json]));
		expect(byName.data_center_site_suitability).toMatchObject({
			label: 'Data Center Site Suitability',
			transport: 'sync',
			required_config_fields: ['power_mw'],
			config_fields: expect.arrayContaining(['power_mw']),
			cost_model: expect.any(String),
		});
		expect(byName.protected_area.result_key).toBe('protected_areas');
		expect(byName.eudr.result_key).toBe('eudr');
		expect(byName.eudr.input_schema).toBeUndefined();
		expect(byName.eudr.cost_hint).toBeUndefined();
	});

	it('reads the catalog once for many input items and pairs each item', async () => {
		fake.log.clear();
		const { items, error } = await runNode({
			parameters: { resource: 'capability', operation: 'getMany' },
			input: [{}, {}, {}],
			store: alice,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3 * 28);
		expect(items.filter((i) => (i.pairedItem as { item: number }).item === 2)).toHaveLength(28);
		expect(fake.log.count({ method: 'GET', path })).toBe(1);
	});

	it('reads the catalog again in the next execution: a capability added at run time appears without a code change', async () => {
		const before = await runNode({
			parameters: { resource: 'capability', operation: 'getMany' },
			store: alice,
		});
		expect(before.items.map((i) => i.json.name)).not.toContain('carbon_stock');
		fake.addCapability({
			name: 'carbon_stock',
			label: 'Carbon Stock',
			description: 'Above-ground carbon of the plot',
			cost_hint: { model: 'per_plot', tokens_per_plot: 3, currency: 'tokens' },
		});
		const after = await runNode({
			parameters: { resource: 'capability', operation: 'getMany', simplify: true },
			store: alice,
		});
		expect(after.items.find((i) => i.json.name === 'carbon_stock')?.json).toMatchObject({
			label: 'Carbon Stock',
			tokens_per_plot: 3,
			cost_model: 'per_plot',
		});
	});

	it('works with the username and password credential, and reports service errors with a description', async () => {
		const login = new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: 'alice',
				password: fake.users.alice.password,
			},
		});
		const ok = await runNode({
			parameters: { authentication: 'login', resource: 'capability', operation: 'getMany' },
			store: login,
		});
		expect(ok.error).toBeUndefined();
		expect(ok.items).toHaveLength(28);

		fake.faults.add({ kind: 'status', status: 500, times: 1, match: { method: 'GET', path } });
		const failed = await runNode({
			parameters: { resource: 'capability', operation: 'getMany' },
			store: alice,
		});
		expect(failed.items).toHaveLength(0);
		expect(failed.error?.message).toMatch(/error processing your request/);
		expect(failed.error?.description).toBeTruthy();
	});
});

import { CredentialStore, runNode } from '../../helpers/engine';
import { runsOf } from '../../helpers/fakeSetup';
import { alice, bob, fake, plotA, plotB, useRunHistory } from './helpers';

/** Analysis Run → Get through the n8n engine, against the fake over loopback HTTP. */
describe('Analysis Run (through the n8n engine, against the fake)', () => {
	useRunHistory();

	describe('Get', () => {
		it('returns the run with its output', async () => {
			const [summary] = await runsOf(fake, fake.users.alice.apiKey, plotB);
			const { items, error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: summary.run_id as string },
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[0].json).toMatchObject({ ...summary, output: expect.any(Object) });
			expect(items[0].json.output).not.toBeNull();
		});

		it('Simplify keeps the output next to the flat fields', async () => {
			const runs = await runsOf(fake, fake.users.alice.apiKey, plotB);
			const eudr = runs.find((r) => r.check_type === 'eudr')!;
			const raw = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: eudr.run_id as string },
				store: alice,
			});
			const { items, error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'get',
					runId: eudr.run_id as string,
					simplify: true,
				},
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				run_id: eudr.run_id,
				check_type: 'eudr',
				status: 'completed',
				token_cost: eudr.token_cost,
				visualization_url: expect.any(String),
				geojson_url: expect.any(String),
				output: raw.items[0].json.output,
			});
			expect(items[0].json.config).toBeUndefined();
		});

		it('gets one run per input item, from an expression', async () => {
			const runs = await runsOf(fake, fake.users.alice.apiKey, plotA);
			const { items, error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: '={{ $json.run_id }}' },
				input: runs.map((r) => ({ run_id: r.run_id as string })),
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => [i.json.run_id, i.pairedItem])).toEqual(
				runs.map((r, n) => [r.run_id, { item: n }]),
			);
		});

		it("answers 403 Unauthorized access to entity retrieved for alice's run read with bob's key", async () => {
			const [run] = await runsOf(fake, fake.users.alice.apiKey, plotA);
			const { items, error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: run.run_id as string },
				store: bob,
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toBe('Unauthorized access to entity retrieved');
			expect(error?.description).toBeTruthy();
			expect(String(error?.httpCode)).toBe('403');
			expect(JSON.stringify(error)).not.toContain(fake.users.bob.apiKey);
		});

		it('answers 404 for an unknown run, with a description', async () => {
			const { error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: '999999999' },
				store: alice,
			});
			expect(String(error?.httpCode)).toBe('404');
			expect(error?.message).toContain('HTTP 404 Not Found');
			expect(error?.description).toBeTruthy();
		});

		it('with Continue On Fail, a 404 becomes an error item and the other runs are returned', async () => {
			const [run] = await runsOf(fake, fake.users.alice.apiKey, plotB);
			const { items, error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: '={{ $json.run_id }}' },
				input: [{ run_id: '999999999' }, { run_id: run.run_id as string }],
				store: alice,
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(items[0].json.error).toContain('HTTP 404 Not Found');
			expect(items[0].pairedItem).toEqual({ item: 0 });
			expect(items[1].json.run_id).toBe(run.run_id);
			expect(items[1].pairedItem).toEqual({ item: 1 });
		});

		it('fails before any request when the Run ID is empty', async () => {
			fake.log.clear();
			const { error } = await runNode({
				parameters: { resource: 'analysisRun', operation: 'get', runId: '  ' },
				store: alice,
			});
			expect(error?.message).toBe(
				'Item 0, field "Run ID": no analysis run id was given. Map the run_id of the analysis run, e.g. {{ $json.run_id }}.',
			);
			expect(fake.log.count({ path: /^\/analysis-runs/ })).toBe(0);
		});

		it('works with the username and password credential too', async () => {
			const [run] = await runsOf(fake, fake.users.alice.apiKey, plotB);
			const login = new CredentialStore({
				geospatialAnalysisLoginApi: {
					baseUrl: fake.url,
					username: fake.users.alice.username,
					password: fake.users.alice.password,
				},
			});
			const { items, error } = await runNode({
				parameters: {
					authentication: 'login',
					resource: 'analysisRun',
					operation: 'get',
					runId: run.run_id as string,
				},
				store: login,
			});
			expect(error).toBeUndefined();
			expect(items[0].json.run_id).toBe(run.run_id);
			expect(JSON.stringify(items)).not.toContain(fake.users.alice.password);
		});
	});
});

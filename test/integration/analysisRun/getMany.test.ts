import { runNode } from '../../helpers/engine';
import { makeJob, makePlots, runsOf } from '../../helpers/fakeSetup';
import { alice, bob, fake, idle, plotA, plotB, useRunHistory } from './helpers';

/** Analysis Run → Get Many through the n8n engine, against the fake over loopback HTTP. */
describe('Analysis Run (through the n8n engine, against the fake)', () => {
	useRunHistory();

	describe('Get Many', () => {
		it('returns one item per run of the plot, newest first, as the service sends them', async () => {
			const expected = await runsOf(fake, fake.users.alice.apiKey, plotA);
			expect(expected).toHaveLength(3);
			const { items, error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
				},
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => i.json)).toEqual(expected);
			expect(items.map((i) => i.json.check_type)).toEqual([
				'deforestation',
				'deforestation',
				'eudr',
			]);
			for (const item of items) expect(item.pairedItem).toEqual({ item: 0 });
			// The list carries no output; Get does.
			expect(items[0].json.output).toBeUndefined();
		});

		it('reads the plot id of each input item and pairs every run with its item', async () => {
			const { items, error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: '={{ $json.plot_id }}',
					returnAll: true,
				},
				input: [{ plot_id: plotB }, { plot_id: idle }, { plot_id: plotA }],
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items.map((i) => [i.json.plot_id, (i.pairedItem as { item: number }).item])).toEqual([
				[plotB, 0],
				[plotB, 0],
				[plotA, 2],
				[plotA, 2],
				[plotA, 2],
			]);
		});

		it('applies Limit, and the Check Type and Status filters', async () => {
			const limited = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: false,
					limit: 2,
				},
				store: alice,
			});
			expect(limited.items).toHaveLength(2);
			const filtered = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
					filters: { checkType: 'deforestation', status: 'completed' },
				},
				store: alice,
			});
			expect(filtered.items.map((i) => i.json.check_type)).toEqual([
				'deforestation',
				'deforestation',
			]);
			const none = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
					filters: { status: 'failed' },
				},
				store: alice,
			});
			expect(none.items).toHaveLength(0);
		});

		it('Simplify gives check type, status, timing, token cost and artifact links as flat fields', async () => {
			const { items, error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotB,
					returnAll: true,
					simplify: true,
				},
				store: alice,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			const eudr = items.find((i) => i.json.check_type === 'eudr')!.json;
			expect(eudr).toMatchObject({
				plot_id: plotB,
				status: 'completed',
				token_cost: expect.any(Number),
				tokens_charged: expect.any(Number),
				started_at: expect.any(String),
				finished_at: expect.any(String),
				duration_seconds: 1,
				visualization_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
				geojson_url: expect.stringContaining(`/__fake/artifacts/${eudr.run_id as string}.geojson`),
				error: null,
			});
			expect(eudr.artifact_urls).toEqual([eudr.visualization_url, eudr.geojson_url]);
			// Flat: no nested objects except the artifact URL list.
			for (const [key, value] of Object.entries(eudr)) {
				if (key !== 'artifact_urls')
					expect(typeof value === 'object' && value !== null).toBe(false);
			}
		});

		it('shows a run that has not finished yet with its status and no artifacts', async () => {
			const [fresh] = await makePlots(fake, fake.users.alice.apiKey, ['Still running']);
			await makeJob(fake, fake.users.alice.apiKey, [fresh], [{ type: 'eudr' }]);
			const { items } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: fresh,
					returnAll: true,
					simplify: true,
				},
				store: alice,
			});
			expect(items).toHaveLength(1);
			expect(items[0].json).toMatchObject({
				status: 'pending',
				finished_at: null,
				duration_seconds: null,
				artifact_urls: [],
			});
			fake.clock.advance(10_000);
		});

		it('reads the Check Type and Status filters through the input layer: trimmed text, and a list refused naming the filter', async () => {
			const trimmed = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
					filters: { checkType: '  deforestation ', status: '={{ " completed" }}' },
				},
				store: alice,
			});
			expect(trimmed.items.map((i) => i.json.check_type)).toEqual([
				'deforestation',
				'deforestation',
			]);
			fake.log.clear();
			const { error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
					filters: { checkType: '={{ ["eudr", "deforestation"] }}' },
				},
				store: alice,
			});
			expect(error?.message).toBe(
				'Item 0, field "Check Type": it is a list, not text. Map a text value.',
			);
			expect(fake.log.count({ path: '/analysis-runs' })).toBe(0);
		});

		it('fails before any request when the Plot ID is empty, naming the item and the field', async () => {
			fake.log.clear();
			const { error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: '={{ $json.plot_id }}',
					returnAll: true,
				},
				input: [{ plot_id: plotA }, { plot_id: '' }],
				store: alice,
			});
			expect(error?.message).toBe(
				'Item 1, field "Plot ID": no plot id was given. Map the plot_id of the plot, e.g. {{ $json.plot_id }}.',
			);
			expect(error?.description).toMatch(/Map the plot_id of the plot/);
			expect(fake.log.count({ path: '/analysis-runs' })).toBe(0);
		});

		it('with Continue On Fail, a bad item becomes an error item and the good ones proceed', async () => {
			const { items, error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: '={{ $json.plot_id }}',
					returnAll: true,
				},
				input: [{ plot_id: '' }, { plot_id: plotB }],
				store: alice,
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(items[0]).toEqual({
				json: {
					error:
						'Item 0, field "Plot ID": no plot id was given. Map the plot_id of the plot, e.g. {{ $json.plot_id }}.',
					description: expect.any(String),
				},
				pairedItem: { item: 0 },
			});
			expect(items.slice(1).map((i) => [i.json.plot_id, i.pairedItem])).toEqual([
				[plotB, { item: 1 }],
				[plotB, { item: 1 }],
			]);
		});

		it("gets 403 with the service's message for another user's plot", async () => {
			const { error } = await runNode({
				parameters: {
					resource: 'analysisRun',
					operation: 'getMany',
					plotId: plotA,
					returnAll: true,
				},
				store: bob,
			});
			expect(error?.message).toContain('Unauthorized access to entity retrieved');
			expect(error?.description).toBeTruthy();
			expect(JSON.stringify(error)).not.toContain(fake.users.bob.apiKey);
		});
	});
});

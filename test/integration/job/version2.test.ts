import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DECISION_COLUMNS } from '../../../nodes/shared/results/flatten';
import { runNode } from '../../helpers/engine';
import { fake, makeJobs, seed, store, useJobService } from './helpers';
import { mockTiming } from './timing';

jest.mock('../../../nodes/shared/time/sleep', () =>
	jest.requireActual<typeof import('./timing')>('./timing').sleepModuleWithTestTiming(),
);

/**
 * Version 2 of the action node through the n8n engine against the fake: the same requests as
 * version 1, with the fields where version 2 keeps them and its defaults (Max Tokens 100,
 * Checks eudr, Wait for Completion → Per-Plot Results, Request Timeout in Options). Version
 * 1 keeps its own (the other test files of this folder run version 1).
 */
describe('Job operations, node version 2 (through the n8n engine, against the fake)', () => {
	useJobService();
	beforeEach(() => {
		let now = 1_000_000;
		mockTiming.current = {
			now: () => now,
			sleep: async (ms: number) => {
				now += ms;
				fake.clock.advance(ms);
			},
			random: () => 0.5,
		};
	});
	afterAll(() => {
		mockTiming.current = undefined;
	});

	const v2 = async (parameters: INodeParameters, input?: IDataObject[]) =>
		await runNode({ parameters, store, typeVersion: 2, input });

	it('Create at its defaults: a free quote first (Max Tokens 100), then one EUDR job', async () => {
		const ids = seed(2);
		const { items, error } = await v2({
			resource: 'job',
			operation: 'create',
			plotIds: ids.join(','),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const sent = makeJobs();
		expect(sent.map((e) => e.headers['x-dry-run'] ?? 'real')).toEqual(['true', 'real']);
		expect(sent[1].body).toMatchObject({ plot_ids: ids, checks: [{ type: 'eudr' }] });
		expect(items[0].json).toMatchObject({ plot_ids: ids });
	});

	it('Create at its defaults refuses a job over 100 tokens and creates nothing', async () => {
		const ids = seed(101);
		const before = fake.getBalance('alice');
		const { items, error } = await v2({
			resource: 'job',
			operation: 'create',
			plotIds: ids.join(','),
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/would cost \d+ tokens, more than Max Tokens \(100\); nothing was created/,
		);
		expect(makeJobs().map((e) => e.headers['x-dry-run'])).toEqual(['true']);
		expect(fake.getBalance('alice')).toEqual(before);
		// 0 lifts the limit, as in version 1
		const unlimited = await v2({
			resource: 'job',
			operation: 'create',
			plotIds: ids.join(','),
			maxTokens: 0,
		});
		expect(unlimited.error).toBeUndefined();
		expect(makeJobs().map((e) => e.headers['x-dry-run'] ?? 'real')).toEqual(['true', 'real']);
	});

	it('Create reads every option where version 2 keeps it', async () => {
		const ids = seed(2);
		const { items, error } = await v2(
			{
				resource: 'job',
				operation: 'create',
				plotIds: '={{ $json.plot_id }}',
				checks: ['eudr', 'data_center_site_suitability'],
				maxTokens: 100000,
				options: {
					jobPer: 'item',
					commodity: 'cocoa',
					harvestDate: '2025-10-31',
					perPlotCommodity: '={{ $json.commodity }}',
					perPlotHarvestDate: '={{ $json.harvest }}',
					checkConfigs: {
						config: [{ check: 'data_center_site_suitability', json: '{"power_mw": 20}' }],
					},
					jobName: 'Version 2',
					notes: 'n',
					additionalInfo: '{"batch": "2026-Q1"}',
					recoveryWindowMinutes: 5,
					requestTimeout: 30,
				},
			},
			[
				{ plot_id: ids[0], commodity: 'coffee', harvest: '2025-01-15' },
				{ plot_id: ids[1], commodity: 'soy', harvest: '2025-02-15' },
			],
		);
		expect(error).toBeUndefined();
		// One job per item (Jobs is an option in version 2)
		expect(items).toHaveLength(2);
		const real = makeJobs().filter((e) => e.headers['x-dry-run'] !== 'true');
		expect(real).toHaveLength(2);
		expect(real[0].body).toMatchObject({
			plot_ids: [ids[0]],
			checks: [
				{ type: 'eudr' },
				{ type: 'data_center_site_suitability', config: { power_mw: 20 } },
			],
			config: { commodity: 'cocoa', harvest_date: '2025-10-31' },
			per_plot: { [ids[0]]: { commodity: 'coffee', harvest_date: '2025-01-15' } },
			job_name: 'Version 2',
			notes: 'n',
			additional_info: { batch: '2026-Q1' },
		});
		expect(real[1].body).toMatchObject({
			plot_ids: [ids[1]],
			per_plot: { [ids[1]]: { commodity: 'soy', harvest_date: '2025-02-15' } },
		});
	});

	it('bad options fail before any request, naming the field as version 2 shows it', async () => {
		const ids = seed(1);
		const { error } = await v2({
			resource: 'job',
			operation: 'create',
			plotIds: ids[0],
			options: { perPlotHarvestDate: '2025-02-30', requestTimeout: 30 },
		});
		expect(error?.message).toMatch(/Item 0, field "Per-Plot Harvest Date"/);
		expect(makeJobs()).toHaveLength(0);
	});

	it('Request Timeout is read from Options', async () => {
		const { error } = await v2({
			resource: 'account',
			operation: 'getTokenBalance',
			options: { requestTimeout: 'soon' },
		});
		expect(error?.message).toMatch(/^Request Timeout must be a number of seconds from 1 to/);
		expect(fake.log.count()).toBe(0);
		const ok = await v2({
			resource: 'account',
			operation: 'getTokenBalance',
			options: { requestTimeout: 30 },
		});
		expect(ok.error).toBeUndefined();
		expect(ok.items[0].json).toHaveProperty('free');
	});

	it('Get Quote at its defaults quotes the EUDR bundle; its options apply', async () => {
		const ids = seed(2);
		const { items, error } = await v2({
			resource: 'job',
			operation: 'getQuote',
			plotIds: ids.join(','),
			options: { commodity: 'cocoa' },
		});
		expect(error).toBeUndefined();
		expect(items[0].json.token_cost).toBeGreaterThan(0);
		const sent = makeJobs();
		expect(sent).toHaveLength(1);
		expect(sent[0].headers['x-dry-run']).toBe('true');
		expect(sent[0].body).toMatchObject({
			plot_ids: ids,
			checks: [{ type: 'eudr' }],
			config: { commodity: 'cocoa' },
		});
	});

	it('Wait for Completion at its defaults: one simplified row per plot, the decision first', async () => {
		const ids = seed(2, 'Decision');
		const created = await v2({
			resource: 'job',
			operation: 'create',
			plotIds: ids.join(','),
		});
		expect(created.error).toBeUndefined();
		const { items, error } = await v2({
			resource: 'job',
			operation: 'waitForCompletion',
			jobIds: created.items[0].json.job_id as string,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.plot_id)).toEqual(ids);
		for (const { json } of items) {
			expect(Object.keys(json).slice(0, DECISION_COLUMNS.length)).toEqual([...DECISION_COLUMNS]);
			expect(json.risk_level).toMatch(/Low|Medium|High/);
			expect(json).toHaveProperty('job_id', created.items[0].json.job_id);
		}
		// version 1 at the same parameters outputs the job, its rows in their old order
		const v1 = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: created.items[0].json.job_id as string,
			},
			store,
		});
		expect(v1.items).toHaveLength(1);
		expect(v1.items[0].json.job_id).toBe(created.items[0].json.job_id);
		const v1Rows = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: created.items[0].json.job_id as string,
				output: 'perPlot',
			},
			store,
		});
		expect(Object.keys(v1Rows.items[0].json).slice(0, 3)).toEqual([
			'plot_id',
			'plot_name',
			'job_id',
		]);
		// the same columns and values, only their order differs
		expect(v1Rows.items.map((i) => i.json)).toEqual(items.map((i) => i.json));
	});
});

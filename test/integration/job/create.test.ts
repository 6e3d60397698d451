import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../helpers/engine';
import { create, fake, listJobs, makeJobs, seed, store, useJobService } from './helpers';

/** Job → Create through the n8n engine, against the fake over loopback HTTP. */
describe('Job resource (through the n8n engine, against the fake)', () => {
	useJobService();

	it('Max Tokens below the quote creates nothing and says why', async () => {
		const ids = seed(2);
		const before = fake.getBalance('alice');
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids.join(','),
				options: { maxTokens: 1 },
			},
			store,
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/would cost \d+ tokens, more than Max Tokens \(1\); nothing was created/,
		);
		expect(error?.description).toMatch(new RegExp(`free balance: ${before.free} tokens`));
		// Only the dry run reached make_job.
		expect(makeJobs()).toHaveLength(1);
		expect(makeJobs()[0].headers['x-dry-run']).toBe('true');
		expect(fake.getBalance('alice')).toEqual(before);
	});

	it('Max Tokens at or above the quote creates the job once', async () => {
		const ids = seed(2);
		const job = await create(ids, {
			options: { maxTokens: 100000 },
			additionalFields: { jobName: 'Budgeted', notes: 'n' },
		});
		expect(job).toMatchObject({ job_name: 'Budgeted', notes: 'n', plot_ids: ids });
		expect(makeJobs().map((e) => e.headers['x-dry-run'] ?? 'real')).toEqual(['true', 'real']);
	});

	it('a dropped connection after the create was processed yields exactly one job, which the node returns', async () => {
		const ids = seed(2);
		fake.faults.add({ kind: 'drop-after', match: { method: 'POST', path: '/jobs/make_job' } });
		const job = await create(ids, { additionalFields: { jobName: 'Dropped once' } });
		expect(makeJobs()).toHaveLength(1); // never re-sent
		const jobs = await listJobs();
		expect(jobs).toHaveLength(1);
		expect(job).toMatchObject({
			job_id: jobs[0].job_id,
			job_name: 'Dropped once',
			recovered_after_connection_error: true,
		});
	});

	it('an insufficient balance says how many tokens are needed and free', async () => {
		const ids = seed(2);
		fake.setBalance('alice', 1);
		const { error } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: ids.join(',') },
			store,
		});
		expect(error?.message).toMatch(/needs \d+ tokens and 1 are free/);
	});

	it('bad input fails before any request: no plot ids, bad date, bad config against the input schema', async () => {
		const ids = seed(1);
		const noIds = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: '={{ $json.missing }}' },
			store,
		});
		expect(noIds.error?.message).toMatch(/^Item 0, field "Plot IDs": no plot id was given/);
		const badDate = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				harvestDate: '2025-02-30',
			},
			store,
		});
		expect(badDate.error?.message).toMatch(
			/^Item 0, field "Harvest Date": "2025-02-30" has the day 30, which does not exist/,
		);
		expect(fake.log.count()).toBe(0);
		const badConfig = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				checkSource: 'names',
				checkNames: 'data_center_site_suitability',
				checkConfigs: { config: [{ check: 'data_center_site_suitability', json: '{}' }] },
			},
			store,
		});
		expect(badConfig.error?.message).toMatch(
			/Invalid config for check "data_center_site_suitability" in item 0: config\.power_mw: is required/,
		);
		expect(makeJobs()).toHaveLength(0);
		const unknown = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				plotIds: ids[0],
				checkSource: 'names',
				checkNames: 'no_such_check',
			},
			store,
		});
		expect(unknown.error?.message).toMatch(/Unknown check "no_such_check"/);
		expect(makeJobs()).toHaveLength(0);
	});

	it('one job per item with per-plot values mapped from items; Continue On Fail keeps good items going', async () => {
		const ids = fake.seedPlots('alice', 2, { commodity: null });
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				jobPer: 'item',
				plotIds: '={{ $json.id }}',
				perPlot: { commodity: '={{ $json.crop }}', harvestDate: '={{ $json.harvest }}' },
			},
			input: [
				{ id: ids[0], crop: 'cocoa', harvest: '2025-10-01' },
				{ id: '', crop: 'soy' },
				{ id: ids[1], crop: 'coffee', harvest: '' },
			],
			store,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		// Output in input order (the item runner's one rule), each paired with its item.
		expect(items.map((i) => i.pairedItem)).toEqual([[{ item: 0 }], { item: 1 }, [{ item: 2 }]]);
		expect(items[1].json.error).toMatch(/no plot id was given/);
		expect(makeJobs().map((e) => (e.body as IDataObject).per_plot)).toEqual([
			{ [ids[0]]: { commodity: 'cocoa', harvest_date: '2025-10-01' } },
			{ [ids[1]]: { commodity: 'coffee' } },
		]);
	});

	it('one job for all items aggregates the plot ids of every item', async () => {
		const ids = seed(3);
		const { items } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: '={{ $json.plot_id }}' },
			input: ids.map((plot_id) => ({ plot_id })),
			store,
		});
		expect(items).toHaveLength(1);
		expect(items[0].json.plot_ids).toEqual(ids);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});

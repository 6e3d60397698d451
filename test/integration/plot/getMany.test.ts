import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../helpers/engine';
import { describeGetManyChecksEveryItemFirst } from '../../helpers/getManyChecks';
import { fake, store, usePlotService } from './helpers';

/** Plot → Get Many through the n8n engine, against the fake over loopback HTTP. */
describe('Plot → Get and Get Many (through the n8n engine, against the fake)', () => {
	usePlotService();
	beforeAll(() => {
		fake.seedPlots('alice', 2500, { commodity: 'cocoa' });
	});

	const getMany = async (extra: IDataObject) =>
		await runNode({ parameters: { resource: 'plot', operation: 'getMany', ...extra }, store });

	it('Return All traverses 2,500 plots exactly once', async () => {
		const { items, error } = await getMany({ returnAll: true, simplify: false });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2500);
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(2500);
		expect(fake.log.count({ method: 'GET', path: '/plots' })).toBe(3);
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Limit 150 makes only the request needed for 150 plots', async () => {
		const { items, error } = await getMany({ returnAll: false, limit: 150 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(150);
		const requests = fake.log.entries().filter((e) => e.path === '/plots');
		expect(requests).toHaveLength(1);
		expect(requests[0].query.limit).toBe('150');
	});

	it('Simplify gives a flat spreadsheet row; filters and lite are sent', async () => {
		const all = fake.log;
		const { items, error } = await getMany({
			returnAll: false,
			limit: 5,
			filters: { createdAtFrom: '2000-01-01T00:00:00', createdAtUntil: '2100-01-01' },
			options: { lite: true },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		const query = all.entries()[0].query;
		expect(query).toMatchObject({
			created_at_from: '2000-01-01T00:00:00',
			created_at_until: '2100-01-01',
			lite: 'true',
		});
		expect(items[0].json).toMatchObject({
			plot_id: expect.any(String),
			commodity: 'cocoa',
			country: expect.anything(),
		});
		expect(Object.values(items[0].json).every((v) => v === null || typeof v !== 'object')).toBe(
			true,
		);
	});

	it('an unreadable Created After fails before any request', async () => {
		const { error } = await getMany({ returnAll: true, filters: { createdAtFrom: 'last week' } });
		expect(String(error?.message)).toMatch(
			/^Item 0, field "Created After": "last week" is not an ISO-8601 date/,
		);
		expect(fake.log.count()).toBe(0);
	});
});

describeGetManyChecksEveryItemFirst('plot', '/plots');

import type { IDataObject } from 'n8n-workflow';

import { fake, run, useProtectedAreaService } from './helpers';

/** Protected Area → Get through the n8n engine, against the fake over loopback HTTP. */
describe('Protected Area → Check and Get (through the n8n engine, against the fake)', () => {
	useProtectedAreaService();

	it('gets an area by id', async () => {
		const { items, error } = await run({ operation: 'get', areaId: '351814' }, [{}]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.type).toBe('FeatureCollection');
		const feature = (items[0].json.features as IDataObject[])[0];
		expect((feature.properties as IDataObject).area_name).toBe('Jamanxim National Forest');
		expect(fake.log.count({ method: 'GET', path: '/protected-areas/351814' })).toBe(1);
	});

	it('tries /protected-areas/areas/{id} when the first path answers 404', async () => {
		fake.faults.add({
			kind: 'status',
			status: 404,
			match: { method: 'GET', path: '/protected-areas/59' },
		});
		const { items, error } = await run({ operation: 'get', areaId: '59' }, [{}]);
		fake.faults.clear();
		expect(error).toBeUndefined();
		expect(fake.log.count({ method: 'GET', path: '/protected-areas/areas/59' })).toBe(1);
		expect(((items[0].json.features as IDataObject[])[0].properties as IDataObject).area_id).toBe(
			'59',
		);
	});

	it('gives a clear message for a non-numeric area id (404 on both paths)', async () => {
		const { error } = await run({ operation: 'get', areaId: 'jamanxim' }, [{}]);
		expect(error?.message).toBe(
			'No protected area with ID "jamanxim" was found: area IDs are numbers',
		);
		expect(error?.description).toMatch(/numeric area ID such as 351814/);
		expect(fake.log.count({ method: 'GET', path: '/protected-areas/jamanxim' })).toBe(1);
		expect(fake.log.count({ method: 'GET', path: '/protected-areas/areas/jamanxim' })).toBe(1);
	});
});

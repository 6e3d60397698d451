import type { IDataObject } from 'n8n-workflow';

import { CHECKS, fake, run, square, useProtectedAreaService } from './helpers';

/** Protected Area → Check through the n8n engine, against the fake over loopback HTTP. */
describe('Protected Area → Check and Get (through the n8n engine, against the fake)', () => {
	useProtectedAreaService();

	it('checks 25 geometries from input items in one request and pairs each output with its input', async () => {
		// Odd rows inside Jamanxim National Forest (351814, limited), even rows far outside any area.
		const input = Array.from({ length: 25 }, (_, i) => ({
			row: i,
			geojson: i % 2 === 1 ? square(-55.6 + i * 0.01, -6.8) : square(-50 + i * 0.02, -12),
		}));
		const { items, error } = await run(
			{ operation: 'check', checkBy: 'geometry', geometrySource: 'geoJson' },
			input,
		);
		expect(error).toBeUndefined();
		expect(fake.log.count(CHECKS)).toBe(1);
		const body = fake.log.entries().find((e) => e.path === CHECKS.path)?.body as IDataObject;
		expect((body.geojson as { features: unknown[] }).features).toHaveLength(25);
		expect(items).toHaveLength(25);
		// Shape variant `overlap=absent` (test/fake-service/variant.ts): no yes/no and no figures.
		const said = fake.variant.overlap !== 'absent';
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.input_type).toBe('geometry');
			expect(item.json.input_feature_index).toBe(0);
			if (i % 2 === 1) {
				// the area is listed: an overlap either way; the figures only when the service gave them
				expect(item.json.protected_area_overlap).toBe(true);
				if (said) {
					expect(item.json.total_overlap_percentage).toBeCloseTo(100, 0);
					expect(item.json.total_overlap_area_ha as number).toBeGreaterThan(50);
				} else {
					expect(item.json.total_overlap_percentage).toBeNull();
					expect(item.json.total_overlap_area_ha).toBeNull();
				}
				expect(item.json.most_restrictive_extractive_activity_legality).toBe('limited');
				const areas = item.json.overlapping_areas as IDataObject[];
				expect(areas).toHaveLength(1);
				expect(areas[0]).toMatchObject({
					area_id: '351814',
					iucn_category: 'VI',
					extractive_activity_legality: 'limited',
				});
				expect(Array.isArray(areas[0].regulation_urls)).toBe(true);
				expect(typeof areas[0].extractive_activity_conditions).toBe('string');
			} else {
				expect(item.json).toMatchObject({
					// unknown is never "no": false only when the service said so
					protected_area_overlap: said ? false : null,
					protected_area_overlap_reason: said
						? null
						: 'not reported: the service sent no overlap summary',
					total_overlap_percentage: said ? 0 : null,
					overlapping_area_count: 0,
					most_restrictive_extractive_activity_legality: null,
				});
			}
		});
	});

	it('batches more than 100 checks into as few requests as the service allows', async () => {
		const input = Array.from({ length: 130 }, (_, i) => ({
			latitude: -12.123456 - i * 0.001,
			longitude: -50.123456,
		}));
		const { items, error } = await run(
			{ operation: 'check', checkBy: 'geometry', geometrySource: 'latLon' },
			input,
		);
		expect(error).toBeUndefined();
		expect(fake.log.count(CHECKS)).toBe(2);
		expect(items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
	});

	it('checks plot ids from a comma-separated field and from one id per item, pairing each result', async () => {
		const ids = fake.seedPlots('alice', 3);
		const { items, error } = await run(
			{ operation: 'check', checkBy: 'plotIds', plotIds: '={{ $json.ids }}' },
			[{ ids: `${ids[0]}, ${ids[1]}` }, { ids: ids[2] }],
		);
		expect(error).toBeUndefined();
		expect(fake.log.count(CHECKS)).toBe(1);
		expect(items.map((i) => [i.json.plot_id, i.pairedItem])).toEqual([
			[ids[0], { item: 0 }],
			[ids[1], { item: 0 }],
			[ids[2], { item: 1 }],
		]);
		expect(items[0].json.input_type).toBe('plot');
	});

	it('returns the raw FeatureCollection as one item paired with every input item', async () => {
		const ids = fake.seedPlots('alice', 2);
		const { items, error } = await run(
			{
				operation: 'check',
				checkBy: 'both',
				plotIds: '={{ $json.id }}',
				geometrySource: 'wkt',
				output: 'raw',
			},
			ids.map((id, i) => ({ id, wkt: `POINT (${-55.512345 + i * 0.01} -6.712345)` })),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.type).toBe('FeatureCollection');
		expect((items[0].json.features as unknown[]).length).toBe(4);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('rejects an invalid geometry before sending anything', async () => {
		const open = square(-55.6, -6.8);
		(open.coordinates as number[][][])[0].pop();
		const { error } = await run(
			{ operation: 'check', checkBy: 'geometry', geometrySource: 'geoJson' },
			[{ geojson: square(-50, -12) }, { geojson: open }],
		);
		expect(error?.message).toMatch(/^Item 1, feature 0: .*not closed/);
		expect(fake.log.count()).toBe(0);
	});

	it('reports an empty plot id field before any request', async () => {
		const { error } = await run(
			{ operation: 'check', checkBy: 'plotIds', plotIds: '={{ $json.missing }}' },
			[{}],
		);
		expect(error?.message).toMatch(/Item 0, field "Plot IDs": no plot id was given/);
		expect(fake.log.count()).toBe(0);
	});
	it.each([
		[
			0,
			/0 is below the smallest allowed value, 1\. Give the most plot IDs and geometries in one request as a whole number from 1 to 100\./,
		],
		[101, /101 is above the largest allowed value, 100\./],
		[1.5, /1\.5 is not a whole number\./],
		['ten', /"ten" is not a number\./],
	])(
		'Batch Size %p refuses every item naming the option before any request',
		async (batchSize, reason) => {
			const input = [{ geojson: square(-50, -12) }, { geojson: square(-50.1, -12) }];
			const parameters = {
				operation: 'check',
				checkBy: 'geometry',
				geometrySource: 'geoJson',
				options: { batchSize },
			};
			const { error } = await run(parameters, input);
			const message = String(error?.message);
			expect(message).toMatch(/^Item 0, field "Batch Size": .*\(and 1 more problem in 2 items\)$/);
			expect(String(error?.description)).toMatch(/Item 1, field "Batch Size": /);
			expect(message).toMatch(reason);
			expect(fake.log.count()).toBe(0);
		},
	);

	it('Batch Size within 1 to 100 splits the requests as before', async () => {
		const input = Array.from({ length: 5 }, (_, i) => ({ geojson: square(-50 + i * 0.02, -12) }));
		const { items, error } = await run(
			{
				operation: 'check',
				checkBy: 'geometry',
				geometrySource: 'geoJson',
				options: { batchSize: '2' },
			},
			input,
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		expect(fake.log.count(CHECKS)).toBe(3);
	});
});

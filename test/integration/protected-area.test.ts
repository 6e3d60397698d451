import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

const CHECKS = { method: 'POST', path: '/protected-areas/checks' };

/** A closed square polygon of side d degrees with six-decimal corners. */
function square(lon: number, lat: number, d = 0.01): IDataObject {
	const r = (n: number) => Number(n.toFixed(6)) + 0.0000011;
	const ring = [
		[r(lon), r(lat)],
		[r(lon + d), r(lat)],
		[r(lon + d), r(lat + d)],
		[r(lon), r(lat + d)],
		[r(lon), r(lat)],
	];
	return { type: 'Polygon', coordinates: [ring] };
}

describe('Protected Area → Check and Get (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	beforeAll(async () => {
		fake = await startFakeService();
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});
	afterAll(async () => await fake.close());
	beforeEach(() => fake.log.clear());

	const run = async (parameters: IDataObject, input: IDataObject[], continueOnFail = false) =>
		await runNode({
			parameters: { resource: 'protectedArea', ...parameters },
			input,
			store,
			continueOnFail,
		});

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
		expect(error?.message).toMatch(/Item 0, field "Plot IDs": no plot ID was given/);
		expect(fake.log.count()).toBe(0);
	});

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

/**
 * Protected Area → Check pairs results by what they name, through n8n's engine against a
 * loopback service that answers for a plot nobody asked about: a requested plot without a
 * result reads `null` with the reason `not in the answer` (never "no overlap"), and the
 * unrequested result is attributed to no one (a warning on the rows says it was left out).
 */
import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback } from '../../helpers/loopback';
import { json, notFound, startLoopback } from '../../helpers/loopback';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'pairing_test_key_00001';
const SQUARE = {
	type: 'Polygon',
	coordinates: [
		[
			[-50, -10],
			[-49.99, -10],
			[-49.99, -9.99],
			[-50, -9.99],
			[-50, -10],
		],
	],
};

function result(properties: IDataObject) {
	return { type: 'Feature', geometry: SQUARE, properties };
}

const overlapping = {
	protected_area_overlap_summary: {
		protected_area_overlap: true,
		total_overlap_percentage: 12.5,
		total_overlap_area_ha: 3.1,
	},
	protected_area_details: [{ area_id: '555', area_name: 'Parque Teste', overlap_area_ha: 3.1 }],
};
const clear = {
	protected_area_overlap_summary: {
		protected_area_overlap: false,
		total_overlap_percentage: 0,
		total_overlap_area_ha: 0,
	},
	protected_area_details: [],
};

describe('Protected Area → Check pairs results by plot id and geometry index (engine → loopback)', () => {
	let service: Loopback;
	let answer: unknown;
	beforeAll(async () => {
		service = await startLoopback((req, res) => {
			if (req.method === 'POST' && req.path === '/protected-areas/checks')
				return json(res, 200, answer);
			return notFound(req, res);
		});
	});
	afterAll(async () => await service.close());
	beforeEach(() => {
		service.requests.length = 0;
	});
	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });

	it('plots 100001 and 200002 answered for 200002 and 999999: 100001 is null "not in the answer", 999999 is no one\'s', async () => {
		answer = {
			type: 'FeatureCollection',
			features: [
				result({ input_index: 0, input_type: 'plot', plot_id: '200002', ...overlapping }),
				result({ input_index: 1, input_type: 'plot', plot_id: '999999', ...clear }),
			],
		};
		const { items, error } = await runNode({
			parameters: { resource: 'protectedArea', operation: 'check', checkBy: 'plotIds' },
			input: [{ plot_id: '100001' }, { plot_id: '200002' }],
			store: store(),
		});
		expect(error).toBeUndefined();
		expect(JSON.parse(service.requests[0].body)).toEqual({ plot_ids: ['100001', '200002'] });
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({
			input_type: 'plot',
			plot_id: '100001',
			protected_area_overlap: null,
			protected_area_overlap_reason: 'not in the answer',
			total_overlap_percentage: null,
			total_overlap_area_ha: null,
			overlapping_area_count: null,
		});
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json).toMatchObject({
			plot_id: '200002',
			protected_area_overlap: true,
			total_overlap_percentage: 12.5,
			overlapping_area_count: 1,
		});
		// 999999 is attributed to no one: no row is its, and no row reads its "false".
		expect(items.map((i) => i.json.plot_id)).toEqual(['100001', '200002']);
		expect(items.some((i) => i.json.protected_area_overlap === false)).toBe(false);
		for (const item of items)
			expect(item.json.warnings).toEqual([
				expect.stringMatching(
					/^The service's answer also held 1 result for plots or geometries this request did not ask for \(plot 999999\); they were left out/,
				),
			]);
	});

	it('pairs plots by id whatever order the answer lists them in; geometries by geojson_index', async () => {
		const feature = (n: number) => ({
			type: 'Feature',
			properties: { n },
			geometry: { ...SQUARE, coordinates: [SQUARE.coordinates[0].map(([x, y]) => [x + n, y])] },
		});
		answer = {
			type: 'FeatureCollection',
			features: [
				result({ input_type: 'geojson', geojson_index: 1, ...clear }),
				result({ input_type: 'plot', plot_id: '200002', ...clear }),
				result({ input_type: 'geojson', geojson_index: 0, ...overlapping }),
				result({ input_type: 'plot', plot_id: '100001', ...overlapping }),
			],
		};
		const { items, error } = await runNode({
			parameters: {
				resource: 'protectedArea',
				operation: 'check',
				checkBy: 'both',
				plotIds: '={{ $json.plot_id }}',
				geometrySource: 'geoJson',
			},
			input: [
				{ plot_id: '100001', geojson: feature(0) },
				{ plot_id: '200002', geojson: feature(1) },
			],
			store: store(),
		});
		expect(error).toBeUndefined();
		expect(
			items.map((i) => [
				i.pairedItem,
				i.json.input_type,
				i.json.plot_id,
				i.json.input_feature_index,
				i.json.protected_area_overlap,
			]),
		).toEqual([
			[{ item: 0 }, 'plot', '100001', null, true],
			[{ item: 0 }, 'geometry', null, 0, true],
			[{ item: 1 }, 'plot', '200002', null, false],
			[{ item: 1 }, 'geometry', null, 0, false],
		]);
		// Nothing was left out: no row warns of a result nobody asked for.
		expect(JSON.stringify(items.map((i) => i.json.warnings ?? []))).not.toContain(
			'did not ask for',
		);
	});
});

import { call, f, fc, makePlot, type PaFeatureCollection, sq, useFakeService } from './harness';

useFakeService();

describe('protected areas', () => {
	test('check by plot_ids and geojson → one FeatureCollection in request order, charged per item', async () => {
		const p = await makePlot(sq(-7.3, 5.6)); // inside Taï
		const before = f.getBalance('alice').total;
		const r = await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
			body: {
				plot_ids: [p.plot_id],
				geojson: {
					type: 'FeatureCollection',
					features: [
						{ type: 'Feature', properties: { ref: 'far' }, geometry: sq(10, 50) },
						{
							type: 'Feature',
							properties: {},
							geometry: { type: 'Point', coordinates: [101.8, -0.2] },
						},
					],
				},
			},
		});
		expect(r.status).toBe(200);
		expect(r.json.type).toBe('FeatureCollection');
		expect(r.json.features).toHaveLength(3);
		const [a, b, c] = r.json.features.map((x) => x.properties);
		expect(a).toMatchObject({ input_index: 0, input_type: 'plot', plot_id: p.plot_id });
		expect(a.protected_area_overlap_summary).toMatchObject({
			protected_area_overlap: true,
			most_restrictive_extractive_activity_legality: 'prohibited',
		});
		expect(a.protected_area_overlap_summary.total_overlap_percentage).toBeCloseTo(100, 0);
		expect(a.protected_area_details[0]).toMatchObject({
			area_id: '721',
			iucn_category: 'II',
			regulation_names: expect.any(Array),
			regulation_urls: expect.any(Array),
		});
		expect(b).toMatchObject({
			input_index: 1,
			input_type: 'geojson',
			geojson_index: 0,
			input_properties: { ref: 'far' },
		});
		expect(b.protected_area_overlap_summary.protected_area_overlap).toBe(false);
		expect(c.protected_area_details[0].area_name).toBe('Tesso Nilo National Park');
		expect(r.json.sources[0].data_version).toBeTruthy();
		expect(f.getBalance('alice').total).toBe(before - 3);
		// single Feature is accepted
		expect(
			(
				await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
					body: { geojson: { type: 'Feature', properties: {}, geometry: sq(1, 1) } },
				})
			).json.features,
		).toHaveLength(1);
	});

	test('batch limit 100, required input, invalid geometry', async () => {
		const many = fc(...Array.from({ length: 101 }, (_, i) => sq(i * 0.1, 1)));
		const r = await call('POST', '/protected-areas/checks', { body: { geojson: many } });
		expect(r.status).toBe(400);
		expect(r.json.message).toMatch(/At most 100/);
		const hundred = fc(...Array.from({ length: 100 }, (_, i) => sq(i * 0.1, 1)));
		expect(
			(
				await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
					body: { geojson: hundred },
				})
			).json.features,
		).toHaveLength(100);
		expect((await call('POST', '/protected-areas/checks', { body: {} })).status).toBe(400);
		const bow = {
			type: 'Polygon',
			coordinates: [
				[
					[0, 0],
					[1, 1],
					[1, 0],
					[0, 1],
					[0, 0],
				],
			],
		};
		const inv = await call('POST', '/protected-areas/checks', { body: { geojson: fc(bow) } });
		expect(inv.json.message).toMatch(/^Invalid Geometry in GeoJSON: /);
	});

	test('GET /protected-areas/{id} and /protected-areas/areas/{id}', async () => {
		const a = await call<PaFeatureCollection>('GET', '/protected-areas/351814');
		expect(a.status).toBe(200);
		expect(a.json.type).toBe('FeatureCollection');
		expect(a.json.features[0].properties).toMatchObject({
			area_id: '351814',
			iucn_category: 'VI',
			extractive_activity_legality: 'limited',
		});
		expect(a.json.features[0].geometry.type).toBe('Polygon');
		const b = await call<PaFeatureCollection>('GET', '/protected-areas/areas/351814');
		expect(b.json).toEqual(a.json);
		expect((await call('GET', '/protected-areas/424242')).status).toBe(404);
	});
});

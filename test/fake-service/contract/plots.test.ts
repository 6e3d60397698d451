import { call, f, fc, makePlot, type Plot, type PlotList, sq, T0, useFakeService } from './harness';

useFakeService();

describe('plots', () => {
	test('one Feature → a plot object with computed fields', async () => {
		const p = await makePlot(sq(-55.5, -6.5), {
			plot_name: 'Farm A',
			harvest_date: '2025-05-01',
			notes: 'n',
			additional_info: { supplier: 'X' },
		});
		expect(p.plot_id).toMatch(/^\d+$/);
		expect(p).toMatchObject({
			plot_name: 'Farm A',
			username: 'alice',
			commodity: 'cocoa',
			country: 'Brazil',
			state: 'Pará',
			notes: 'n',
			additional_info: { supplier: 'X' },
			harvest_dates: ['2025-05-01'],
		});
		expect(typeof p.lat).toBe('string');
		expect(typeof p.lon).toBe('string');
		expect(Number(p.lat)).toBeCloseTo(-6.495, 2);
		expect(p.area_ha).toBeGreaterThan(120);
		expect(p.area_ha).toBeLessThan(125);
		expect(p.tokens_cost).toBe(Math.ceil(p.area_ha));
		expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
		const again = await call<Plot>('GET', `/plots/plot/${p.plot_id}`);
		expect(again.json).toEqual(p);
	});

	test('2 to 20 Features → {plots: [...]}; more than 20 → 400', async () => {
		const two = await call<PlotList>('POST', '/plots/make_plot', {
			body: { geojson: fc(sq(1, 1), sq(2, 2)), plot_name: 'Batch' },
		});
		expect(two.status).toBe(200);
		expect(two.json.plots).toHaveLength(2);
		expect(two.json.plots.map((p) => p.plot_name)).toEqual(['Batch 1', 'Batch 2']);
		expect(two.json.plots[0].country).toBe('Unknown');
		const twenty = await call<PlotList>('POST', '/plots/make_plot', {
			body: { geojson: fc(...Array.from({ length: 20 }, (_, i) => sq(i, 1))) },
		});
		expect(twenty.json.plots).toHaveLength(20);
		const many = await call('POST', '/plots/make_plot', {
			body: { geojson: fc(...Array.from({ length: 21 }, (_, i) => sq(i, 1))) },
		});
		expect(many.status).toBe(400);
		expect(many.json.code).toBe(400);
		expect((await call<PlotList>('GET', '/plots')).json.meta.count).toBe(22);
	});

	test('points become circles of about 4 ha, or point_ha', async () => {
		const dflt = await makePlot({ type: 'Point', coordinates: [-5.5, 6.9] });
		expect(dflt.area_ha).toBeGreaterThan(3.9);
		expect(dflt.area_ha).toBeLessThanOrEqual(4.0);
		expect(dflt.geojson_features[0].geometry.type).toBe('Polygon');
		expect(dflt.country).toBe("Côte d'Ivoire");
		const r = await call<Plot>('POST', '/plots/make_plot', {
			body: {
				geojson: {
					type: 'FeatureCollection',
					features: [
						{
							type: 'Feature',
							properties: { point_ha: 1.5 },
							geometry: { type: 'Point', coordinates: [101.5, 0.5, 12] },
						},
					],
				},
			},
		});
		expect(r.status).toBe(200);
		expect(r.json.area_ha).toBeCloseTo(1.5, 1);
		expect(r.json.tokens_cost).toBe(2);
		expect(r.json.country).toBe('Indonesia');
		expect(r.json.commodity).toBeNull();
	});

	test('MultiPolygon and z coordinates are accepted', async () => {
		const multi = {
			type: 'MultiPolygon',
			coordinates: [sq(-55, -7).coordinates, sq(-54.9, -7).coordinates],
		};
		const m = await makePlot(multi);
		expect(m.area_ha).toBeGreaterThan(240);
		const z = {
			type: 'Polygon',
			coordinates: [
				[
					[1, 1, 5],
					[1.01, 1, 5],
					[1.01, 1.01, 5],
					[1, 1.01, 5],
					[1, 1, 5],
				],
			],
		};
		expect((await makePlot(z)).area_ha).toBeGreaterThan(100);
	});

	test('a top-level FeatureCollection body is accepted too', async () => {
		const r = await call<Plot>('POST', '/plots/make_plot', {
			body: { ...fc(sq(1, 1)), plot_name: 'Top' },
		});
		expect(r.status).toBe(200);
		expect(r.json.plot_name).toBe('Top');
	});

	test('pagination: 2,500 plots with limit 1000 → each exactly once, newest first', async () => {
		// 5 plots share each created_at, so the id tie-break matters
		const base = T0.getTime() - 10_000_000;
		const ids = f.seedPlots('alice', 2500, {
			createdAt: (i) => new Date(base + Math.floor(i / 5) * 1000),
		});
		f.seedPlots('bob', 10);
		const seen: Plot[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const r = await call<PlotList>(
				'GET',
				`/plots?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			expect(r.status).toBe(200);
			pages++;
			seen.push(...r.json.plots);
			expect(r.json.meta.count).toBe(r.json.plots.length);
			expect(r.json.meta.limit).toBe(1000);
			cursor = r.json.meta.has_more ? (r.json.meta.next_cursor ?? undefined) : undefined;
			if (!r.json.meta.has_more) expect(r.json.meta.next_cursor).toBeNull();
		} while (cursor);
		expect(pages).toBe(3);
		expect(seen).toHaveLength(2500);
		expect(new Set(seen.map((p) => p.plot_id)).size).toBe(2500);
		expect(seen.map((p) => p.plot_id)).toEqual([...ids].reverse());
		for (let i = 1; i < seen.length; i++)
			expect(seen[i - 1].created_at >= seen[i].created_at).toBe(true);
		expect(seen.every((p) => p.username === 'alice')).toBe(true);
	});

	test('pagination: default limit 100, lite summaries, inclusive created_at bounds', async () => {
		const base = Date.parse('2026-01-01T00:00:00Z');
		f.seedPlots('alice', 150, { createdAt: (i) => new Date(base + i * 60_000) });
		const d = await call<PlotList>('GET', '/plots');
		expect(d.json.meta).toMatchObject({ limit: 100, count: 100, has_more: true });
		const lite = await call<PlotList>('GET', '/plots?lite=true&limit=2');
		expect(Object.keys(lite.json.plots[0]).sort()).toEqual([
			'area_ha',
			'commodity',
			'country',
			'created_at',
			'plot_id',
			'plot_name',
		]);
		expect(lite.json.meta.count).toBe(2);
		const from = new Date(base + 10 * 60_000).toISOString();
		const until = new Date(base + 19 * 60_000).toISOString();
		const win = await call<PlotList>(
			'GET',
			`/plots?created_at_from=${from}&created_at_until=${until}&limit=1000`,
		);
		expect(win.json.plots).toHaveLength(10);
		const noZone = await call<PlotList>(
			'GET',
			`/plots?created_at_from=${win.json.plots[0].created_at}&limit=1000`,
		);
		expect(noZone.json.plots).toHaveLength(1 + 149 - 19);
	});
});

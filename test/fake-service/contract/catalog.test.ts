import {
	call,
	type Capability,
	f,
	type Job,
	makePlot,
	type Plot,
	type Quote,
	useFakeService,
} from './harness';

useFakeService();

describe('capabilities', () => {
	test('28 by default, 33 with include=hidden, each with a JSON Schema, sync transport and cost_hint', async () => {
		const d = await call<Capability[]>('GET', '/v3/discovery/capabilities');
		expect(d.status).toBe(200);
		expect(d.json).toHaveLength(28);
		const h = await call<Capability[]>('GET', '/v3/discovery/capabilities?include=hidden');
		expect(h.json).toHaveLength(33);
		expect(new Set(h.json.map((c) => c.name)).size).toBe(33);
		for (const c of h.json) {
			expect(c).toMatchObject({ transport: 'sync', input_schema: { type: 'object' } });
			expect(typeof c.label).toBe('string');
			expect(typeof c.description).toBe('string');
			expect(c.cost_hint.currency).toBe('tokens');
			expect(c.methodology).toBeUndefined();
		}
		const byName = Object.fromEntries(h.json.map((c) => [c.name, c]));
		expect(byName.protected_area.result_key).toBe('protected_areas');
		expect(byName.eudr.result_key).toBeUndefined();
		expect(byName.enso_teleconnection.label).toBe('El Niño Climate Sensitivity');
		expect(byName.coastal_structural.label).toBe('Coastal Flood · Structural Exposure');
		const doc = await call<Capability[]>('GET', '/v3/discovery/capabilities?include=doc,hidden');
		expect(doc.json).toHaveLength(33);
		expect(
			doc.json.every((c) => typeof c.methodology === 'string' && c.methodology.length > 20),
		).toBe(true);
	});

	test('config is validated against input_schema; defaults fill the effective config', async () => {
		const p = await makePlot();
		const bad = [
			[{ type: 'deforestation', config: { start_year: 1990 } }, /start_year: must be >= 2001/],
			[{ type: 'eudr', config: { nonsense: true } }, /nonsense: unknown property/],
			[{ type: 'canopy_condition', config: { index: 'xyz' } }, /must be one of/],
			[{ type: 'data_center_site_suitability' }, /power_mw: is required/],
			[{ type: 'soil_moisture', config: { depth_cm: '10' } }, /must be of type integer/],
		] as const;
		for (const [check, re] of bad) {
			const r = await call('POST', '/jobs/make_job', {
				body: { plot_ids: [p.plot_id], checks: [check] },
			});
			expect(r.status).toBe(400);
			expect(r.json.message).toMatch(re);
		}
		const ok = await call<Quote>('POST', '/jobs/make_job', {
			headers: { 'x-dry-run': 'true' },
			body: {
				plot_ids: [p.plot_id],
				checks: [{ type: 'flood_outlook', config: { horizon_weeks: 2 } }, { type: 'eudr' }],
			},
		});
		expect(ok.status).toBe(200);
		expect(ok.json.checks[0].config).toEqual({ horizon_weeks: 2 });
		expect(ok.json.checks[1].config).toMatchObject({ cutoff_date: '2020-12-31' });
	});

	test('addCapability: appears at once and runs in jobs', async () => {
		f.addCapability({
			name: 'bee_count',
			label: 'Bee Count',
			description: 'Counts bees',
			cost_hint: { model: 'per_plot', tokens_per_plot: 7, currency: 'tokens' },
			result_key: 'bees',
		});
		const d = await call<Capability[]>('GET', '/v3/discovery/capabilities');
		expect(d.json.find((c) => c.name === 'bee_count')).toMatchObject({
			result_key: 'bees',
			transport: 'sync',
		});
		const p = await makePlot();
		const j = await call<Job>('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], checks: [{ type: 'bee_count' }] },
		});
		expect(j.json.token_cost).toBe(7);
		f.clock.advance(2000);
		const plot = (await call<Plot>('GET', `/plots/plot/${p.plot_id}`)).json;
		expect(plot.analysis.bees).toMatchObject({ capability: 'bee_count' });
	});
});

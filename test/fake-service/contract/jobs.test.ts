import {
	call,
	f,
	fc,
	type Job,
	type JobList,
	makePlot,
	type Plot,
	type Quote,
	type RunList,
	sq,
	useFakeService,
} from './harness';

useFakeService();

describe('jobs and tokens', () => {
	test('dry run returns the exact quote and changes nothing', async () => {
		const a = await makePlot(sq(-55.5, -6.5));
		const b = await makePlot({ type: 'Point', coordinates: [1, 1] });
		const before = (await call('GET', '/users/check_tokens')).json;
		expect(before).toEqual({
			'Token balance': 100000,
			'Reserved Tokens': 0,
			'Free Tokens': 100000,
		});
		f.log.clear();
		const body = {
			plot_ids: [a.plot_id, b.plot_id],
			checks: [{ type: 'eudr' }, { type: 'visual_verification' }],
		};
		const q = await call<Quote>('POST', '/jobs/make_job', {
			body,
			headers: { 'x-dry-run': 'true' },
		});
		expect(q.status).toBe(200);
		expect(q.json.dry_run).toBe(true);
		const expected = a.tokens_cost + 3 + b.tokens_cost + 3;
		expect(q.json.token_cost).toBe(expected);
		expect(q.json.plots).toEqual([
			{
				plot_id: a.plot_id,
				area_ha: a.area_ha,
				tokens: a.tokens_cost + 3,
				checks: [
					{ type: 'eudr', tokens: a.tokens_cost },
					{ type: 'visual_verification', tokens: 3 },
				],
			},
			{
				plot_id: b.plot_id,
				area_ha: b.area_ha,
				tokens: b.tokens_cost + 3,
				checks: [
					{ type: 'eudr', tokens: b.tokens_cost },
					{ type: 'visual_verification', tokens: 3 },
				],
			},
		]);
		expect(q.json.sufficient).toBe(true);
		expect((await call('GET', '/users/check_tokens')).json).toEqual(before);
		expect((await call<JobList>('GET', '/jobs')).json.jobs).toHaveLength(0);
		expect(
			(await call<RunList>('GET', `/analysis-runs?plot_id=${a.plot_id}`)).json.runs,
		).toHaveLength(0);
		const real = await call<Job>('POST', '/jobs/make_job', { body });
		expect(real.json.token_cost).toBe(expected);
		expect(f.getBalance('alice')).toEqual({
			total: 100000,
			reserved: expected,
			free: 100000 - expected,
		});
		// insufficient balance still quotes
		f.setBalance('alice', expected);
		const q2 = await call<Quote>('POST', '/jobs/make_job', {
			body,
			headers: { 'x-dry-run': 'true' },
		});
		expect(q2.json).toMatchObject({ token_cost: expected, sufficient: false });
	});

	test('progression creating → pending → done; tokens reserved then settled; results written', async () => {
		const plots = [
			await makePlot(sq(-55.5, -6.5)),
			await makePlot(sq(101.92, -0.32, 0.02)),
			await makePlot(sq(10, 50)),
		];
		const t = (
			await call<Job>('POST', '/jobs/make_job', {
				body: {
					plot_ids: plots.map((p) => p.plot_id),
					job_name: 'J',
					notes: 'N',
					additional_info: { po: '42' },
				},
			})
		).json;
		const cost = plots.reduce((a, p) => a + p.tokens_cost, 0);
		expect(t).toMatchObject({
			job_name: 'J',
			notes: 'N',
			additional_info: { po: '42' },
			status: 'creating',
			token_cost: cost,
			username: 'alice',
		});
		expect(t.job_id).toMatch(/^\d+$/);
		expect(t.created_at).not.toMatch(/Z$/);
		expect(f.getBalance('alice')).toEqual({ total: 100000, reserved: cost, free: 100000 - cost });
		const status = async () => (await call<Job>('GET', `/jobs/job/${t.job_id}`)).json;
		f.clock.advance(600);
		expect((await status()).status).toBe('pending');
		f.clock.advance(1000);
		const mid = await status();
		expect(mid.status).toBe('pending');
		expect(mid.job_visualization_url).toHaveLength(1);
		expect(mid.plots[0].analysis.risk_level).toBeDefined();
		expect(mid.plots[1].analysis).toEqual({});
		f.clock.advance(2000);
		const done = await status();
		expect(done.status).toBe('done');
		expect(done.job_visualization_url).toHaveLength(3);
		expect(done.plots).toHaveLength(3);
		expect(done.updated_at > done.created_at).toBe(true);
		expect(f.getBalance('alice')).toEqual({
			total: 100000 - cost,
			reserved: 0,
			free: 100000 - cost,
		});
		// EUDR bundle
		const inBrazil = done.plots[0].analysis;
		expect(['Low', 'Medium', 'High']).toContain(inBrazil.risk_level);
		for (const k of [
			'risk_reason',
			'forest_percentage_2020',
			'deforestation',
			'protectedAreas',
			'indigenous_overlap',
			'eudr',
			'protected_areas',
			'indigenous_land',
			'analysis_end',
			'analysisEnd',
			'version',
		])
			expect(inBrazil).toHaveProperty(k);
		expect(inBrazil.protected_areas.protected_area_overlap_summary.protected_area_overlap).toBe(
			true,
		);
		expect(inBrazil.protected_areas.protected_area_details[0]).toMatchObject({
			area_id: '351814',
			iucn_category: 'VI',
			extractive_activity_legality: 'limited',
		});
		expect(inBrazil.protectedAreas[0][0]).toBe('Jamanxim National Forest');
		expect(inBrazil.protectedAreas[0][1]).toBeCloseTo(inBrazil.areaHa, 0);
		const inRiau = done.plots[1].analysis;
		expect(
			inRiau.protected_areas.protected_area_overlap_summary
				.most_restrictive_extractive_activity_legality,
		).toBe('prohibited');
		expect(
			inRiau.protected_areas.protected_area_overlap_summary.total_overlap_percentage,
		).toBeGreaterThan(0);
		expect(inRiau.indigenous_land.indigenous_land_overlap_summary.indigenous_land_overlap).toBe(
			true,
		);
		expect(inRiau.indigenous_land.indigenous_land_details[0]).toMatchObject({
			id: 'ID-WA-0117',
			government_acknowledged: false,
		});
		const inGermany = done.plots[2].analysis;
		expect(inGermany.protected_areas.protected_area_overlap_summary).toMatchObject({
			protected_area_overlap: false,
			total_overlap_area_ha: 0,
		});
		expect(done.plots[2].analysis_image).toBe(`${f.url}/__fake/images/${plots[2].plot_id}.png`);
		const img = await fetch(done.plots[2].analysis_image);
		expect(img.headers.get('content-type')).toBe('image/png');
		// job list: no embedded plots
		const list = (await call<JobList>('GET', '/jobs')).json;
		expect(list.jobs).toHaveLength(1);
		expect(list.jobs[0].plots).toBeUndefined();
		expect(list.jobs[0]).toMatchObject({ status: 'done', plot_ids: plots.map((p) => p.plot_id) });
		expect(list.meta).toMatchObject({ count: 1, has_more: false, next_cursor: null });
	});

	test('progression with failures: incomplete → done-with-errors; failed plots refunded', async () => {
		f.setFailingPlotNames(['bad']);
		const bad = await makePlot(sq(1, 1), { plot_name: 'bad' });
		const good = await makePlot(sq(2, 2), { plot_name: 'good' });
		const j = (
			await call<Job>('POST', '/jobs/make_job', { body: { plot_ids: [bad.plot_id, good.plot_id] } })
		).json;
		const cost = bad.tokens_cost + good.tokens_cost;
		f.clock.advance(1600);
		const mid = (await call<Job>('GET', `/jobs/job/${j.job_id}`)).json;
		expect(mid.status).toBe('incomplete');
		expect(mid.plots[0].analysis).toMatchObject({ status: 'failed' });
		expect(mid.job_visualization_url).toHaveLength(0);
		expect(f.getBalance('alice').reserved).toBe(cost);
		f.clock.advance(1000);
		const end = (await call<Job>('GET', `/jobs/job/${j.job_id}`)).json;
		expect(end.status).toBe('done-with-errors');
		expect(end.job_visualization_url).toHaveLength(1);
		expect(f.getBalance('alice')).toEqual({
			total: 100000 - good.tokens_cost,
			reserved: 0,
			free: 100000 - good.tokens_cost,
		});
		expect(f.getJob(j.job_id)).toMatchObject({
			tokensCharged: good.tokens_cost,
			tokensRefunded: bad.tokens_cost,
		});
		const runs = (await call<RunList>('GET', `/analysis-runs?plot_id=${bad.plot_id}`)).json.runs;
		expect(runs[0]).toMatchObject({ status: 'failed', tokens_charged: 0 });
	});

	test('validation: missing plots, duplicates, missing commodity, per_plot and config commodity', async () => {
		const noCommodity = (
			await call<Plot>('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)) } })
		).json;
		const r1 = await call('POST', '/jobs/make_job', { body: { plot_ids: [noCommodity.plot_id] } });
		expect(r1.status).toBe(400);
		expect(r1.json.message).toMatch(/has no commodity/);
		expect(
			(
				await call('POST', '/jobs/make_job', {
					body: { plot_ids: [noCommodity.plot_id], config: { commodity: 'soy' } },
				})
			).status,
		).toBe(200);
		expect(
			(
				await call('POST', '/jobs/make_job', {
					body: {
						plot_ids: [noCommodity.plot_id],
						per_plot: { [noCommodity.plot_id]: { commodity: 'beef', harvest_date: '2025-01-01' } },
					},
				})
			).status,
		).toBe(200);
		const missing = await call('POST', '/jobs/make_job', { body: { plot_ids: ['99999999'] } });
		expect(missing.status).toBe(404);
		const dup = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [noCommodity.plot_id, noCommodity.plot_id], config: { commodity: 'soy' } },
		});
		expect(dup.status).toBe(400);
		const empty = await call('POST', '/jobs/make_job', { body: { plot_ids: [] } });
		expect(empty.status).toBe(400);
		const badDate = await call('POST', '/jobs/make_job', {
			body: {
				plot_ids: [noCommodity.plot_id],
				config: { commodity: 'soy', harvest_date: '01/02/2025' },
			},
		});
		expect(badDate.status).toBe(400);
	});

	test('jobs list: keyset pagination newest first', async () => {
		const p = await makePlot();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			ids.push(
				(await call<Job>('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } })).json
					.job_id,
			);
			f.clock.advance(10);
		}
		const first = (await call<JobList>('GET', '/jobs?limit=2')).json;
		expect(first.jobs.map((j) => j.job_id)).toEqual([ids[4], ids[3]]);
		const second = (await call<JobList>('GET', `/jobs?limit=2&cursor=${first.meta.next_cursor}`))
			.json;
		expect(second.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
		const third = (await call<JobList>('GET', `/jobs?limit=2&cursor=${second.meta.next_cursor}`))
			.json;
		expect(third.jobs.map((j) => j.job_id)).toEqual([ids[0]]);
		expect(third.meta).toEqual({ next_cursor: null, limit: 2, count: 1, has_more: false });
	});
});

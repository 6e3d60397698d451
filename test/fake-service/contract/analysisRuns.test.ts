import {
	call,
	f,
	type Job,
	makePlot,
	type Plot,
	type Run,
	type RunList,
	useFakeService,
} from './harness';

useFakeService();

describe('analysis runs', () => {
	test('one run per check per plot per job, with status, timing, cost, artifacts and output', async () => {
		const p = await makePlot();
		const j = (
			await call<Job>('POST', '/jobs/make_job', {
				body: {
					plot_ids: [p.plot_id],
					checks: [{ type: 'eudr' }, { type: 'fire_outlook', config: { horizon_weeks: 3 } }],
				},
			})
		).json;
		let list = (await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json;
		expect(list.runs).toHaveLength(2);
		expect(list.runs.map((r) => r.status)).toEqual(['pending', 'pending']);
		f.clock.advance(1000);
		expect((await call<Run>('GET', `/analysis-runs/${list.runs[0].run_id}`)).json.status).toBe(
			'running',
		);
		f.clock.advance(1000);
		list = (await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json;
		const fire = list.runs.find((r) => r.check_type === 'fire_outlook');
		if (!fire) throw new Error('no fire_outlook run');
		expect(fire).toMatchObject({
			plot_id: p.plot_id,
			job_id: j.job_id,
			status: 'completed',
			config: { horizon_weeks: 3 },
			token_cost: 2,
		});
		expect(fire.run_id).toMatch(/^\d+$/);
		expect(fire.started_at).toBeTruthy();
		expect(fire.finished_at).toBeTruthy();
		expect(fire.artifacts.map((a) => a.type)).toEqual(['visualization', 'geojson']);
		expect(fire.output).toBeUndefined();
		const detail = (await call<Run>('GET', `/analysis-runs/${fire.run_id}`)).json;
		expect(detail.output).toMatchObject({ capability: 'fire_outlook' });
		const plot = (await call<Plot>('GET', `/plots/plot/${p.plot_id}`)).json;
		expect(plot.analysis.fire_outlook).toEqual(detail.output);
		const eudrRun = (
			await call<Run>(
				'GET',
				`/analysis-runs/${list.runs.find((r) => r.check_type === 'eudr')?.run_id}`,
			)
		).json;
		expect(eudrRun.output?.risk_level).toBe(plot.analysis.risk_level);
		const art = await fetch(fire.artifacts[1].url);
		expect(((await art.json()) as { type: string }).type).toBe('FeatureCollection');
		// a second job adds runs
		await call('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } });
		expect(
			(await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json.runs,
		).toHaveLength(3);
		expect((await call('GET', '/analysis-runs')).status).toBe(400);
		expect((await call('GET', '/analysis-runs/99999999')).status).toBe(404);
	});
});

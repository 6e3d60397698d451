/**
 * The fake's shape variants (variant.ts): what it sends where the contract does not show the
 * shape. Each variant is started explicitly here, so this file means the same under any
 * FAKE_VARIANT.
 */
import type { FakeService } from '../index';
import { DEFAULT_VARIANT, parseVariant, startFakeService, variantName } from '../index';

const T0 = new Date('2026-03-01T12:00:00Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/;

/** Inside Jamanxim National Forest (351814) and far outside any protected area. */
const inside = {
	type: 'Polygon',
	coordinates: [
		[
			[-55.6, -6.8],
			[-55.59, -6.8],
			[-55.59, -6.79],
			[-55.6, -6.79],
			[-55.6, -6.8],
		],
	],
};
const outside = {
	type: 'Polygon',
	coordinates: [
		[
			[-50, -12],
			[-49.99, -12],
			[-49.99, -11.99],
			[-50, -11.99],
			[-50, -12],
		],
	],
};

type Json = Record<string, unknown>;

async function api(fake: FakeService, method: string, path: string, body?: unknown) {
	const r = await fetch(fake.url + path, {
		method,
		headers: {
			'x-api-version': '3',
			authorization: `Bearer ${fake.users.alice.apiKey}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: r.status, json: (await r.json()) as Json };
}

async function withFake<T>(variant: string, work: (fake: FakeService) => Promise<T>): Promise<T> {
	const fake = await startFakeService({ startTime: T0, perPlotDurationMs: 1000, variant });
	fake.clock.setScale(0);
	try {
		return await work(fake);
	} finally {
		await fake.close();
	}
}

describe('fake shape variants: parsing', () => {
	it('reads bare values, dimension=value pairs and "default"; refuses typos', () => {
		expect(parseVariant(undefined)).toEqual(DEFAULT_VARIANT);
		expect(parseVariant('')).toEqual(DEFAULT_VARIANT);
		expect(parseVariant('default')).toEqual(DEFAULT_VARIANT);
		expect(parseVariant('flat,silent,uuid')).toEqual({
			overlap: 'flat',
			plotFailure: 'silent',
			ids: 'uuid',
		});
		expect(parseVariant('overlap=absent+plotFailure=job-id')).toEqual({
			overlap: 'absent',
			plotFailure: 'job-id',
			ids: 'numeric',
		});
		expect(parseVariant({ ids: 'uuid' })).toEqual({ ...DEFAULT_VARIANT, ids: 'uuid' });
		expect(parseVariant(variantName(parseVariant('absent uuid')))).toEqual(
			parseVariant('absent,uuid'),
		);
		expect(() => parseVariant('flatt')).toThrow(/Unknown fake variant "flatt"/);
		expect(() => parseVariant('overlap=silent')).toThrow(/overlap="silent"/);
		expect(() => parseVariant('colour=red')).toThrow(/dimension "colour"/);
	});

	it('takes FAKE_VARIANT as the default of startFakeService, and an option over it', async () => {
		const before = process.env.FAKE_VARIANT;
		process.env.FAKE_VARIANT = 'flat,uuid';
		try {
			const fromEnv = await startFakeService();
			expect(fromEnv.variant).toEqual({ overlap: 'flat', plotFailure: 'status', ids: 'uuid' });
			const shown = await fetch(`${fromEnv.url}/__fake/variant`).then((r) => r.json());
			expect(shown).toEqual({
				...fromEnv.variant,
				name: 'overlap=flat,plotFailure=status,ids=uuid',
			});
			await fromEnv.close();
			const explicit = await startFakeService({ variant: 'default' });
			expect(explicit.variant).toEqual(DEFAULT_VARIANT);
			await explicit.close();
		} finally {
			if (before === undefined) delete process.env.FAKE_VARIANT;
			else process.env.FAKE_VARIANT = before;
		}
	});
});

describe('fake shape variants: overlap metrics nested / flat / absent', () => {
	const checkBoth = async (fake: FakeService) => {
		const r = await api(fake, 'POST', '/protected-areas/checks', {
			geojson: {
				type: 'FeatureCollection',
				features: [inside, outside].map((geometry) => ({
					type: 'Feature',
					properties: {},
					geometry,
				})),
			},
		});
		expect(r.status).toBe(200);
		return (r.json.features as Json[]).map((f) => f.properties as Json);
	};

	it('nested (the contract): under protected_area_overlap_summary', async () => {
		await withFake('nested', async (fake) => {
			const [yes, no] = await checkBoth(fake);
			expect(yes.protected_area_overlap_summary).toMatchObject({ protected_area_overlap: true });
			expect(no.protected_area_overlap_summary).toMatchObject({
				protected_area_overlap: false,
				total_overlap_percentage: 0,
			});
			expect(yes).not.toHaveProperty('protected_area_overlap');
		});
	});

	it('flat: the same metrics on the properties, in check results, analyses and run outputs', async () => {
		await withFake('flat', async (fake) => {
			const [yes, no] = await checkBoth(fake);
			expect(yes).not.toHaveProperty('protected_area_overlap_summary');
			expect(yes).toMatchObject({
				protected_area_overlap: true,
				total_overlap_percentage: expect.any(Number),
				most_restrictive_extractive_activity_legality: 'limited',
				input_index: 0,
			});
			expect(no).toMatchObject({ protected_area_overlap: false, total_overlap_area_ha: 0 });
			expect((yes.protected_area_details as Json[])[0]).toMatchObject({ area_id: '351814' });

			const [plotId] = fake.seedPlots('alice', 1, { commodity: 'soy' });
			const job = await api(fake, 'POST', '/jobs/make_job', {
				plot_ids: [plotId],
				checks: [{ type: 'eudr' }, { type: 'protected_area' }],
			});
			fake.clock.advance(5000);
			const plot = await api(fake, 'GET', `/plots/plot/${plotId}`);
			const analysis = plot.json.analysis as Json;
			for (const key of ['protected_areas', 'indigenous_land'])
				expect(Object.keys(analysis[key] as Json).some((k) => k.endsWith('_overlap_summary'))).toBe(
					false,
				);
			expect(analysis.protected_areas).toHaveProperty('protected_area_overlap');
			expect(analysis.indigenous_land).toHaveProperty('indigenous_land_overlap');
			const runs = await api(fake, 'GET', `/analysis-runs?plot_id=${plotId}`);
			const paRun = (runs.json.runs as Json[]).find((r) => r.check_type === 'protected_area')!;
			expect(paRun.job_id).toBe(job.json.job_id);
			const detail = await api(fake, 'GET', `/analysis-runs/${String(paRun.run_id)}`);
			expect(detail.json.output).toHaveProperty('protected_area_overlap');
			expect(detail.json.output).not.toHaveProperty('protected_area_overlap_summary');
		});
	});

	it('absent: no yes/no and no figures; the list of overlapping areas stays', async () => {
		await withFake('absent', async (fake) => {
			const [yes, no] = await checkBoth(fake);
			for (const p of [yes, no]) {
				expect(p).not.toHaveProperty('protected_area_overlap_summary');
				expect(p).not.toHaveProperty('protected_area_overlap');
				expect(p).not.toHaveProperty('total_overlap_percentage');
			}
			expect(yes.protected_area_details).toHaveLength(1);
			expect(no.protected_area_details).toEqual([]);
		});
	});
});

describe('fake shape variants: a failed plot with and without a per-plot status field', () => {
	/** A plot analysed well by a first job, then failing in a second job; the second job and the plot after it. */
	const failAfterSuccess = async (fake: FakeService) => {
		const [plotId] = fake.seedPlots('alice', 1, { commodity: 'soy' });
		const first = await api(fake, 'POST', '/jobs/make_job', { plot_ids: [plotId] });
		fake.clock.advance(5000);
		fake.setFailingPlotIds([plotId]);
		const second = await api(fake, 'POST', '/jobs/make_job', { plot_ids: [plotId] });
		fake.clock.advance(5000);
		const job = await api(fake, 'GET', `/jobs/job/${String(second.json.job_id)}`);
		const plot = (job.json.plots as Json[])[0];
		const runs = await api(fake, 'GET', `/analysis-runs?plot_id=${plotId}`);
		return { firstId: first.json.job_id, job: job.json, plot, runs: runs.json.runs as Json[] };
	};

	it('status: the failed plot says so, with the reason and the job', async () => {
		await withFake('status', async (fake) => {
			const { job, plot } = await failAfterSuccess(fake);
			expect(job.status).toBe('done-with-errors');
			expect(plot.analysis).toEqual({
				status: 'failed',
				error: expect.stringMatching(/^Analysis failed for plot/),
				job_id: job.job_id,
			});
		});
	});

	it('silent: nothing on the plot; only the job status, the runs and the visualisations tell', async () => {
		await withFake('silent', async (fake) => {
			const { job, plot, runs } = await failAfterSuccess(fake);
			expect(job.status).toBe('done-with-errors');
			expect(job.job_visualization_url).toEqual([]);
			const analysis = plot.analysis as Json;
			// the first job's results are still there, with nothing saying they are not this job's
			expect(analysis.risk_level).toEqual(expect.any(String));
			expect(analysis).not.toHaveProperty('status');
			expect(analysis).not.toHaveProperty('job_id');
			expect(plot.analysis_image).toEqual(expect.any(String));
			expect(runs.find((r) => r.job_id === job.job_id)).toMatchObject({
				status: 'failed',
				error: expect.stringMatching(/^Analysis failed/),
			});
		});
	});

	it('job-id: no status either, but every analysis names the job that wrote it', async () => {
		await withFake('job-id', async (fake) => {
			const { firstId, job, plot } = await failAfterSuccess(fake);
			const analysis = plot.analysis as Json;
			expect(analysis).not.toHaveProperty('status');
			expect(analysis.job_id).toBe(firstId);
			expect(analysis.job_id).not.toBe(job.job_id);
		});
	});

	it('a success after a failure carries no stale job id (status variant)', async () => {
		await withFake('status', async (fake) => {
			const [plotId] = fake.seedPlots('alice', 1, { commodity: 'soy' });
			fake.setFailingPlotIds([plotId]);
			await api(fake, 'POST', '/jobs/make_job', { plot_ids: [plotId] });
			fake.clock.advance(5000);
			fake.setFailingPlotIds([]);
			await api(fake, 'POST', '/jobs/make_job', { plot_ids: [plotId] });
			fake.clock.advance(5000);
			const plot = await api(fake, 'GET', `/plots/plot/${plotId}`);
			expect(plot.json.analysis).not.toHaveProperty('job_id');
			expect(plot.json.analysis).not.toHaveProperty('status');
		});
	});
});

describe('fake shape variants: numeric and UUID ids', () => {
	it('uuid: plots, jobs and runs get UUIDs, reachable by path; numeric paths are unknown', async () => {
		await withFake('uuid', async (fake) => {
			const [plotId] = fake.seedPlots('alice', 1, { commodity: 'soy' });
			expect(plotId).toMatch(UUID);
			const job = await api(fake, 'POST', '/jobs/make_job', { plot_ids: [plotId] });
			expect(job.json.job_id).toMatch(UUID);
			fake.clock.advance(5000);
			expect((await api(fake, 'GET', `/jobs/job/${String(job.json.job_id)}`)).status).toBe(200);
			expect((await api(fake, 'GET', `/plots/plot/${plotId}`)).status).toBe(200);
			const runs = await api(fake, 'GET', `/analysis-runs?plot_id=${plotId}`);
			const runId = String((runs.json.runs as Json[])[0].run_id);
			expect(runId).toMatch(UUID);
			expect((await api(fake, 'GET', `/analysis-runs/${runId}`)).status).toBe(200);
			expect((await api(fake, 'GET', '/plots/plot/100001')).status).toBe(404);
			const check = await api(fake, 'POST', '/protected-areas/checks', { plot_ids: [plotId] });
			expect((check.json.features as Json[])[0].properties).toMatchObject({ plot_id: plotId });
			// protected-area ids are WDPA data: numeric in every variant
			expect((await api(fake, 'GET', '/protected-areas/351814')).status).toBe(200);
		});
	});

	it('numeric (the default): numeric strings', async () => {
		await withFake('numeric', async (fake) => {
			const [plotId] = fake.seedPlots('alice', 1, { commodity: 'soy' });
			expect(plotId).toMatch(/^\d+$/);
			const [jobId] = fake.seedJobs('alice', 1);
			expect(jobId).toMatch(/^\d+$/);
		});
	});
});

import type { IDataObject } from 'n8n-workflow';

import type { Timing } from '../../../nodes/shared/time/sleep';
import type { FakeService } from '../../fake-service';
import { variantName } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';

/**
 * "Unknown is never no", through n8n's engine against the fake, under whatever shape variant
 * FAKE_VARIANT selects (test/variants.js runs this file under each): a plot that failed is
 * never `failed: false`, a plot whose outcome the answer does not tell is `failed: null`
 * with the reason, and no row shows another job's results as this job's. Expectations that
 * depend on the variant read `fake.variant`.
 */

/** Wait for Completion sleeps on a virtual clock in this file (see job.test.ts). */
const mockTiming: { current?: Timing } = {};
jest.mock('../../../nodes/shared/time/sleep', () => {
	const actual = jest.requireActual('../../../nodes/shared/time/sleep');
	const timing = (): Timing => {
		if (!mockTiming.current) throw new Error('the wait loop runs on a virtual clock only');
		return mockTiming.current;
	};
	return {
		...actual,
		systemTiming: {
			now: () => timing().now(),
			sleep: async (ms: number, signal?: AbortSignal) => await timing().sleep(ms, signal),
			random: () => timing().random(),
		},
	};
});

const SERVICE_ERROR = /^Analysis failed for plot .+: no usable satellite imagery/;

describe(`per-plot outcomes (fake shape variant: ${process.env.FAKE_VARIANT || 'default'})`, () => {
	let fake: FakeService;
	let store: CredentialStore;

	useFakeService({ perPlotDurationMs: 1000, resetBeforeEach: true }, (started) => (fake = started));
	afterAll(() => {
		mockTiming.current = undefined;
	});
	beforeEach(() => {
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		let now = 0;
		mockTiming.current = {
			now: () => now,
			sleep: async (ms: number) => {
				now += ms;
				fake.clock.advance(ms);
			},
			random: () => 0.5,
		};
	});

	const seed = (n: number) => fake.seedPlots('alice', n, { commodity: 'soy' });
	const statusVariant = () => fake.variant.plotFailure === 'status';
	const runLookups = () =>
		fake.log.entries().filter((e) => e.method === 'GET' && e.path === '/analysis-runs');

	async function create(plotIds: string[]): Promise<string> {
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: plotIds.join(',') },
			store,
		});
		expect(error).toBeUndefined();
		const jobId = String(items[0].json.job_id);
		fake.clock.advance(500 + plotIds.length * 1000 + 1000);
		return jobId;
	}

	async function results(jobId: string, simplify = true): Promise<IDataObject[]> {
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getResults', jobId, simplify },
			store,
		});
		expect(error).toBeUndefined();
		return items.map((i) => i.json);
	}

	it('reports the fake variant it runs under', () => {
		expect(variantName(fake.variant)).toMatch(/^overlap=\w+,plotFailure=[\w-]+,ids=\w+$/);
	});

	it('a done-with-errors job: the good plot is analysed; a failed plot is failed, even one whose earlier results are still on it', async () => {
		const [good, bad, stale] = seed(3);
		const earlier = await create([stale]);
		fake.setFailingPlotIds([bad, stale]);
		const jobId = await create([good, bad, stale]);
		fake.log.clear();

		const rows = await results(jobId);
		expect(rows.map((r) => [r.plot_id, r.status, r.failed])).toEqual([
			[good, 'analysed', false],
			[bad, 'failed', true],
			[stale, 'failed', true],
		]);
		expect(rows[0]).toMatchObject({
			job_id: jobId,
			job_status: 'done-with-errors',
			failure_reason: null,
			results_reason: null,
			risk_level: expect.stringMatching(/^(Low|Medium|High)$/),
			protected_area_overlap: expect.any(Boolean),
			image_url: expect.stringContaining(good),
		});
		// Neither failed plot shows results, and each overlap says why it is null.
		for (const row of rows.slice(1)) {
			expect(row).toMatchObject({
				risk_level: null,
				deforestation_percentage: null,
				protected_area_overlap: null,
				protected_area_overlap_percentage: null,
				indigenous_land_overlap: null,
				image_url: null,
			});
			expect(row.protected_area_overlap_reason).toBe(`failed: ${String(row.failure_reason)}`);
		}
		if (statusVariant()) {
			// the service said so, with its reason
			expect(rows[1].failure_reason).toMatch(SERVICE_ERROR);
			expect(rows[2].failure_reason).toMatch(SERVICE_ERROR);
		} else {
			// no per-plot status: the job lists visualisations of its other plots, not of these
			expect(rows[1].failure_reason).toMatch(
				/lists visualisations of its other plots but none of this one, so the plot failed in this job$/,
			);
			expect(rows[2].failure_reason).toMatch(
				fake.variant.plotFailure === 'job-id'
					? new RegExp(`^not analysed by this job: the plot's analysis is from job ${earlier} `)
					: /so the plot failed in this job$/,
			);
		}
		// Decided by what the job answer carries: no analysis run was looked up.
		expect(runLookups()).toHaveLength(0);

		// Raw rows: the same verdicts; the service's plot passed through untouched.
		const raw = await results(jobId, false);
		expect(raw.map((r) => [r.plot_id, r.failed, r.results_reason === null])).toEqual([
			[good, false, true],
			[bad, true, false],
			[stale, true, false],
		]);
		const staleAnalysis = raw[2].analysis as IDataObject;
		if (statusVariant()) expect(staleAnalysis).toMatchObject({ status: 'failed', job_id: jobId });
		// The earlier job's results are still on the plot: the row says they are not this job's.
		else expect(staleAnalysis.risk_level).toEqual(expect.any(String));
		expect(raw[2].results_reason).toMatch(/^failed: /);
	});

	it('when nothing in the answer tells, the plot’s analysis runs of this job decide (one lookup per plot at most)', async () => {
		const plots = seed(2);
		fake.setFailingPlotIds(plots); // every plot fails: no visualisation at all
		const jobId = await create(plots);
		fake.log.clear();

		const rows = await results(jobId);
		expect(rows.map((r) => [r.plot_id, r.status, r.failed])).toEqual(
			plots.map((id) => [id, 'failed', true]),
		);
		for (const row of rows) {
			expect(row.failure_reason).toMatch(SERVICE_ERROR);
			if (!statusVariant())
				expect(row.failure_reason).toMatch(/\(its eudr analysis run of this job failed\)$/);
		}
		const lookups = runLookups();
		expect(lookups.map((e) => e.query.plot_id).sort()).toEqual(
			statusVariant() ? [] : [...plots].sort(),
		);
	});

	it('a lookup that fails leaves the plot unknown (never "not failed") and the other rows come', async () => {
		const plots = seed(2);
		fake.setFailingPlotIds(plots);
		const jobId = await create(plots);
		fake.faults.add({
			kind: 'status',
			status: 500,
			times: 10,
			match: { method: 'GET', path: '/analysis-runs' },
		});
		const rows = await results(jobId);
		expect(rows).toHaveLength(2);
		for (const row of rows) {
			if (statusVariant()) {
				expect(row).toMatchObject({ status: 'failed', failed: true });
				continue;
			}
			expect(row).toMatchObject({ status: 'unknown', failed: null, risk_level: null });
			expect(row.failure_reason).toMatch(
				/^unknown: the job finished with errors and its analysis runs could not be read \(/,
			);
			expect(row.protected_area_overlap).toBeNull();
			expect(row.protected_area_overlap_reason).toBe(row.failure_reason);
		}
	});

	it('a job that finished without errors: every plot is analysed, with its figures', async () => {
		const plots = seed(2);
		const jobId = await create(plots);
		fake.log.clear();
		const rows = await results(jobId);
		for (const row of rows) {
			expect(row).toMatchObject({
				status: 'analysed',
				failed: false,
				failure_reason: null,
				results_reason: null,
				risk_level: expect.any(String),
				// the seeded plots lie outside every protected area and Indigenous land
				protected_area_overlap: false,
				protected_area_overlap_reason: null,
			});
			// "0 %" only where the service said there is no overlap (the legacy list says it
			// when the summary is absent, but gives no percentage)
			expect(row.protected_area_overlap_percentage).toBe(
				fake.variant.overlap === 'absent' ? null : 0,
			);
			// the legacy Indigenous-land object gives 0 ha when the summary is absent
			expect(row.indigenous_land_overlap).toBe(false);
		}
		expect(runLookups()).toHaveLength(0);
	});

	it('Wait for Completion gives the same per-plot rows as Get Results', async () => {
		const [good, bad] = seed(2);
		fake.setFailingPlotIds([bad]);
		const { items } = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: `${good},${bad}` },
			store,
		});
		const jobId = String(items[0].json.job_id);
		const waited = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: jobId,
				output: 'perPlot',
				simplify: true,
			},
			store,
		});
		expect(waited.error).toBeUndefined();
		const rows = waited.items.map((i) => i.json);
		expect(rows.map((r) => [r.plot_id, r.failed])).toEqual([
			[good, false],
			[bad, true],
		]);
		expect(rows).toEqual(await results(jobId));
	});
});

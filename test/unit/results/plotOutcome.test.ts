import type { IDataObject } from 'n8n-workflow';

import { perPlotResults, simplifyPlotResult } from '../../../nodes/shared/results/flatten';
import { needsRunLookup, plotOutcome } from '../../../nodes/shared/results/plotOutcome';
import { runEvidence } from '../../../nodes/shared/results/analysisRuns';
import { plotsNeedingRunLookup } from '../../../nodes/shared/jobs/plotRunLookup';

/** An analysis with EUDR results; the overlap objects in the shape asked for. */
function analysis(shape: 'nested' | 'flat' | 'absent', extra: IDataObject = {}): IDataObject {
	const pa = {
		protected_area_overlap: true,
		total_overlap_percentage: 40,
		total_overlap_area_ha: 5,
		most_restrictive_extractive_activity_legality: 'prohibited',
	};
	const il = {
		indigenous_land_overlap: false,
		total_overlap_percentage: 0,
		total_overlap_area_ha: 0,
	};
	const details = [{ area_id: '59', area_name: 'Parque X' }];
	const wrap = (summaryKey: string, summary: IDataObject, rest: IDataObject) =>
		shape === 'nested'
			? { [summaryKey]: summary, ...rest }
			: shape === 'flat'
				? { ...summary, ...rest }
				: rest;
	return {
		risk_level: 'Medium',
		risk_reason: 'overlap',
		protected_areas: wrap('protected_area_overlap_summary', pa, {
			protected_area_details: details,
		}),
		indigenous_land: wrap('indigenous_land_overlap_summary', il, { indigenous_land_details: [] }),
		...extra,
	};
}

const job = (status: string, plots: IDataObject[], more: IDataObject = {}): IDataObject => ({
	job_id: '7001',
	status,
	plot_ids: plots.map((p) => p.plot_id),
	plots,
	...more,
});

const vis = (...ids: string[]) => ids.map((id) => `https://svc.example/v/7001/${id}.png`);

describe('plotOutcome: each failure signal, null vs false', () => {
	const ok = { plot_id: '1', analysis: analysis('nested') };
	const empty = { plot_id: '2', analysis: {} };

	it('(a) a per-plot status field, on the analysis or the plot', () => {
		for (const plot of [
			{ plot_id: '2', analysis: { status: 'failed', error: 'no imagery' } },
			{ plot_id: '2', status: 'error', error: 'no imagery', analysis: {} },
			{ plot_id: '2', analysis_status: 'FAILED', failure_reason: 'no imagery' },
			{ plot_id: '2', analysis: { error: { message: 'no imagery' } } },
		]) {
			expect(plotOutcome(plot, job('done-with-errors', [plot]))).toEqual({
				status: 'failed',
				failed: true,
				failure_reason: 'no imagery',
				results_reason: 'failed: no imagery',
			});
		}
		const completed = { plot_id: '1', analysis: { ...analysis('nested'), status: 'completed' } };
		expect(plotOutcome(completed, job('done-with-errors', [completed]))).toMatchObject({
			status: 'analysed',
			failed: false,
		});
	});

	it('(b) the job status: done says no plot failed; done-with-errors alone says nothing', () => {
		expect(plotOutcome(ok, job('done', [ok]))).toEqual({
			status: 'analysed',
			failed: false,
			failure_reason: null,
			results_reason: null,
		});
		const unknown = plotOutcome(empty, job('done-with-errors', [empty]));
		expect(unknown.failed).toBeNull();
		expect(unknown.status).toBe('unknown');
		expect(unknown.failure_reason).toMatch(/^unknown: the job finished with errors/);
		// even a plot with results: in a done-with-errors job they may be an earlier job's
		const stale = plotOutcome(ok, job('done-with-errors', [ok]));
		expect(stale.failed).toBeNull();
		expect(stale.results_reason).toMatch(/^unknown: /);
		const running = plotOutcome(empty, job('pending', [empty]));
		expect(running).toMatchObject({
			status: 'unknown',
			failed: null,
			failure_reason: 'unknown: the job has not finished (status: pending)',
		});
		expect(plotOutcome(empty, { job_id: '7001' }).failure_reason).toBe(
			'unknown: the job answer gives no status',
		);
	});

	it('(c) the plot’s analysis runs of this job', () => {
		const runs = [
			{ run_id: '9', job_id: '6999', check_type: 'eudr', status: 'completed' },
			{ run_id: '10', job_id: '7001', check_type: 'eudr', status: 'failed', error: 'no imagery' },
		];
		const failed = plotOutcome(empty, job('done-with-errors', [empty]), runEvidence(runs, '7001'));
		expect(failed).toMatchObject({
			status: 'failed',
			failed: true,
			failure_reason: 'no imagery (its eudr analysis run of this job failed)',
		});
		const completed = runEvidence([{ job_id: 7001, status: 'completed' }], '7001');
		expect(plotOutcome(ok, job('done-with-errors', [ok]), completed)).toMatchObject({
			status: 'analysed',
			failed: false,
		});
		// runs of other jobs only: still unknown, and saying why
		const other = runEvidence([runs[0]], '7001');
		expect(plotOutcome(empty, job('done-with-errors', [empty]), other)).toMatchObject({
			failed: null,
			failure_reason:
				'unknown: the job finished with errors and the service lists no analysis run of job 7001 for it',
		});
		expect(runEvidence([{ job_id: '7001', status: 'running' }], '7001')).toEqual({
			kind: 'none',
			reason: 'its analysis runs of job 7001 are neither completed nor failed (running)',
		});
		expect(runEvidence([{ job_id: '7001', state: 'error' }], '7001')).toEqual({
			kind: 'failed',
			reason: 'its analysis run of this job failed (no reason given)',
		});
	});

	it('(d) absence from job_visualization_url while other plots are in it', () => {
		const plots = [ok, empty];
		const both = job('done-with-errors', plots, { job_visualization_url: vis('1') });
		expect(plotOutcome(ok, both)).toMatchObject({ status: 'analysed', failed: false });
		expect(plotOutcome(empty, both)).toMatchObject({
			status: 'failed',
			failed: true,
			failure_reason: expect.stringContaining('lists visualisations of its other plots'),
		});
		// a list that names no plot of the job tells nothing
		const opaque = job('done-with-errors', plots, {
			job_visualization_url: ['https://cdn.example/a8f3.png'],
		});
		expect(plotOutcome(empty, opaque).failed).toBeNull();
		expect(plotOutcome(empty, job('done-with-errors', plots)).failed).toBeNull();
	});

	it('(e) an analysis another job wrote', () => {
		const foreign = {
			plot_id: '1',
			analysis_image: 'https://svc.example/images/1.png',
			analysis: analysis('nested', { job_id: '6999', status: 'failed', error: 'old failure' }),
		};
		// done-with-errors: this job did not write it, so the plot failed in this job
		const dwe = plotOutcome(foreign, job('done-with-errors', [foreign]));
		expect(dwe).toMatchObject({ status: 'failed', failed: true });
		expect(dwe.failure_reason).toBe(
			"not analysed by this job: the plot's analysis is from job 6999 and the job finished with errors, so the plot failed in this job",
		);
		// done: nothing failed, but the results shown are not this job's
		const done = simplifyPlotResult(foreign, job('done', [foreign]));
		expect(done).toMatchObject({
			status: 'not analysed',
			failed: false,
			failure_reason: null,
			results_reason: "not this job's results: the plot's analysis is from job 6999",
			risk_level: null,
			protected_area_overlap: null,
			protected_area_overlap_reason: "not this job's results: the plot's analysis is from job 6999",
			protected_area_overlap_percentage: null,
			image_url: null,
		});
		// the analysis this job wrote is shown
		const own = { plot_id: '1', analysis: analysis('nested', { job_id: '7001' }) };
		expect(plotOutcome(own, job('done-with-errors', [own]))).toMatchObject({
			status: 'analysed',
			failed: false,
		});
	});

	it('decides only once a lookup of the runs is needed, at most once per plot', () => {
		const plots = [ok, empty, { plot_id: '3', analysis: { status: 'failed' } }];
		const dwe = job('done-with-errors', plots, { plot_ids: ['1', '2', '3', '4'] });
		expect(plotsNeedingRunLookup(dwe)).toEqual(['1', '2', '4']);
		expect(needsRunLookup(empty, job('done', [empty]))).toBe(false);
		expect(needsRunLookup(empty, job('pending', [empty]))).toBe(false);
		expect(plotsNeedingRunLookup({ ...dwe, job_visualization_url: vis('1') })).toEqual([]);
	});
});

describe('per-plot rows: unknown is never "no"', () => {
	it('reads the overlap metrics nested, flat, or not at all', () => {
		for (const shape of ['nested', 'flat'] as const) {
			const plot = { plot_id: '1', analysis: analysis(shape) };
			expect(simplifyPlotResult(plot, job('done', [plot]))).toMatchObject({
				protected_area_overlap: true,
				protected_area_overlap_reason: null,
				protected_area_overlap_percentage: 40,
				protected_area_overlap_ha: 5,
				protected_area_extractive_activity_legality: 'prohibited',
				protected_area_names: 'Parque X',
				indigenous_land_overlap: false,
				indigenous_land_overlap_reason: null,
				indigenous_land_overlap_percentage: 0,
				indigenous_land_overlap_ha: 0,
			});
		}
		const absent = { plot_id: '1', analysis: analysis('absent') };
		expect(simplifyPlotResult(absent, job('done', [absent]))).toMatchObject({
			// the service listed an overlapping area: an overlap, with no invented figures
			protected_area_overlap: true,
			protected_area_overlap_reason: null,
			protected_area_overlap_percentage: null,
			protected_area_overlap_ha: null,
			// nothing listed, nothing said
			indigenous_land_overlap: null,
			indigenous_land_overlap_reason: 'not reported: the service sent no overlap summary',
			indigenous_land_overlap_percentage: null,
		});
	});

	it('an analysis without a protected-area result says "not checked"', () => {
		const plot = { plot_id: '1', analysis: { soil_moisture: { summary: 'ok' } } };
		expect(simplifyPlotResult(plot, job('done', [plot]))).toMatchObject({
			status: 'analysed',
			protected_area_overlap: null,
			protected_area_overlap_reason: 'not checked',
			indigenous_land_overlap: null,
			indigenous_land_overlap_reason: 'not checked',
			soil_moisture_result: 'ok',
		});
	});

	it('a failed protected-area result inside the analysis is "failed: …", not "no"', () => {
		const plot = {
			plot_id: '1',
			analysis: { risk_level: 'Low', protected_areas: { status: 'failed', error: 'timeout' } },
		};
		expect(simplifyPlotResult(plot, job('done', [plot]))).toMatchObject({
			protected_area_overlap: null,
			protected_area_overlap_reason: 'failed: timeout',
			protected_area_overlap_percentage: null,
		});
	});

	it('a failed or unknown plot has every result column null, each overlap saying why', () => {
		const failed = { plot_id: '2', analysis: { status: 'failed', error: 'no imagery' } };
		const unknown = { plot_id: '3', analysis: analysis('nested') };
		const rows = perPlotResults(job('done-with-errors', [failed, unknown]), { simplify: true });
		expect(rows[0]).toMatchObject({
			status: 'failed',
			failed: true,
			failure_reason: 'no imagery',
			protected_area_overlap: null,
			protected_area_overlap_reason: 'failed: no imagery',
			indigenous_land_overlap_reason: 'failed: no imagery',
		});
		expect(rows[1]).toMatchObject({
			status: 'unknown',
			failed: null,
			risk_level: null,
			protected_area_overlap: null,
			protected_area_overlap_percentage: null,
			image_url: null,
		});
		expect(rows[1].protected_area_overlap_reason).toMatch(/^unknown: the job finished with errors/);
		// the same verdict columns in raw rows, the service's fields untouched
		const raw = perPlotResults(job('done-with-errors', [failed, unknown]), {
			simplify: false,
			runs: new Map([['3', runEvidence([{ job_id: '7001', status: 'completed' }], '7001')]]),
		});
		expect(raw[0]).toMatchObject({
			analysis: { status: 'failed', error: 'no imagery' },
			failed: true,
			failure_reason: 'no imagery',
			results_reason: 'failed: no imagery',
		});
		expect(raw[1]).toMatchObject({ failed: false, failure_reason: null, results_reason: null });
		expect(raw[1].analysis).toEqual(unknown.analysis);
	});

	it('the runs looked up decide the rows of plots nothing else decided', () => {
		const plot = { plot_id: '2', analysis: {} };
		const rows = perPlotResults(job('done-with-errors', [plot]), {
			simplify: true,
			runs: new Map([
				['2', runEvidence([{ job_id: '7001', status: 'failed', error: 'no imagery' }], '7001')],
			]),
		});
		expect(rows[0]).toMatchObject({ status: 'failed', failed: true });
	});
});

describe('service ids are text, never patterns', () => {
	it('a plot id with regular-expression characters neither crashes nor matches other plots', () => {
		for (const id of ['1(', '[a', '*', '1.5', 'a+b']) {
			const plot = { plot_id: id, analysis: analysis('nested') };
			const theJob = job('done', [plot], {
				job_visualization_url: [`https://svc.example/v/7001/${encodeURIComponent(id)}.png`],
			});
			expect(() => simplifyPlotResult(plot, theJob)).not.toThrow();
			expect(simplifyPlotResult(plot, theJob).image_url).toBe(
				`https://svc.example/v/7001/${encodeURIComponent(id)}.png`,
			);
		}
		// an id with a dot, in a URL without an extension
		const dotted = { plot_id: '1.5', analysis: analysis('nested') };
		expect(
			simplifyPlotResult(
				dotted,
				job('done', [dotted], { job_visualization_url: ['https://svc.example/v/1.5'] }),
			).image_url,
		).toBe('https://svc.example/v/1.5');
		const one = { plot_id: '1', analysis: analysis('nested') };
		// "1" is not "11", nor "1x" (the dot is not a wildcard)
		const theJob = job('done', [one], {
			job_visualization_url: [
				'https://svc.example/v/7001/11.png',
				'https://svc.example/v/7001/1x.png',
			],
		});
		expect(simplifyPlotResult(one, theJob).image_url).toBeNull();
	});

	it('matches UUID plot ids whatever their case', () => {
		const id = '3F2504E0-4F89-41D3-9A0C-0305E82C3301';
		const plot = { plot_id: id, analysis: analysis('nested') };
		const theJob = job('done', [plot], {
			job_visualization_url: [`https://svc.example/v/${id.toLowerCase()}.png`],
		});
		expect(simplifyPlotResult(plot, theJob).image_url).toBe(
			`https://svc.example/v/${id.toLowerCase()}.png`,
		);
	});
});

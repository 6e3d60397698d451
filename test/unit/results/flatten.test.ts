import type { IDataObject } from 'n8n-workflow';

import { eudrBundle, runCheck } from '../../fake-service/analysis';
import { builtInCapabilities } from '../../fake-service/data';
import {
	FINAL_JOB_STATUSES,
	isFinalStatus,
	perPlotResults,
	simplifyPlotResult,
} from '../../../nodes/shared/results/flatten';
import { plotFailure } from '../../../nodes/shared/results/plotOutcome';

const square = (lon: number, lat: number, d = 0.01) => ({
	type: 'Polygon' as const,
	coordinates: [
		[
			[lon, lat],
			[lon + d, lat],
			[lon + d, lat + d],
			[lon, lat + d],
			[lon, lat],
		],
	],
});

function analysedPlot(id: string, name: string, extra: IDataObject = {}): IDataObject {
	const p = {
		plot_id: id,
		lat: '-3.1',
		lon: '-60.0',
		area_ha: 12.3,
		additional_info: {},
		analysisGeometry: square(-60, -3.1),
	};
	const analysis = eudrBundle(
		p,
		{ commodity: 'soy', harvestDate: null, nowDate: '2026-03-01' },
		{},
	);
	return {
		plot_id: id,
		plot_name: name,
		area_ha: 12.3,
		commodity: 'soy',
		country: 'Brazil',
		analysis_image: `http://x/__fake/images/${id}.png`,
		analysis: { ...analysis, ...extra },
	};
}

const failedPlot: IDataObject = {
	plot_id: '2',
	plot_name: 'Bad plot',
	analysis_image: null,
	analysis: {
		status: 'failed',
		error: 'Analysis failed for plot 2: no usable satellite imagery',
		job_id: '7001',
	},
};

const job = (plots: IDataObject[], more: IDataObject = {}): IDataObject => ({
	job_id: '7001',
	job_name: 'Test job',
	status: 'done-with-errors',
	plot_ids: plots.map((p) => p.plot_id as string),
	job_visualization_url: ['http://x/__fake/visualizations/7001/1.png'],
	checks: [{ type: 'eudr', config: {} }],
	plots,
	...more,
});

describe('isFinalStatus', () => {
	it('accepts only done and done-with-errors', () => {
		expect(FINAL_JOB_STATUSES).toEqual(['done', 'done-with-errors']);
		expect(isFinalStatus('done')).toBe(true);
		expect(isFinalStatus('done-with-errors')).toBe(true);
		for (const s of ['creating', 'pending', 'incomplete', 'DONE-ish', '', null, undefined, 3, {}]) {
			expect(isFinalStatus(s)).toBe(false);
		}
	});
});

describe('simplifyPlotResult', () => {
	it('flattens an EUDR result into spreadsheet columns', () => {
		const plot = analysedPlot('1', 'Farm A');
		const analysis = plot.analysis as IDataObject;
		const row = simplifyPlotResult(plot, job([plot]));
		expect(row).toMatchObject({
			plot_id: '1',
			plot_name: 'Farm A',
			job_id: '7001',
			job_status: 'done-with-errors',
			status: 'analysed',
			failed: false,
			failure_reason: null,
			risk_level: analysis.risk_level,
			risk_reason: analysis.risk_reason,
			deforestation_percentage: analysis.deforestation_percentage,
			deforestation_area_ha: (analysis.deforestation as IDataObject).total,
			image_url: 'http://x/__fake/images/1.png',
		});
		const pa = (analysis.protected_areas as IDataObject)
			.protected_area_overlap_summary as IDataObject;
		expect(row.protected_area_overlap).toBe(pa.protected_area_overlap);
		expect(row.protected_area_overlap_percentage).toBe(pa.total_overlap_percentage ?? null);
		const il = (analysis.indigenous_land as IDataObject)
			.indigenous_land_overlap_summary as IDataObject;
		expect(row.indigenous_land_overlap).toBe(il.indigenous_land_overlap);
		// Every value is a scalar: fit for a spreadsheet row.
		for (const v of Object.values(row)) expect(v === null || typeof v !== 'object').toBe(true);
	});

	it('reads protected-area details, legality and Indigenous-land percentage from the v3 objects', () => {
		const plot: IDataObject = {
			plot_id: '9',
			analysis: {
				risk_level: 'Medium',
				protected_areas: {
					protected_area_overlap_summary: {
						protected_area_overlap: true,
						total_overlap_percentage: 42.5,
						total_overlap_area_ha: 3.2,
						most_restrictive_extractive_activity_legality: 'prohibited',
					},
					protected_area_details: [{ area_id: '59', area_name: 'Parque X' }],
				},
				indigenous_land: {
					indigenous_land_overlap_summary: {
						indigenous_land_overlap: false,
						total_overlap_percentage: 0,
					},
				},
			},
		};
		const row = simplifyPlotResult(plot, { job_id: '1', status: 'done' });
		expect(row).toMatchObject({
			protected_area_overlap: true,
			protected_area_overlap_percentage: 42.5,
			protected_area_extractive_activity_legality: 'prohibited',
			protected_area_names: 'Parque X',
			indigenous_land_overlap: false,
			indigenous_land_overlap_percentage: 0,
			risk_reason: null,
		});
	});

	it('adds the top-level result of every other capability, unknown ones included, using result keys', () => {
		const base = analysedPlot('1', 'Farm A');
		const p = {
			plot_id: '1',
			lat: '-3.1',
			lon: '-60.0',
			area_ha: 12.3,
			additional_info: {},
			analysisGeometry: square(-60, -3.1),
		};
		const ctx = { commodity: 'soy', harvestDate: null, nowDate: '2026-03-01' };
		const soil = builtInCapabilities().find((c) => c.name === 'soil_moisture')!;
		const soilWrites = runCheck(soil, 'soil_moisture', p, ctx, {}, 'img').writes;
		const plot = {
			...base,
			analysis: {
				...(base.analysis as IDataObject),
				...soilWrites,
				brand_new_check: { score: 7, details: { a: 1 } },
				water_stress_v2: 'ok',
			},
		};
		const row = simplifyPlotResult(
			plot,
			job([plot], {
				checks: [
					{ type: 'eudr' },
					{ type: 'soil_moisture' },
					{ type: 'protected_area' },
					{ type: 'brand_new' },
				],
			}),
			{ brand_new: 'brand_new_check' },
		);
		expect(row.soil_moisture_result).toBe((soilWrites.soil_moisture as IDataObject).summary);
		expect(row.brand_new_result).toBe(7);
		expect(row.water_stress_v2_result).toBe('ok');
		// protected_area writes under protected_areas, which is already flattened above.
		expect(row).not.toHaveProperty('protected_area_result');
		expect(row).not.toHaveProperty('protected_areas_result');
		expect(row).not.toHaveProperty('brand_new_check_result');
	});

	it('marks a failed plot and clears its results', () => {
		const row = simplifyPlotResult(failedPlot, job([failedPlot]));
		expect(row).toMatchObject({
			plot_id: '2',
			plot_name: 'Bad plot',
			status: 'failed',
			failed: true,
			failure_reason: 'Analysis failed for plot 2: no usable satellite imagery',
			risk_level: null,
			image_url: null,
		});
	});

	it('is tolerant of missing fields', () => {
		expect(() => simplifyPlotResult({}, {})).not.toThrow();
		const row = simplifyPlotResult({ plot_id: 5 } as unknown as IDataObject, {});
		// No job and no analysis: nothing says whether it failed (null, never false).
		expect(row).toMatchObject({
			plot_id: '5',
			status: 'not analysed',
			failed: null,
			failure_reason: 'not analysed: the plot has no analysis results',
			risk_level: null,
			protected_area_overlap: null,
		});
		const legacyOnly = simplifyPlotResult(
			{
				plot_id: '6',
				analysis: {
					protectedAreas: [['Reserva A', 1.5]],
					indigenous_overlap: { total_overlap_area: 0, overlap_percentage: 0 },
				},
			},
			{},
		);
		expect(legacyOnly).toMatchObject({
			protected_area_overlap: true,
			protected_area_names: 'Reserva A',
			indigenous_land_overlap: false,
		});
	});

	it('falls back to the job visualisation URL of the plot', () => {
		const plot = { ...analysedPlot('1', 'A'), analysis_image: null };
		expect(simplifyPlotResult(plot, job([plot])).image_url).toBe(
			'http://x/__fake/visualizations/7001/1.png',
		);
	});
});

describe('perPlotResults', () => {
	it('returns one row per plot, failed plots marked and never dropped', () => {
		const plots = [analysedPlot('1', 'A'), failedPlot];
		const rows = perPlotResults(job(plots), { simplify: true });
		expect(rows.map((r) => [r.plot_id, r.failed])).toEqual([
			['1', false],
			['2', true],
		]);
	});

	it('raw mode returns the plot with job id and status added', () => {
		const plots = [analysedPlot('1', 'A'), failedPlot];
		const rows = perPlotResults(job(plots), { simplify: false });
		expect(rows[0]).toMatchObject({
			...plots[0],
			job_id: '7001',
			job_status: 'done-with-errors',
			failed: false,
		});
		expect(rows[0].analysis).toEqual(plots[0].analysis);
		expect(rows[1]).toMatchObject({
			plot_id: '2',
			failed: true,
			failure_reason: expect.stringContaining('no usable'),
		});
	});

	it('keeps plots listed in plot_ids but not embedded, and survives a job without plots', () => {
		const rows = perPlotResults(
			{ job_id: '1', status: 'done', plot_ids: ['1', '2'], plots: [analysedPlot('1', 'A')] },
			{ simplify: true },
		);
		expect(rows.map((r) => r.plot_id)).toEqual(['1', '2']);
		expect(rows[1].status).toBe('not analysed');
		expect(perPlotResults({}, { simplify: true })).toEqual([]);
		expect(
			perPlotResults({ plots: 'nonsense' } as unknown as IDataObject, { simplify: false }),
		).toEqual([]);
	});
});

describe('plotFailure', () => {
	it('reads failure from the analysis or the plot', () => {
		expect(plotFailure(failedPlot)).toContain('no usable');
		expect(plotFailure({ status: 'failed' })).toMatch(/failed/);
		expect(plotFailure(analysedPlot('1', 'A'))).toBeUndefined();
	});
});

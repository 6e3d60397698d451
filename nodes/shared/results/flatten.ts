/**
 * Per-plot rows of a job, shared by Job → Wait for Completion, Job → Get Results and the
 * trigger. Pure: no n8n runtime imports, tolerant of missing fields and of capabilities
 * it has never heard of (their top-level result is passed through under their key).
 */
import type { IDataObject } from 'n8n-workflow';

import { bool, isObject, num, str } from '../values/answerValues';
import type { OverlapReading } from './overlapResults';
import { readOverlap, strictestLegality } from './overlapResults';
import type { PlotOutcome } from './plotOutcome';
import { jobVisualisationOf, plotOutcome, plotsOf } from './plotOutcome';
import type { RunEvidence } from './analysisRuns';

/** What a job says about each plot lives in plotOutcome.ts; its callers import it from here too. */
export type { PlotOutcome } from './plotOutcome';
export {
	jobVisualisationOf,
	needsRunLookup,
	plotFailure,
	plotOutcome,
	plotsOf,
} from './plotOutcome';

/** Job statuses after which nothing changes any more. */
export const FINAL_JOB_STATUSES = ['done', 'done-with-errors'];

export function isFinalStatus(status: unknown): boolean {
	return typeof status === 'string' && FINAL_JOB_STATUSES.includes(status.trim().toLowerCase());
}

/**
 * Where a capability writes its result inside `plot.analysis` when it differs from its
 * name. The live catalog's `result_key` is authoritative; these are the known defaults.
 */
const DEFAULT_RESULT_KEYS: Record<string, string> = { protected_area: 'protected_areas' };

/** Keys the EUDR bundle (and the service's legacy fields) write; not "other capabilities". */
const EUDR_KEYS = new Set([
	'analysisEnd',
	'analysis_end',
	'analysis_start',
	'risk_level',
	'risk_reason',
	'forest_percentage_2020',
	'forest_area_2020',
	'logging_area',
	'areaHa',
	'version',
	'deforestation',
	'deforestation_percentage',
	'protectedAreas',
	'indigenous_overlap',
	'eudr',
	'protected_areas',
	'indigenous_land',
	'status',
	'error',
	'error_message',
	'failure_reason',
	'job_id',
]);

interface FlattenOptions {
	simplify: boolean;
	/** capability name → result key, from the live catalog (merged over DEFAULT_RESULT_KEYS) */
	resultKeys?: Record<string, string>;
}

/** Strings joined for a spreadsheet cell, or null. */
function firstString(values: unknown[]): string | null {
	for (const v of values) {
		const s = str(v);
		if (s !== null && s !== '') return s;
	}
	return null;
}

/** Top-level result of a capability run: its summary/class/score, or the value itself when scalar. */
function topLevelResult(value: unknown): string | number | boolean | null {
	if (value === null || value === undefined) return null;
	const scalar = (v: unknown) =>
		typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
	if (!isObject(value))
		return scalar(value) ? (value as string | number | boolean) : JSON.stringify(value);
	for (const key of ['summary', 'result', 'class', 'risk_level', 'status', 'score', 'value']) {
		const v = value[key];
		if (scalar(v)) return v as string | number | boolean;
	}
	// A summary object (e.g. "<x>_summary") with a boolean/number/strings in it.
	for (const [key, v] of Object.entries(value)) {
		if (/summary$/i.test(key) && isObject(v)) return JSON.stringify(v);
	}
	return JSON.stringify(value);
}

/** Capability names of the checks the job ran (echoed by the service as `checks`). */
function checkTypes(job: IDataObject): string[] {
	const checks = Array.isArray(job?.checks) ? job.checks : [];
	const out: string[] = [];
	for (const c of checks) {
		const type = isObject(c) ? str(c.type) : str(c);
		if (type && !out.includes(type)) out.push(type);
	}
	return out;
}

/** Why an overlap column is null when the row's results are not this job's, or the check's reading. */
function overlapColumns(
	reading: OverlapReading,
	prefix: 'protected_area' | 'indigenous_land',
): IDataObject {
	return {
		[`${prefix}_overlap`]: reading.overlap,
		[`${prefix}_overlap_reason`]: reading.reason,
		[`${prefix}_overlap_percentage`]: reading.percentage,
		[`${prefix}_overlap_ha`]: reading.areaHa,
	};
}

/** Every overlap column null, with `reason`. */
function unknownOverlap(reason: string): OverlapReading {
	return {
		overlap: null,
		reason,
		percentage: null,
		areaHa: null,
		legality: null,
		details: null,
		failure: null,
	};
}

/** Protected-area overlap of an analysis: the v3 object (nested or flat), else the legacy pairs. */
function protectedAreaReading(analysis: IDataObject, resultKey: string): OverlapReading {
	const result = analysis[resultKey] ?? analysis.protected_areas;
	const reading = readOverlap(result, 'protected_area');
	const legacy = Array.isArray(analysis.protectedAreas) ? analysis.protectedAreas : undefined;
	if (reading.overlap !== null || reading.failure !== null || !legacy) return reading;
	// The EUDR bundle's list of [name, hectares] pairs: the service's own list of overlaps.
	return { ...reading, overlap: legacy.length > 0, reason: null };
}

/** Indigenous-land overlap of an analysis: the v3 object (nested or flat), else the legacy object. */
function indigenousLandReading(analysis: IDataObject, resultKey: string): OverlapReading {
	const result = analysis[resultKey] ?? analysis.indigenous_land;
	const reading = readOverlap(result, 'indigenous_land');
	const legacy = isObject(analysis.indigenous_overlap) ? analysis.indigenous_overlap : undefined;
	if (!legacy || reading.failure !== null) return reading;
	const area = num(legacy.total_overlap_area);
	const territories = Array.isArray(legacy.overlapping_territories)
		? legacy.overlapping_territories
		: undefined;
	let overlap = reading.overlap;
	if (overlap === null && area !== null) overlap = area > 0;
	if (overlap === null && territories && territories.length > 0) overlap = true;
	return {
		...reading,
		overlap,
		reason: overlap === null ? reading.reason : null,
		percentage: reading.percentage ?? num(legacy.overlap_percentage),
		areaHa: reading.areaHa ?? area,
	};
}

/**
 * The flat row for one plot: plot id and name, job id, status and whether it failed (with
 * the reason, or why that is unknown), risk level and reason, deforestation figures,
 * protected-area overlap (yes/no, %, ha, strictest extractive-activity legality),
 * Indigenous-land overlap (yes/no, %, ha), image URL, and the top-level result of every
 * other capability run (one column per capability, `<capability>_result`). Every overlap
 * has a `<…>_overlap_reason` column saying why it is null (`not checked`, `failed: …`,
 * `not this job's results: …`, `unknown: …`). `runs` is what the plot's analysis runs of
 * this job say, when they were looked up (see `plotOutcome`); `known` is an outcome already
 * decided (jobRowWithoutPlots).
 */
export function simplifyPlotResult(
	plot: IDataObject,
	job: IDataObject,
	resultKeys: Record<string, string> = {},
	runs?: RunEvidence,
	known?: PlotOutcome,
): IDataObject {
	const analysis: IDataObject = isObject(plot?.analysis) ? plot.analysis : {};
	const outcome = known ?? plotOutcome(plot ?? {}, job ?? {}, runs);
	// The results are shown only when they are this job's (or, outside a job, the plot's).
	const shown = outcome.results_reason === null;
	const keys = { ...DEFAULT_RESULT_KEYS, ...resultKeys };
	const use: IDataObject = shown ? analysis : {};
	const eudr = isObject(use.eudr) ? use.eudr : {};
	const deforestation = isObject(use.deforestation) ? use.deforestation : {};
	const hidden = outcome.results_reason ?? '';
	const pa = shown
		? protectedAreaReading(analysis, keys.protected_area ?? 'protected_areas')
		: unknownOverlap(hidden);
	const il = shown
		? indigenousLandReading(analysis, keys.indigenous_land ?? 'indigenous_land')
		: unknownOverlap(hidden);
	const legacyPa = Array.isArray(use.protectedAreas) ? use.protectedAreas : undefined;

	const plotId = str(plot?.plot_id);
	const row: IDataObject = {
		plot_id: plotId,
		plot_name: str(plot?.plot_name),
		job_id: str(job?.job_id) ?? str(plot?.job_id) ?? str(analysis.job_id),
		job_name: str(job?.job_name),
		job_status: str(job?.status),
		status: outcome.status,
		failed: outcome.failed,
		failure_reason: outcome.failure_reason,
		results_reason: outcome.results_reason,
		risk_level: str(use.risk_level) ?? str(eudr.risk_level),
		risk_reason: str(use.risk_reason),
		forest_percentage_2020: num(use.forest_percentage_2020) ?? num(eudr.forest_percentage_2020),
		deforestation_percentage:
			num(use.deforestation_percentage) ?? num(eudr.deforestation_percentage),
		deforestation_area_ha: num(deforestation.total) ?? num(eudr.deforestation_area_ha),
		deforestation_area_jrc_ha: num(deforestation.total_jrc),
		deforestation_free: bool(eudr.deforestation_free),
		...overlapColumns(pa, 'protected_area'),
		protected_area_extractive_activity_legality:
			pa.legality ?? (pa.details ? strictestLegality(pa.details) : null),
		protected_area_names: legacyPa
			? legacyPa.map((p) => (Array.isArray(p) ? p[0] : p)).join(', ')
			: pa.details
				? pa.details
						.map((d) => firstString([d.area_name, d.local_name, d.area_id]))
						.filter(Boolean)
						.join(', ')
				: null,
		...overlapColumns(il, 'indigenous_land'),
		area_ha: num(plot?.area_ha) ?? num(use.areaHa),
		commodity: str(plot?.commodity),
		country: str(plot?.country),
		analysis_end: str(use.analysis_end) ?? str(use.analysisEnd),
		analysis_version: str(use.version),
		image_url: shown ? firstString([plot?.analysis_image, jobVisualisationOf(plotId, job)]) : null,
	};

	// Every other capability run: its top-level result, under `<capability>_result`.
	const reverse = new Map<string, string>();
	for (const [name, key] of Object.entries(keys)) reverse.set(key, name);
	const seen = new Set<string>();
	const addOther = (name: string, key: string) => {
		if (seen.has(key) || EUDR_KEYS.has(key) || name === 'eudr') return;
		seen.add(key);
		const column = `${name}_result`;
		if (column in row) return;
		row[column] = shown ? topLevelResult(analysis[key]) : null;
	};
	for (const type of checkTypes(job ?? {})) addOther(type, keys[type] ?? type);
	if (shown) {
		for (const key of Object.keys(analysis)) {
			if (EUDR_KEYS.has(key)) continue;
			addOther(reverse.get(key) ?? key, key);
		}
	}
	return row;
}

interface PerPlotOptions extends FlattenOptions {
	/** What each plot's analysis runs of this job say (plot id → evidence), when looked up. */
	runs?: ReadonlyMap<string, RunEvidence>;
	/**
	 * Simplified rows with the decision first (DECISION_COLUMNS, then the rest in their usual
	 * order): version 2 of the action node. Version 1 and the trigger keep the original order.
	 */
	decisionFirst?: boolean;
}

/**
 * The columns a reviewer decides on, first in version 2's simplified rows: which plot, its
 * risk and why, whether it is deforestation-free, and whether it overlaps a protected area
 * or Indigenous land (with the reason when that is unknown).
 */
export const DECISION_COLUMNS = [
	'plot_name',
	'plot_id',
	'risk_level',
	'risk_reason',
	'deforestation_free',
	'protected_area_overlap',
	'indigenous_land_overlap',
	'failed',
	'failure_reason',
] as const;

/** The same row with DECISION_COLUMNS first (every key and value kept). */
function decisionFirst(row: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const key of DECISION_COLUMNS) if (key in row) out[key] = row[key];
	for (const [key, value] of Object.entries(row)) if (!(key in out)) out[key] = value;
	return out;
}

/** The plots of a job's rows: those embedded, then those named in plot_ids only. */
export function plotsOfRows(job: IDataObject): IDataObject[] {
	const plots = plotsOf(job);
	const known = new Set(plots.map((p) => str(p.plot_id)));
	// Plots named in plot_ids but not embedded still get a row, so none go missing.
	const missing = (Array.isArray(job?.plot_ids) ? job.plot_ids : [])
		.map((id) => str(id))
		.filter((id): id is string => id !== null && !known.has(id))
		.map((plot_id) => ({ plot_id }) as IDataObject);
	return [...plots, ...missing];
}

/**
 * One row per plot of the job. Failed plots are marked (`failed: true`, `failure_reason`),
 * never dropped; a plot whose outcome the answer does not tell has `failed: null` and
 * `failure_reason: "unknown: …"`. Raw mode returns each plot as the service sent it with
 * `job_id`, `job_status`, `failed`, `failure_reason` and `results_reason` added.
 */
export function perPlotResults(job: IDataObject, options: PerPlotOptions): IDataObject[] {
	return plotsOfRows(job).map((plot) => {
		const runs = options.runs?.get(str(plot.plot_id) ?? '');
		if (options.simplify) {
			const row = simplifyPlotResult(plot, job, options.resultKeys, runs);
			return options.decisionFirst ? decisionFirst(row) : row;
		}
		return rawRow(plot, job, plotOutcome(plot, job, runs));
	});
}

/** A raw-mode row: `row` with the job's id and status and the plot's outcome added. */
function rawRow(row: IDataObject, job: IDataObject, outcome: PlotOutcome): IDataObject {
	return {
		...row,
		job_id: str(job?.job_id),
		job_status: str(job?.status),
		failed: outcome.failed,
		failure_reason: outcome.failure_reason,
		results_reason: outcome.results_reason,
	};
}

/**
 * The one row of a job whose plots are not known (its status was never read, or its answer
 * names no plots), so that the job never vanishes from per-plot output: the row's columns with
 * `plot_id` and every result null, `status: unknown`, `failed: null`, and `why` in
 * `failure_reason` and `results_reason` (and so in every `<…>_overlap_reason`).
 */
export function jobRowWithoutPlots(
	job: IDataObject,
	why: string,
	options: PerPlotOptions,
): IDataObject {
	const outcome: PlotOutcome = {
		status: 'unknown',
		failed: null,
		failure_reason: `unknown: ${why}`,
		results_reason: `unknown: ${why}`,
	};
	if (options.simplify) {
		const row = simplifyPlotResult({}, job, options.resultKeys, undefined, outcome);
		return options.decisionFirst ? decisionFirst(row) : row;
	}
	return rawRow({ plot_id: null }, job, outcome);
}

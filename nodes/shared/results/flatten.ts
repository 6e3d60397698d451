/**
 * Per-plot rows of a job, shared by Job → Wait for Completion, Job → Get Results and the
 * trigger. Pure: no n8n runtime imports, tolerant of missing fields and of capabilities
 * it has never heard of (their top-level result is passed through under their key).
 */
import type { IDataObject } from 'n8n-workflow';

import { bool, isObject, num, str } from '../helpers/values';

/** Job statuses after which nothing changes any more. */
export const FINAL_JOB_STATUSES = ['done', 'done-with-errors'];

export function isFinalStatus(status: unknown): boolean {
	return typeof status === 'string' && FINAL_JOB_STATUSES.includes(status.trim().toLowerCase());
}

/**
 * Where a capability writes its result inside `plot.analysis` when it differs from its
 * name. The live catalog's `result_key` is authoritative; these are the known defaults.
 */
export const DEFAULT_RESULT_KEYS: Record<string, string> = { protected_area: 'protected_areas' };

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
	'job_id',
]);

export interface FlattenOptions {
	simplify: boolean;
	/** capability name → result key, from the live catalog (merged over DEFAULT_RESULT_KEYS) */
	resultKeys?: Record<string, string>;
}

/** The plots embedded in a job (`plots`), or an empty list. */
export function plotsOf(job: IDataObject): IDataObject[] {
	const plots = job?.plots;
	return Array.isArray(plots) ? plots.filter(isObject) : [];
}

/**
 * Why a plot failed, or undefined when it did not. A failed plot carries
 * `analysis.status: "failed"` and `analysis.error` (or a plot-level status).
 */
export function plotFailure(plot: IDataObject): string | undefined {
	const analysis = isObject(plot.analysis) ? plot.analysis : {};
	const status = str(analysis.status) ?? str(plot.status) ?? str(plot.analysis_status);
	if (status && /^(failed|error|errored)$/i.test(status)) {
		return (
			str(analysis.error) ??
			str(analysis.failure_reason) ??
			str(plot.error) ??
			str(plot.failure_reason) ??
			'The analysis of this plot failed (no reason given).'
		);
	}
	return undefined;
}

/** Whether the plot's analysis is present (not failed, not empty). */
function hasResults(analysis: IDataObject): boolean {
	return Object.keys(analysis).some((k) => !['status', 'error', 'job_id'].includes(k));
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

/**
 * The flat row for one plot: plot id and name, job id, status, risk level and reason,
 * deforestation figures, protected-area overlap (yes/no, %, strictest extractive-activity
 * legality), Indigenous-land overlap (yes/no, %), image URL, and the top-level result of
 * every other capability run (one column per capability, `<capability>_result`).
 */
export function simplifyPlotResult(
	plot: IDataObject,
	job: IDataObject,
	resultKeys: Record<string, string> = {},
): IDataObject {
	const analysis: IDataObject = isObject(plot?.analysis) ? plot.analysis : {};
	const failure = plotFailure(plot ?? {});
	const keys = { ...DEFAULT_RESULT_KEYS, ...resultKeys };
	const eudr = isObject(analysis.eudr) ? analysis.eudr : {};
	const deforestation = isObject(analysis.deforestation) ? analysis.deforestation : {};
	const pa = isObject(analysis.protected_areas) ? analysis.protected_areas : undefined;
	const paSummary =
		pa && isObject(pa.protected_area_overlap_summary) ? pa.protected_area_overlap_summary : {};
	const il = isObject(analysis.indigenous_land) ? analysis.indigenous_land : undefined;
	const ilSummary =
		il && isObject(il.indigenous_land_overlap_summary) ? il.indigenous_land_overlap_summary : {};
	const ilLegacy = isObject(analysis.indigenous_overlap) ? analysis.indigenous_overlap : undefined;
	const legacyPa = Array.isArray(analysis.protectedAreas) ? analysis.protectedAreas : undefined;

	let paOverlap = bool(paSummary.protected_area_overlap);
	if (paOverlap === null && legacyPa) paOverlap = legacyPa.length > 0;
	let ilOverlap = bool(ilSummary.indigenous_land_overlap);
	if (ilOverlap === null && ilLegacy) {
		const area = num(ilLegacy.total_overlap_area);
		if (area !== null) ilOverlap = area > 0;
	}

	const jobId = str(plot?.job_id) ?? str(job?.job_id) ?? str(analysis.job_id);
	const imageUrls = Array.isArray(job?.job_visualization_url) ? job.job_visualization_url : [];
	const plotId = str(plot?.plot_id);
	const jobImage = plotId
		? imageUrls.find(
				// "…/<plot_id>.<ext>", compared as text: a service id is never a regular expression.
				(u) => {
					const name =
						typeof u === 'string' && u.includes('/') ? u.slice(u.lastIndexOf('/') + 1) : '';
					return name.startsWith(`${plotId}.`) && /^[a-z]+$/i.test(name.slice(plotId.length + 1));
				},
			)
		: undefined;

	const row: IDataObject = {
		plot_id: plotId,
		plot_name: str(plot?.plot_name),
		job_id: jobId,
		job_name: str(job?.job_name),
		job_status: str(job?.status),
		status: failure ? 'failed' : hasResults(analysis) ? 'analysed' : 'not analysed',
		failed: !!failure,
		failure_reason: failure ?? null,
		risk_level: failure ? null : (str(analysis.risk_level) ?? str(eudr.risk_level)),
		risk_reason: failure ? null : str(analysis.risk_reason),
		forest_percentage_2020:
			num(analysis.forest_percentage_2020) ?? num(eudr.forest_percentage_2020),
		deforestation_percentage:
			num(analysis.deforestation_percentage) ?? num(eudr.deforestation_percentage),
		deforestation_area_ha: num(deforestation.total) ?? num(eudr.deforestation_area_ha),
		deforestation_area_jrc_ha: num(deforestation.total_jrc),
		deforestation_free: bool(eudr.deforestation_free),
		protected_area_overlap: paOverlap,
		protected_area_overlap_percentage: num(paSummary.total_overlap_percentage),
		protected_area_overlap_ha: num(paSummary.total_overlap_area_ha),
		protected_area_extractive_activity_legality: str(
			paSummary.most_restrictive_extractive_activity_legality,
		),
		protected_area_names: legacyPa
			? legacyPa.map((p) => (Array.isArray(p) ? p[0] : p)).join(', ')
			: pa && Array.isArray(pa.protected_area_details)
				? pa.protected_area_details
						.map((d) => (isObject(d) ? firstString([d.area_name, d.local_name, d.area_id]) : null))
						.filter(Boolean)
						.join(', ')
				: null,
		indigenous_land_overlap: ilOverlap,
		indigenous_land_overlap_percentage:
			num(ilSummary.total_overlap_percentage) ??
			(ilLegacy ? num(ilLegacy.overlap_percentage) : null),
		indigenous_land_overlap_ha:
			num(ilSummary.total_overlap_area_ha) ?? (ilLegacy ? num(ilLegacy.total_overlap_area) : null),
		area_ha: num(plot?.area_ha) ?? num(analysis.areaHa),
		commodity: str(plot?.commodity),
		country: str(plot?.country),
		analysis_end: str(analysis.analysis_end) ?? str(analysis.analysisEnd),
		analysis_version: str(analysis.version),
		image_url: failure ? null : firstString([plot?.analysis_image, jobImage]),
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
		row[column] = failure ? null : topLevelResult(analysis[key]);
	};
	for (const type of checkTypes(job ?? {})) addOther(type, keys[type] ?? type);
	if (!failure) {
		for (const key of Object.keys(analysis)) {
			if (EUDR_KEYS.has(key)) continue;
			addOther(reverse.get(key) ?? key, key);
		}
	}
	return row;
}

/**
 * One row per plot of the job. Failed plots are marked (`failed: true`, `failure_reason`),
 * never dropped. Raw mode returns each plot as the service sent it with `job_id`,
 * `job_status`, `failed` and `failure_reason` added.
 */
export function perPlotResults(job: IDataObject, options: FlattenOptions): IDataObject[] {
	const plots = plotsOf(job);
	const known = new Set(plots.map((p) => str(p.plot_id)));
	// Plots named in plot_ids but not embedded still get a row, so none go missing.
	const missing = (Array.isArray(job?.plot_ids) ? job.plot_ids : [])
		.map((id) => str(id))
		.filter((id): id is string => id !== null && !known.has(id))
		.map((plot_id) => ({ plot_id }) as IDataObject);
	return [...plots, ...missing].map((plot) => {
		if (options.simplify) return simplifyPlotResult(plot, job, options.resultKeys);
		const failure = plotFailure(plot);
		return {
			...plot,
			job_id: str(job?.job_id),
			job_status: str(job?.status),
			failed: !!failure,
			failure_reason: failure ?? null,
		};
	});
}

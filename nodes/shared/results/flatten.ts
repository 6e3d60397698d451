/**
 * Per-plot rows of a job, shared by Job → Wait for Completion, Job → Get Results and the
 * trigger. Pure: no n8n runtime imports, tolerant of missing fields and of capabilities
 * it has never heard of (their top-level result is passed through under their key).
 */
import type { IDataObject } from 'n8n-workflow';

import { bool, isObject, num, str } from '../values/answerValues';
import type { OverlapReading } from './overlap';
import { errorText, readOverlap, strictestLegality } from './overlap';
import type { RunEvidence } from './runs';

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

/** The plots embedded in a job (`plots`), or an empty list. */
function plotsOf(job: IDataObject): IDataObject[] {
	const plots = job?.plots;
	return Array.isArray(plots) ? plots.filter(isObject) : [];
}

/** What a row says about one plot of one job; the same fields in raw and simplified rows. */
type PlotStatus = 'analysed' | 'failed' | 'not analysed' | 'unknown';

interface PlotOutcome {
	/**
	 * `analysed`: the row's results are this job's. `failed`: the plot was not processed.
	 * `not analysed`: it did not fail, but the answer holds no results of this job for it.
	 * `unknown`: the answer does not say whether it failed.
	 */
	status: PlotStatus;
	/** true: failed; false: the service says it did not; null: not known (see failure_reason) */
	failed: boolean | null;
	/** failed true: why; failed null: `unknown: <why>`; failed false: null */
	failure_reason: string | null;
	/**
	 * null when the row's results are this job's; otherwise why not: `failed: …`, `unknown: …`,
	 * `not this job's results: …` (the plot's analysis is another job's), `not in the answer: …`
	 */
	results_reason: string | null;
}

const FAILED_STATUS = /^(failed|failure|error|errored)$/i;
const OK_STATUS =
	/^(completed|complete|done|succeeded|success|successful|analysed|analyzed|finished|ok)$/i;
const PENDING_STATUS =
	/^(pending|queued|creating|running|processing|in[ _-]?progress|incomplete)$/i;

/** Keys of an analysis that say how it went rather than what it found. */
const BOOKKEEPING = new Set(['status', 'error', 'job_id', 'failure_reason', 'error_message']);

/** Whether the plot's analysis holds results (anything beyond status, error and job id). */
function hasResults(analysis: IDataObject): boolean {
	return Object.keys(analysis).some((k) => !BOOKKEEPING.has(k));
}

/**
 * A per-plot status field (the contract shows none): `analysis.status`, `plot.status` or
 * `plot.analysis_status`; an `analysis.error` without results counts as failed.
 */
function statusField(
	plot: IDataObject,
	analysis: IDataObject,
): { kind: 'failed'; reason: string } | { kind: 'ok' } | { kind: 'pending' } | undefined {
	const status = (
		str(analysis.status) ??
		str(plot.status) ??
		str(plot.analysis_status) ??
		''
	).trim();
	const reason = () =>
		errorText(analysis.error) ??
		errorText(analysis.failure_reason) ??
		errorText(analysis.error_message) ??
		errorText(plot.error) ??
		errorText(plot.failure_reason) ??
		'The analysis of this plot failed (no reason given).';
	if (FAILED_STATUS.test(status)) return { kind: 'failed', reason: reason() };
	if (OK_STATUS.test(status)) return { kind: 'ok' };
	if (PENDING_STATUS.test(status)) return { kind: 'pending' };
	if (errorText(analysis.error) !== null && !hasResults(analysis))
		return { kind: 'failed', reason: reason() };
	return undefined;
}

/**
 * The names a URL may give its plot: the last path segment, with and without its extension
 * (lower case). Service ids are compared as text, never used as patterns.
 */
function urlNames(url: string): string[] {
	let path = url.split(/[?#]/)[0];
	try {
		path = new URL(url).pathname;
	} catch {
		// not absolute: the text before any query is the path
	}
	const last = path
		.split('/')
		.filter((s) => s !== '')
		.pop();
	if (last === undefined) return [];
	let segment = last;
	try {
		segment = decodeURIComponent(last);
	} catch {
		// keep it encoded
	}
	segment = segment.toLowerCase();
	const dot = segment.lastIndexOf('.');
	return dot > 0 ? [segment, segment.slice(0, dot)] : [segment];
}

function visualisationUrls(job: IDataObject): string[] {
	return Array.isArray(job?.job_visualization_url)
		? job.job_visualization_url.filter((u): u is string => typeof u === 'string' && u !== '')
		: [];
}

/** The job visualisation of one plot: the URL whose file is named after the plot id. */
export function jobVisualisationOf(plotId: unknown, job: IDataObject): string | undefined {
	const id = str(plotId);
	if (id === null || id === '') return undefined;
	const wanted = id.toLowerCase();
	return visualisationUrls(job).find((u) => urlNames(u).includes(wanted));
}

/**
 * (d) of the failure signals: `present` when the job lists a visualisation of this plot;
 * `absent` when it lists visualisations of other plots of the job but none of this one;
 * `n/a` when the list says nothing (empty, or no URL can be told apart by plot).
 */
function visualisationEvidence(
	plotId: string | null,
	job: IDataObject,
): 'present' | 'absent' | 'n/a' {
	if (plotId === null) return 'n/a';
	const stems = new Set(visualisationUrls(job).flatMap(urlNames));
	if (stems.has(plotId.toLowerCase())) return 'present';
	const others = [
		...(Array.isArray(job?.plot_ids) ? job.plot_ids : []),
		...plotsOf(job).map((p) => p.plot_id),
	]
		.map((v) => str(v))
		.filter((v): v is string => v !== null && v !== plotId);
	return others.some((o) => stems.has(o.toLowerCase())) ? 'absent' : 'n/a';
}

/**
 * Whether plot `plot` failed in `job`, from every signal the answer may carry (none of
 * them is in the contract, so each is optional):
 * (a) a per-plot status field; (b) the job status (`done`: no plot failed;
 * `done-with-errors`: some did); (c) the plot's analysis runs of this job (`runs`, looked
 * up by jobs/plotOutcomes.ts when nothing else decides); (d) the plot missing from
 * `job_visualization_url` while other plots are in it; (e) an `analysis.job_id` naming
 * another job. Unknown is never "no": without a decisive signal, `failed` is null and
 * `failure_reason` says why. Pure.
 */
export function plotOutcome(plot: IDataObject, job: IDataObject, runs?: RunEvidence): PlotOutcome {
	const analysis: IDataObject = isObject(plot?.analysis) ? plot.analysis : {};
	const jobId = str(job?.job_id);
	const jobStatus = (str(job?.status) ?? '').trim().toLowerCase();
	const writer = str(analysis.job_id);
	const foreign = writer !== null && jobId !== null && writer !== jobId;
	const own = writer !== null && jobId !== null && writer === jobId;
	const results = hasResults(analysis);
	// A status written by another job says nothing about this one.
	const field = foreign ? undefined : statusField(plot ?? {}, analysis);
	const otherJobs = `the plot's analysis is from job ${writer}`;

	const failed = (reason: string): PlotOutcome => ({
		status: 'failed',
		failed: true,
		failure_reason: reason,
		results_reason: `failed: ${reason}`,
	});
	const unknown = (why: string): PlotOutcome => ({
		status: 'unknown',
		failed: null,
		failure_reason: `unknown: ${why}`,
		results_reason: `unknown: ${why}`,
	});
	/** Not failed: the results are shown when they are this job's. */
	const notFailed = (): PlotOutcome =>
		results && !foreign
			? { status: 'analysed', failed: false, failure_reason: null, results_reason: null }
			: {
					status: 'not analysed',
					failed: false,
					failure_reason: null,
					results_reason: foreign
						? `not this job's results: ${otherJobs}`
						: "not in the answer: the job's answer holds no results for this plot",
				};

	if (field?.kind === 'failed') return failed(field.reason);
	if (runs?.kind === 'failed') return failed(runs.reason);

	// Outside a job (Plot → Get): the plot alone.
	if (jobId === null && jobStatus === '') {
		if (results) return notFailed();
		if (field?.kind === 'pending') return unknown('its analysis has not finished');
		return {
			status: 'not analysed',
			failed: null,
			failure_reason: 'not analysed: the plot has no analysis results',
			results_reason: 'not analysed',
		};
	}

	const vis = visualisationEvidence(str(plot?.plot_id), job);
	const succeeded =
		(own && results) ||
		(field?.kind === 'ok' && results) ||
		vis === 'present' ||
		runs?.kind === 'completed';

	if (jobStatus === 'done') return notFailed();
	if (jobStatus === 'done-with-errors') {
		if (succeeded) return notFailed();
		if (foreign)
			return failed(
				`not analysed by this job: ${otherJobs} and the job finished with errors, so the plot failed in this job`,
			);
		if (vis === 'absent')
			return failed(
				'the job finished with errors and lists visualisations of its other plots but none of this one, so the plot failed in this job',
			);
		if (runs?.kind === 'none') return unknown(`the job finished with errors and ${runs.reason}`);
		return unknown(
			'the job finished with errors (done-with-errors) and its answer does not say whether this plot was processed',
		);
	}
	// The job has not finished (or gave no status): a plot it already finished may show.
	if (succeeded && results && !foreign) return notFailed();
	return unknown(
		jobStatus === ''
			? 'the job answer gives no status'
			: `the job has not finished (status: ${jobStatus})`,
	);
}

/**
 * Whether the outcome of `plot` is undetermined in a finished job, so that its analysis
 * runs of the job should be looked up (only for `done-with-errors`: in a `done` job no plot
 * failed, and an unfinished job is asked again later).
 */
export function needsRunLookup(plot: IDataObject, job: IDataObject): boolean {
	const jobStatus = (str(job?.status) ?? '').trim().toLowerCase();
	return (
		jobStatus === 'done-with-errors' &&
		str(job?.job_id) !== null &&
		str(plot?.plot_id) !== null &&
		plotOutcome(plot, job).failed === null
	);
}

/**
 * Why a plot failed, or undefined when nothing says it did. Reads the plot alone (a
 * per-plot status field); `plotOutcome` weighs every signal of a job.
 */
export function plotFailure(plot: IDataObject): string | undefined {
	const analysis = isObject(plot?.analysis) ? plot.analysis : {};
	const field = statusField(plot ?? {}, analysis);
	return field?.kind === 'failed' ? field.reason : undefined;
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
		const outcome = plotOutcome(plot, job, runs);
		return {
			...plot,
			job_id: str(job?.job_id),
			job_status: str(job?.status),
			failed: outcome.failed,
			failure_reason: outcome.failure_reason,
			results_reason: outcome.results_reason,
		};
	});
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
	return {
		plot_id: null,
		job_id: str(job?.job_id),
		job_status: str(job?.status),
		failed: outcome.failed,
		failure_reason: outcome.failure_reason,
		results_reason: outcome.results_reason,
	};
}

/**
 * What a job says about each of its plots (Job → Wait for Completion, Job → Get Results, the
 * trigger): analysed, failed, not analysed or unknown, with the reason and the evidence (the
 * plot's own status, its results, the job's visualisation files, the analysis runs), and the
 * plot's visualisation URL. Pure, tolerant of missing fields.
 */
import type { IDataObject } from 'n8n-workflow';

import { isObject, str } from '../values/answerValues';
import { errorText } from './overlapResults';
import type { RunEvidence } from './analysisRuns';

/** The plots embedded in a job (`plots`), or an empty list. */
export function plotsOf(job: IDataObject): IDataObject[] {
	const plots = job?.plots;
	return Array.isArray(plots) ? plots.filter(isObject) : [];
}

/** What a row says about one plot of one job; the same fields in raw and simplified rows. */
export type PlotStatus = 'analysed' | 'failed' | 'not analysed' | 'unknown';

export interface PlotOutcome {
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
 * up by jobs/plotRunLookup.ts when nothing else decides); (d) the plot missing from
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

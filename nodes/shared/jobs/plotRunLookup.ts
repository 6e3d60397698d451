/**
 * Signal (c) of a plot's outcome (see `plotOutcome` in results/plotOutcome.ts): the plot's
 * analysis runs of this job, read with `GET /analysis-runs?plot_id=` (free of charge).
 *
 * Only asked when nothing else in the answer decides — the job finished `done-with-errors`
 * and the plot carries no status, no visualisation list tells it apart, and its analysis
 * names no job — so at most one request per plot of the job, a few at a time. A lookup
 * that fails leaves that plot's outcome unknown (with the reason); it never fails the
 * results of the other plots.
 */
import type { IDataObject } from 'n8n-workflow';

import { str } from '../values/answerValues';
import { plotsOfRows } from '../results/flatten';
import { needsRunLookup } from '../results/plotOutcome';
import type { RunEvidence } from '../results/analysisRuns';
import { runEvidence, runsFromResponse } from '../results/analysisRuns';
import { runPool } from '../runner/pool';
import type { ServiceContext } from '../transport/serviceContext';
import { apiRequest } from '../transport/request';

/** Lookups in flight at once. */
const RUN_LOOKUP_CONCURRENCY = 4;

/** The plot ids of `job` whose outcome only their analysis runs can tell. */
export function plotsNeedingRunLookup(job: IDataObject): string[] {
	const ids: string[] = [];
	for (const plot of plotsOfRows(job)) {
		const id = str(plot.plot_id);
		if (id !== null && !ids.includes(id) && needsRunLookup(plot, job)) ids.push(id);
	}
	return ids;
}

/**
 * What the analysis runs of `job` say about each plot whose outcome is otherwise unknown
 * (plot id → evidence); empty when every outcome is already decided.
 */
export async function lookUpPlotRuns(
	ctx: ServiceContext,
	job: IDataObject,
	itemIndex?: number,
): Promise<Map<string, RunEvidence>> {
	const jobId = str(job.job_id);
	const ids = jobId === null ? [] : plotsNeedingRunLookup(job);
	const found = new Map<string, RunEvidence>();
	if (jobId === null || ids.length === 0) return found;
	const { results } = await runPool(ids, RUN_LOOKUP_CONCURRENCY, async (plotId) => {
		const body = await apiRequest.call(ctx, 'GET', '/analysis-runs', {
			qs: { plot_id: plotId },
			...(itemIndex !== undefined ? { itemIndex } : {}),
		});
		return runEvidence(runsFromResponse(body), jobId);
	});
	results.forEach((result, i) => {
		if (result.status === 'fulfilled') found.set(ids[i], result.value);
		else if (result.status === 'rejected')
			found.set(ids[i], {
				kind: 'none',
				reason: `its analysis runs could not be read (${messageOf(result.reason)})`,
			});
	});
	return found;
}

function messageOf(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.length > 200 ? `${message.slice(0, 197)}…` : message;
}

/**
 * What the trigger emits: the items of a completed job in the chosen output shape, and the
 * manual test ("test step"), which emits the most recently completed matching job without
 * touching the tracker's state.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchJob } from '../shared/jobs/fetchJob';
import type { OutputOptions } from '../shared/jobs/jobOutput';
import { jobOutput } from '../shared/jobs/jobOutput';
import { catalogResultKeys } from '../shared/jobs/resultKeys';
import { isFinalStatus } from '../shared/results/flatten';
import { paginate } from '../shared/transport/paginate';
import { MAX_SKEW_MS } from './completionTracker';
import { checkListing, observe } from './triggerRequests';
import type { TriggerParams } from './triggerParams';
import { matches } from './triggerParams';

/** Jobs scanned in manual mode (one page) to find the most recently completed one. */
const MANUAL_SCAN = 1000;

/**
 * The items for one completed job, in the chosen output shape. Job With Plots and
 * Per-Plot Results are made by the same code as the action node's Job → Get Results and
 * Wait for Completion (jobOutput), so the same job gives the same items.
 */
export async function itemsFor(
	this: IPollFunctions,
	job: IDataObject,
	full: IDataObject | undefined,
	params: TriggerParams,
): Promise<INodeExecutionData[]> {
	if (params.output === 'job') {
		const json = { ...(full ?? job) };
		delete json.plots;
		return [{ json }];
	}
	const detail = full ?? (await fetchJob(this, String(job.job_id)));
	const options: OutputOptions = {
		output: params.output === 'perPlot' ? 'perPlot' : 'job',
		simplify: params.simplify,
		downloadImages: false,
		binaryPropertyName: 'data',
	};
	if (params.output === 'perPlot') params.resultKeys ??= await catalogResultKeys(this);
	return await jobOutput(this, detail, options, params.resultKeys ?? {});
}

/** The items of the jobs that completed and match, in completion order. */
export async function completedItems(
	this: IPollFunctions,
	completed: Array<{ id: string }>,
	jobs: { listed: Map<string, IDataObject>; rechecked: Map<string, IDataObject> },
	params: TriggerParams,
): Promise<INodeExecutionData[]> {
	const items: INodeExecutionData[] = [];
	for (const done of completed) {
		const full = jobs.rechecked.get(done.id);
		const job = full ?? jobs.listed.get(done.id);
		if (!job || !matches(job, params)) continue;
		items.push(...(await itemsFor.call(this, job, full, params)));
	}
	return items;
}

export async function manualPoll(
	this: IPollFunctions,
	params: TriggerParams,
): Promise<INodeExecutionData[][]> {
	const jobs = checkListing(
		this,
		(await paginate.call(this, '/jobs', 'jobs', {
			limit: MANUAL_SCAN,
		})) as unknown[],
	);
	let latest: { job: IDataObject; at: number } | undefined;
	// A time beyond the skew says nothing about when a job finished: such jobs rank last.
	const latestBelievable = Date.now() + MAX_SKEW_MS;
	for (const job of jobs) {
		if (!isFinalStatus(job.status) || !matches(job, params)) continue;
		const seen = observe(job);
		if (!seen) continue;
		const time = seen.updatedMs ?? seen.createdMs;
		const at = time <= latestBelievable ? time : -Infinity;
		if (!latest || at > latest.at) latest = { job, at };
	}
	if (!latest) {
		const which = params.statuses.map((s) => `"${s}"`).join(' or ');
		throw new NodeOperationError(
			this.getNode(),
			`No finished job found: none of the latest ${MANUAL_SCAN} jobs of this account has status ${which}${
				params.jobName ? ` and a name containing "${params.jobName}"` : ''
			}`,
			{
				description:
					'Create a job with the Geospatial Analysis node (Job → Create), wait until it is done, then test this trigger again. Check "Trigger On" and "Job Name Contains" too.',
			},
		);
	}
	return [await itemsFor.call(this, latest.job, undefined, params)];
}

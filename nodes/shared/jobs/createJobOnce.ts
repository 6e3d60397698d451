/**
 * Job → Create, exactly once. A job costs tokens: after a make_job whose answer was lost
 * although it may have been carried out (`mayHaveArrived`), the node looks for the job it
 * may have created (same `job_name` — the node names unnamed jobs `n8n <time> <random>` so
 * that they can be found — and the same plot ids, created since just before the request
 * minus the Recovery Window) before saying anything or sending again:
 * - found once: returned, marked `recovered_after_connection_error`;
 * - certainly not there (looked twice, a short pause apart): sent again, once;
 * - the lookup fails, or several jobs match: an error that says a job may exist, its name,
 *   and how to find it (Job → Get Many, Created After …) — never just "try again".
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Timing } from '../time/sleep';
import { systemTiming } from '../time/sleep';
import { lostAnswerReason } from '../transport/lostAnswer';
import { serviceTimestamp } from '../time/serviceTime';
import { isObject } from '../values/answerValues';
import { serviceErrorOf } from '../transport/serviceFailure';
import { listCreatedSince } from '../transport/createdSince';
import { apiRequest } from '../transport/request';

/** Most jobs one lookup reads (newest first). */
export const JOB_LOOKUP_LIMIT = 2000;
/** Pause before looking again for a job the first lookup did not find. */
export const JOB_SETTLE_MS = 2000;

function sortedIds(value: unknown): string {
	return Array.isArray(value) ? value.map(String).sort().join(',') : '';
}

const squash = (v: unknown) => (typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') : undefined);

/**
 * The listed jobs that are the job `body` creates: same name and same plots (in any order);
 * notes and additional info, where the listing shows them, must agree too.
 */
export function jobsMatchingBody(body: IDataObject, jobs: readonly IDataObject[]): IDataObject[] {
	const wanted = sortedIds(body.plot_ids);
	return jobs.filter((job) => {
		if (squash(job.job_name) !== squash(body.job_name)) return false;
		if (sortedIds(job.plot_ids) !== wanted) return false;
		if (squash(body.notes) !== undefined && squash(job.notes) !== undefined)
			if (squash(job.notes) !== squash(body.notes)) return false;
		if (isObject(body.additional_info) && isObject(job.additional_info))
			for (const [key, value] of Object.entries(body.additional_info))
				if (
					Object.prototype.hasOwnProperty.call(job.additional_info, key) &&
					JSON.stringify(job.additional_info[key]) !== JSON.stringify(value)
				)
					return false;
		return true;
	});
}

function plotSummary(body: IDataObject): string {
	const ids = Array.isArray(body.plot_ids) ? body.plot_ids.map(String) : [];
	const shown = ids.slice(0, 10).join(', ');
	return ids.length > 10 ? `${shown} … (${ids.length} plots)` : shown;
}

function findAdvice(body: IDataObject, createdAfter: string): string {
	return `Do not simply run again, or the analysis may be created and paid twice: open Job → Get Many with Filters → Created After = ${createdAfter} (UTC) and look for the job named "${String(body.job_name)}" (plots ${plotSummary(body)}). If it is there, use its job_id (e.g. with Job → Wait for Completion); if it is not, run again.`;
}

async function lookUpJobs(
	ctx: IExecuteFunctions,
	body: IDataObject,
	since: number,
): Promise<IDataObject[]> {
	const listed = await listCreatedSince(ctx, '/jobs', 'jobs', since, { limit: JOB_LOOKUP_LIMIT });
	const found = jobsMatchingBody(body, listed.records as IDataObject[]);
	// A cut listing cannot say the job is not there.
	if (found.length === 0 && !listed.complete)
		throw new Error(
			`more than ${JOB_LOOKUP_LIMIT} jobs were created since ${serviceTimestamp(since)} (UTC), too many to look through`,
		);
	return found;
}

export interface CreateJobOptions {
	/** How far before the request (ms) a job it created is looked for (clock skew included). */
	windowMs: number;
	itemIndex: number;
	timing?: Timing;
}

/**
 * POST /jobs/make_job exactly once (see the module comment). Failures that certainly were
 * not carried out are thrown as the transport made them (read them with serviceErrorOf).
 */
export async function createJobExactlyOnce(
	ctx: IExecuteFunctions,
	body: IDataObject,
	options: CreateJobOptions,
): Promise<IDataObject> {
	const timing = options.timing ?? systemTiming;
	const { itemIndex } = options;
	for (let round = 1; ; round++) {
		const sentAt = timing.now();
		let error: unknown;
		try {
			return (await apiRequest.call(ctx, 'POST', '/jobs/make_job', {
				body,
				itemIndex,
				idempotent: false,
			})) as IDataObject;
		} catch (caught) {
			error = caught;
		}
		const failure = serviceErrorOf(error);
		if (!failure.mayHaveArrived) {
			if (round > 1) {
				const e = error as { description?: string | null };
				e.description =
					`${e.description ?? ''} The answer to the first request was lost and no job named "${String(body.job_name)}" was found afterwards, so it was sent again; that second request failed: no job was created.`.trim();
			}
			throw error;
		}
		const since = sentAt - options.windowMs;
		const createdAfter = serviceTimestamp(since);
		let found: IDataObject[];
		try {
			found = await lookUpJobs(ctx, body, since);
			if (found.length === 0) {
				// The service may still be working on it: look once more before sending again.
				await timing.sleep(JOB_SETTLE_MS, ctx.getExecutionCancelSignal?.());
				found = await lookUpJobs(ctx, body, since);
			}
		} catch (lookupError) {
			const reason = ((lookupError as Error)?.message ?? String(lookupError)).replace(/\.+$/, '');
			throw new NodeOperationError(
				ctx.getNode(),
				`A job named "${String(body.job_name)}" may have been created: the answer to the create request was lost, and looking for the job failed too`,
				{
					itemIndex,
					description: `The request may have reached the service: ${lostAnswerReason(failure)}. Looking for the job among the jobs created since ${createdAfter} (UTC) failed: ${reason}. ${findAdvice(body, createdAfter)}`,
				},
			);
		}
		if (found.length === 1) return { ...found[0], recovered_after_connection_error: true };
		if (found.length > 1) {
			const ids = found.map((j) => String(j.job_id)).join(', ');
			throw new NodeOperationError(
				ctx.getNode(),
				`Jobs ${ids} are all named "${String(body.job_name)}" with the same plots: the one this run created cannot be told apart`,
				{
					itemIndex,
					description: `The answer to the create request was lost (${lostAnswerReason(failure)}), and ${found.length} matching jobs were created since ${createdAfter} (UTC). Check them with Job → Get Many (Filters → Created After = ${createdAfter}) and use the right job_id; do not run again, or the analysis will be created and paid once more. Give each job its own Job Name to avoid this.`,
				},
			);
		}
		if (round > 1)
			throw new NodeOperationError(
				ctx.getNode(),
				`No job was created: the answers to two create requests were lost, and the service shows no job named "${String(body.job_name)}"`,
				{
					itemIndex,
					description: `Looked up after each: no job with this name and these plots was created since ${createdAfter} (UTC), so nothing was created or charged (the last failure: ${lostAnswerReason(failure)}). Run again later.`,
				},
			);
		// Certainly not there: sent again, once (the loop's second round).
	}
}

/**
 * The trigger's requests (the node makes them, the tracker plans them): the listing of jobs by
 * creation time and the single-job rechecks, each read into observations for the tracker and
 * the job objects for the output. Every answer is checked before anything is used: an entry
 * that is not a job stops the poll with an error (its state unchanged, so nothing is lost).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchJob } from '../shared/jobs/fetchJob';
import { asNodeError } from '../shared/runner/errorItems';
import { parseServiceTimestamp } from '../shared/time/serviceTime';
import { isObject } from '../shared/values/answerValues';
import { listCreatedSince } from '../shared/transport/createdSince';
import { itemGone, serviceErrorOf } from '../shared/transport/serviceFailure';
import { PaginationError } from '../shared/transport/paginate';
import type { JobObservation } from './completionTracker';

/**
 * Most pages one poll reads (each of up to 1,000 jobs): 100,000 jobs created within the
 * listing window, which is the overlap window once caught up and the watch period at most
 * after activation. More than that is not a listing the trigger can follow.
 */
export const MAX_LISTING_PAGES = 100;

/** What a request said about jobs: observations for the tracker, job objects for the output. */
export interface JobAnswers<O> {
	observed: O;
	jobs: Map<string, IDataObject>;
}

/**
 * A job id for logs: as it is, or its start and length when it is long (an id may be any
 * text the service sends; the log must stay readable and bounded).
 */
export function loggedId(id: string): string {
	return id.length <= 80 ? id : `${id.slice(0, 40)}… (${id.length} characters)`;
}

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 40))}`;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return typeof value;
}

/**
 * Entries of GET /jobs that are not job objects (`{"jobs":[null,5]}`) stop the poll with an
 * error naming the request. Skipping them is not safe for a trigger that fires each job once:
 * such an entry may stand for a job the poll cannot identify, and a state that moved on past
 * it could miss that job for good. Stopping keeps the state as it was, so once the service
 * answers properly nothing is lost. (A job object without a usable id or creation time is
 * skipped with a warning, as before: it cannot be watched.)
 */
export function checkListing(ctx: IPollFunctions, jobs: unknown[]): IDataObject[] {
	const bad: string[] = [];
	jobs.forEach((job, i) => {
		if (!isObject(job)) bad.push(`entry ${i + 1}: ${describeValue(job)}`);
	});
	if (bad.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service answered GET /jobs with ${bad.length} ${bad.length === 1 ? 'entry' : 'entries'} in "jobs" that ${bad.length === 1 ? 'is' : 'are'} not a job (${bad.slice(0, 5).join('; ')}${bad.length > 5 ? '; …' : ''})`,
			{
				description:
					'Each entry of the job listing must be a job object. The trigger emitted nothing and kept its state, so no job is lost or fired twice; the next poll tries again. If it persists, report it to the service (its job listing is malformed).',
			},
		);
	}
	return jobs as IDataObject[];
}

/** What a job object says for the tracker, or undefined without a usable id or creation time. */
export function observe(job: IDataObject): JobObservation | undefined {
	const id = job.job_id;
	const createdMs = parseServiceTimestamp(job.created_at);
	if ((typeof id !== 'string' && typeof id !== 'number') || createdMs === undefined)
		return undefined;
	return {
		id: String(id),
		createdMs,
		updatedMs: parseServiceTimestamp(job.updated_at) ?? null,
		status: typeof job.status === 'string' ? job.status.trim().toLowerCase() : '',
	};
}

/**
 * Every job created at or after `fromMs` (`listCreatedSince`), newest first, page by page.
 * Bounded, so that no answer of the service makes a poll loop: it stops with an error on a
 * cursor sent before (A, B, A …), on `has_more: true` without a cursor, on an empty page that
 * says more follow, on an answer without the `jobs` list, and after MAX_LISTING_PAGES pages.
 * Stopping with an error (rather than using what was read) keeps the trigger's state as it
 * was: the listing is newest first, so a cut-off listing would lack the oldest jobs of the
 * window, and a state built on it could skip them for good. The next poll tries again.
 * `unusable` counts job objects without a usable id or creation time (skipped).
 */
export async function listJobs(
	ctx: IPollFunctions,
	fromMs: number,
	maxPages = MAX_LISTING_PAGES,
): Promise<JobAnswers<JobObservation[]> & { unusable: number }> {
	let records: unknown[];
	try {
		({ records } = await listCreatedSince(ctx, '/jobs', 'jobs', fromMs, { maxPages }));
	} catch (error) {
		if (!(error instanceof PaginationError)) throw asNodeError(ctx, error);
		const tooMany = /more pages follow after/.test(error.message);
		throw new NodeOperationError(ctx.getNode(), error.message, {
			description: `The trigger stopped after ${error.page} request${error.page === 1 ? '' : 's'} (${error.recordsRead} jobs read) and emitted nothing, rather than loop or miss jobs; its state is unchanged, so the next poll tries again and nothing is lost. ${
				tooMany
					? 'Lower "Watch Unfinished Jobs For (Days)" (the first poll lists the jobs created within it), or report it to the service if the account does not have that many jobs.'
					: 'If it persists, report it to the service (the listing of jobs misbehaves).'
			}`,
		});
	}
	const answers = { observed: [] as JobObservation[], jobs: new Map<string, IDataObject>() };
	let unusable = 0;
	for (const job of checkListing(ctx, records)) {
		const seen = observe(job);
		if (!seen) unusable++;
		else {
			answers.observed.push(seen);
			answers.jobs.set(seen.id, job);
		}
	}
	return { ...answers, unusable };
}

/** The job no longer exists, or belongs to another account than the credential's now. */
function isGone(error: unknown): boolean {
	return itemGone(serviceErrorOf(error));
}

/** One `GET /jobs/job/{id}` per watched job the listing did not cover (null: gone). */
export async function recheckJobs(
	ctx: IPollFunctions,
	ids: string[],
): Promise<JobAnswers<Map<string, JobObservation | null>>> {
	const answers = { observed: new Map<string, JobObservation | null>(), jobs: new Map() };
	for (const id of ids) {
		let job: unknown;
		try {
			job = await fetchJob(ctx, id);
		} catch (error) {
			if (!isGone(error)) throw asNodeError(ctx, error);
			answers.observed.set(id, null);
			continue;
		}
		if (!isObject(job)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The service answered GET /jobs/job/${loggedId(id)} with ${describeValue(job)}, not a job`,
				{
					description:
						'The trigger emitted nothing and kept its state, so no job is lost or fired twice; the next poll tries again. If it persists, report it to the service.',
				},
			);
		}
		const seen = observe(job);
		answers.observed.set(id, seen ? { ...seen, id } : null);
		if (seen) answers.jobs.set(id, job);
	}
	return answers;
}

/**
 * Analysis runs as evidence of what a job did to a plot. Pure: no n8n runtime imports.
 *
 * The contract shows neither the body of `GET /analysis-runs?plot_id=` nor a run's field
 * names ("not shown"), so the readers accept the names the service is known to use plus
 * obvious alternatives and never fail on an unexpected shape.
 */
import { isObject, str } from '../values/answerValues';
import { errorText } from './overlapResults';

type Json = Record<string, unknown>;

/** Keys under which a list of runs may be wrapped. */
const LIST_KEYS = ['runs', 'analysis_runs', 'analysisRuns', 'items', 'data', 'results'];

/**
 * The runs in a `GET /analysis-runs?plot_id=` answer: a bare array, or an object holding
 * the array under `runs` (or a similar key). Entries that are not objects are wrapped
 * as `{ value }` so nothing is silently lost.
 */
export function runsFromResponse(body: unknown): Json[] {
	let list: unknown[] = [];
	if (Array.isArray(body)) list = body;
	else if (isObject(body)) {
		const key = LIST_KEYS.find((k) => Array.isArray(body[k]));
		if (key) list = body[key] as unknown[];
	}
	return list.map((entry) => (isObject(entry) ? entry : { value: entry }));
}

/** What the runs of one job say about one plot. */
export type RunEvidence =
	| { kind: 'failed'; reason: string }
	| { kind: 'completed' }
	| { kind: 'none'; reason: string };

const FAILED = /^(failed|failure|error|errored|cancell?ed|aborted)$/i;
const COMPLETED = /^(completed|complete|done|succeeded|success|successful|finished|ok)$/i;

function first(run: Json, keys: string[]): unknown {
	for (const key of keys) if (run[key] !== undefined && run[key] !== null) return run[key];
	return undefined;
}

/**
 * The verdict of the runs of job `jobId` (runs of other jobs, and runs that do not say
 * which job they belong to, are ignored): `failed` when one of them failed (with its
 * error), `completed` when all of them completed, otherwise `none` with the reason.
 */
export function runEvidence(runs: readonly Json[], jobId: string): RunEvidence {
	const mine = runs.filter((r) => str(first(r, ['job_id', 'jobId'])) === jobId);
	if (mine.length === 0)
		return { kind: 'none', reason: `the service lists no analysis run of job ${jobId} for it` };
	const statusOf = (r: Json) => (str(first(r, ['status', 'state'])) ?? '').trim();
	const failed = mine.find((r) => FAILED.test(statusOf(r)));
	if (failed) {
		const check = str(first(failed, ['check_type', 'type', 'checkType', 'capability']));
		const error = errorText(first(failed, ['error', 'error_message', 'message']));
		const run = `its ${check ? `${check} ` : ''}analysis run of this job failed`;
		return { kind: 'failed', reason: error ? `${error} (${run})` : `${run} (no reason given)` };
	}
	if (mine.every((r) => COMPLETED.test(statusOf(r)))) return { kind: 'completed' };
	const states = [...new Set(mine.map((r) => statusOf(r) || 'no status'))].join(', ');
	return {
		kind: 'none',
		reason: `its analysis runs of job ${jobId} are neither completed nor failed (${states})`,
	};
}

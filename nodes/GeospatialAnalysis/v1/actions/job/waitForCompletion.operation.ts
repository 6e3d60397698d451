import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { systemTiming } from '../../../../shared/time/sleep';
import type { JobWait, WaitForJobsResult } from '../../../../shared/jobs/waitForJobs';
import { CHECK_GRACE_MS, waitForJobs } from '../../../../shared/jobs/waitForJobs';
import {
	DEFAULT_FIRST_DELAY_MS,
	DEFAULT_POLL_CAP_MS,
	MAX_MAX_WAIT_MS,
	maxWaitMessage,
} from '../../../../shared/jobs/waitScheduler';
import type { BatchOutput, Problems, Ready } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { readNumber } from '../../../../shared/input';
import type { OutputOptions } from '../../../../shared/jobs/jobOutput';
import { fetchJob } from '../../../../shared/jobs/fetchJob';
import { jobOutput } from '../../../../shared/jobs/jobOutput';
import { catalogResultKeys } from '../../../../shared/jobs/resultKeys';
import { jobRowWithoutPlots } from '../../../../shared/results/flatten';
import { jobIdsField, outputFields, readJobIds, readOutputOptions } from './resultOptions';

const displayOptions = { show: { resource: ['job'], operation: ['waitForCompletion'] } };

export const description = updateDisplayOptions(displayOptions, [
	jobIdsField(
		'jobIds',
		'Jobs to wait for: a list or comma-separated IDs, by default the job_id of each input item (e.g. after Job → Create). All jobs of the execution are polled together. Polling is free of tokens.',
	),
	{
		displayName: 'Max Wait (Minutes)',
		name: 'maxWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: 1440 },
		default: 4,
		description:
			'How long to wait at most (up to 24 hours). The default, 4 minutes, fits the shortest n8n Cloud execution limit (5 minutes for the whole workflow). The worker stays busy while waiting; for longer jobs set On Timeout to Output Current Status and loop through an n8n Wait node, or use the Geospatial Analysis Trigger.',
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		options: [
			{
				name: 'Fail',
				value: 'fail',
				description: 'Stop with an error naming the jobs still running and their status',
			},
			{
				name: 'Output Current Status',
				value: 'output',
				description:
					'Output unfinished jobs as they are (with timed_out: true), so a following IF can loop back through a Wait node',
			},
		],
		default: 'fail',
		description: 'What to do with jobs that have not finished when Max Wait runs out',
	},
	...outputFields('job'),
	optionsCollection([
		{
			displayName: 'First Check After (Seconds)',
			name: 'firstCheckAfter',
			type: 'number',
			typeOptions: { minValue: 0.1 },
			default: 2,
			description: 'Delay before the first status check; later checks back off exponentially',
		},
		{
			displayName: 'Max Poll Interval (Seconds)',
			name: 'pollIntervalCap',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 30,
			description:
				'Longest pause between two status checks (exponential backoff with jitter up to this cap)',
		},
	]),
]);

/** The message of a failed status check, without a closing period. */
function checkErrorText(error: unknown): string {
	const message = (error as { message?: unknown })?.message;
	return (typeof message === 'string' ? message : String(error)).replace(/\.$/, '');
}

/** What the output says of a job still running at Max Wait. */
function timedOutFields(t: JobWait<IDataObject>): IDataObject {
	const fields: IDataObject = { timed_out: true };
	if (t.lastCheckError !== undefined) fields.last_check_error = checkErrorText(t.lastCheckError);
	return fields;
}

/** "The last status check of job 7001 failed: …. " for jobs whose last check failed. */
function lastCheckFailures(jobs: Array<JobWait<IDataObject>>): string {
	return jobs
		.filter((t) => t.lastCheckError !== undefined)
		.map(
			(t) =>
				`The last status check of job ${t.jobId} failed: ${checkErrorText(t.lastCheckError)}. `,
		)
		.join('');
}

/** "; the last status check failed: …" when the last check of a job still running failed. */
function lastErrorNote(jobs: Array<JobWait<IDataObject>>): string {
	const failed = jobs.find((t) => t.lastCheckError !== undefined);
	if (!failed) return '';
	const text = checkErrorText(failed.lastCheckError);
	return `; the last status check${jobs.length > 1 ? ` (job ${failed.jobId})` : ''} failed: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}`;
}

function cancelled(ctx: IExecuteFunctions): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'Waiting for the jobs was cancelled', {
		description:
			'The execution was stopped. The jobs keep running on the service; check them with Job → Get.',
	});
}

interface WaitSettings {
	maxWaitMs: number;
	schedule: { firstDelayMs: number; capMs: number };
	onTimeout: 'fail' | 'output';
	output: OutputOptions;
}

interface WaitItem {
	jobIds: string[];
	settings: WaitSettings;
}

/** One item's job ids and wait settings (the first item's settings apply to the one loop). */
function readWaitItem(ctx: IExecuteFunctions, i: number, problems: Problems): WaitItem {
	const jobIds = readJobIds(ctx, i, 'jobIds', problems);
	const maxWaitMinutes =
		problems.take(
			'Max Wait (Minutes)',
			readNumber(ctx.getNodeParameter('maxWaitMinutes', i, 10), {
				min: 0.1,
				max: MAX_MAX_WAIT_MS / 60_000,
				label:
					'minutes to wait (at most 1440, 24 hours; for longer jobs loop through an n8n Wait node or use the trigger)',
			}),
		) ?? 10;
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const firstCheckAfter =
		problems.take(
			'First Check After (Seconds)',
			readNumber(options.firstCheckAfter, {
				min: 0.1,
				label: 'the seconds before the first status check',
			}),
		) ?? DEFAULT_FIRST_DELAY_MS / 1000;
	const pollIntervalCap =
		problems.take(
			'Max Poll Interval (Seconds)',
			readNumber(options.pollIntervalCap, {
				min: 1,
				max: 3600,
				label: 'the longest pause between two status checks in seconds',
			}),
		) ?? DEFAULT_POLL_CAP_MS / 1000;
	const firstDelayMs = firstCheckAfter * 1000;
	// a cap below the first delay would shorten the first wait: the cap is at least the first delay
	const capMs = Math.max(firstDelayMs, pollIntervalCap * 1000);
	return {
		jobIds,
		settings: {
			maxWaitMs: maxWaitMinutes * 60_000,
			schedule: { firstDelayMs, capMs },
			onTimeout: ctx.getNodeParameter('onTimeout', i, 'fail') === 'output' ? 'output' : 'fail',
			output: readOutputOptions(ctx, i, problems),
		},
	};
}

export const execute: OperationModule['execute'] = async function (items) {
	// One loop for all jobs of the execution: one batch for all items.
	return await runItems<WaitItem>(this, items, {
		prepare: (i, problems) => readWaitItem(this, i, problems),
		plan: (ready) =>
			ready.length === 0
				? []
				: [{ items: ready.map((r) => r.itemIndex), send: async () => await waitFor(this, ready) }],
	});
};

/** Why the plots of a job are not known, for its one per-plot row. */
function unknownPlotsReason(t: JobWait<IDataObject>): string {
	if (t.job !== undefined) return "the job's answer names no plots";
	if (t.lastCheckError !== undefined)
		return `the status of the job was never read: no status check of it answered${t.timedOut ? ' within Max Wait' : ''} (the last one failed, see last_check_error), so its plots are not known`;
	return 'the status of the job was never read: Max Wait ran out before a status check of it could be made, so its plots are not known';
}

/**
 * The one per-plot row of a job without plot rows (its status never read, or no plots named),
 * so that it never vanishes from the output: job_id, job_status (null when never read), the
 * plot and result columns null with the reason, and timed_out / last_check_error as known.
 */
function rowWithoutPlots(
	t: JobWait<IDataObject>,
	output: OutputOptions,
	resultKeys: Record<string, string>,
): IDataObject {
	const row = jobRowWithoutPlots(t.job ?? { job_id: t.jobId }, unknownPlotsReason(t), {
		simplify: output.simplify,
		resultKeys,
		decisionFirst: output.decisionFirst,
	});
	if (!t.timedOut) return row;
	return {
		...row,
		...timedOutFields(t),
		last_check_error: timedOutFields(t).last_check_error ?? null,
	};
}

/** A request is not started with less time left than this: it could not get an answer. */
const MIN_REQUEST_MS = 250;

/**
 * The catalog's result keys for per-plot rows, read within what is left of Max Wait (plus
 * the grace of the last status check), so that Max Wait stays a bound on the whole node.
 * With no time left, or no answer in time, the default result keys apply (catalogResultKeys).
 */
async function resultKeysWithin(
	ctx: IExecuteFunctions,
	hardEnd: number,
): Promise<Record<string, string>> {
	const left = hardEnd - systemTiming.now();
	return left < MIN_REQUEST_MS ? {} : await catalogResultKeys(ctx, left);
}

/** Polls every job of the items until each has finished or Max Wait has run out. */
async function waitFor(
	ctx: IExecuteFunctions,
	ready: Array<Ready<WaitItem>>,
): Promise<BatchOutput[]> {
	const { itemIndex: first, value } = ready[0];
	const { settings } = value;
	const signal = ctx.getExecutionCancelSignal?.();
	// Max Wait bounds the whole node: the wait, then the catalog read for per-plot rows.
	const hardEnd = systemTiming.now() + settings.maxWaitMs + CHECK_GRACE_MS;
	let waited: WaitForJobsResult<IDataObject>;
	try {
		waited = await waitForJobs({
			jobIds: ready.flatMap((r) => r.value.jobIds),
			// The loop owns retries and their timing: the transport must not sleep on its own.
			// Each check ends within what is left of Max Wait.
			fetchJob: async (id, timeoutMs) =>
				await fetchJob(ctx, id, first, { maxAttempts: 1 }, timeoutMs),
			schedule: settings.schedule,
			maxWaitMs: settings.maxWaitMs,
			timing: systemTiming,
			signal,
		});
	} catch (error) {
		if (signal?.aborted) throw cancelled(ctx);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	if (waited.cancelled) throw cancelled(ctx);
	const tracked = waited.jobs;
	const stillRunning = [...tracked.values()].filter((t) => t.timedOut);
	const timeout =
		stillRunning.length > 0 && settings.onTimeout === 'fail'
			? new NodeOperationError(
					ctx.getNode(),
					`${maxWaitMessage(
						stillRunning.map((t) => ({ job_id: t.jobId, status: t.status })),
						settings.maxWaitMs,
					)}${lastErrorNote(stillRunning)}`,
					{
						description: `${lastCheckFailures(stillRunning)}The jobs keep running on the service. Raise Max Wait, set On Timeout to "Output Current Status" and loop through an n8n Wait node, or use the Geospatial Analysis Trigger.`,
					},
				)
			: undefined;
	const running = new Set(stillRunning.map((t) => t.jobId));
	// The catalog only when some item gets rows (not after Max Wait failed them all).
	const rowsToMake = ready.some((r) => !(timeout && r.value.jobIds.some((id) => running.has(id))));
	const resultKeys =
		settings.output.output === 'perPlot' && rowsToMake ? await resultKeysWithin(ctx, hardEnd) : {};

	const outputs: BatchOutput[] = [];
	for (const { itemIndex, value: item } of ready) {
		if (timeout && item.jobIds.some((id) => running.has(id))) {
			outputs.push({ item: itemIndex, error: timeout });
			continue;
		}
		try {
			const produced: BatchOutput[] = [];
			for (const id of item.jobIds) {
				const t = tracked.get(id)!;
				if (t.error !== undefined) throw t.error;
				const job = t.job ?? { job_id: id, status: t.status };
				const extra: IDataObject = t.timedOut ? timedOutFields(t) : {};
				const made = await jobOutput(ctx, job, settings.output, resultKeys, extra);
				// A job without plot rows (never read, or no plots named) is one row saying so.
				if (made.length === 0 && settings.output.output === 'perPlot')
					produced.push({ item: itemIndex, json: rowWithoutPlots(t, settings.output, resultKeys) });
				produced.push(...made.map(({ json, binary }) => ({ item: itemIndex, json, binary })));
			}
			outputs.push(...produced);
		} catch (error) {
			outputs.push({ item: itemIndex, error });
		}
	}
	return outputs;
}

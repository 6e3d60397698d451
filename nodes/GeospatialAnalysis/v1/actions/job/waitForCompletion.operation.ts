import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { systemTiming } from '../../../../shared/helpers/sleep';
import type { JobWait, WaitForJobsResult } from '../../../../shared/jobs/waitForJobs';
import { waitForJobs } from '../../../../shared/jobs/waitForJobs';
import {
	DEFAULT_FIRST_DELAY_MS,
	DEFAULT_POLL_CAP_MS,
	MAX_MAX_WAIT_MS,
	maxWaitMessage,
} from '../../../../shared/jobs/waitScheduler';
import { asNodeError, errorItem } from '../../../../shared/helpers/items';
import { InputProblems, problemsOf } from '../../../../shared/runner/preflight';
import {
	catalogResultKeys,
	fetchJob,
	jobOutput,
	outputFields,
	readJobIds,
	readOutputOptions,
} from './common';

const show = { resource: ['job'], operation: ['waitForCompletion'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Job IDs',
		name: 'jobIds',
		type: 'string',
		required: true,
		default: '={{ $json.job_id }}',
		displayOptions: { show },
		description:
			'Jobs to wait for: a list or comma-separated IDs, by default the job_id of each input item (e.g. after Job → Create). All jobs of the execution are polled together. Polling is free of tokens.',
	},
	{
		displayName: 'Max Wait (Minutes)',
		name: 'maxWaitMinutes',
		type: 'number',
		typeOptions: { minValue: 0.1, maxValue: 1440, numberPrecision: 1 },
		default: 10,
		displayOptions: { show },
		description:
			'How long to wait at most (up to 24 hours). The worker stays busy while waiting; for longer jobs loop through an n8n Wait node or use the Geospatial Analysis Trigger.',
	},
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		displayOptions: { show },
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
	...outputFields('waitForCompletion', 'job'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'First Check After (Seconds)',
				name: 'firstCheckAfter',
				type: 'number',
				typeOptions: { minValue: 0.1, numberPrecision: 1 },
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
		],
	},
];

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

function cancelled(ctx: IExecuteFunctions): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), 'Waiting for the jobs was cancelled', {
		description:
			'The execution was stopped. The jobs keep running on the service; check them with Job → Get.',
	});
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	const fail = (error: unknown, i: number) => {
		if (this.continueOnFail()) {
			out.push(errorItem(error, i));
			return;
		}
		throw asNodeError(this, error, i);
	};

	// Read everything before any request.
	const perItem: Array<{ itemIndex: number; jobIds: string[] }> = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const problems = problemsOf(i);
			const ids = readJobIds(this, i, 'jobIds', problems);
			if (problems.lines.length > 0) throw new InputProblems(problems.lines);
			perItem.push({ itemIndex: i, jobIds: ids });
		} catch (error) {
			fail(error, i);
		}
	}
	if (perItem.length === 0) return out;

	const first = perItem[0].itemIndex;
	const maxWaitMinutes = Number(this.getNodeParameter('maxWaitMinutes', first, 10));
	if (
		!Number.isFinite(maxWaitMinutes) ||
		maxWaitMinutes <= 0 ||
		maxWaitMinutes * 60_000 > MAX_MAX_WAIT_MS
	)
		throw new NodeOperationError(
			this.getNode(),
			`"Max Wait (Minutes)" must be above 0 and at most 1440 (24 hours), got ${maxWaitMinutes}`,
			{
				itemIndex: first,
				description:
					'Set Max Wait to at most 1440 minutes; for longer jobs loop through an n8n Wait node or use the trigger.',
			},
		);
	const options = this.getNodeParameter('options', first, {}) as IDataObject;
	const firstDelayMs = Math.max(
		100,
		Number(options.firstCheckAfter ?? DEFAULT_FIRST_DELAY_MS / 1000) * 1000,
	);
	const capMs = Math.max(
		firstDelayMs,
		Number(options.pollIntervalCap ?? DEFAULT_POLL_CAP_MS / 1000) * 1000,
	);
	const schedule = { firstDelayMs, capMs };
	const maxWaitMs = maxWaitMinutes * 60_000;
	const onTimeout =
		this.getNodeParameter('onTimeout', first, 'fail') === 'output' ? 'output' : 'fail';
	const outputOptions = readOutputOptions(this, first);

	// One loop for all jobs of the execution.
	const signal = this.getExecutionCancelSignal?.();
	let waited: WaitForJobsResult<IDataObject>;
	try {
		waited = await waitForJobs({
			jobIds: perItem.flatMap((p) => p.jobIds),
			// The loop owns retries and their timing: the transport must not sleep on its own.
			fetchJob: async (id) => await fetchJob(this, id, first, { maxAttempts: 1 }),
			schedule,
			maxWaitMs,
			timing: systemTiming,
			signal,
		});
	} catch (error) {
		if (signal?.aborted) throw cancelled(this);
		throw new NodeOperationError(this.getNode(), error as Error);
	}
	if (waited.cancelled) throw cancelled(this);
	const tracked = waited.jobs;

	const resultKeys = outputOptions.output === 'perPlot' ? await catalogResultKeys(this) : {};
	const stillRunning = [...tracked.values()].filter((t) => t.timedOut);
	if (stillRunning.length && onTimeout === 'fail') {
		const message = maxWaitMessage(
			stillRunning.map((t) => ({ job_id: t.jobId, status: t.status })),
			maxWaitMs,
		);
		const error = new NodeOperationError(this.getNode(), message, {
			description: `${lastCheckFailures(stillRunning)}The jobs keep running on the service. Raise Max Wait, set On Timeout to "Output Current Status" and loop through an n8n Wait node, or use the Geospatial Analysis Trigger.`,
		});
		const running = new Set(stillRunning.map((t) => t.jobId));
		if (!this.continueOnFail()) throw error;
		for (const { itemIndex, jobIds } of perItem) {
			if (jobIds.some((id) => running.has(id))) {
				out.push(errorItem(error, itemIndex));
				continue;
			}
			await emit.call(this, itemIndex, jobIds);
		}
		return out;
	}
	for (const { itemIndex, jobIds } of perItem) await emit.call(this, itemIndex, jobIds);
	return out;

	async function emit(this: IExecuteFunctions, itemIndex: number, jobIds: string[]) {
		try {
			const produced: INodeExecutionData[] = [];
			for (const id of jobIds) {
				const t = tracked.get(id)!;
				if (t.error !== undefined) throw t.error;
				const job = t.job ?? { job_id: id, status: t.status };
				const extra: IDataObject = t.timedOut ? timedOutFields(t) : {};
				produced.push(
					...(await jobOutput(this, job, outputOptions, { item: itemIndex }, resultKeys, extra)),
				);
			}
			out.push(...produced);
		} catch (error) {
			fail(error, itemIndex);
		}
	}
}

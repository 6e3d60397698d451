import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { sleepUnlessCancelled } from '../../../../shared/helpers/sleep';

import {
	DEFAULT_FIRST_DELAY_MS,
	DEFAULT_POLL_CAP_MS,
	MAX_MAX_WAIT_MS,
	isTransientPollError,
	maxRounds,
	maxWaitMessage,
	nextDelay,
	retryAfterFromError,
	waitTiming,
} from '../../../../shared/jobs/waitScheduler';
import { asNodeError, errorItem } from '../../../../shared/helpers/items';
import { isFinalStatus } from '../../../../shared/results/flatten';
import {
	catalogResultKeys,
	checkJobIds,
	fetchJob,
	jobOutput,
	outputFields,
	parseIdList,
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

interface Tracked {
	jobId: string;
	job?: IDataObject;
	status: string;
	done: boolean;
	error?: unknown;
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
	const tracked = new Map<string, Tracked>();
	for (let i = 0; i < items.length; i++) {
		try {
			const ids = parseIdList(this.getNodeParameter('jobIds', i, ''));
			checkJobIds(this, ids, i, 'Job IDs');
			perItem.push({ itemIndex: i, jobIds: ids });
			for (const id of ids)
				if (!tracked.has(id)) tracked.set(id, { jobId: id, status: 'unknown', done: false });
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

	const signal = this.getExecutionCancelSignal?.();
	const timing = waitTiming({
		now: Date.now,
		sleep: sleepUnlessCancelled,
		random: Math.random,
	});

	// One loop for all jobs of the execution.
	const deadline = timing.now() + maxWaitMs;
	const bound = maxRounds(maxWaitMs, schedule);
	let retryAfterMs: number | undefined;
	for (let round = 0; round < bound; round++) {
		const pending = [...tracked.values()].filter((t) => !t.done);
		if (pending.length === 0) break;
		const remaining = deadline - timing.now();
		if (remaining <= 0 && round > 0) break;
		const delay = Math.min(
			nextDelay(round, schedule, retryAfterMs, timing.random),
			Math.max(0, remaining),
		);
		retryAfterMs = undefined;
		if (signal?.aborted) throw cancelled(this);
		try {
			await timing.sleep(delay, signal);
		} catch (error) {
			if (signal?.aborted) throw cancelled(this);
			throw new NodeOperationError(this.getNode(), error as Error);
		}
		if (signal?.aborted) throw cancelled(this);
		for (const t of pending) {
			try {
				// The loop owns retries and their timing: the transport must not sleep on its own.
				const job = await fetchJob(this, t.jobId, first, { maxAttempts: 1 });
				t.job = job;
				t.status = typeof job.status === 'string' ? job.status : String(job.status ?? 'unknown');
				t.done = isFinalStatus(job.status);
			} catch (error) {
				const httpCode = error instanceof NodeApiError ? error.httpCode : undefined;
				if (!isTransientPollError(httpCode ?? 0)) {
					t.done = true;
					t.error = error;
					continue;
				}
				if (Number(httpCode) === 429) {
					retryAfterMs = retryAfterFromError(error) ?? capMs;
					break; // the rest of this round waits for the service's Retry-After
				}
			}
		}
		if (timing.now() >= deadline) break;
	}

	const resultKeys = outputOptions.output === 'perPlot' ? await catalogResultKeys(this) : {};
	const stillRunning = [...tracked.values()].filter((t) => !t.done);
	if (stillRunning.length && onTimeout === 'fail') {
		const message = maxWaitMessage(
			stillRunning.map((t) => ({ job_id: t.jobId, status: t.status })),
			maxWaitMs,
		);
		const error = new NodeOperationError(this.getNode(), message, {
			description:
				'The jobs keep running on the service. Raise Max Wait, set On Timeout to "Output Current Status" and loop through an n8n Wait node, or use the Geospatial Analysis Trigger.',
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
				if (t.error) throw t.error;
				const job = t.job ?? { job_id: id, status: t.status };
				const extra: IDataObject = t.done ? {} : { timed_out: true };
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

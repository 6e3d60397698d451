/**
 * The trigger's parameters, read once at the start of a poll: the statuses it fires on, the
 * output shape, the job-name filter and the tracker's settings (Look Back and Watch Period read
 * through the input layer with their ranges; the grace period from the poll schedule).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readText } from '../shared/input';
import { pollTimesOf, readPollOption } from '../shared/polling/pollOption';
import { isFinalStatus } from '../shared/results/flatten';
import type { TrackerSettings } from './completionTracker';
import { DEFAULT_SETTINGS } from './completionTracker';
import { firstPollGraceMs } from '../shared/polling/pollSchedule';

export type Output = 'job' | 'jobWithPlots' | 'perPlot';

export interface TriggerParams {
	statuses: string[];
	output: Output;
	simplify: boolean;
	jobName: string;
	settings: TrackerSettings;
	/** capability → result key from the live catalog (per-plot rows only), as Wait for Completion uses */
	resultKeys?: Record<string, string>;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function readParams(ctx: IPollFunctions): TriggerParams {
	const statuses = (ctx.getNodeParameter('statuses', []) as string[]).filter((s) =>
		isFinalStatus(s),
	);
	if (statuses.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No job status selected in "Trigger On"', {
			description:
				'Select Done, Done With Errors or both in "Trigger On" so that the trigger has something to react to.',
		});
	}
	const output = ctx.getNodeParameter('output', 'job') as Output;
	const simplify =
		output === 'perPlot' ? (ctx.getNodeParameter('simplify', true) as boolean) : false;
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const name = readText(options.jobName);
	if (name.kind === 'invalid')
		throw new NodeOperationError(ctx.getNode(), `Field "Job Name Contains": ${name.reason}`, {
			description: 'Enter the text the job names must contain, or leave it empty for every job.',
		});
	const jobName = name.kind === 'value' ? name.value : '';
	const lookBackHours = readPollOption(ctx, options, {
		name: 'lookBackHours',
		label: 'Look Back (Hours)',
		default: 0,
		rule: { min: 0 },
		hint: 'Enter 0 to skip jobs that finished before activation (except those within two poll intervals plus five minutes before it), or the number of hours to look back.',
	});
	const maxTrackingDays = readPollOption(ctx, options, {
		name: 'maxTrackingDays',
		label: 'Watch Unfinished Jobs For (Days)',
		default: DEFAULT_SETTINGS.maxAgeMs / DAY_MS,
		rule: { min: 0.01 },
		hint: 'Enter how many days after its creation a job may take to finish, for example 7.',
	});
	const maxAgeMs = maxTrackingDays * DAY_MS;
	const pollTimes = pollTimesOf(ctx);
	return {
		statuses,
		output,
		simplify,
		jobName,
		settings: {
			...DEFAULT_SETTINGS,
			lookBackMs: lookBackHours * HOUR_MS,
			maxAgeMs,
			graceMs: Math.min(firstPollGraceMs(pollTimes), maxAgeMs),
			isFinal: isFinalStatus,
		},
	};
}

/** Whether a finished job fires: one of the selected statuses, and the name filter. */
export function matches(job: IDataObject, params: TriggerParams): boolean {
	const status = typeof job.status === 'string' ? job.status.trim().toLowerCase() : '';
	if (!params.statuses.includes(status)) return false;
	if (params.jobName) {
		const name = typeof job.job_name === 'string' ? job.job_name : '';
		if (!name.toLowerCase().includes(params.jobName.toLowerCase())) return false;
	}
	return true;
}

import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/runner/errors';
import { fetchJob } from '../shared/jobs/fetch';
import type { OutputOptions } from '../shared/jobs/output';
import { jobOutput } from '../shared/jobs/output';
import { catalogResultKeys } from '../shared/jobs/resultKeys';
import { isFinalStatus } from '../shared/results/flatten';
import { authenticationProperty, credentialsDescription } from '../shared/transport/authentication';
import { serviceErrorOf } from '../shared/transport/failure';
import { paginate } from '../shared/transport/paginate';
import { openRunScope } from '../shared/transport/request';
import type { JobObservation, TrackerSettings } from './completionTracker';
import {
	advance,
	believableState,
	DEFAULT_SETTINGS,
	listFrom,
	MAX_SKEW_MS,
	parseServiceTime,
	pollStart,
	readState,
	storedState,
	toRecheck,
} from './completionTracker';
import { serviceIdentity } from './identity';
import { listJobsCreatedSince } from './listing';
import { firstPollGraceMs } from './schedule';

type Output = 'job' | 'jobWithPlots' | 'perPlot';

/** Jobs scanned in manual mode (one page) to find the most recently completed one. */
const MANUAL_SCAN = 1000;

interface TriggerParams {
	statuses: string[];
	output: Output;
	simplify: boolean;
	jobName: string;
	settings: TrackerSettings;
	/** capability → result key from the live catalog (per-plot rows only), as Wait for Completion uses */
	resultKeys?: Record<string, string>;
}

function readParams(ctx: IPollFunctions): TriggerParams {
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
	const jobName = typeof options.jobName === 'string' ? options.jobName.trim() : '';
	const lookBackHours = Number(options.lookBackHours ?? 0);
	const maxTrackingDays = Number(options.maxTrackingDays ?? DEFAULT_SETTINGS.maxAgeMs / 86_400_000);
	if (!Number.isFinite(lookBackHours) || lookBackHours < 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"Look Back (Hours)" must be 0 or more, got ${String(options.lookBackHours)}`,
			{
				description:
					'Enter 0 to skip jobs that finished before activation (except those within two poll intervals plus five minutes before it), or the number of hours to look back.',
			},
		);
	}
	if (!Number.isFinite(maxTrackingDays) || maxTrackingDays <= 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"Watch Unfinished Jobs For (Days)" must be more than 0, got ${String(options.maxTrackingDays)}`,
			{
				description:
					'Enter how many days after its creation a job may take to finish, for example 7.',
			},
		);
	}
	const maxAgeMs = maxTrackingDays * 86_400_000;
	let pollTimes: unknown;
	try {
		pollTimes = ctx.getNodeParameter('pollTimes', {});
	} catch {
		pollTimes = {};
	}
	return {
		statuses,
		output,
		simplify,
		jobName,
		settings: {
			...DEFAULT_SETTINGS,
			lookBackMs: lookBackHours * 3_600_000,
			maxAgeMs,
			graceMs: Math.min(firstPollGraceMs(pollTimes), maxAgeMs),
			isFinal: isFinalStatus,
		},
	};
}

/** Whether a value is a JSON object (a job), not null, a number, a text or a list. */
function isJobObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A job id for logs: as it is, or its start and length when it is long (an id may be any
 * text the service sends; the log must stay readable and bounded).
 */
function loggedId(id: string): string {
	return id.length <= 80 ? id : `${id.slice(0, 40)}… (${id.length} characters)`;
}

/**
 * Entries of GET /jobs that are not job objects (`{"jobs":[null,5]}`) stop the poll with an
 * error naming the request. Skipping them is not safe for a trigger that fires each job once:
 * such an entry may stand for a job the poll cannot identify, and a state that moved on past
 * it could miss that job for good. Stopping keeps the state as it was, so once the service
 * answers properly nothing is lost. (A job object without a usable id or creation time is
 * skipped with a warning, as before: it cannot be watched.)
 */
function checkListing(ctx: IPollFunctions, jobs: unknown[]): IDataObject[] {
	const bad: string[] = [];
	jobs.forEach((job, i) => {
		if (!isJobObject(job)) bad.push(`entry ${i + 1}: ${describeValue(job)}`);
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

function describeValue(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return `the text ${JSON.stringify(value.slice(0, 40))}`;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return typeof value;
}

function observe(job: IDataObject): JobObservation | undefined {
	const id = job.job_id;
	const createdMs = parseServiceTime(job.created_at);
	if ((typeof id !== 'string' && typeof id !== 'number') || createdMs === null) return undefined;
	return {
		id: String(id),
		createdMs,
		updatedMs: parseServiceTime(job.updated_at),
		status: typeof job.status === 'string' ? job.status.trim().toLowerCase() : '',
	};
}

function matches(job: IDataObject, params: TriggerParams): boolean {
	const status = typeof job.status === 'string' ? job.status.trim().toLowerCase() : '';
	if (!params.statuses.includes(status)) return false;
	if (params.jobName) {
		const name = typeof job.job_name === 'string' ? job.job_name : '';
		if (!name.toLowerCase().includes(params.jobName.toLowerCase())) return false;
	}
	return true;
}

/** The job no longer exists, or belongs to another account than the credential's now. */
function isGone(error: unknown): boolean {
	const { status } = serviceErrorOf(error);
	return status === 404 || status === 403;
}

/**
 * The items for one completed job, in the chosen output shape. Job With Plots and
 * Per-Plot Results are made by the same code as the action node's Job → Get Results and
 * Wait for Completion (jobOutput), so the same job gives the same items.
 */
async function itemsFor(
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

async function manualPoll(
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

export class GeospatialAnalysisTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Geospatial Analysis Trigger',
		name: 'geospatialAnalysisTrigger',
		icon: {
			light: 'file:../../icons/geospatialAnalysis.svg',
			dark: 'file:../../icons/geospatialAnalysis.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		// "On finished jobs", "On jobs done" or "On jobs done with errors" (whole words, short).
		subtitle:
			'={{ ($parameter["statuses"] || []).length === 1 ? ($parameter["statuses"][0] === "done" ? "On jobs done" : "On jobs done with errors") : "On finished jobs" }}',
		// The nodes panel shows this text for the Geospatial Analysis entry (action node and
		// trigger together), so it says what both do.
		description:
			'Register plots of land, run EUDR deforestation, protected-area and other analyses, and start workflows when they finish',
		defaults: { name: 'Geospatial Analysis Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: credentialsDescription,
		properties: [
			authenticationProperty,
			{
				displayName: 'Starts the workflow once for each job that finishes. Polling is free.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'statuses',
				type: 'multiOptions',
				options: [
					{
						name: 'Done',
						value: 'done',
						description: 'Every plot of the job was analyzed',
					},
					{
						name: 'Done With Errors',
						value: 'done-with-errors',
						description:
							'The job finished but some plots could not be analyzed (their tokens are refunded)',
					},
				],
				default: ['done', 'done-with-errors'],
				required: true,
				description:
					'Final job statuses that start the workflow, once per job. A job that finishes with a status not selected here is skipped. Jobs that finished before the workflow was activated are skipped too, except those that finished within two poll intervals plus five minutes before it (see Look Back (Hours)).',
			},
			{
				displayName: 'Output',
				name: 'output',
				type: 'options',
				options: [
					{
						name: 'Job',
						value: 'job',
						description:
							'One item per job: ID, name, status, plot IDs, token cost and visualization URLs, without plot results',
					},
					{
						name: 'Job With Plots',
						value: 'jobWithPlots',
						description:
							'One item per job, with every plot and its analysis results under "plots" (one more request per job)',
					},
					{
						name: 'Per-Plot Results',
						value: 'perPlot',
						description:
							'One item per plot with its analysis; failed plots are marked (failed, failure_reason), never dropped. The same rows as Job → Get Results (one more request per job, plus one catalog read per poll that emits).',
					},
				],
				default: 'job',
				description: 'What each finished job produces',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				displayOptions: { show: { output: ['perPlot'] } },
				description:
					'Whether to return a flat row per plot (plot ID and name, job ID, status, risk level and reason, deforestation figures, protected-area and Indigenous-land overlap, image URL, the top-level result of each other check) fit for a spreadsheet, instead of the full plot with its nested analysis',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Job Name Contains',
						name: 'jobName',
						type: 'string',
						default: '',
						placeholder: 'e.g. EUDR weekly',
						description:
							'Only jobs whose name contains this text (not case-sensitive) start the workflow. Empty: every job.',
					},
					{
						displayName: 'Look Back (Hours)',
						name: 'lookBackHours',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 0,
						description:
							'On activation, also emit jobs that finished this many hours before it (created within the watch period). 0: only jobs that finish after activation, or within two poll intervals plus five minutes before it.',
					},
					{
						displayName: 'Watch Unfinished Jobs For (Days)',
						name: 'maxTrackingDays',
						type: 'number',
						typeOptions: { minValue: 0.01 },
						default: 7,
						description:
							'How long after its creation an unfinished job is still watched. A job that takes longer is dropped with a warning in the n8n log and never fires. Each watched job older than the last few minutes costs one request per poll.',
					},
				],
			},
		],
	};

	/**
	 * One poll. What n8n keeps between polls (n8n 1.x and 2.x source, packages/core and
	 * packages/cli): its default poller makes one context per activation and keeps the node's
	 * static data in memory from poll to poll, saving it to the database after the activation
	 * poll and whenever a poll emits. With the durable scheduler (N8N_SCHEDULER_ENABLED,
	 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED) every poll gets a new context built from the database;
	 * with N8N_POLLER_DURABLE_CURSORS_ENABLED the node's static data is a per-poll copy of a
	 * stored cursor, committed together with the execution when the poll emits, alone when a
	 * scheduled poll emits nothing, and never for the activation poll that emitted nothing.
	 * A poll that throws keeps nothing. So the state read here may be older than the last poll,
	 * or absent although polls ran: completionTracker.ts is correct from any earlier state, and
	 * a poll without state emits what finished within the grace period before it.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// n8n reuses this context for every poll: the credential and the catalog are read anew.
		openRunScope(this);
		const params = readParams(this);
		if (this.getMode() === 'manual') return await manualPoll.call(this, params);

		const node = this.getNode().name;
		const staticData = this.getWorkflowStaticData('node');
		const readable = readState(staticData.tracker);
		if (staticData.tracker !== undefined && readable === undefined) {
			this.logger.warn('Geospatial Analysis Trigger: stored state unreadable, starting afresh', {
				node,
			});
		}
		// The local clock (n8n's) is the one windows and ages are measured on (completionTracker.ts).
		const now = Date.now();
		const { state: stored, reason: unbelievable } = believableState(readable, now, params.settings);
		if (unbelievable) {
			this.logger.warn(
				`Geospatial Analysis Trigger: stored state not usable (${unbelievable}), starting afresh: jobs that finished within the grace period fire`,
				{ node },
			);
		}
		const identity = await serviceIdentity(this);
		const start = pollStart(stored, identity);
		if (start === 'newService') {
			this.logger.info(
				`Geospatial Analysis Trigger: the credential now points to ${identity.service} (was ${stored?.service}); watching its jobs from now on, those of the other service no longer`,
				{ node },
			);
		} else if (start === 'newAccount') {
			this.logger.info(
				'Geospatial Analysis Trigger: the credential now uses another account; watching its jobs from now on',
				{ node },
			);
		}
		const from = listFrom(stored, now, params.settings, identity);

		// Every request happens before the state changes: a failure throws and loses nothing.
		const listedJobs = checkListing(this, await listJobsCreatedSince(this, from));
		const listed: JobObservation[] = [];
		const listedById = new Map<string, IDataObject>();
		let unusable = 0;
		for (const job of listedJobs) {
			const seen = observe(job);
			if (!seen) {
				unusable++;
				continue;
			}
			listed.push(seen);
			listedById.set(seen.id, job);
		}
		if (unusable > 0) {
			this.logger.warn(
				`Geospatial Analysis Trigger: ${unusable} job${unusable === 1 ? '' : 's'} listed by GET /jobs without a usable job_id or created_at skipped`,
				{ node },
			);
		}
		const rechecked = new Map<string, JobObservation | null>();
		const details = new Map<string, IDataObject>();
		for (const id of toRecheck(stored, listed, identity)) {
			let job: unknown;
			try {
				job = await fetchJob(this, id);
			} catch (error) {
				if (!isGone(error)) throw asNodeError(this, error);
				rechecked.set(id, null);
				continue;
			}
			if (!isJobObject(job)) {
				throw new NodeOperationError(
					this.getNode(),
					`The service answered GET /jobs/job/${loggedId(id)} with ${describeValue(job)}, not a job`,
					{
						description:
							'The trigger emitted nothing and kept its state, so no job is lost or fired twice; the next poll tries again. If it persists, report it to the service.',
					},
				);
			}
			const seen = observe(job);
			rechecked.set(id, seen ? { ...seen, id } : null);
			if (seen) details.set(id, job);
		}

		const result = advance({
			state: stored,
			now,
			listed,
			rechecked,
			settings: params.settings,
			identity,
		});

		const items: INodeExecutionData[] = [];
		for (const done of result.completed) {
			const job = details.get(done.id) ?? listedById.get(done.id);
			if (!job || !matches(job, params)) continue;
			items.push(...(await itemsFor.call(this, job, details.get(done.id), params)));
		}

		// All requests succeeded: only now does the new state replace the stored one.
		for (const { id, reason } of result.dropped) {
			const why =
				reason === 'gone'
					? 'it no longer exists or belongs to another account'
					: reason === 'age'
						? `it is still unfinished after ${params.settings.maxAgeMs / 86_400_000} days (raise "Watch Unfinished Jobs For (Days)")`
						: reason === 'bytes'
							? `the ids of the unfinished jobs watched take more than ${Math.round((params.settings.maxPendingBytes ?? 0) / 1024)} KB of the workflow's static data; the oldest are dropped`
							: `more than ${params.settings.maxPending} unfinished jobs are watched; the oldest are dropped`;
			this.logger.warn(
				`Geospatial Analysis Trigger: stopped watching job ${loggedId(id)}: ${why}; it will not fire`,
				{
					node,
					jobId: id,
				},
			);
		}
		if (result.overlapShrunkTo !== undefined) {
			this.logger.warn(
				`Geospatial Analysis Trigger: more than ${params.settings.maxSeen} jobs (or ${Math.round((params.settings.maxSeenBytes ?? 0) / 1024)} KB of ids) created within the overlap window; window shortened to ${result.overlapShrunkTo} ms`,
				{ node },
			);
		}
		if (result.forgotten.length > 0) {
			this.logger.warn(
				`Geospatial Analysis Trigger: forgot ${result.forgotten.length} finished job${result.forgotten.length === 1 ? '' : 's'} dated more than 5 minutes in the future (${result.forgotten.slice(0, 3).map(loggedId).join(', ')}${result.forgotten.length > 3 ? ', …' : ''}): more remembered ids than fit in the static data; if the service lists them again they may fire again`,
				{ node },
			);
		}
		staticData.tracker = storedState(result.state) as unknown as IDataObject;
		return items.length > 0 ? [items] : null;
	}
}

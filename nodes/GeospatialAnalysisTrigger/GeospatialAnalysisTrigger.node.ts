import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationProperty,
	credentialsDescription,
} from '../shared/transport/authenticationFields';
import { openRunScope } from '../shared/transport/serviceContext';
import { optionsCollection } from '../shared/descriptions/optionsCollection';
import { advance, planPoll, restoreState, storedState, toRecheck } from './completionTracker';
import { serviceIdentity } from './accountIdentity';
import { completedItems, manualPoll } from './triggerItems';
import { listJobs, recheckJobs } from './triggerRequests';
import { pollLog } from './pollLog';
import { readParams } from './triggerParams';

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
			optionsCollection([
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
			]),
		],
	};

	/**
	 * One poll, as plan and advance (completionTracker.ts says why, and what n8n keeps between
	 * polls): the tracker plans from the stored state, this node makes the requests, the
	 * tracker advances with what came back, and the new state is stored only when all of it
	 * succeeded.
	 */
	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// n8n reuses this context for every poll: the credential and the catalog are read anew.
		openRunScope(this);
		const params = readParams(this);
		if (this.getMode() === 'manual') return await manualPoll.call(this, params);

		const log = pollLog(this);
		const staticData = this.getWorkflowStaticData('node');
		// The local clock (n8n's) is the one windows and ages are measured on (completionTracker.ts).
		const now = Date.now();
		const restored = restoreState(staticData.tracker, now, params.settings);
		log.restored(restored);
		const plan = planPoll(restored.state, now, params.settings, await serviceIdentity(this));
		log.planned(plan);

		// Every request happens before the state changes: a failure throws and loses nothing.
		const listed = await listJobs(this, plan.listFrom);
		log.unusable(listed.unusable);
		const rechecked = await recheckJobs(this, toRecheck(plan, listed.observed));
		const result = advance(plan, { listed: listed.observed, rechecked: rechecked.observed });
		const jobs = { listed: listed.jobs, rechecked: rechecked.jobs };
		const items = await completedItems.call(this, result.completed, jobs, params);

		// All requests succeeded: only now does the new state replace the stored one.
		log.advanced(result, params.settings);
		staticData.tracker = storedState(result.state) as unknown as IDataObject;
		return items.length > 0 ? [items] : null;
	}
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readJsonObject, readNumber, readText } from '../../../../shared/input';
import type { Problems, Ready } from '../../../../shared/runner';
import { asNodeError, runItems } from '../../../../shared/runner';
import { serviceErrorOf } from '../../../../shared/transport/failure';
import { paginate } from '../../../../shared/transport/paginate';
import { apiRequest } from '../../../../shared/transport/request';
import { dryRun, quoteOutput } from '../../../../shared/jobs/quote';
import type { JobItem } from './jobRequest';
import { jobBody, jobGroups, readJobItem, requestFields } from './jobRequest';

const show = { resource: ['job'], operation: ['create'] };

export const description: INodeProperties[] = [
	...requestFields(['create']),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Additional Info (JSON)',
				name: 'additionalInfo',
				type: 'json',
				default: '{}',
				description: 'Free key-value pairs stored with the job, e.g. {"batch": "2026-Q1"}',
			},
			{
				displayName: 'Job Name',
				name: 'jobName',
				type: 'string',
				default: '',
				description:
					'Name of the job. When empty the node names it "n8n" plus the time and a random suffix, so that it can recognise the job after a dropped connection.',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				default: '',
				description: 'Free text stored with the job',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Max Tokens',
				name: 'maxTokens',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description:
					'Upper limit on the tokens the job may cost. When set (above 0) the node first asks the service for a free dry-run quote and creates nothing if the quote is higher. 0 means no limit.',
			},
			{
				displayName: 'Recovery Window (Minutes)',
				name: 'recoveryWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 60 },
				default: 10,
				description:
					'When the connection breaks after the create request was sent, the node looks for a job with the same name and plot IDs created within this many minutes and returns it instead of creating a second one',
			},
		],
	},
];

function parseCreatedAt(value: unknown): number {
	if (typeof value !== 'string') return NaN;
	const text = /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`;
	return Date.parse(text);
}

/** Looks for the job a create request with this body may have made. */
async function findCreatedJob(
	ctx: IExecuteFunctions,
	body: IDataObject,
	sentAt: number,
	windowMs: number,
): Promise<IDataObject | undefined> {
	const wanted = [...(body.plot_ids as string[])].sort().join(',');
	const jobs = (await paginate.call(ctx, '/jobs', 'jobs', { limit: 100 })) as IDataObject[];
	return jobs.find((job) => {
		if (job.job_name !== body.job_name) return false;
		const ids = Array.isArray(job.plot_ids) ? job.plot_ids.map(String).sort().join(',') : '';
		if (ids !== wanted) return false;
		const created = parseCreatedAt(job.created_at);
		return Number.isNaN(created) || created >= sentAt - windowMs;
	});
}

function readExtras(ctx: IExecuteFunctions, itemIndex: number, problems: Problems): IDataObject {
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const extra: IDataObject = {};
	const name = problems.take('Job Name', readText(fields.jobName));
	extra.job_name =
		name ||
		`n8n ${new Date().toISOString().slice(0, 19)}Z ${Math.random().toString(36).slice(2, 8)}`;
	const notes = problems.take('Notes', readText(fields.notes));
	if (notes !== undefined) extra.notes = notes;
	const info = problems.take(
		'Additional Info (JSON)',
		readJsonObject(fields.additionalInfo, { example: '{"batch": "2026-Q1"}' }),
	);
	if (info !== undefined && Object.keys(info).length) extra.additional_info = info as IDataObject;
	return extra;
}

interface CreateItem extends JobItem {
	extra: IDataObject;
	maxTokens: number;
	windowMs: number;
}

function readCreateItem(ctx: IExecuteFunctions, i: number, problems: Problems): CreateItem {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const maxTokens = problems.take(
		'Max Tokens',
		readNumber(options.maxTokens, {
			min: 0,
			label: 'the most tokens this job may cost (0: no limit)',
		}),
	);
	const window = problems.take(
		'Recovery Window (Minutes)',
		readNumber(options.recoveryWindowMinutes, { min: 1, max: 60, label: 'minutes' }),
	);
	return {
		...readJobItem(ctx, i, problems),
		extra: readExtras(ctx, i, problems),
		maxTokens: maxTokens ?? 0,
		windowMs: (window ?? 10) * 60_000,
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runItems<CreateItem>(this, items, {
		prepare: (i, problems) => readCreateItem(this, i, problems),
		plan: (ready) =>
			jobGroups(this, ready).map((group) => ({
				items: group.map((g) => g.itemIndex),
				send: async () => [
					{ item: group.map((g) => g.itemIndex), json: await createJob(this, group) },
				],
			})),
	});
}

/** Creates one job (after a quote when Max Tokens is set); never twice. */
async function createJob(
	ctx: IExecuteFunctions,
	group: Array<Ready<CreateItem>>,
): Promise<IDataObject> {
	const { itemIndex: first, value } = group[0];
	const body = await jobBody(ctx, group, value.extra);
	if (value.maxTokens > 0) {
		const quote = await quoteOutput(ctx, await dryRun(ctx, body, first), first);
		const cost = Number(quote.token_cost);
		if (!Number.isFinite(cost) || cost > value.maxTokens)
			throw new NodeOperationError(
				ctx.getNode(),
				`The job would cost ${String(quote.token_cost)} tokens, more than Max Tokens (${value.maxTokens}); nothing was created`,
				{
					itemIndex: first,
					description: `Quote: ${String(quote.token_cost)} tokens; free balance: ${String(quote.free_tokens)} tokens. Raise Max Tokens, or analyse fewer plots or checks.`,
				},
			);
	}
	const sentAt = Date.now();
	try {
		// Never retried once it may have reached the service (idempotent: false).
		return (await apiRequest.call(ctx, 'POST', '/jobs/make_job', {
			body,
			itemIndex: first,
			idempotent: false,
		})) as IDataObject;
	} catch (error) {
		const failure = serviceErrorOf(error);
		const tokens = failure.tokens;
		if (failure.kind === 'insufficient-tokens' && tokens)
			throw new NodeOperationError(
				ctx.getNode(),
				`Not enough tokens for this job: it needs ${String(tokens.needed ?? 'more')} tokens and ${String(tokens.free ?? 'too few')} are free`,
				{
					itemIndex: first,
					description:
						'Buy tokens, wait for running jobs to settle (their reservations are released), or analyse fewer plots or checks. Get Quote shows the cost first.',
				},
			);
		// Look for the job only when the request may have been carried out unanswered.
		if (!failure.mayHaveArrived) throw asNodeError(ctx, error, first);
		const found = await findCreatedJob(ctx, body, sentAt, value.windowMs);
		if (!found) throw asNodeError(ctx, error, first);
		return { ...found, recovered_after_connection_error: true };
	}
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { asNodeError, errorItem } from '../../../../shared/helpers/items';
import { serviceErrorOf } from '../../../../shared/transport/failure';
import { paginate } from '../../../../shared/transport/paginate';
import { apiRequest } from '../../../../shared/transport/request';
import { dryRun, quoteOutput } from './getQuote.operation';
import type { ItemPlots } from './jobRequest';
import {
	buildBody,
	groupItems,
	readJobSettings,
	requestFields,
	validateChecks,
} from './jobRequest';

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

function readExtras(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const extra: IDataObject = {};
	const name = typeof fields.jobName === 'string' ? fields.jobName.trim() : '';
	extra.job_name =
		name ||
		`n8n ${new Date().toISOString().slice(0, 19)}Z ${Math.random().toString(36).slice(2, 8)}`;
	if (typeof fields.notes === 'string' && fields.notes !== '') extra.notes = fields.notes;
	if (fields.additionalInfo !== undefined) {
		let info: unknown = fields.additionalInfo;
		if (typeof info === 'string') {
			try {
				info = info.trim() === '' ? {} : jsonParse(info);
			} catch {
				throw new NodeOperationError(
					ctx.getNode(),
					`"Additional Info" of item ${itemIndex} is not valid JSON`,
					{
						itemIndex,
						description: 'Write it as a JSON object, e.g. {"batch": "2026-Q1"}.',
					},
				);
			}
		}
		if (!info || typeof info !== 'object' || Array.isArray(info))
			throw new NodeOperationError(
				ctx.getNode(),
				`"Additional Info" of item ${itemIndex} must be a JSON object`,
				{
					itemIndex,
					description: 'Write it as a JSON object, e.g. {"batch": "2026-Q1"}.',
				},
			);
		if (Object.keys(info).length) extra.additional_info = info as IDataObject;
	}
	return extra;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	const onError = (error: unknown, i: number) => {
		if (this.continueOnFail()) return errorItem(error, i);
		throw asNodeError(this, error, i);
	};
	const groups = groupItems(this, items, out, onError);
	for (const group of groups as ItemPlots[][]) {
		const first = group[0].itemIndex;
		const pairedItem = group.map((g) => ({ item: g.itemIndex }));
		try {
			const settings = readJobSettings(this, first);
			const body = buildBody(group, settings, readExtras(this, first));
			const options = this.getNodeParameter('options', first, {}) as IDataObject;
			const maxTokens = Number(options.maxTokens ?? 0);
			if (!Number.isFinite(maxTokens) || maxTokens < 0)
				throw new NodeOperationError(
					this.getNode(),
					`"Max Tokens" of item ${first} must be 0 or more`,
					{
						itemIndex: first,
						description: 'Set the most tokens this job may cost, or 0 for no limit.',
					},
				);
			await validateChecks(this, settings.checks, first);

			if (maxTokens > 0) {
				const quote = await quoteOutput(this, await dryRun(this, body, first), first);
				const cost = Number(quote.token_cost);
				if (!Number.isFinite(cost) || cost > maxTokens)
					throw new NodeOperationError(
						this.getNode(),
						`The job would cost ${String(quote.token_cost)} tokens, more than Max Tokens (${maxTokens}); nothing was created`,
						{
							itemIndex: first,
							description: `Quote: ${String(quote.token_cost)} tokens; free balance: ${String(quote.free_tokens)} tokens. Raise Max Tokens, or analyse fewer plots or checks.`,
						},
					);
			}

			const sentAt = Date.now();
			let job: IDataObject;
			try {
				// Never retried once it may have reached the service (idempotent: false).
				job = (await apiRequest.call(this, 'POST', '/jobs/make_job', {
					body,
					itemIndex: first,
					idempotent: false,
				})) as IDataObject;
			} catch (error) {
				const failure = serviceErrorOf(error);
				const tokens = failure.tokens;
				if (failure.kind === 'insufficient-tokens' && tokens)
					throw new NodeOperationError(
						this.getNode(),
						`Not enough tokens for this job: it needs ${String(tokens.needed ?? 'more')} tokens and ${String(tokens.free ?? 'too few')} are free`,
						{
							itemIndex: first,
							description:
								'Buy tokens, wait for running jobs to settle (their reservations are released), or analyse fewer plots or checks. Get Quote shows the cost first.',
						},
					);
				// Look for the job only when the request may have been carried out unanswered.
				if (!failure.mayHaveArrived) throw asNodeError(this, error, first);
				const windowMs =
					Math.min(60, Math.max(1, Number(options.recoveryWindowMinutes ?? 10))) * 60_000;
				const found = await findCreatedJob(this, body, sentAt, windowMs);
				if (!found) throw asNodeError(this, error, first);
				job = { ...found, recovered_after_connection_error: true };
			}
			out.push({ json: job, pairedItem });
		} catch (error) {
			for (const g of group) out.push(onError(error, g.itemIndex));
		}
	}
	return out;
}

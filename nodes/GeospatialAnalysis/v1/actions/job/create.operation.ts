import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { readJsonObject, readNumber, readText } from '../../../../shared/input';
import type { AlreadyDone, Problems, Ready } from '../../../../shared/runner';
import { asNodeError, runItems } from '../../../../shared/runner';
import { serviceErrorOf } from '../../../../shared/transport/serviceFailure';
import { dryRun, quoteOutput } from '../../../../shared/jobs/quote';
import { createJobExactlyOnce } from '../../../../shared/jobs/createJobOnce';
import { num } from '../../../../shared/values/answerValues';
import type { JobItem } from './jobRequest';
import {
	JOB_TEXT_FIELDS,
	MAX_TOKENS_DEFAULT_V2,
	RECOVERY_WINDOW_FIELD,
	jobBody,
	jobGroups,
	readJobItem,
	requestFields,
} from './jobRequest';

const displayOptions = { show: { resource: ['job'], operation: ['create'] } };

export const description = updateDisplayOptions(displayOptions, [
	...requestFields(),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: JOB_TEXT_FIELDS,
	},
	optionsCollection([
		{
			displayName: 'Max Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'Upper limit on the tokens the job may cost. When set (above 0) the node first asks the service for a free dry-run quote and creates nothing if the quote is higher. 0 means no limit.',
		},
		RECOVERY_WINDOW_FIELD,
	]),
]);

function readExtras(ctx: IExecuteFunctions, itemIndex: number, problems: Problems): IDataObject {
	// Version 2 keeps Job Name, Notes and Additional Info in Options.
	const fields = ctx.getNodeParameter(
		ctx.getNode().typeVersion >= 2 ? 'options' : 'additionalFields',
		itemIndex,
		{},
	) as IDataObject;
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
	// Version 2 shows Max Tokens at the top level, with a limit by default.
	const maxTokensValue =
		ctx.getNode().typeVersion >= 2
			? ctx.getNodeParameter('maxTokens', i, MAX_TOKENS_DEFAULT_V2)
			: options.maxTokens;
	const maxTokens = problems.take(
		'Max Tokens',
		readNumber(maxTokensValue, {
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

export const execute: OperationModule['execute'] = async function (items) {
	const created: CreatedJob[] = [];
	return await runItems<CreateItem>(this, items, {
		prepare: (i, problems) => readCreateItem(this, i, problems),
		plan: (ready) =>
			jobGroups(this, ready).map((group) => ({
				items: group.map((g) => g.itemIndex),
				send: async () => {
					const job = await createJob(this, group);
					created.push({ items: group.map((g) => g.itemIndex), job });
					return [{ item: group.map((g) => g.itemIndex), json: job }];
				},
			})),
		// Jobs created before a later one failed: named, so that none is created twice.
		alreadyDone: () => createdNote(created),
	});
};

interface CreatedJob {
	items: number[];
	job: IDataObject;
}

function createdNote(created: CreatedJob[]): AlreadyDone | undefined {
	if (created.length === 0) return undefined;
	const list = created
		.map(({ items, job }) => {
			const cost = job.token_cost === undefined ? '' : `, ${String(job.token_cost)} tokens`;
			return `job ${String(job.job_id)} "${String(job.job_name)}" (item${items.length > 1 ? 's' : ''} ${items.join(', ')}${cost})`;
		})
		.join('; ');
	return {
		description: `Created before the failure: ${list}. Remove those items from the input before running again, or their analyses will be created and paid twice.`,
		context: {
			createdBeforeFailure: created.map(({ items, job }) => ({
				items,
				job_id: job.job_id ?? null,
				job_name: job.job_name ?? null,
				token_cost: job.token_cost ?? null,
			})),
		},
	};
}

/** Creates one job (after a quote when Max Tokens is set); never twice (jobs/createJobOnce.ts). */
async function createJob(
	ctx: IExecuteFunctions,
	group: Array<Ready<CreateItem>>,
): Promise<IDataObject> {
	const { itemIndex: first, value } = group[0];
	const body = await jobBody(ctx, group, value.extra);
	if (value.maxTokens > 0) {
		const quote = await quoteOutput(ctx, await dryRun(ctx, body, first), first);
		const cost = num(quote.token_cost);
		if (cost === null || cost > value.maxTokens)
			throw new NodeOperationError(
				ctx.getNode(),
				`The job would cost ${String(quote.token_cost)} tokens, more than Max Tokens (${value.maxTokens}); nothing was created`,
				{
					itemIndex: first,
					description: `Quote: ${String(quote.token_cost)} tokens; free balance: ${String(quote.free_tokens)} tokens. Raise Max Tokens, or analyze fewer plots or checks.`,
				},
			);
	}
	try {
		return await createJobExactlyOnce(ctx, body, { itemIndex: first, windowMs: value.windowMs });
	} catch (error) {
		const tokens = serviceErrorOf(error).tokens;
		if (serviceErrorOf(error).kind === 'insufficient-tokens' && tokens)
			throw new NodeOperationError(
				ctx.getNode(),
				`Not enough tokens for this job: it needs ${String(tokens.needed ?? 'more')} tokens and ${String(tokens.free ?? 'too few')} are free`,
				{
					itemIndex: first,
					description:
						'Buy tokens, wait for running jobs to settle (their reservations are released), or analyze fewer plots or checks. Get Quote shows the cost first.',
				},
			);
		throw asNodeError(ctx, error, first);
	}
}

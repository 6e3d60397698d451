import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getQuote from './getQuote.operation';
import * as getResults from './getResults.operation';
import * as waitForCompletion from './waitForCompletion.operation';

export const operations: OperationsOf<'job'> = {
	create,
	getQuote,
	get,
	getMany,
	waitForCompletion,
	getResults,
};

export const description = resourceDescription(
	'job',
	'create',
	[
		{
			name: 'Create',
			value: 'create',
			description:
				'Run checks (analyses) on registered plots. Costs tokens: reserved at creation, refunded for plots that fail. Returns the job (status creating); with Max Tokens it checks a free quote first.',
			action: 'Create a job — spends tokens per plot and check — returns the job',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one job with its status and visualization URLs. Free of charge.',
			action: 'Get a job — free — returns its status',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			description:
				"List the account's jobs, newest first, optionally by creation time. Free of charge.",
			action: 'Get many jobs — free — returns one item per job',
		},
		{
			name: 'Get Quote',
			value: 'getQuote',
			description:
				'Ask what a job would cost (dry run): the exact token cost plus the current free balance. Creates nothing; free.',
			action: 'Get a job quote — free — returns the token cost and balance',
		},
		{
			name: 'Get Results',
			value: 'getResults',
			description:
				'Get the per-plot results of a finished job without waiting, optionally flattened for a spreadsheet. Free of charge.',
			action: 'Get job results — free — returns one item per plot with its results',
		},
		{
			name: 'Wait for Completion',
			value: 'waitForCompletion',
			description:
				'Wait until jobs are done (polling with backoff, bounded by Max Wait), then output the jobs or their per-plot results. Free of charge.',
			action: 'Wait for a job to complete — free — returns the finished job',
		},
	],
	operations,
);

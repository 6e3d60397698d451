import { resourceDescription } from '../../../../shared/descriptions/operationSelector';
import type { OperationsOf } from '../node.type';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations: OperationsOf<'analysisRun'> = { get, getMany };

export const description = resourceDescription(
	'analysisRun',
	'getMany',
	[
		{
			name: 'Get',
			value: 'get',
			description:
				'Get one analysis run by its run ID, with its output (the analysis result), status, configuration used, timing, token cost and artifact links. Free of charge (uses no tokens).',
			action: 'Get an analysis run — free — returns its status and cost and output',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			description:
				'List the analysis runs of one plot, newest first: one item per run (one run per check per job) with check type, configuration, status, timing, token cost and artifact links, without the output. Free of charge (uses no tokens).',
			action: 'Get many analysis runs of a plot — free — returns one item per run',
		},
	],
	operations,
);

import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations: ResourceModule['operations'] = { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['analysisRun'] } },
		options: [
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
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];

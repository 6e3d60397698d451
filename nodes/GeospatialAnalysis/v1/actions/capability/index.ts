import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../operation';
import * as getMany from './getMany.operation';

export const operations: ResourceModule['operations'] = { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['capability'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					"List the live catalog of analyses the service offers: one item per capability with its name (the value for a job check's type), label, description, accepted configuration (input_schema) and indicative token cost (cost_hint). Free of charge (uses no tokens).",
				action: 'Get many capabilities — free — returns the checks a job can run',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];

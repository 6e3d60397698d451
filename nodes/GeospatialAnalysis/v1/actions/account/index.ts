import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../operation';
import * as getTokenBalance from './getTokenBalance.operation';

export const operations: ResourceModule['operations'] = { getTokenBalance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Token Balance',
				value: 'getTokenBalance',
				description:
					"Get the account's analysis token balance: total, reserved (held by jobs that are still running) and free (available for new jobs and checks), plus the service's raw fields. Free of charge (uses no tokens).",
				action: 'Get the token balance — free — returns the total and reserved and free tokens',
			},
		],
		default: 'getTokenBalance',
	},
	...getTokenBalance.description,
];

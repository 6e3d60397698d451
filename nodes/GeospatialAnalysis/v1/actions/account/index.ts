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
					'Get the total, reserved and free analysis tokens of the account. Free of charge.',
				action: 'Get the token balance',
			},
		],
		default: 'getTokenBalance',
	},
	...getTokenBalance.description,
];

import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as register from './register.operation';

export const operations: ResourceModule['operations'] = { register, get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['plot'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one plot by ID, with its analysis results. Free of charge.',
				action: 'Get a plot — free — returns the plot and its analysis',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description:
					'List the plots of the account, newest first, optionally filtered by creation time. Free of charge.',
				action: 'Get many plots — free — returns one item per plot',
			},
			{
				name: 'Register',
				value: 'register',
				description:
					'Register plots from GeoJSON, latitude/longitude or WKT (one plot per feature), validated before upload and sent in batches of up to 20. Free of charge (tokens are spent when a job analyses the plots). Returns one item per plot.',
				action: 'Register plots — costs nothing — returns one item per plot',
			},
		],
		default: 'register',
	},
	...register.description,
	...get.description,
	...getMany.description,
];

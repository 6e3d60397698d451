import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { executeList, listFields } from '../shared/list';

const show = { resource: ['job'], operation: ['getMany'] };

export const description: INodeProperties[] = [...listFields(show, 'jobs')];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await executeList(this, items, { path: '/jobs', itemsKey: 'jobs', noun: 'jobs' });
}

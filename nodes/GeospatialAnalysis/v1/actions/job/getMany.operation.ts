import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeList, listFields } from '../shared/list';

const displayOptions = { show: { resource: ['job'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, listFields('jobs'));

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await executeList(this, items, { path: '/jobs', itemsKey: 'jobs', noun: 'jobs' });
}

import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { executeList, listFields } from '../../../../shared/descriptions/listFields';

const displayOptions = { show: { resource: ['job'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, listFields('jobs'));

export const execute: OperationModule['execute'] = async function (items) {
	return await executeList(this, items, { path: '/jobs', itemsKey: 'jobs', noun: 'jobs' });
};

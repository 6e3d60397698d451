import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { getTokenBalance } from '../../../../shared/account/balance';
import { runItems } from '../../../../shared/runner';

export const description: INodeProperties[] = [];

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, { run: async () => await getTokenBalance.call(this) });
};

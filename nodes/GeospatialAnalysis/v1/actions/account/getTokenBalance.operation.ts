import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getTokenBalance } from '../../../../shared/account/balance';
import { runItems } from '../../../../shared/runner';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runItems(this, items, { run: async () => await getTokenBalance.call(this) });
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { asNodeError, errorItem } from '../../../../shared/helpers/items';
import { dryRun, quoteOutput } from '../../../../shared/jobs/quote';
import type { ItemPlots, JobSettings } from './jobRequest';
import {
	buildBody,
	groupItems,
	readJobSettings,
	requestFields,
	validateChecks,
} from './jobRequest';

export const description: INodeProperties[] = [...requestFields(['getQuote'])];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	const onError = (error: unknown, i: number) => {
		if (this.continueOnFail()) return errorItem(error, i);
		throw asNodeError(this, error, i);
	};
	const groups = groupItems(this, items, out, onError);
	for (const group of groups) {
		const first = group[0].itemIndex;
		try {
			const settings: JobSettings = readJobSettings(this, first);
			await validateChecks(this, settings.checks, first);
			const quote = await dryRun(this, buildBody(group as ItemPlots[], settings), first);
			out.push({
				json: await quoteOutput(this, quote, first),
				pairedItem: group.map((g) => ({ item: g.itemIndex })),
			});
		} catch (error) {
			for (const g of group) out.push(onError(error, g.itemIndex));
		}
	}
	return out;
}

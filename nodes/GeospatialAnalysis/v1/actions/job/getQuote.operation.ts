import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { runItems } from '../../../../shared/runner';
import { dryRun, quoteOutput } from '../../../../shared/jobs/quote';
import type { JobItem } from './jobRequest';
import { jobBody, jobGroups, readJobItem, requestFields } from './jobRequest';

const displayOptions = { show: { resource: ['job'], operation: ['getQuote'] } };

export const description = updateDisplayOptions(displayOptions, requestFields());

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems<JobItem>(this, items, {
		prepare: (i, problems) => readJobItem(this, i, problems),
		plan: (ready) =>
			jobGroups(this, ready).map((group) => ({
				items: group.map((g) => g.itemIndex),
				send: async () => {
					const first = group[0].itemIndex;
					const quote = await dryRun(this, await jobBody(this, group), first);
					return [
						{ item: group.map((g) => g.itemIndex), json: await quoteOutput(this, quote, first) },
					];
				},
			})),
	});
};

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forEachItemData } from '../../../../shared/helpers/items';
import { isFinalStatus } from '../../../../shared/results/flatten';
import {
	catalogResultKeys,
	checkJobIds,
	fetchJob,
	jobOutput,
	outputFields,
	parseIdList,
	readOutputOptions,
} from './common';

export const description: INodeProperties[] = [
	{
		displayName: 'Job IDs',
		name: 'jobId',
		type: 'string',
		required: true,
		default: '={{ $json.job_id }}',
		displayOptions: { show: { resource: ['job'], operation: ['getResults'] } },
		description:
			'ID of a finished job (status done or done-with-errors); several may be given comma-separated. Returns its per-plot results without waiting. Free of charge. A job still running fails this item: use Wait for Completion for that.',
	},
	...outputFields('getResults', 'perPlot'),
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	let resultKeys: Record<string, string> | undefined;
	return await forEachItemData(
		this,
		items,
		async (i, { ids, options }) => {
			const out: INodeExecutionData[] = [];
			for (const id of ids) {
				const job = await fetchJob(this, id, i);
				if (!isFinalStatus(job.status))
					throw new NodeOperationError(
						this.getNode(),
						`Job ${id} has not finished yet (status: ${String(job.status)})`,
						{
							itemIndex: i,
							description:
								'Get Results reads finished jobs only. Put "Job → Wait for Completion" before this step, or use the Geospatial Analysis Trigger.',
						},
					);
				resultKeys ??= await catalogResultKeys(this);
				out.push(...(await jobOutput(this, job, options, { item: i }, resultKeys)));
			}
			return out;
		},
		// Every item's job ids and options are checked before any request.
		(i: number) => {
			const ids = parseIdList(this.getNodeParameter('jobId', i));
			checkJobIds(this, ids, i, 'Job ID');
			return { ids, options: readOutputOptions(this, i) };
		},
	);
}

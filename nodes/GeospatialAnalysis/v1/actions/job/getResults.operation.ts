import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, errorItem } from '../../helpers/items';
import { isFinalStatus } from '../../results/flatten';
import { catalogResultKeys, checkJobIds, fetchJob, jobOutput, outputFields, parseIdList, readOutputOptions } from './common';

export const description: INodeProperties[] = [
	{
		displayName: 'Job ID',
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

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	let resultKeys: Record<string, string> | undefined;
	// Every item's job ids and options are checked before any request.
	const prepared = items.map((_, i) => {
		try {
			const ids = parseIdList(this.getNodeParameter('jobId', i));
			checkJobIds(this, ids, i, 'Job ID');
			return { ids, options: readOutputOptions(this, i) };
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, i);
			return { error };
		}
	});
	for (let i = 0; i < items.length; i++) {
		const p = prepared[i];
		if ('error' in p) {
			out.push(errorItem(p.error, i));
			continue;
		}
		try {
			for (const id of p.ids) {
				const job = await fetchJob(this, id, i);
				if (!isFinalStatus(job.status))
					throw new NodeOperationError(this.getNode(), `Job ${id} has not finished yet (status: ${String(job.status)})`, {
						itemIndex: i,
						description:
							'Get Results reads finished jobs only. Put "Job → Wait for Completion" before this step, or use the Geospatial Analysis Trigger.',
					});
				resultKeys ??= await catalogResultKeys(this);
				out.push(...(await jobOutput(this, job, p.options, { item: i }, resultKeys)));
			}
		} catch (error) {
			if (this.continueOnFail()) {
				out.push(errorItem(error, i));
				continue;
			}
			throw asNodeError(this, error, i);
		}
	}
	return out;
}

import type { INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { fetchJob } from '../../../../shared/jobs/fetchJob';
import { jobOutput } from '../../../../shared/jobs/jobOutput';
import { catalogResultKeys } from '../../../../shared/jobs/resultKeys';
import { runItems } from '../../../../shared/runner';
import { isFinalStatus } from '../../../../shared/results/flatten';
import { jobIdsField, outputFields, readJobIds, readOutputOptions } from './resultOptions';

const displayOptions = { show: { resource: ['job'], operation: ['getResults'] } };

export const description = updateDisplayOptions(displayOptions, [
	jobIdsField(
		'jobId',
		'ID of a finished job (status done or done-with-errors); several may be given comma-separated. Returns its per-plot results without waiting. Free of charge. A job still running fails this item: use Wait for Completion for that.',
	),
	...outputFields('perPlot'),
]);

export const execute: OperationModule['execute'] = async function (items) {
	let resultKeys: Record<string, string> | undefined;
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const ids = readJobIds(this, i, 'jobId', problems);
			return { ids, options: readOutputOptions(this, i, problems) };
		},
		run: async (i, { ids, options }) => {
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
				out.push(...(await jobOutput(this, job, options, resultKeys)));
			}
			return { items: out };
		},
	});
};

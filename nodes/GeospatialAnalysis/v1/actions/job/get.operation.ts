import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { fetchJob } from '../../../../shared/jobs/fetchJob';
import { runItems } from '../../../../shared/runner';
import { jobIdsField, readJobIds } from './resultOptions';

const displayOptions = { show: { resource: ['job'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [
	jobIdsField(
		'jobId',
		'IDs of the jobs to get: one (e.g. 7001) or several, comma-separated. Returns each job with its status, token_cost, job_visualization_url and, when the service embeds them, its plots. Free of charge.',
	),
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const ids = readJobIds(this, i, 'jobId', problems);
			return ids;
		},
		run: async (i, ids) => {
			const out = [];
			for (const id of ids) out.push(await fetchJob(this, id, i));
			return out;
		},
	});
};

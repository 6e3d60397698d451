import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import { idField } from '../../../../shared/descriptions/idField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { idPath } from '../../../../shared/input';
import { takeId } from '../../../../shared/descriptions/takeId';
import type { Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { apiRequest } from '../../../../shared/transport/request';
import { simplifyRun } from './simplifyRun';

const displayOptions = { show: { resource: ['analysisRun'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [
	idField(
		'Run ID',
		'runId',
		'e.g. 500001',
		'ID of the analysis run to get (the run_id listed by Analysis Run → Get Many). To take it from the input item, use an expression that reads its run_id field. The run must belong to the account of the credential.',
	),
	simplifyField(
		false,
		'Whether to return flat fields (run_id, plot_id, job_id, check_type, status, created_at, started_at, finished_at, duration_seconds, token_cost, tokens_charged, error, one TYPE_url field per artifact (e.g. visualization_url, geojson_url) and artifact_urls) plus the analysis output under output, instead of the run as the service sends it',
	),
]);

export const execute: OperationModule['execute'] = async function (items) {
	const prepare = (i: number, problems: Problems) => ({
		runId: takeId(this, i, problems, { name: 'runId', label: 'Run ID', noun: 'run' }),
		simplify: this.getNodeParameter('simplify', i, false) as boolean,
	});
	return await runItems(this, items, {
		prepare,
		run: async (i, { runId, simplify }) => {
			const run = await apiRequest.call(this, 'GET', `/analysis-runs/${idPath(runId)}`, {
				itemIndex: i,
			});
			const json: IDataObject =
				run !== null && typeof run === 'object' && !Array.isArray(run)
					? (run as IDataObject)
					: { value: run as string };
			return simplify ? (simplifyRun(json, { includeOutput: true }) as IDataObject) : json;
		},
	});
};

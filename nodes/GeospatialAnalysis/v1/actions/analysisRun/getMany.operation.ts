import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import { idField } from '../../../../shared/descriptions/idField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { readText } from '../../../../shared/input';
import { takeId } from '../../../../shared/descriptions/takeId';
import type { Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { apiRequest } from '../../../../shared/transport/request';
import {
	filtersCollection,
	limitFields,
	readLimit,
} from '../../../../shared/descriptions/listFields';
import { runsFromResponse, simplifyRun } from './simplifyRun';

const displayOptions = { show: { resource: ['analysisRun'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, [
	idField(
		'Plot ID',
		'plotId',
		'e.g. 100001',
		'ID of the plot whose analysis runs to list (the plot_id returned by Plot → Register or Job → Get Results). To take it from the input item, use an expression that reads its plot_id field. The plot must belong to the account of the credential.',
	),
	...limitFields,
	filtersCollection(
		[
			{
				displayName: 'Check Type',
				name: 'checkType',
				type: 'string',
				default: '',
				placeholder: 'e.g. eudr',
				description:
					'Keep only runs of this check type (a capability name from Capability → Get Many, such as eudr or deforestation)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'string',
				default: '',
				placeholder: 'e.g. completed',
				description:
					'Keep only runs with this status, for example pending, running, completed or failed',
			},
		],
		'Keep only some of the runs (filtered after they are read; the service returns all runs of the plot)',
	),
	simplifyField(
		false,
		'Whether to return flat fields only (run_id, plot_id, job_id, check_type, status, created_at, started_at, finished_at, duration_seconds, token_cost, tokens_charged, error, one TYPE_url field per artifact (e.g. visualization_url, geojson_url) and artifact_urls) instead of the run as the service sends it',
	),
]);

function matches(run: IDataObject, field: string[], wanted: string): boolean {
	if (wanted === '') return true;
	const value = field.map((k) => run[k]).find((v) => v !== undefined);
	return typeof value === 'string' && value.toLowerCase() === wanted.toLowerCase();
}

export const execute: OperationModule['execute'] = async function (items) {
	const prepare = (i: number, problems: Problems) => {
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		return {
			plotId: takeId(this, i, problems, { name: 'plotId', label: 'Plot ID', noun: 'plot' }),
			limit: readLimit(this, i, problems, 'analysis runs'),
			checkType: problems.take('Check Type', readText(filters.checkType)) ?? '',
			status: problems.take('Status', readText(filters.status)) ?? '',
			simplify: this.getNodeParameter('simplify', i, false) as boolean,
		};
	};
	return await runItems(this, items, {
		prepare,
		run: async (i, { plotId, limit, checkType, status, simplify }) => {
			const body = await apiRequest.call(this, 'GET', '/analysis-runs', {
				qs: { plot_id: plotId },
				itemIndex: i,
			});
			let runs = runsFromResponse(body).filter(
				(run) =>
					matches(run as IDataObject, ['check_type', 'type', 'checkType'], checkType) &&
					matches(run as IDataObject, ['status', 'state'], status),
			);
			if (limit !== undefined) runs = runs.slice(0, limit);
			return runs.map((run) => (simplify ? simplifyRun(run) : run) as IDataObject);
		},
	});
};

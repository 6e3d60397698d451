import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import { idField } from '../../../../shared/descriptions/idField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { simplifyPlot } from '../../../../shared/plots/simplifyPlot';
import { apiRequest } from '../../../../shared/transport/request';
import { idPath } from '../../../../shared/input';
import { takeId } from '../../../../shared/descriptions/takeId';
import { runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['plot'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [
	idField(
		'Plot ID',
		'plotId',
		'100001',
		'ID of the plot to get (plot_id, as returned by Plot → Register or Get Many). Only plots of your own account can be read.',
	),
	simplifyField(
		true,
		'Whether to return a flat row (ID, name, commodity, country, area, lat, lon, risk level and the main analysis figures) instead of the full plot with its GeoJSON and analysis object',
	),
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			return {
				id: takeId(this, i, problems, { name: 'plotId', label: 'Plot ID', noun: 'plot' }),
				simplify: this.getNodeParameter('simplify', i, true) as boolean,
			};
		},
		run: async (i, { id, simplify }) => {
			const plot = (await apiRequest.call(this, 'GET', `/plots/plot/${idPath(id)}`, {
				itemIndex: i,
			})) as IDataObject;
			return simplify ? simplifyPlot(plot) : plot;
		},
	});
};

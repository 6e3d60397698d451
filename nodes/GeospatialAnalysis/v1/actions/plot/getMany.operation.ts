import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { simplifyPlot } from '../../../../shared/plots/simplifyPlot';
import { executeList, listFields } from '../../../../shared/descriptions/listFields';

const displayOptions = { show: { resource: ['plot'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, [
	...listFields('plots'),
	optionsCollection([
		{
			displayName: 'Lite',
			name: 'lite',
			type: 'boolean',
			default: false,
			description:
				'Whether to get lightweight summaries (ID, name, commodity, area, created time, country) instead of full plots; much faster for large accounts',
		},
	]),
	simplifyField(
		true,
		'Whether to return a flat row per plot (ID, name, commodity, country, area, lat, lon, risk level and the main analysis figures) fit for a spreadsheet, instead of the full plot',
	),
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await executeList(this, items, {
		path: '/plots',
		itemsKey: 'plots',
		noun: 'plots',
		extraQuery: (ctx, i) =>
			(ctx.getNodeParameter('options', i, {}) as IDataObject).lite === true ? { lite: true } : {},
		shape: (ctx, i, plot) =>
			(ctx.getNodeParameter('simplify', i, true) as boolean) ? simplifyPlot(plot) : plot,
	});
};

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { simplifyPlot } from '../../../../shared/plots/simplify';
import { apiRequest } from '../../../../shared/transport/request';
import { runItems } from '../../../../shared/runner';

const show = { resource: ['plot'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Plot ID',
		name: 'plotId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '100001',
		displayOptions: { show },
		description:
			'ID of the plot to get (plot_id, as returned by Plot → Register or Get Many). Only plots of your own account can be read.',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description:
			'Whether to return a flat row (ID, name, commodity, country, area, lat, lon, risk level and the main analysis figures) instead of the full plot with its GeoJSON and analysis object',
	},
];

/** The plot id of an item, or a problem line. */
export function readPlotId(value: unknown, itemIndex: number): { id?: string; problem?: string } {
	const id =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (id === '') {
		return {
			problem: `Item ${itemIndex}, field "Plot ID": the plot id is empty. Map the plot_id of a registered plot (e.g. {{ $json.plot_id }}).`,
		};
	}
	if (/[/?#\s]/.test(id)) {
		return {
			problem: `Item ${itemIndex}, field "Plot ID": "${id}" is not a plot id (it contains a slash, space, ? or #). Give the plot_id only, e.g. 100001.`,
		};
	}
	return { id };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const read = readPlotId(this.getNodeParameter('plotId', i, ''), i);
			if (read.problem) problems.add(read.problem);
			return {
				id: read.id as string,
				simplify: this.getNodeParameter('simplify', i, true) as boolean,
			};
		},
		run: async (i, { id, simplify }) => {
			const plot = (await apiRequest.call(this, 'GET', `/plots/plot/${encodeURIComponent(id)}`, {
				itemIndex: i,
			})) as IDataObject;
			return simplify ? simplifyPlot(plot) : plot;
		},
	});
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { forEachItem } from '../../../../shared/helpers/items';
import { simplifyPlot } from '../../../../shared/plots/simplify';
import { apiRequest } from '../../../../shared/transport/request';
import type { ItemProblems } from '../shared/preflight';
import { preflightError, problemItem } from '../shared/preflight';

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
	const ids: Array<string | undefined> = [];
	const problems: ItemProblems = new Map();
	for (let i = 0; i < items.length; i++) {
		const read = readPlotId(this.getNodeParameter('plotId', i, ''), i);
		ids.push(read.id);
		if (read.problem) problems.set(i, [read.problem]);
	}
	if (problems.size > 0 && !this.continueOnFail()) throw preflightError(this, problems);

	const out = await forEachItem(this, items, async (i) => {
		if (ids[i] === undefined) return [];
		const plot = (await apiRequest.call(
			this,
			'GET',
			`/plots/plot/${encodeURIComponent(ids[i] as string)}`,
			{
				itemIndex: i,
			},
		)) as IDataObject;
		return this.getNodeParameter('simplify', i, true) ? simplifyPlot(plot) : plot;
	});
	for (const [i, lines] of problems) out.push(problemItem(i, lines));
	return out.sort((a, b) => itemOf(a) - itemOf(b));
}

function itemOf(item: INodeExecutionData): number {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired[0]?.item ?? 0;
	return paired?.item ?? 0;
}

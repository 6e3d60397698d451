import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getArea } from '../../../../shared/protectedAreas/area';
import { runItems } from '../../../../shared/runner';

const show = { resource: ['protectedArea'], operation: ['get'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Area ID',
		name: 'areaId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '351814',
		displayOptions: { show },
		description:
			"ID of the protected area (area_id in the overlapping areas of a Protected Area → Check; numeric WDPA IDs such as 351814). Returns the area's boundary and properties as a GeoJSON FeatureCollection. Free of charge.",
	},
];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runItems(this, items, {
		prepare: (i, problems) => {
			const raw = this.getNodeParameter('areaId', i, '') as unknown;
			const id = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
			if (id === '')
				problems.field('Area ID', 'the area ID is empty. Give a protected-area ID such as 351814.');
			else if (/[/?#]/.test(id))
				problems.field(
					'Area ID',
					`"${id}" is not an area ID (it contains a slash, ? or #). Give the ID only, such as 351814.`,
				);
			return id;
		},
		run: async (i, id) => await getArea.call(this, id, i),
	});
}

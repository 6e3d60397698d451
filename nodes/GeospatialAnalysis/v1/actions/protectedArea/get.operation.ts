import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { getArea } from '../../../../shared/protectedAreas/area';
import { takeId } from '../shared/idFields';
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
		prepare: (i, problems) =>
			takeId(this, i, problems, { name: 'areaId', label: 'Area ID', noun: 'area' }),
		run: async (i, id) => await getArea.call(this, id, i),
	});
}

import { updateDisplayOptions } from 'n8n-workflow';

import { idField } from '../../../../shared/descriptions/idField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { getArea } from '../../../../shared/protectedAreas/getProtectedArea';
import { takeId } from '../../../../shared/descriptions/takeId';
import { runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['protectedArea'], operation: ['get'] } };

export const description = updateDisplayOptions(displayOptions, [
	idField(
		'Area ID',
		'areaId',
		'351814',
		"ID of the protected area (area_id in the overlapping areas of a Protected Area → Check; numeric WDPA IDs such as 351814). Returns the area's boundary and properties as a GeoJSON FeatureCollection. Free of charge.",
	),
]);

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems(this, items, {
		prepare: (i, problems) =>
			takeId(this, i, problems, { name: 'areaId', label: 'Area ID', noun: 'area' }),
		run: async (i, id) => await getArea.call(this, id, i),
	});
};

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, forEachItem } from '../../../../shared/helpers/items';
import { serviceErrorOf } from '../../../../shared/transport/failure';
import { apiRequest } from '../../../../shared/transport/request';
import type { ItemProblems } from '../shared/preflight';
import { preflightError, problemItem } from '../shared/preflight';

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

function is404(error: unknown): boolean {
	return serviceErrorOf(error).status === 404;
}

/** GET /protected-areas/{id}; on 404 the release-note path /protected-areas/areas/{id}. */
export async function getArea(
	this: IExecuteFunctions,
	areaId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const id = encodeURIComponent(areaId);
	try {
		return (await apiRequest.call(this, 'GET', `/protected-areas/${id}`, {
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		if (!is404(error)) throw asNodeError(this, error, itemIndex);
	}
	try {
		return (await apiRequest.call(this, 'GET', `/protected-areas/areas/${id}`, {
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		if (!is404(error)) throw asNodeError(this, error, itemIndex);
		const numeric = /^\d+$/.test(areaId);
		throw new NodeOperationError(
			this.getNode(),
			`No protected area with ID "${areaId}" was found${numeric ? '' : ': area IDs are numbers'}`,
			{
				itemIndex,
				description: `The service answered 404 at /protected-areas/${areaId} and /protected-areas/areas/${areaId}. ${numeric ? 'Check the ID' : 'Give a numeric area ID such as 351814'}; take it from area_id in the overlapping areas of a Protected Area → Check.`,
			},
		);
	}
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const ids: Array<string | undefined> = [];
	const problems: ItemProblems = new Map();
	for (let i = 0; i < items.length; i++) {
		const raw = this.getNodeParameter('areaId', i, '') as unknown;
		const id = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
		if (id === '' || /[/?#]/.test(id)) {
			problems.set(i, [
				id === ''
					? `Item ${i}, field "Area ID": the area ID is empty. Give a protected-area ID such as 351814.`
					: `Item ${i}, field "Area ID": "${id}" is not an area ID (it contains a slash, ? or #). Give the ID only, such as 351814.`,
			]);
		}
		ids.push(problems.has(i) ? undefined : id);
	}
	if (problems.size > 0 && !this.continueOnFail()) throw preflightError(this, problems);
	const out = await forEachItem(this, items, async (i) =>
		ids[i] === undefined ? [] : await getArea.call(this, ids[i] as string, i),
	);
	for (const [i, lines] of problems) out.push(problemItem(i, lines));
	return out.sort((a, b) => first(a) - first(b));
}

function first(item: INodeExecutionData): number {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired[0]?.item ?? 0;
	return paired?.item ?? 0;
}

/** One protected area: GET /protected-areas/{id}, or the release-note path on 404. */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { idPath } from '../input';
import { asNodeError } from '../runner/errorItems';
import { serviceErrorOf } from '../transport/serviceFailure';
import type { ServiceContext } from '../transport/serviceContext';
import { apiRequest } from '../transport/request';

function isNotFound(error: unknown): boolean {
	return serviceErrorOf(error).kind === 'not-found';
}

/** GET /protected-areas/{id}; on 404 the release-note path /protected-areas/areas/{id}. */
export async function getArea(
	this: ServiceContext,
	areaId: string,
	itemIndex: number,
): Promise<IDataObject> {
	const id = idPath(areaId);
	try {
		return (await apiRequest.call(this, 'GET', `/protected-areas/${id}`, {
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
	}
	try {
		return (await apiRequest.call(this, 'GET', `/protected-areas/areas/${id}`, {
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		if (!isNotFound(error)) throw asNodeError(this, error, itemIndex);
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

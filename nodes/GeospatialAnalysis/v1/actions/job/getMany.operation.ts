import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { paginate } from '../../transport/paginate';

const show = { resource: ['job'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: { show },
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		displayOptions: { show: { ...show, returnAll: [false] } },
		description: 'Max number of results to return',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Created After',
				name: 'createdAtFrom',
				type: 'dateTime',
				default: '',
				description: 'Only jobs created at or after this time (ISO-8601; without a zone it is UTC)',
			},
			{
				displayName: 'Created Before',
				name: 'createdAtUntil',
				type: 'dateTime',
				default: '',
				description: 'Only jobs created at or before this time (ISO-8601; without a zone it is UTC)',
			},
		],
	},
];

function checkDate(ctx: IExecuteFunctions, value: unknown, field: string, itemIndex: number): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = String(value).trim();
	if (Number.isNaN(Date.parse(text)))
		throw new NodeOperationError(ctx.getNode(), `"${field}" of item ${itemIndex} is not a date: "${text}"`, {
			itemIndex,
			description: 'Use an ISO-8601 date or time such as 2026-03-01 or 2026-03-01T12:00:00Z.',
		});
	return text;
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (i) => {
		const returnAll = this.getNodeParameter('returnAll', i, false) as boolean;
		const limit = returnAll ? undefined : (this.getNodeParameter('limit', i, 50) as number);
		if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
			throw new NodeOperationError(this.getNode(), `"Limit" of item ${i} must be a whole number of at least 1`, {
				itemIndex: i,
				description: 'Set Limit to 1 or more, or turn on Return All.',
			});
		const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
		const qs: IDataObject = {};
		const from = checkDate(this, filters.createdAtFrom, 'Created After', i);
		const until = checkDate(this, filters.createdAtUntil, 'Created Before', i);
		if (from) qs.created_at_from = from;
		if (until) qs.created_at_until = until;
		return (await paginate.call(this, '/jobs', 'jobs', { limit, qs })) as IDataObject[];
	});
}

/**
 * The list operations (Plot → Get Many, Job → Get Many): the Return All / Limit / created-at
 * filter fields, reading them with every item checked before any request, and the keyset
 * traversal through `paginate`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { paginate } from '../transport/paginate';
import { readNumber, readTimestamp } from '../input';
import type { Problems } from '../runner';
import { runItems } from '../runner';

/** Return All and Limit (read by `readLimit`). */
export const limitFields: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];

/** The Filters collection of a listing, holding `options`. */
export function filtersCollection(
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		...(description === undefined ? {} : { description }),
		options,
	};
}

/** Return All, Limit and the created-at Filters of a listing of `noun` (read by `readListQuery`). */
export function listFields(noun: string): INodeProperties[] {
	return [
		...limitFields,
		filtersCollection([
			{
				displayName: 'Created After',
				name: 'createdAtFrom',
				type: 'dateTime',
				default: '',
				description: `Only ${noun} created at or after this time (ISO-8601; without a zone it is UTC)`,
			},
			{
				displayName: 'Created Before',
				name: 'createdAtUntil',
				type: 'dateTime',
				default: '',
				description: `Only ${noun} created at or before this time (ISO-8601; without a zone it is UTC)`,
			},
		]),
	];
}

export interface ListQuery {
	limit?: number;
	qs: IDataObject;
}

/** Return All / Limit of one item: the most records to return, undefined for all. */
export function readLimit(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	noun: string,
): number | undefined {
	if (ctx.getNodeParameter('returnAll', i, false) as boolean) return undefined;
	const read = readNumber(ctx.getNodeParameter('limit', i, 50), {
		integer: true,
		min: 1,
		label: `how many ${noun} to return (or turn on "Return All")`,
	});
	return problems.take(
		'Limit',
		read,
		`it is empty. Give how many ${noun} to return, or turn on "Return All".`,
	);
}

/** Reads Return All / Limit / Filters of one item into a query. */
export function readListQuery(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	noun: string,
): ListQuery {
	const limit = readLimit(ctx, i, problems, noun);
	const filters = ctx.getNodeParameter('filters', i, {}) as IDataObject;
	const qs: IDataObject = {};
	for (const [field, label, key] of [
		['createdAtFrom', 'Created After', 'created_at_from'],
		['createdAtUntil', 'Created Before', 'created_at_until'],
	] as const) {
		const value = filters[field] === '' ? undefined : filters[field];
		const time = problems.take(label, readTimestamp(value));
		if (time !== undefined) qs[key] = time;
	}
	return { limit, qs };
}

export interface ListOperation {
	path: string;
	itemsKey: string;
	noun: string;
	/** Extra query parameters of one item (e.g. `lite`). */
	extraQuery?: (ctx: IExecuteFunctions, i: number) => IDataObject;
	/** Shapes each record for output (e.g. Simplify). */
	shape?: (ctx: IExecuteFunctions, i: number, record: IDataObject) => IDataObject;
}

/** Lists for each item in input order; every item's query is checked before any request. */
export async function executeList(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	op: ListOperation,
): Promise<INodeExecutionData[]> {
	return await runItems(ctx, items, {
		prepare: (i, problems) => {
			const query = readListQuery(ctx, i, problems, op.noun);
			if (op.extraQuery) Object.assign(query.qs, op.extraQuery(ctx, i));
			return query;
		},
		run: async (i, query) => {
			const records = (await paginate.call(ctx, op.path, op.itemsKey, query)) as IDataObject[];
			return op.shape ? records.map((record) => op.shape!(ctx, i, record)) : records;
		},
	});
}

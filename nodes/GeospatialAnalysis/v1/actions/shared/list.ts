/**
 * The list operations (Plot → Get Many, Job → Get Many): the Return All / Limit / created-at
 * filter fields, reading them with every item checked before any request, and the keyset
 * traversal through `paginate`.
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { paginate } from '../../../../shared/transport/paginate';
import { runItems } from '../../../../shared/runner';

type Show = NonNullable<IDisplayOptions['show']>;

export function listFields(show: Show, noun: string): INodeProperties[] {
	return [
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
			default: 50,
			typeOptions: { minValue: 1 },
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
					description: `Only ${noun} created at or after this time (ISO-8601; without a zone it is UTC)`,
				},
				{
					displayName: 'Created Before',
					name: 'createdAtUntil',
					type: 'dateTime',
					default: '',
					description: `Only ${noun} created at or before this time (ISO-8601; without a zone it is UTC)`,
				},
			],
		},
	];
}

/** An ISO-8601 text of a date filter (strings, Dates and Luxon DateTimes), or a problem. */
export function readTimeFilter(value: unknown): { value?: string; problem?: string } {
	if (value === undefined || value === null || value === '') return {};
	if (value instanceof Date)
		return Number.isNaN(value.getTime())
			? { problem: 'the date is invalid' }
			: { value: value.toISOString() };
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return { value: String((value as { toISO: () => string }).toISO()) };
	}
	if (typeof value !== 'string') return { problem: `it is a ${typeof value}, not a date` };
	const text = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) {
		return {
			problem: `"${text}" is not an ISO-8601 date or time (e.g. 2026-03-01 or 2026-03-01T12:00:00Z)`,
		};
	}
	return { value: text };
}

export interface ListQuery {
	limit?: number;
	qs: IDataObject;
}

/** Reads Return All / Limit / Filters of one item into a query, or the problems found. */
export function readListQuery(
	ctx: IExecuteFunctions,
	i: number,
	noun: string,
): { query?: ListQuery; problems: string[] } {
	const problems: string[] = [];
	const returnAll = ctx.getNodeParameter('returnAll', i, false) as boolean;
	const qs: IDataObject = {};
	let limit: number | undefined;
	if (!returnAll) {
		limit = Number(ctx.getNodeParameter('limit', i, 50));
		if (!Number.isInteger(limit) || limit < 1) {
			problems.push(
				`Item ${i}, field "Limit": ${String(limit)} is not a whole number of 1 or more. Give how many ${noun} to return, or turn on "Return All".`,
			);
		}
	}
	const filters = ctx.getNodeParameter('filters', i, {}) as IDataObject;
	for (const [field, label, key] of [
		['createdAtFrom', 'Created After', 'created_at_from'],
		['createdAtUntil', 'Created Before', 'created_at_until'],
	] as const) {
		const read = readTimeFilter(filters[field]);
		if (read.problem)
			problems.push(
				`Item ${i}, field "${label}": ${read.problem}. Pick a date or give an ISO-8601 time.`,
			);
		else if (read.value) qs[key] = read.value;
	}
	return problems.length > 0 ? { problems } : { problems, query: { limit, qs } };
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
			const read = readListQuery(ctx, i, op.noun);
			problems.add(...read.problems);
			if (read.query && op.extraQuery) Object.assign(read.query.qs, op.extraQuery(ctx, i));
			return read.query as ListQuery;
		},
		run: async (i, query) => {
			const records = (await paginate.call(ctx, op.path, op.itemsKey, query)) as IDataObject[];
			return op.shape ? records.map((record) => op.shape!(ctx, i, record)) : records;
		},
	});
}

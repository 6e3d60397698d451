import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { simplifyPlot } from '../../plots/simplify';
import { paginate } from '../../transport/paginate';
import type { ItemProblems } from '../shared/preflight';
import { preflightError, problemItem } from '../shared/preflight';

const show = { resource: ['plot'], operation: ['getMany'] };

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
				description: 'Only plots created at or after this time (ISO-8601; without a zone it is UTC)',
			},
			{
				displayName: 'Created Before',
				name: 'createdAtUntil',
				type: 'dateTime',
				default: '',
				description: 'Only plots created at or before this time (ISO-8601; without a zone it is UTC)',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Lite',
				name: 'lite',
				type: 'boolean',
				default: false,
				description: 'Whether to get lightweight summaries (ID, name, commodity, area, created time, country) instead of full plots; much faster for large accounts',
			},
		],
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description: 'Whether to return a flat row per plot (ID, name, commodity, country, area, lat, lon, risk level and the main analysis figures) fit for a spreadsheet, instead of the full plot',
	},
];

/** An ISO-8601 text of a date filter (strings, Dates and Luxon DateTimes), or a problem. */
export function readTimeFilter(value: unknown): { value?: string; problem?: string } {
	if (value === undefined || value === null || value === '') return {};
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? { problem: 'the date is invalid' } : { value: value.toISOString() };
	if (typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return { value: String((value as { toISO: () => string }).toISO()) };
	}
	if (typeof value !== 'string') return { problem: `it is a ${typeof value}, not a date` };
	const text = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) {
		return { problem: `"${text}" is not an ISO-8601 date or time (e.g. 2026-03-01 or 2026-03-01T12:00:00Z)` };
	}
	return { value: text };
}

interface Query {
	limit?: number;
	qs: IDataObject;
}

function readQuery(ctx: IExecuteFunctions, i: number): { query?: Query; problems: string[] } {
	const problems: string[] = [];
	const returnAll = ctx.getNodeParameter('returnAll', i, false) as boolean;
	const qs: IDataObject = {};
	let limit: number | undefined;
	if (!returnAll) {
		limit = Number(ctx.getNodeParameter('limit', i, 50));
		if (!Number.isInteger(limit) || limit < 1) {
			problems.push(`Item ${i}, field "Limit": ${String(limit)} is not a whole number of 1 or more. Give how many plots to return, or turn on "Return All".`);
		}
	}
	const filters = ctx.getNodeParameter('filters', i, {}) as IDataObject;
	for (const [field, label, key] of [
		['createdAtFrom', 'Created After', 'created_at_from'],
		['createdAtUntil', 'Created Before', 'created_at_until'],
	] as const) {
		const read = readTimeFilter(filters[field]);
		if (read.problem) problems.push(`Item ${i}, field "${label}": ${read.problem}. Pick a date or give an ISO-8601 time.`);
		else if (read.value) qs[key] = read.value;
	}
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	if (options.lite === true) qs.lite = true;
	return problems.length > 0 ? { problems } : { problems, query: { limit, qs } };
}

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const queries: Array<Query | undefined> = [];
	const problems: ItemProblems = new Map();
	for (let i = 0; i < items.length; i++) {
		const read = readQuery(this, i);
		queries.push(read.query);
		if (!read.query) problems.set(i, read.problems);
	}
	if (problems.size > 0 && !this.continueOnFail()) throw preflightError(this, problems);

	const out = await forEachItem(this, items, async (i) => {
		const query = queries[i];
		if (!query) return [];
		const plots = (await paginate.call(this, '/plots', 'plots', { limit: query.limit, qs: query.qs })) as IDataObject[];
		const simplify = this.getNodeParameter('simplify', i, true) as boolean;
		return plots.map((plot) => (simplify ? simplifyPlot(plot) : plot));
	});
	for (const [i, lines] of problems) out.push(problemItem(i, lines));
	return out.sort((a, b) => pairedIndex(a) - pairedIndex(b));
}

function pairedIndex(item: INodeExecutionData): number {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired[0]?.item ?? 0;
	return paired?.item ?? 0;
}

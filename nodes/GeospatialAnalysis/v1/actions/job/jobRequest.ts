import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, jsonParse } from 'n8n-workflow';

import { describeSchema, validateAgainstSchema } from '../../../../shared/jobs/schemaCheck';
import type { Capability } from '../../../../shared/transport/catalog';
import { getCatalog } from '../../../../shared/transport/catalog';
import { parseIdList } from './common';

/** Fields shared by Create and Get Quote: what to analyse, with which checks. */
export const COMMODITIES = ['wood', 'soy', 'cocoa', 'coffee', 'palm_oil', 'beef', 'rubber'];

export function requestFields(operations: string[]): INodeProperties[] {
	const show = { resource: ['job'], operation: operations };
	return [
		{
			displayName: 'Plot IDs',
			name: 'plotIds',
			type: 'string',
			required: true,
			default: '={{ $json.plot_id }}',
			displayOptions: { show },
			description:
				'IDs of registered plots to analyse: a list or comma-separated text, read from each input item (e.g. {{ $JSON.plot_id }} after Plot → Register). At most 10,000 plots per job, each once.',
		},
		{
			displayName: 'Jobs',
			name: 'jobPer',
			type: 'options',
			displayOptions: { show },
			options: [
				{
					name: 'One Job for All Items',
					value: 'allItems',
					description:
						'Collect the plot IDs of all input items into a single job (one output item)',
				},
				{
					name: 'One Job per Item',
					value: 'item',
					description: 'Create a separate job for each input item (one output item per input item)',
				},
			],
			default: 'allItems',
			description: 'Whether to make one job for the plots of all items or one job per item',
		},
		{
			displayName: 'Choose Checks',
			name: 'checkSource',
			type: 'options',
			displayOptions: { show },
			options: [
				{
					name: 'From List',
					value: 'list',
					description: "Pick checks from the service's live catalog",
				},
				{
					name: 'By Name',
					value: 'names',
					description: 'Type capability names (comma-separated), e.g. from an expression',
				},
			],
			default: 'list',
			description: 'How to choose the checks (analyses) the job runs',
		},
		{
			displayName: 'Check Names or IDs',
			name: 'checks',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getChecks' },
			displayOptions: { show: { ...show, checkSource: ['list'] } },
			default: [],
			description:
				'Analyses to run on every plot, loaded from the live catalog. Empty runs the default EUDR bundle (deforestation, protected areas, Indigenous land). Each check adds to the token cost; use Get Quote to see it. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Check Names',
			name: 'checkNames',
			type: 'string',
			displayOptions: { show: { ...show, checkSource: ['names'] } },
			default: 'eudr',
			placeholder: 'eudr, soil_moisture',
			description:
				'Capability names as the catalog lists them (Capability → Get Many), comma-separated. Empty runs the default EUDR bundle.',
		},
		{
			displayName: 'Check Configs',
			name: 'checkConfigs',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Check Config',
			displayOptions: { show },
			default: {},
			description:
				"Optional settings for individual checks, checked against that check's input schema from the catalog before anything is sent",
			options: [
				{
					displayName: 'Config',
					name: 'config',
					values: [
						{
							displayName: 'Check Name',
							name: 'check',
							type: 'string',
							default: '',
							placeholder: 'data_center_site_suitability',
							description: 'The capability name of a chosen check',
						},
						{
							displayName: 'Config (JSON)',
							name: 'json',
							type: 'json',
							default: '{}',
							description: 'The check\'s config object, e.g. {"power_mw": 20}',
						},
					],
				},
			],
		},
		{
			displayName: 'Commodity',
			name: 'commodity',
			type: 'options',
			displayOptions: { show },
			options: [
				{ name: 'As Registered', value: '' },
				{ name: 'Beef', value: 'beef' },
				{ name: 'Cocoa', value: 'cocoa' },
				{ name: 'Coffee', value: 'coffee' },
				{ name: 'Palm Oil', value: 'palm_oil' },
				{ name: 'Rubber', value: 'rubber' },
				{ name: 'Soy', value: 'soy' },
				{ name: 'Wood', value: 'wood' },
			],
			default: '',
			description:
				'Commodity for all plots of the job (sent as config.commodity). "As Registered" uses each plot\'s own commodity; a plot with none anywhere is rejected.',
		},
		{
			displayName: 'Harvest Date',
			name: 'harvestDate',
			type: 'string',
			displayOptions: { show },
			default: '',
			placeholder: '2025-10-31',
			description:
				"Harvest date for all plots (YYYY-MM-DD, sent as config.harvest_date). Empty: each plot's own, else the analysis runs to today.",
		},
		{
			displayName: 'Per-Plot Values',
			name: 'perPlot',
			type: 'collection',
			placeholder: 'Add Per-Plot Value',
			displayOptions: { show },
			default: {},
			description:
				'Commodity and harvest date for the plots of each input item (sent as per_plot), overriding the shared values; use expressions such as {{ $JSON.commodity }}',
			options: [
				{
					displayName: 'Commodity',
					name: 'commodity',
					type: 'string',
					default: '',
					placeholder: '={{ $json.commodity }}',
					description: 'One of wood, soy, cocoa, coffee, palm_oil, beef, rubber',
				},
				{
					displayName: 'Harvest Date',
					name: 'harvestDate',
					type: 'string',
					default: '',
					placeholder: '={{ $json.harvest_date }}',
					description: 'YYYY-MM-DD',
				},
			],
		},
	];
}

export interface ItemPlots {
	itemIndex: number;
	plotIds: string[];
	perPlot: Record<string, IDataObject>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(
	ctx: IExecuteFunctions,
	value: string,
	field: string,
	itemIndex: number,
): string {
	const text = value.trim();
	if (!DATE.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
		throw new NodeOperationError(
			ctx.getNode(),
			`"${field}" of item ${itemIndex} is not a date: "${text}"`,
			{
				itemIndex,
				description: 'Write the date as YYYY-MM-DD, e.g. 2025-10-31.',
			},
		);
	return text;
}

function checkCommodity(
	ctx: IExecuteFunctions,
	value: string,
	field: string,
	itemIndex: number,
): string {
	const text = value.trim().toLowerCase().replace(/\s+/g, '_');
	if (!COMMODITIES.includes(text))
		throw new NodeOperationError(
			ctx.getNode(),
			`"${field}" of item ${itemIndex} is not a known commodity: "${value}"`,
			{
				itemIndex,
				description: `Use one of ${COMMODITIES.join(', ')}.`,
			},
		);
	return text;
}

/** The plot ids and per-plot values of one item; throws before any request when they are unusable. */
export function readItemPlots(ctx: IExecuteFunctions, itemIndex: number): ItemPlots {
	const plotIds = parseIdList(ctx.getNodeParameter('plotIds', itemIndex, ''));
	if (plotIds.length === 0)
		throw new NodeOperationError(ctx.getNode(), `No plot ID in "Plot IDs" of item ${itemIndex}`, {
			itemIndex,
			description:
				'Give the IDs of registered plots (a list or comma-separated), e.g. {{ $json.plot_id }} after Plot → Register.',
		});
	const bad = plotIds.find((id) => !/^[\w.-]+$/.test(id));
	if (bad !== undefined)
		throw new NodeOperationError(
			ctx.getNode(),
			`"${bad}" in "Plot IDs" of item ${itemIndex} is not a plot ID`,
			{
				itemIndex,
				description: 'Plot IDs are numbers such as 100001. Check the expression in "Plot IDs".',
			},
		);
	const values = ctx.getNodeParameter('perPlot', itemIndex, {}) as IDataObject;
	const entry: IDataObject = {};
	if (typeof values.commodity === 'string' && values.commodity.trim() !== '')
		entry.commodity = checkCommodity(
			ctx,
			values.commodity,
			'Per-Plot Values → Commodity',
			itemIndex,
		);
	if (typeof values.harvestDate === 'string' && values.harvestDate.trim() !== '')
		entry.harvest_date = checkDate(
			ctx,
			values.harvestDate,
			'Per-Plot Values → Harvest Date',
			itemIndex,
		);
	const perPlot: Record<string, IDataObject> = {};
	if (Object.keys(entry).length) for (const id of plotIds) perPlot[id] = { ...entry };
	return { itemIndex, plotIds, perPlot };
}

export interface JobSettings {
	checks: Array<{ type: string; config?: IDataObject }>;
	config: IDataObject;
}

/** Checks and shared config, read from the given item; format errors only (no request). */
export function readJobSettings(ctx: IExecuteFunctions, itemIndex: number): JobSettings {
	const source = ctx.getNodeParameter('checkSource', itemIndex, 'list');
	const names =
		source === 'names'
			? parseIdList(ctx.getNodeParameter('checkNames', itemIndex, ''))
			: parseIdList(ctx.getNodeParameter('checks', itemIndex, []));
	const configs =
		(ctx.getNodeParameter('checkConfigs.config', itemIndex, []) as IDataObject[]) ?? [];
	const byName = new Map<string, IDataObject>();
	for (const entry of configs) {
		const name = String(entry.check ?? '').trim();
		if (!name) continue;
		let config: unknown = entry.json;
		if (typeof config === 'string') {
			try {
				config = config.trim() === '' ? {} : jsonParse(config);
			} catch {
				throw new NodeOperationError(
					ctx.getNode(),
					`"Check Configs" for "${name}" of item ${itemIndex} is not valid JSON`,
					{
						itemIndex,
						description: 'Write the config as a JSON object, e.g. {"power_mw": 20}.',
					},
				);
			}
		}
		if (!config || typeof config !== 'object' || Array.isArray(config))
			throw new NodeOperationError(
				ctx.getNode(),
				`"Check Configs" for "${name}" of item ${itemIndex} must be a JSON object`,
				{
					itemIndex,
					description: 'Write the config as a JSON object, e.g. {"power_mw": 20}.',
				},
			);
		if (!names.includes(name))
			throw new NodeOperationError(
				ctx.getNode(),
				`"Check Configs" of item ${itemIndex} configures "${name}", which is not among the chosen checks`,
				{
					itemIndex,
					description: `Add "${name}" to the checks, or remove its config. Chosen: ${names.join(', ') || 'none (default EUDR)'}.`,
				},
			);
		byName.set(name, config as IDataObject);
	}
	const checks = names.map((type) =>
		byName.has(type) ? { type, config: byName.get(type) } : { type },
	);
	const config: IDataObject = {};
	const commodity = String(ctx.getNodeParameter('commodity', itemIndex, '') ?? '');
	if (commodity.trim()) config.commodity = checkCommodity(ctx, commodity, 'Commodity', itemIndex);
	const harvest = String(ctx.getNodeParameter('harvestDate', itemIndex, '') ?? '');
	if (harvest.trim()) config.harvest_date = checkDate(ctx, harvest, 'Harvest Date', itemIndex);
	return { checks, config };
}

/** Checks names and configs against the live catalog (each config against its input_schema). */
export async function validateChecks(
	ctx: IExecuteFunctions,
	checks: JobSettings['checks'],
	itemIndex: number,
): Promise<void> {
	if (checks.length === 0) return;
	let catalog: Capability[] = await getCatalog.call(ctx);
	const find = (name: string) => catalog.find((c) => c.name === name);
	if (checks.some((c) => !find(c.type)))
		catalog = [...catalog, ...(await getCatalog.call(ctx, { hidden: true }))];
	for (const check of checks) {
		const capability = find(check.type);
		if (!capability)
			throw new NodeOperationError(
				ctx.getNode(),
				`Unknown check "${check.type}" in item ${itemIndex}`,
				{
					itemIndex,
					description: `The service's catalog has no capability of that name. Available: ${catalog
						.map((c) => c.name)
						.filter((n, i, all) => all.indexOf(n) === i)
						.join(', ')}.`,
				},
			);
		const schema = capability.input_schema;
		if (!schema) continue;
		const problems = validateAgainstSchema(schema, check.config ?? {});
		if (problems.length)
			throw new NodeOperationError(
				ctx.getNode(),
				`Invalid config for check "${check.type}" in item ${itemIndex}: ${problems.join('; ')}`,
				{
					itemIndex,
					description: `Fix "Check Configs" for ${check.type}. It accepts: ${describeSchema(schema)}.`,
				},
			);
	}
}

/** Builds the make_job body of a group of items. */
export function buildBody(
	group: ItemPlots[],
	settings: JobSettings,
	extra: IDataObject = {},
): IDataObject {
	const plotIds: string[] = [];
	const perPlot: Record<string, IDataObject> = {};
	for (const item of group) {
		for (const id of item.plotIds) if (!plotIds.includes(id)) plotIds.push(id);
		Object.assign(perPlot, item.perPlot);
	}
	const body: IDataObject = { plot_ids: plotIds };
	if (settings.checks.length) body.checks = settings.checks;
	if (Object.keys(settings.config).length) body.config = settings.config;
	if (Object.keys(perPlot).length) body.per_plot = perPlot;
	return { ...body, ...extra };
}

/** Reads the groups of items that make one job each; bad items become error items or stop the node. */
export function groupItems(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	errors: INodeExecutionData[],
	onError: (error: unknown, itemIndex: number) => INodeExecutionData,
): ItemPlots[][] {
	const good: ItemPlots[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			good.push(readItemPlots(ctx, i));
		} catch (error) {
			errors.push(onError(error, i));
		}
	}
	const jobPer = ctx.getNodeParameter('jobPer', 0, 'allItems');
	if (jobPer === 'item') return good.map((g) => [g]);
	return good.length ? [good] : [];
}

import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeSchema, validateAgainstSchema } from '../../../../shared/jobs/schemaCheck';
import type { Capability } from '../../../../shared/capabilities/catalog';
import {
	COMMODITY_OPTIONS,
	readCommodity,
	readDate,
	readJsonObject,
	setOwn,
} from '../../../../shared/input';
import type { IdField } from '../../../../shared/descriptions/takeId';
import { takeIdList } from '../../../../shared/descriptions/takeId';
import type { Problems, Ready } from '../../../../shared/runner';
import { getCatalog } from '../../../../shared/capabilities/catalog';

/**
 * Fields of Job → Create and Get Quote that both node versions show (version 1 at the top
 * level, version 2 in Options): one definition, placed by each version.
 */
export const JOB_PER_FIELD: INodeProperties = {
	displayName: 'Jobs',
	name: 'jobPer',
	type: 'options',
	options: [
		{
			name: 'One Job for All Items',
			value: 'allItems',
			description: 'Collect the plot IDs of all input items into a single job (one output item)',
		},
		{
			name: 'One Job per Item',
			value: 'item',
			description: 'Create a separate job for each input item (one output item per input item)',
		},
	],
	default: 'allItems',
	description: 'Whether to make one job for the plots of all items or one job per item',
};

export const CHECK_CONFIGS_FIELD: INodeProperties = {
	displayName: 'Check Configs',
	name: 'checkConfigs',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Check Config',
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
};

export const COMMODITY_FIELD: INodeProperties = {
	displayName: 'Commodity',
	name: 'commodity',
	type: 'options',
	options: [
		{ name: 'As Registered', value: '' },
		...COMMODITY_OPTIONS.map((option) => ({ ...option })),
	],
	default: '',
	description:
		'Commodity for all plots of the job (sent as config.commodity). "As Registered" uses each plot\'s own commodity; a plot with none anywhere is rejected.',
};

export const HARVEST_DATE_FIELD: INodeProperties = {
	displayName: 'Harvest Date',
	name: 'harvestDate',
	type: 'string',
	default: '',
	placeholder: '2025-10-31',
	description:
		"Harvest date for all plots (YYYY-MM-DD, sent as config.harvest_date). Empty: each plot's own, else the analysis runs to today.",
};

/** Job → Create: what is stored with the job (version 1: Additional Fields; version 2: Options). */
export const JOB_TEXT_FIELDS: INodeProperties[] = [
	{
		displayName: 'Additional Info (JSON)',
		name: 'additionalInfo',
		type: 'json',
		default: '{}',
		description: 'Free key-value pairs stored with the job, e.g. {"batch": "2026-Q1"}',
	},
	{
		displayName: 'Job Name',
		name: 'jobName',
		type: 'string',
		default: '',
		description:
			'Name of the job. When empty the node names it "n8n" plus the time and a random suffix, so that it can recognize the job after a dropped connection.',
	},
	{
		displayName: 'Notes',
		name: 'notes',
		type: 'string',
		default: '',
		description: 'Free text stored with the job',
	},
];

/** Job → Create: how far back a lost create is looked for (Options in both versions). */
export const RECOVERY_WINDOW_FIELD: INodeProperties = {
	displayName: 'Recovery Window (Minutes)',
	name: 'recoveryWindowMinutes',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 60 },
	default: 10,
	description:
		'When the answer to the create request is lost (connection cut, timeout, gateway error), the node looks for a job with the same name and plot IDs created since this many minutes before the request (which also covers a difference between the clocks of n8n and the service) and returns it instead of creating a second one; only when there is certainly none is the job sent once more',
};

/** Job → Create / Get Quote: the plots to analyse (both node versions, at the top). */
export const PLOT_IDS_FIELD: INodeProperties = {
	displayName: 'Plot IDs',
	name: 'plotIds',
	type: 'string',
	required: true,
	default: '={{ $json.plot_id }}',
	description:
		'IDs of registered plots to analyze: a list, comma-separated text or a JSON array, read from each input item (by default its plot_id field, as Plot → Register outputs it). At most 10,000 plots per job, each once.',
};

/** Fields shared by Create and Get Quote in version 1: what to analyse, with which checks. */
export function requestFields(): INodeProperties[] {
	return [
		PLOT_IDS_FIELD,
		JOB_PER_FIELD,
		{
			displayName: 'Choose Checks',
			name: 'checkSource',
			type: 'options',
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
			displayOptions: { show: { checkSource: ['list'] } },
			default: [],
			description:
				'Analyses to run on every plot, loaded from the live catalog. Empty runs the default EUDR bundle (deforestation, protected areas, Indigenous land). Each check adds to the token cost; use Get Quote to see it. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Check Names',
			name: 'checkNames',
			type: 'string',
			displayOptions: { show: { checkSource: ['names'] } },
			default: 'eudr',
			placeholder: 'eudr, soil_moisture',
			description:
				'Capability names as the catalog lists them (Capability → Get Many), comma-separated. Empty runs the default EUDR bundle.',
		},
		CHECK_CONFIGS_FIELD,
		COMMODITY_FIELD,
		HARVEST_DATE_FIELD,
		{
			displayName: 'Per-Plot Values',
			name: 'perPlot',
			type: 'collection',
			placeholder: 'Add Per-Plot Value',
			default: {},
			description:
				"Commodity and harvest date for the plots of each input item (sent as per_plot), overriding the shared values; map them from the item's fields with expressions (the placeholders show how)",
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

/**
 * Max Tokens by default in version 2 of the node (version 1: 0, no limit, inside Options):
 * about 100 hectares of plots for the EUDR bundle. Over it, nothing is created (the quote
 * that tells is free).
 */
export const MAX_TOKENS_DEFAULT_V2 = 100;

/**
 * Job → Create and Get Quote fields that version 2 of the node keeps in its Options
 * collection (version 1 shows them at the top level).
 */
const IN_OPTIONS_FROM_V2 = ['jobPer', 'commodity', 'harvestDate', 'checkConfigs'];

/** A Job → Create / Get Quote field of either node version, by its version-1 name. */
export function jobParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	const v2 = ctx.getNode().typeVersion >= 2 && IN_OPTIONS_FROM_V2.includes(name.split('.')[0]);
	return ctx.getNodeParameter(v2 ? `options.${name}` : name, itemIndex, fallback);
}

/** Per-plot commodity and harvest date: "Per-Plot Values" (v1), or two options (v2). */
function perPlotValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { values: IDataObject; commodityLabel: string; harvestLabel: string } {
	if (ctx.getNode().typeVersion >= 2) {
		const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
		return {
			values: { commodity: options.perPlotCommodity, harvestDate: options.perPlotHarvestDate },
			commodityLabel: 'Per-Plot Commodity',
			harvestLabel: 'Per-Plot Harvest Date',
		};
	}
	return {
		values: ctx.getNodeParameter('perPlot', itemIndex, {}) as IDataObject,
		commodityLabel: 'Per-Plot Values → Commodity',
		harvestLabel: 'Per-Plot Values → Harvest Date',
	};
}

export interface ItemPlots {
	itemIndex: number;
	plotIds: string[];
	perPlot: Record<string, IDataObject>;
}

const PLOT_IDS: IdField = { name: 'plotIds', label: 'Plot IDs', noun: 'plot' };

/** The plot ids and per-plot values of one item. */
export function readItemPlots(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Problems,
): ItemPlots {
	const plotIds = takeIdList(ctx, itemIndex, problems, PLOT_IDS);
	const { values, commodityLabel, harvestLabel } = perPlotValues(ctx, itemIndex);
	const entry: IDataObject = {};
	const commodity = problems.take(commodityLabel, readCommodity(values.commodity));
	if (commodity !== undefined) entry.commodity = commodity;
	const harvest = problems.take(harvestLabel, readDate(values.harvestDate));
	if (harvest !== undefined) entry.harvest_date = harvest;
	const perPlot: Record<string, IDataObject> = {};
	if (Object.keys(entry).length) for (const id of plotIds) setOwn(perPlot, id, { ...entry });
	return { itemIndex, plotIds, perPlot };
}

export interface JobSettings {
	checks: Array<{ type: string; config?: IDataObject }>;
	config: IDataObject;
}

const CONFIG_EXAMPLE = '{"power_mw": 20}';

/** Checks and shared config of one item; format only (no request). */
export function readJobSettings(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Problems,
): JobSettings {
	const byName = ctx.getNodeParameter('checkSource', itemIndex, 'list') === 'names';
	const names = takeIdList(ctx, itemIndex, problems, {
		name: byName ? 'checkNames' : 'checks',
		label: byName ? 'Check Names' : 'Check Names or IDs',
		noun: 'check',
		required: false,
	});
	const configs = (jobParameter(ctx, 'checkConfigs.config', itemIndex, []) as IDataObject[]) ?? [];
	const configOf = new Map<string, IDataObject>();
	for (const entry of configs) {
		const name = String(entry.check ?? '').trim();
		if (!name) continue;
		const field = `Check Configs → ${name}`;
		const read = readJsonObject(entry.json === undefined ? '' : entry.json, {
			example: CONFIG_EXAMPLE,
		});
		const config = read.kind === 'missing' ? {} : problems.take(field, read);
		if (!names.includes(name))
			problems.field(
				field,
				`"${name}" is not among the chosen checks. Add it to the checks, or remove its config. Chosen: ${names.join(', ') || 'none (default EUDR)'}.`,
			);
		else if (config !== undefined) configOf.set(name, config as IDataObject);
	}
	const checks = names.map((type) =>
		configOf.has(type) ? { type, config: configOf.get(type) } : { type },
	);
	const config: IDataObject = {};
	const commodity = problems.take(
		'Commodity',
		readCommodity(jobParameter(ctx, 'commodity', itemIndex, '')),
	);
	if (commodity !== undefined) config.commodity = commodity;
	const harvest = problems.take(
		'Harvest Date',
		readDate(jobParameter(ctx, 'harvestDate', itemIndex, '')),
	);
	if (harvest !== undefined) config.harvest_date = harvest;
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
		for (const [id, values] of Object.entries(item.perPlot)) setOwn(perPlot, id, values);
	}
	const body: IDataObject = { plot_ids: plotIds };
	if (settings.checks.length) body.checks = settings.checks;
	if (Object.keys(settings.config).length) body.config = settings.config;
	if (Object.keys(perPlot).length) body.per_plot = perPlot;
	return { ...body, ...extra };
}

/** What one item contributes to a job, read before any request. */
export interface JobItem {
	plots: ItemPlots;
	settings: JobSettings;
}

/** Reads one item's plots and job settings (no request). */
export function readJobItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Problems,
): JobItem {
	return {
		plots: readItemPlots(ctx, itemIndex, problems),
		settings: readJobSettings(ctx, itemIndex, problems),
	};
}

/** The items of each job: one job for all items, or one job per item. */
export function jobGroups<T>(
	ctx: IExecuteFunctions,
	ready: Array<Ready<T>>,
): Array<Array<Ready<T>>> {
	if (jobParameter(ctx, 'jobPer', 0, 'allItems') === 'item') return ready.map((r) => [r]);
	return ready.length > 0 ? [ready] : [];
}

/**
 * The make_job body of a group of items (checks and shared settings from its first item),
 * after checking the checks against the live catalog.
 */
export async function jobBody(
	ctx: IExecuteFunctions,
	group: Array<Ready<JobItem>>,
	extra: IDataObject = {},
): Promise<IDataObject> {
	const { itemIndex, value } = group[0];
	await validateChecks(ctx, value.settings.checks, itemIndex);
	return buildBody(
		group.map((g) => g.value.plots),
		value.settings,
		extra,
	);
}

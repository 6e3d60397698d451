import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { Feature } from '../../../../shared/geometry';
import { readLooseNumber } from '../../../../shared/geometry';
import type { RegistrationUnit, RequestFields } from '../../../../shared/plots/batching';
import {
	MAX_FEATURES_PER_REQUEST,
	planRegistrationRequests,
} from '../../../../shared/plots/batching';
import { RegistrationLedger, registerExactlyOnce } from '../../../../shared/plots/recover';
import type { DateOrder } from '../../../../shared/input';
import {
	COMMODITIES,
	DATE_ORDER_OPTIONS,
	readCommodity,
	readDateOrder,
	readDate,
	readKeyValuePairs,
	readText,
} from '../../../../shared/input';
import { geometrySourceFields, readGeometryOfItem } from '../shared/geometryInput';
import type { BatchOutput, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';

const show = { resource: ['plot'], operation: ['register'] };

export const MAX_PARALLEL_REQUESTS = 10;

export const description: INodeProperties[] = [
	...geometrySourceFields(show),
	{
		displayName: 'Plot Fields',
		name: 'plotFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		description:
			'Optional fields of each plot, usually mapped from the input columns with expressions',
		options: [
			{
				displayName: 'Additional Info',
				name: 'additionalInfo',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Pair',
				description: 'Free key/value pairs stored with the plot (values are sent as text)',
				options: [
					{
						displayName: 'Pair',
						name: 'pairs',
						values: [
							{ displayName: 'Key', name: 'key', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Commodity',
				name: 'commodity',
				type: 'string',
				default: '',
				placeholder: 'cocoa',
				description: `Commodity grown on the plot, one of ${COMMODITIES.join(', ')} (any letter case; "Palm Oil" works). Optional here: it can also be given when creating the job.`,
			},
			{
				displayName: 'Country (For Validation)',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'BR',
				description:
					'Country of the plot (name, ISO2 or ISO3 code). Not sent: used to catch swapped latitude/longitude and plots outside their country before upload.',
			},
			{
				displayName: 'Harvest Date',
				name: 'harvestDate',
				type: 'string',
				default: '',
				placeholder: '2024-03-15',
				description:
					'Harvest date, sent as YYYY-MM-DD. Accepts ISO dates and date-times, 15.03.2024, 15 March 2024, spreadsheet serial numbers (45366) and 15/03/2024 (see the option Date Order for ambiguous dates such as 03/04/2024). Without it the analysis runs from 31 Dec 2020 to today.',
			},
			{
				displayName: 'Notes',
				name: 'notes',
				type: 'string',
				default: '',
				description: 'Free text stored with the plot',
			},
			{
				displayName: 'Plot Name',
				name: 'plotName',
				type: 'string',
				default: '',
				description:
					'Name of the plot. When an item holds several features, the service numbers them ("Farm A 1", "Farm A 2", …). Items with their own name are sent one per request.',
			},
			{
				displayName: 'Point Area (Ha)',
				name: 'pointHa',
				type: 'string',
				default: '',
				placeholder: '2.5',
				description:
					'For point geometries only: the plot area in hectares, a number below 4 (the service draws a circle of that area; about 4 ha when empty). A plot of 4 ha or more must be given as a polygon (EUDR).',
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
				displayName: 'Date Order',
				name: 'dateOrder',
				type: 'options',
				default: 'reject',
				description:
					'How to read harvest dates such as 03/04/2024, where day and month could be swapped. Dates with a day above 12 and ISO dates are always read correctly.',
				options: DATE_ORDER_OPTIONS.map((option) => ({ ...option })),
			},
			{
				displayName: 'Parallel Requests',
				name: 'parallelRequests',
				type: 'number',
				default: 2,
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
				description: `How many registration requests (of up to ${MAX_FEATURES_PER_REQUEST} plots each) to send at the same time, 1 to ${MAX_PARALLEL_REQUESTS}`,
			},
			{
				displayName: 'Repair Geometry',
				name: 'repairGeometry',
				type: 'boolean',
				default: false,
				description:
					'Whether to close unclosed rings, remove duplicate consecutive vertices, rewind rings to RFC 7946 order and drop z values before sending. Every change is listed under "repairs" on the output item. When off, nothing is altered and such defects fail validation.',
			},
		],
	},
];

interface PreparedItem extends RegistrationUnit {
	features: Feature[];
	repairs: string[];
	warnings: string[];
}

/** Sets `properties.point_ha` on point features when a Point Area was mapped. */
function withPointHa(features: Feature[], pointHa: unknown): Feature[] {
	const read = readLooseNumber(pointHa);
	if (read.kind !== 'number') return features;
	return features.map((f) =>
		f.geometry?.type === 'Point'
			? { ...f, properties: { ...(f.properties ?? {}), point_ha: read.value } }
			: f,
	);
}

function prepareItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	repair: boolean,
	dateOrder: DateOrder,
	problems: Problems,
): PreparedItem {
	const fields = ctx.getNodeParameter('plotFields', itemIndex, {}) as IDataObject;
	const request: RequestFields = {};

	const name = problems.take('Plot Name', readText(fields.plotName));
	if (name !== undefined) request.plot_name = name;
	const commodity = problems.take('Commodity', readCommodity(fields.commodity));
	if (commodity !== undefined) request.commodity = commodity;
	const harvest = problems.take('Harvest Date', readDate(fields.harvestDate, dateOrder));
	if (harvest !== undefined) request.harvest_date = harvest;
	const notes = problems.take('Notes', readText(fields.notes));
	if (notes !== undefined) request.notes = notes;
	const info = problems.take('Additional Info', readKeyValuePairs(fields.additionalInfo ?? []));
	if (info !== undefined) request.additional_info = info;

	const country = readText(fields.country);
	const geometry = readGeometryOfItem.call(ctx, itemIndex, {
		repair,
		country: country.kind === 'value' ? country.value : undefined,
		pointHa: fields.pointHa,
		maxFeatures: MAX_FEATURES_PER_REQUEST,
	});
	problems.add(...geometry.errors);
	return {
		itemIndex,
		featureCount: geometry.features.length,
		features: withPointHa(geometry.features, fields.pointHa),
		fields: request,
		repairs: geometry.repairs,
		warnings: geometry.warnings,
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true;
	const dateOrder = readDateOrder(options.dateOrder);
	const parallel = Math.min(
		MAX_PARALLEL_REQUESTS,
		Math.max(1, Math.floor(Number(options.parallelRequests ?? 2)) || 1),
	);
	// What this run has registered: no plot is registered twice or paired with two rows.
	const ledger = new RegistrationLedger();
	return await runItems<PreparedItem>(this, items, {
		prepare: (i, problems) => prepareItem(this, i, repair, dateOrder, problems),
		// Batches of at most 20 features; see plots/batching.ts for the rule.
		plan: (ready) =>
			planRegistrationRequests(ready.map((r) => r.value)).map((request) => {
				const units = request.units.map((u) => ready[u].value);
				return {
					items: units.map((u) => u.itemIndex),
					send: async () => await sendRegistration(this, units, request.fields, repair, ledger),
				};
			}),
		concurrency: parallel,
		// What exists when the run stops (registered, or may have been), so nothing is sent twice.
		alreadyDone: (_succeeded, error) => ledger.report(error),
	});
}

/**
 * One make_plot request, exactly once (plots/recover.ts); one output per plot, paired with
 * its item, with its feature index (and `recovered_after_connection_error` when its answer
 * was lost and the plot was found afterwards).
 */
async function sendRegistration(
	ctx: IExecuteFunctions,
	units: PreparedItem[],
	fields: RequestFields,
	repair: boolean,
	ledger: RegistrationLedger,
): Promise<BatchOutput[]> {
	const rows = units.flatMap((unit) =>
		unit.features.map((feature, featureIndex) => ({
			itemIndex: unit.itemIndex,
			featureIndex,
			itemFeatureCount: unit.features.length,
			feature,
		})),
	);
	const outcomes = await registerExactlyOnce(ctx, { rows, fields }, ledger);
	const unitOf = new Map(units.map((u) => [u.itemIndex, u]));
	const failed = new Set<number>();
	return outcomes.flatMap((outcome): BatchOutput[] => {
		const item = outcome.row.itemIndex;
		if ('error' in outcome) {
			if (failed.has(item)) return [];
			failed.add(item);
			return [{ item, error: outcome.error }];
		}
		const unit = unitOf.get(item) as PreparedItem;
		const json: IDataObject = { ...outcome.plot, input_feature_index: outcome.row.featureIndex };
		if (repair) json.repairs = unit.repairs;
		if (unit.warnings.length > 0) json.warnings = unit.warnings;
		if (outcome.recovered) json.recovered_after_connection_error = true;
		return [{ item, json }];
	});
}

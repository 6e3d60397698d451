/**
 * The "Plot Fields" of Plot → Register, shared with Plot → Validate (the same fields, read
 * the same way), and the two options both offer: Date Order and Repair Geometry.
 */
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { RequestFields } from '../../../../shared/plots/batching';
import type { DateOrder } from '../../../../shared/plots/dates';
import { readHarvestDate } from '../../../../shared/plots/dates';
import {
	COMMODITIES,
	readAdditionalInfo,
	readCommodity,
	readText,
} from '../../../../shared/plots/fields';
import type { Problems } from '../../../../shared/runner';

/** The Plot Fields collection, shown where `show` says. */
export function plotFieldsProperty(show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
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
	};
}

/** Options → Date Order. */
export const dateOrderOption: INodeProperties = {
	displayName: 'Date Order',
	name: 'dateOrder',
	type: 'options',
	default: 'reject',
	description:
		'How to read harvest dates such as 03/04/2024, where day and month could be swapped. Dates with a day above 12 and ISO dates are always read correctly.',
	options: [
		{
			name: 'Reject Ambiguous Dates',
			value: 'reject',
			description: 'Fail the item and ask for YYYY-MM-DD',
		},
		{ name: 'Day First (DD/MM/YYYY)', value: 'dayFirst' },
		{ name: 'Month First (MM/DD/YYYY)', value: 'monthFirst' },
	],
};

/** Options → Repair Geometry, with what it does in the operation (sending, outputting). */
export function repairGeometryOption(what: string): INodeProperties {
	return {
		displayName: 'Repair Geometry',
		name: 'repairGeometry',
		type: 'boolean',
		default: false,
		description: `Whether to close unclosed rings, remove duplicate consecutive vertices, rewind rings to RFC 7946 order and drop z values ${what}. Every change is listed under "repairs" on the output item. When off, nothing is altered and such defects fail validation.`,
	};
}

/** What the Plot Fields of one item say. */
export interface PlotFieldValues {
	/** The fields sent beside the GeoJSON (only those given). */
	request: RequestFields;
	/** Country (For Validation), when given. */
	country?: string;
	/** Point Area (Ha) as mapped in (the geometry layer reads and checks it). */
	pointHa: unknown;
}

/** Reads the Plot Fields of one item; a field that cannot be used is reported through `problems`. */
export function readPlotFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	dateOrder: DateOrder,
	problems: Pick<Problems, 'field'>,
): PlotFieldValues {
	const fields = ctx.getNodeParameter('plotFields', itemIndex, {}) as IDataObject;
	const request: RequestFields = {};

	const name = readText(fields.plotName);
	if (name.kind === 'invalid') problems.field('Plot Name', name.reason);
	else if (name.kind === 'value') request.plot_name = name.value;

	const commodity = readCommodity(fields.commodity);
	if (commodity.kind === 'invalid') problems.field('Commodity', commodity.reason);
	else if (commodity.kind === 'value') request.commodity = commodity.value;

	const harvest = readHarvestDate(fields.harvestDate, dateOrder);
	if (harvest.kind === 'invalid') problems.field('Harvest Date', harvest.reason);
	else if (harvest.kind === 'date') request.harvest_date = harvest.value;

	const notes = readText(fields.notes);
	if (notes.kind === 'invalid') problems.field('Notes', notes.reason);
	else if (notes.kind === 'value') request.notes = notes.value;

	const pairs = ((fields.additionalInfo as IDataObject | undefined)?.pairs ?? []) as Array<{
		key?: unknown;
		value?: unknown;
	}>;
	const info = readAdditionalInfo(Array.isArray(pairs) ? pairs : []);
	if (info.kind === 'invalid') problems.field('Additional Info', info.reason);
	else if (info.kind === 'value') request.additional_info = info.value;

	const country = readText(fields.country);
	return {
		request,
		country: country.kind === 'value' ? country.value : undefined,
		pointHa: fields.pointHa,
	};
}

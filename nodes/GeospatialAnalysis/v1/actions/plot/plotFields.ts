/**
 * The "Plot Fields" of Plot → Register, shared with Plot → Validate (the same fields, read
 * the same way), and the two options both offer: Date Order and Repair Geometry.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { RequestFields } from '../../../../shared/plots/batching';
import type { DateOrder, Reading } from '../../../../shared/input';
import {
	COMMODITIES,
	DATE_ORDER_OPTIONS,
	readCommodity,
	readCountry,
	readDate,
	readHectares,
	readKeyValuePairs,
	readText,
} from '../../../../shared/input';
import type { Problems } from '../../../../shared/runner';

/** The Plot Fields collection (the operation file sets where it shows). */
export const plotFieldsProperty: INodeProperties = {
	displayName: 'Plot Fields',
	name: 'plotFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
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
			displayName: 'Expected Country',
			name: 'country',
			type: 'string',
			default: '',
			placeholder: 'BR',
			description:
				'Country the plot should lie in (name, ISO2 or ISO3 code). Not sent to the service: used to catch swapped latitude/longitude and plots outside their country before upload.',
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
			displayName: 'Point Area (Hectares)',
			name: 'pointHa',
			type: 'string',
			default: '',
			placeholder: '2.5',
			description:
				"For point geometries only: the plot area in hectares, a number below 4 (the service draws a circle of that area; about 4 ha when empty). When empty, the point's own point_ha, Area, area_ha or AREA property is used. A plot of more than 4 ha must be given as a polygon (EUDR); the service takes point_ha only below 4.0.",
		},
	],
};

/** Options → Date Order. */
export const dateOrderOption: INodeProperties = {
	displayName: 'Date Order',
	name: 'dateOrder',
	type: 'options',
	default: 'reject',
	description:
		'How to read harvest dates such as 03/04/2024, where day and month could be swapped. Dates with a day above 12 and ISO dates are always read correctly.',
	options: DATE_ORDER_OPTIONS.map((option) => ({ ...option })),
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
	/** Expected Country as its ISO 3166-1 alpha-2 code, when given and known. */
	country?: string;
	/**
	 * Point Area (Hectares), read once (`readHectares`). A value that is not a number is kept as read:
	 * the geometry layer reports it on each point of the item (a polygon does not use it), and
	 * the 4 ha rules there, with their own codes.
	 */
	pointHa: Reading<number>;
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

	const use = <T>(field: string, reading: Reading<T>): T | undefined => {
		if (reading.kind === 'invalid') problems.field(field, reading.reason);
		return reading.kind === 'value' ? reading.value : undefined;
	};
	const name = use('Plot Name', readText(fields.plotName));
	if (name !== undefined) request.plot_name = name;
	const commodity = use('Commodity', readCommodity(fields.commodity));
	if (commodity !== undefined) request.commodity = commodity;
	const harvest = use('Harvest Date', readDate(fields.harvestDate, dateOrder));
	if (harvest !== undefined) request.harvest_date = harvest;
	const notes = use('Notes', readText(fields.notes));
	if (notes !== undefined) request.notes = notes;
	const info = use('Additional Info', readKeyValuePairs(fields.additionalInfo ?? []));
	if (info !== undefined) request.additional_info = info;

	const country = use('Expected Country', readCountry(fields.country));
	return { request, country, pointHa: readHectares(fields.pointHa) };
}

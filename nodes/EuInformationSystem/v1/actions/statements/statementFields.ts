/**
 * Submit and Amend (DDS), Submit and Update (SD): what a statement is built from, the way users have their
 * data: one item per plot (Read File, Validate, a sheet), the items with the same Internal
 * Reference making one statement; or items holding the EU GeoJSON that Plot → Export wrote.
 * The fields are here; reading one item is statementRows.ts, combining the rows into
 * statements groupStatements.ts (both re-exported). The simplified declaration has the same
 * fields but its own roles, no species, and two more ways to locate a producer (postal
 * address, cadastral identifiers): `declarationFields('sd')`.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	geometrySourceFields,
	withItemGeometrySource,
} from '../../../../shared/descriptions/geometrySourceFields';
import { COMMODITY_OPTIONS } from '../../../../shared/input';
import { AREA_FIELD, OPTION_LABELS } from './statementRows';

export type { StatementRow } from './statementRows';
export { readStatementRow } from './statementRows';
export type { GroupedRows } from './groupStatements';
export { groupStatements } from './groupStatements';

/** Which declaration the fields describe: the DDS or the SD. */
export type DeclarationType = 'dds' | 'sd';

const SHOW: Record<DeclarationType, { show: Record<string, string[]> }> = {
	dds: { show: { resource: ['dueDiligenceStatement'], operation: ['submit', 'amend'] } },
	sd: { show: { resource: ['simplifiedDeclaration'], operation: ['submit', 'update'] } },
};

const ROLE_FIELDS: Record<DeclarationType, INodeProperties> = {
	dds: {
		displayName: 'Operator Role',
		name: 'operatorRole',
		type: 'options',
		options: [
			{
				name: 'Operator',
				value: 'OPERATOR',
				description: 'You place the goods on the market or export them',
			},
			{
				name: 'Authorised Representative',
				value: 'REPRESENTATIVE_OPERATOR',
				description:
					'You file for another operator: fill in the "Represented Operator …" fields of Statement Options',
			},
		],
		default: 'OPERATOR',
	},
	sd: {
		displayName: 'Operator Role',
		name: 'operatorRole',
		type: 'options',
		options: [
			{
				name: 'Micro or Small Primary Operator',
				value: 'MICRO_OPERATOR',
				description:
					'You produce the goods yourself in a low-risk country and place them on the market or export them',
			},
			{
				name: 'Authorised Representative',
				value: 'REPRESENTATIVE_MSPO',
				description:
					'You file for a micro or small primary operator: fill in the "Represented Operator …" fields of Statement Options',
			},
			{ name: 'Member State', value: 'MEMBER_STATE', description: 'A Member State authority' },
		],
		default: 'MICRO_OPERATOR',
	},
};

/** The activity types of V3 (Trade was removed), each saying what it covers. */
export const ACTIVITY_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Domestic',
		value: 'DOMESTIC',
		description:
			'Placing goods on the EU market, or making them available on it, without crossing the EU border (e.g. goods produced in the EU)',
	},
	{
		name: 'Export',
		value: 'EXPORT',
		description:
			'Goods leaving the EU through customs for a country outside it: the net weight is required',
	},
	{
		name: 'Import',
		value: 'IMPORT',
		description:
			'Goods from outside the EU released for free circulation in it through customs: the net weight is required',
	},
];

const NET_WEIGHT_HELP =
	"The commodity's total net weight in kilograms, the same on every row of the statement (rows that disagree are refused, nothing is added up). Required for import and export; at most 6 decimals.";

/** What the plot is filed as when its geometry is a latitude and a longitude. */
const LAT_LON_HELP =
	"Two fields with the plot's position in decimal degrees (numbers or numeric text; a comma decimal separator is fine). It is filed as a point with its area (Area of Points (Hectares)): the EU takes a point only for a plot of up to 4 ha; a larger plot needs its boundary as a polygon.";

/**
 * The shared Geometry Source fields as a statement has them: "Found in the Item" first, and the
 * words of the statement (a point is filed as a point, any number of features per item), not
 * those of the analysis service's registration. The due-diligence record reads plots the same way.
 */
export function forStatements(p: INodeProperties): INodeProperties {
	if (p.name === 'geometrySource' && p.type === 'options') {
		const withItem = withItemGeometrySource(p);
		return {
			...withItem,
			options: (withItem.options as INodePropertyOptions[]).map((o) =>
				o.value === 'latLon' ? { ...o, description: LAT_LON_HELP } : o,
			),
		};
	}
	if (p.name === 'geoJson')
		return {
			...p,
			description:
				'The GeoJSON of the item: a Feature, a FeatureCollection, a Point/Polygon/MultiPolygon geometry, or a JSON string of one of these. Coordinates are WGS84 [longitude, latitude].',
		};
	return p;
}

/** The SD's other ways to locate a producer (besides the geolocation of its plots). */
const SD_LOCATIONS = [
	{
		name: 'Postal Address',
		value: 'postalAddress',
		description:
			"Each item is one production place by its address (Producer Street, Postal Code, City); a producer's rows add up to its addresses",
	},
	{
		name: 'Cadastral Identifier',
		value: 'cadastralIdentifier',
		description:
			"Each item gives the plots' cadastral identifiers (several separated by commas); a producer's rows add up",
	},
];

const text = (displayName: string, name: string, def: string, description: string, extra: Partial<INodeProperties> = {}): INodeProperties =>
	({ displayName, name, type: 'string', default: def, description, ...extra }) as INodeProperties; // prettier-ignore

const plotRowsOnly = { show: { geolocationSource: ['plotRows'] } };

const sdLocationFields: INodeProperties[] = [
	...updateDisplayOptions({ show: { geolocationSource: ['postalAddress'] } }, [
		text('Producer Street', 'producerStreet', '', 'Street and number of the production place', {
			placeholder: 'e.g. 12 Chemin des Vignes',
		}),
		text('Producer Postal Code', 'producerPostalCode', '', 'Postal code of the production place', {
			required: true,
			placeholder: 'e.g. 47000',
		}),
		text('Producer City', 'producerCity', '', 'City of the production place', {
			required: true,
			placeholder: 'e.g. Agen',
		}),
	]),
	...updateDisplayOptions({ show: { geolocationSource: ['cadastralIdentifier'] } }, [
		text(
			'Cadastral Identifiers',
			'cadastralIdentifiers',
			'',
			"The plots' identifiers in the national land registry (at most 80 characters each), separated by commas",
			{ required: true, placeholder: 'e.g. 47001000AB0123, 47001000AB0124' },
		),
	]),
];

const SPECIES = ['commonName', 'scientificName'];

/** The fields of a DDS (Submit, Amend) or an SD (Submit, Update). */
export function declarationFields(type: DeclarationType): INodeProperties[] {
	const sd = type === 'sd';
	const producerFields = [
		text(
			'Producer Country',
			'producerCountry',
			'={{ $json.country }}',
			'Country of production of the plot (a name or an ISO code)',
		),
		text(
			'Producer Name',
			'producerName',
			'',
			'Name of the producer: plots of the same producer and country make one producer of the statement',
			{ placeholder: 'e.g. Coopérative Agricole Kavokiva' },
		),
	];
	const fields = updateDisplayOptions(SHOW[type], [
		text(
			'Internal Reference',
			'internalReference',
			'={{ $json.internal_reference }}',
			sd
				? 'Your reference of the declaration (3 to 14 characters). Items with the same Internal Reference make one declaration. Submit looks it up before sending, so a declaration is never filed twice.'
				: 'Your reference of the statement (3 to 35 characters), e.g. the purchase order. Items with the same Internal Reference make one statement. Submit looks it up before sending, so a statement is never filed twice.',
			{ required: true },
		),
		ROLE_FIELDS[type],
		{
			displayName: 'Activity Type',
			name: 'activityType',
			type: 'options',
			options: ACTIVITY_OPTIONS,
			default: 'IMPORT',
			description:
				'The commercial activity the statement covers; an import or export must state the net weight',
		},
		text(
			'Country of Activity',
			'countryOfActivity',
			'',
			'EU member state of the activity, as a two-letter code (FR, DE, …; Greece is GR, Northern Ireland XI)',
			{ placeholder: 'e.g. FR' },
		),
		{
			displayName: 'Commodity',
			name: 'commodity',
			type: 'options',
			options: [...COMMODITY_OPTIONS],
			default: 'cocoa',
			description:
				'The EUDR commodity of the goods: the HS Heading is checked against its headings in EUDR Annex I',
		},
		text(
			'HS Heading',
			'hsHeading',
			'',
			'HS code of the goods, 2 to 6 digits, from EUDR Annex I (e.g. 1801 cocoa beans, 0901 coffee, 4407 sawn wood)',
			{ required: true, placeholder: 'e.g. 1801' },
		),
		text(
			'Description of Goods',
			'descriptionOfGoods',
			'',
			'Commercial description of the goods (at most 150 characters)',
			{ required: true, placeholder: 'e.g. Cocoa beans, whole, fermented and dried' },
		),
		text('Net Weight (kg)', 'netWeight', '', NET_WEIGHT_HELP, { placeholder: 'e.g. 12500' }),
		{
			displayName: 'Geolocation',
			name: 'geolocationSource',
			type: 'options',
			options: [
				{
					name: 'Plot Rows',
					value: 'plotRows',
					description:
						"Each item is one plot: its geometry from the fields below (Read File's, Validate's or a sheet's rows)",
				},
				{
					name: 'EU GeoJSON (From Plot → Export)',
					value: 'euGeoJson',
					description:
						'Each item holds a FeatureCollection that Plot → Export wrote (read its file with Extract From File)',
				},
				...(sd ? SD_LOCATIONS : []),
			],
			default: 'plotRows',
		},
		...updateDisplayOptions(plotRowsOnly, [
			...geometrySourceFields().map(forStatements),
			...(sd ? [] : producerFields),
			text(
				AREA_FIELD,
				'pointArea',
				'',
				"Area of a plot given as a point, in hectares (up to 4; larger plots need a polygon). When empty, the point's own point_ha, Area or area_ha property.",
				{ placeholder: 'e.g. 2.5' },
			),
		]),
		...(sd
			? updateDisplayOptions(
					{ show: { geolocationSource: ['plotRows', 'postalAddress', 'cadastralIdentifier'] } },
					producerFields,
				)
			: []),
		...(sd ? sdLocationFields : []),
		...updateDisplayOptions({ show: { geolocationSource: ['euGeoJson'] } }, [
			{
				displayName: 'EU GeoJSON',
				name: 'euGeoJson',
				type: 'json',
				default: '={{ $json.data }}',
				description:
					"The FeatureCollection Plot → Export wrote; producers are read from each feature's ProducerCountry and ProducerName",
			},
		]),
		{
			displayName: 'Statement Options',
			name: 'statementOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				text(
					OPTION_LABELS.borderCrossCountry,
					'borderCrossCountry',
					'',
					'EU member state where the goods cross the border, two letters',
					{ placeholder: 'e.g. NL' },
				),
				text(OPTION_LABELS.comment, 'comment', '', 'At most 2000 characters'),
				text(
					OPTION_LABELS.commonName,
					'commonName',
					'',
					'Wood: common name of the tree species (e.g. teak)',
					{ placeholder: 'e.g. teak' },
				),
				{
					displayName: OPTION_LABELS.geoLocationConfidential,
					name: 'geoLocationConfidential',
					type: 'boolean',
					default: false,
					description:
						'Whether the geolocation is shown only to the authorities, not to operators further down the supply chain',
				},
				text(
					OPTION_LABELS.groupedDeclarations,
					'groupedDeclarations',
					'',
					'Reference numbers of AVAILABLE statements this one groups, separated by commas',
					{ placeholder: 'e.g. 25FRAB12CD34EF, 25FRGH56JK78LM' },
				),
				text(
					OPTION_LABELS.percentageEstimate,
					'percentageEstimate',
					'',
					'Domestic only: how far the net weight may be off, 0 to 25 (0 when it is exact). A domestic due-diligence statement with a net weight needs it.',
					{ placeholder: 'e.g. 5' },
				),
				text(
					OPTION_LABELS.representedStreet,
					'representedStreet',
					'',
					'Street and number of the operator you represent',
					{ placeholder: 'e.g. Hafenstraße 12' },
				),
				text(OPTION_LABELS.representedCity, 'representedCity', '', '', {
					placeholder: 'e.g. Hamburg',
				}),
				text(OPTION_LABELS.representedCountry, 'representedCountry', '', 'Two-letter ISO code', {
					placeholder: 'e.g. DE',
				}),
				text(OPTION_LABELS.representedEmail, 'representedEmail', '', '', {
					placeholder: 'name@email.com',
				}),
				text(
					OPTION_LABELS.representedEori,
					'representedEori',
					'',
					'EORI number (needed for import and export)',
					{ placeholder: 'e.g. DE123456789012345' },
				),
				text(
					OPTION_LABELS.representedName,
					'representedName',
					'',
					'Required when filing as authorised representative',
					{ placeholder: 'e.g. Cacao Import GmbH' },
				),
				text(OPTION_LABELS.representedPostalCode, 'representedPostalCode', '', '', {
					placeholder: 'e.g. 20457',
				}),
				text(OPTION_LABELS.representedVat, 'representedVat', '', '', {
					placeholder: 'e.g. DE123456789',
				}),
				text(
					OPTION_LABELS.scientificName,
					'scientificName',
					'',
					'Wood: scientific name of the tree species (e.g. Tectona grandis)',
					{ placeholder: 'e.g. Tectona grandis' },
				),
				text(
					OPTION_LABELS.supplementaryUnit,
					'supplementaryUnit',
					'',
					"The commodity's quantity in its supplementary unit (import/export of cattle, tyres, hides, some wood and pulp; optional for domestic)",
					{ placeholder: 'e.g. 12.5' },
				),
				text(
					OPTION_LABELS.supplementaryUnitQualifier,
					'supplementaryUnitQualifier',
					'',
					'The unit code: NAR (items), MTQ (m³), KSD (kg of dry substance), MTK, MTR, NPR',
					{ placeholder: 'e.g. MTQ' },
				),
			],
		},
	]);
	if (!sd) return fields;
	// the SD's commodities have no species; it groups simplified declarations only
	const sdOption = (o: INodeProperties): INodeProperties =>
		o.name === 'groupedDeclarations'
			? {
					...o,
					description:
						'Reference numbers of AVAILABLE simplified declarations (they start with S) this one groups, separated by commas. Due-diligence statements cannot be grouped into a simplified declaration.',
				}
			: o;
	return fields.map((f) =>
		f.name === 'statementOptions'
			? {
					...f,
					options: (f.options as INodeProperties[])
						.filter((o) => !SPECIES.includes(o.name))
						.map(sdOption),
				}
			: f,
	);
}

export const statementFields: INodeProperties[] = declarationFields('dds');

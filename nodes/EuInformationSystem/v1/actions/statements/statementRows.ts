/**
 * One item of Submit or Amend (DDS), Submit or Update (SD), read before any request (the
 * runner's pre-flight): the statement-level fields, the item's commodity, and its plots as EU
 * features — the plot's geometry by the Geometry Source fields with Validate's checks, written
 * with Plot → Export's writer (six decimals, RFC 7946 winding, Area for points) — or the
 * producers of an EU GeoJSON FeatureCollection that Plot → Export wrote; for the SD also a
 * producer located by its postal address or its cadastral identifiers. Every text that goes
 * into the request is read with the input layer's `readXmlText` (the Statement Options swept
 * whole, the EU GeoJSON's producer names too): a character XML cannot carry is the item's
 * problem, naming the field and where in the text, before anything is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readGeometryOfItem } from '../../../../shared/descriptions/geometrySourceFields';
import type { SdPostalAddress } from '../../../../shared/dds/simplified';
import type {
	ActivityType,
	Commodity,
	GoodsMeasure,
	Statement,
} from '../../../../shared/dds/statement';
import type { PlotGeometry } from '../../../../shared/geometry';
import { readPointArea } from '../../../../shared/geometry';
import type { Reading } from '../../../../shared/input';
import {
	countryCodeProblem,
	readCommodity,
	readCountry,
	readHectares,
	readXmlText,
	xmlTextProblem,
} from '../../../../shared/input';
import {
	EU_POINT_MAX_HA,
	emptyNotes,
	findSixDecimalMerges,
	holeCount,
	writeEuFeature,
} from '../../../../shared/plots/euExport';
import type { Problems } from '../../../../shared/runner';
import { checkedTexts, opt, readRepresentedOperator } from './representedOperator';

export const AREA_FIELD = 'Area of Points (Hectares)';
const MAX_FEATURES_PER_ITEM = 10_000;

/** A producer of one item: its plots as EU features, or (SD) its postal address or cadastral ids. */
export interface RowProducer {
	country: string;
	name?: string;
	features: string[];
	postalAddress?: SdPostalAddress[];
	cadastralIdentifier?: string[];
}

/** What one item gives: the statement-level fields, its commodity and its producers' plots. */
export interface StatementRow {
	internalReference: string;
	/** The Operator Role field's value (a DDS or an SD role; the rules check it). */
	role: string;
	/** The statement without commodities (they come from the rows). */
	head: Omit<Statement, 'commodities'>;
	commodity: Omit<Commodity, 'producers'>;
	/** The EU features of this item's plots (or its SD location), by producer (country + name). */
	producers: RowProducer[];
}

/** The Statement Options' labels (statementFields.ts shows the options under these names). */
export const OPTION_LABELS = {
	borderCrossCountry: 'Border Cross Country',
	comment: 'Comment',
	commonName: 'Common Name of Species',
	geoLocationConfidential: 'Geolocation Confidential',
	groupedDeclarations: 'Grouped Declarations',
	percentageEstimate: 'Percentage Estimate or Deviation',
	representedStreet: 'Represented Operator Address',
	representedCity: 'Represented Operator City',
	representedCountry: 'Represented Operator Country',
	representedEmail: 'Represented Operator E-Mail',
	representedEori: 'Represented Operator EORI',
	representedName: 'Represented Operator Name',
	representedPostalCode: 'Represented Operator Postal Code',
	representedVat: 'Represented Operator VAT Number',
	scientificName: 'Scientific Name of Species',
	supplementaryUnit: 'Supplementary Unit',
	supplementaryUnitQualifier: 'Supplementary Unit Type',
} as const;

/**
 * The Statement Options of an item, every text in them checked for characters XML cannot carry
 * (whatever option it is); a text that fails is the item's problem and left out.
 */
function statementOptions(ctx: IExecuteFunctions, i: number, problems: Problems): IDataObject {
	const given = (ctx.getNodeParameter('statementOptions', i, {}) ?? {}) as IDataObject;
	return checkedTexts(given, problems, (key) =>
		Object.hasOwn(OPTION_LABELS, key) ? OPTION_LABELS[key as keyof typeof OPTION_LABELS] : key,
	);
}

/** A decimal as text: numbers and numeric text ("1 250,5" stays refused by the rules). */
function decimal(v: unknown): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v === 'number') return Number.isFinite(v) ? String(v) : String(v);
	return String(v).trim() || undefined;
}

/** The plot of one item written as EU features (Validate's checks, Export's writer). */
function plotFeatures(
	ctx: IExecuteFunctions,
	i: number,
	country: string | undefined,
	problems: Problems,
): string[] {
	const area = readHectares(ctx.getNodeParameter('pointArea', i, ''), {
		min: 0,
		max: EU_POINT_MAX_HA,
	});
	problems.take(AREA_FIELD, area);
	const mapped: Reading<number> = area.kind === 'invalid' ? { kind: 'missing' } : area;
	const geometry = readGeometryOfItem.call(ctx, i, {
		country,
		pointHa: mapped,
		pointHaField: AREA_FIELD,
		serviceLimits: false,
		maxFeatures: MAX_FEATURES_PER_ITEM,
	});
	problems.add(...geometry.errors);
	if (geometry.errors.length > 0 || country === undefined) return [];
	const out: string[] = [];
	geometry.features.forEach((feature, f) => {
		const shape = feature.geometry as PlotGeometry;
		const where = `Item ${i}, feature ${f}`;
		if (holeCount(shape) > 0)
			return problems.add(
				`${where}: the polygon has holes; the EU Information System reads only the outer boundary, so a hole would count as part of the plot. Describe the plot as polygons without holes (Plot → Export can leave the holes out).`,
			);
		if (findSixDecimalMerges(shape).first)
			return problems.add(
				`${where}: vertices become one position at six decimals, which the EU Information System flags. Run the rows through Plot → Export with Repair Geometry on and submit its EU GeoJSON, or remove the extra vertices.`,
			);
		let pointArea: number | undefined;
		if (shape.type === 'Point') {
			const read = readPointArea(feature.properties, mapped, AREA_FIELD);
			pointArea = read.kind === 'value' ? read.value : undefined;
			if (pointArea === undefined || pointArea <= 0 || pointArea > EU_POINT_MAX_HA)
				return problems.field(
					AREA_FIELD,
					`${where} is a point ${pointArea === undefined ? 'without an area' : `of ${pointArea} ha`}: the EU takes a point only for a plot of up to ${EU_POINT_MAX_HA} ha, with its Area. Map the area in hectares, or give a larger plot as a polygon.`,
				);
		}
		out.push(
			writeEuFeature(
				shape,
				{ ProducerCountry: country, ...(pointArea !== undefined ? { Area: pointArea } : {}) },
				'refuse',
				emptyNotes(),
			).text,
		);
	});
	return out;
}

/** Producers of an EU GeoJSON FeatureCollection (Plot → Export's), by ProducerCountry + ProducerName. */
function euGeoJsonProducers(
	value: unknown,
	i: number,
	problems: Problems,
): StatementRow['producers'] {
	let fc = value;
	if (typeof fc === 'string') {
		try {
			fc = JSON.parse(fc);
		} catch {
			problems.field(
				'EU GeoJSON',
				'it is not JSON. Map the FeatureCollection that Plot → Export wrote (read its file with Extract From File).',
			);
			return [];
		}
	}
	const features = (fc as { type?: unknown; features?: unknown })?.features;
	if (
		(fc as { type?: unknown })?.type !== 'FeatureCollection' ||
		!Array.isArray(features) ||
		features.length === 0
	) {
		problems.field(
			'EU GeoJSON',
			'it is not a FeatureCollection with features. Map the file Plot → Export wrote (read with Extract From File, operation Extract From JSON).',
		);
		return [];
	}
	const byProducer = new Map<string, StatementRow['producers'][number]>();
	features.forEach((f: { properties?: Record<string, unknown> }, k) => {
		const country =
			typeof f?.properties?.ProducerCountry === 'string' ? f.properties.ProducerCountry : '';
		if (country.trim() === '')
			return problems.add(
				`Item ${i}, EU GeoJSON feature ${k}: no ProducerCountry (the ISO 3166-1 alpha-2 code, e.g. BR). Write the file with Plot → Export.`,
			);
		// the same check as a Plot Rows producer's country (rules.ts checks both again)
		const wrong = countryCodeProblem(country);
		if (wrong)
			return problems.add(
				`Item ${i}, EU GeoJSON feature ${k}, ProducerCountry: ${wrong} Correct the file (Plot → Export writes the code).`,
			);
		const name =
			typeof f.properties?.ProducerName === 'string' ? f.properties.ProducerName : undefined;
		const badName = name === undefined ? undefined : xmlTextProblem(name);
		if (badName !== undefined)
			return problems.field('EU GeoJSON', `the ProducerName of feature ${k}: ${badName}.`);
		const key = `${country}\u0000${name ?? ''}`;
		const entry = byProducer.get(key) ?? { country, name, features: [] };
		entry.features.push(JSON.stringify(f));
		byProducer.set(key, entry);
	});
	return [...byProducer.values()];
}

/** The SD's other locations of one item: its postal address, or its cadastral identifiers. */
function otherLocation(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	source: 'postalAddress' | 'cadastralIdentifier',
): Pick<RowProducer, 'postalAddress' | 'cadastralIdentifier'> | undefined {
	const param = (name: string) => ctx.getNodeParameter(name, i, '');
	if (source === 'cadastralIdentifier') {
		const ids = (
			problems.take('Cadastral Identifiers', readXmlText(param('cadastralIdentifiers'))) ?? ''
		)
			.split(/[,;\n]+/)
			.map((id) => id.trim())
			.filter(Boolean);
		if (ids.length === 0)
			problems.field(
				'Cadastral Identifiers',
				'the plot has no cadastral identifier. Map the field holding it (several separated by commas).',
			);
		return ids.length ? { cadastralIdentifier: ids } : undefined;
	}
	const street = problems.take('Producer Street', readXmlText(param('producerStreet')));
	const postalCode = problems.take(
		'Producer Postal Code',
		readXmlText(param('producerPostalCode')),
		'the production place has no postal code. Map the field holding it.',
	);
	const city = problems.take(
		'Producer City',
		readXmlText(param('producerCity')),
		'the production place has no city. Map the field holding it.',
	);
	if (postalCode === undefined || city === undefined) return undefined;
	const address: SdPostalAddress = {
		...(street ? { producerStreet: street } : {}),
		producerPostalCode: postalCode,
		producerCity: city,
	};
	return { postalAddress: [address] };
}

/** Reads one item for Submit, Amend or Update (no request); problems name the item and the field. */
export function readStatementRow(
	ctx: IExecuteFunctions,
	i: number,
	problems: Problems,
	operation: 'submit' | 'amend' | 'update',
): StatementRow {
	const param = (name: string) => ctx.getNodeParameter(name, i, '');
	/** A text field read with the XML check; undefined when empty or refused. */
	const text = (label: string, name: string, required?: string) =>
		problems.take(label, readXmlText(param(name)), required);
	const o = statementOptions(ctx, i, problems);
	const internalReference =
		problems.take(
			'Internal Reference',
			readXmlText(param('internalReference')),
			operation === 'submit'
				? 'give every row its Internal Reference (e.g. the purchase order): Submit files each statement once by it.'
				: undefined,
		) ?? '';
	const commodity = problems.take('Commodity', readCommodity(param('commodity')));
	const measure: GoodsMeasure = {};
	const percentage = decimal(o.percentageEstimate);
	if (percentage !== undefined) measure.percentageEstimationOrDeviation = percentage;
	const net = text('Net Weight (kg)', 'netWeight');
	if (net !== undefined) measure.netWeight = net;
	const unit = decimal(o.supplementaryUnit);
	if (unit !== undefined) measure.supplementaryUnit = unit;
	const qualifier = opt(o, 'supplementaryUnitQualifier');
	if (qualifier !== undefined) measure.supplementaryUnitQualifier = qualifier.toUpperCase();
	const species =
		opt(o, 'scientificName') || opt(o, 'commonName')
			? [
					{
						...(opt(o, 'scientificName') ? { scientificName: opt(o, 'scientificName') } : {}),
						...(opt(o, 'commonName') ? { commonName: opt(o, 'commonName') } : {}),
					},
				]
			: undefined;
	const grouped = (opt(o, 'groupedDeclarations') ?? '').split(/[\s,;]+/).filter(Boolean);
	const country = (v: string | undefined) => v?.toUpperCase();
	const countryOfActivity = text('Country of Activity', 'countryOfActivity');
	const role = String(param('operatorRole') || 'OPERATOR');
	const represented = readRepresentedOperator(ctx, i, problems, o, role);
	const head: StatementRow['head'] = {
		internalReferenceNumber: internalReference || undefined,
		activityType: String(param('activityType') || 'IMPORT') as ActivityType,
		...(represented ? { representedOperator: represented } : {}),
		...(countryOfActivity ? { countryOfActivity: country(countryOfActivity) } : {}),
		...(opt(o, 'borderCrossCountry')
			? { borderCrossCountry: country(opt(o, 'borderCrossCountry')) }
			: {}),
		...(opt(o, 'comment') ? { comment: opt(o, 'comment') } : {}),
		geoLocationConfidential: o.geoLocationConfidential === true,
		...(grouped.length ? { groupedDeclarations: grouped } : {}),
	};
	const row: StatementRow = {
		internalReference,
		role,
		head,
		commodity: {
			...(commodity ? { commodity } : {}),
			descriptors: {
				descriptionOfGoods: text('Description of Goods', 'descriptionOfGoods') ?? '',
				goodsMeasure: measure,
			},
			hsHeading: text('HS Heading', 'hsHeading') ?? '',
			...(species ? { speciesInfo: species } : {}),
		},
		producers: [],
	};
	if (param('geolocationSource') === 'euGeoJson') {
		row.producers = euGeoJsonProducers(
			ctx.getNodeParameter('euGeoJson', i, undefined),
			i,
			problems,
		);
	} else {
		const countryText = readXmlText(param('producerCountry'));
		const producerCountry = problems.take(
			'Producer Country',
			countryText.kind === 'value' ? readCountry(countryText.value) : countryText,
			'the plot has no country of production. Map the field holding it (a name or an ISO code).',
		);
		const producerName = text('Producer Name', 'producerName');
		const source = param('geolocationSource');
		if (source === 'postalAddress' || source === 'cadastralIdentifier') {
			const location = otherLocation(ctx, i, problems, source);
			if (producerCountry && location)
				row.producers = [
					{ country: producerCountry, name: producerName, features: [], ...location },
				];
		} else {
			const features = plotFeatures(ctx, i, producerCountry, problems);
			if (producerCountry && features.length)
				row.producers = [{ country: producerCountry, name: producerName, features }];
		}
	}
	return row;
}

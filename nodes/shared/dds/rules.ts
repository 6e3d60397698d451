/**
 * What the EU Information System would refuse in a due-diligence statement, found before
 * anything is sent: every facet of the V3 XSD (lengths, patterns, enumerations, counts, the
 * decimals) and the EU's validation rules the pack lists (README §6, validation rules v1.3),
 * taking the SAFE side where the documents disagree (internal reference ≤ 35 characters,
 * ≤ 100 commodities, percentage 0–25). Each problem names the field by its label in the node
 * and says what to change. Geometry is not checked here: the producers' geolocation is written
 * and checked by Plot → Export's code (Validate's checks). Pure: no n8n imports.
 */
import type {
	ActivityType,
	Commodity,
	OperatorRole,
	Statement,
	StatementOverview,
} from './statement';
import { IDENTIFIER_TYPES } from './statement';

export interface StatementProblem {
	/** The field in the user's terms, e.g. 'Commodity 1 › Net Weight (kg)'. */
	field: string;
	/** What to change. */
	message: string;
}

/** The DDS documents say 35 (reduced from 50); the 8.2.1 XSD still allows 50 (pack §6). */
export const MAX_INTERNAL_REFERENCE = 35;
/** 200 in the XSD, 100 in the validation rules (pack §6): the lower. */
export const MAX_COMMODITIES = 100;
export const MAX_PRODUCERS_PER_COMMODITY = 1000;
export const MAX_PRODUCERS_PER_STATEMENT = 10_000;
export const MAX_SPECIES_PER_COMMODITY = 500;
export const MAX_GROUPED_DECLARATIONS = 2000;
export const AMEND_WINDOW_HOURS = 72;

/** EuropeanCountryType: the EU-27 and XI (Northern Ireland); Greece is GR. */
export const EUROPEAN_COUNTRIES = [
	'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT',
	'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI',
]; // prettier-ignore

/**
 * Annex I of Regulation (EU) 2023/1115: the HS headings of each relevant commodity (the
 * package's commodity names). A declared heading matches when it starts with one of them
 * (it may be more precise, never broader).
 */
export const ANNEX_I: Readonly<Record<string, readonly string[]>> = {
	beef: ['010221', '010229', '0201', '0202', '020610', '020622', '020629', '160250', '4101', '4104', '4107'],
	cocoa: ['1801', '1802', '1803', '1804', '1805', '1806'],
	coffee: ['0901'],
	palm_oil: ['120710', '1511', '151321', '151329', '230660', '290545', '291570', '291590', '382311', '382312', '382319', '382370'],
	rubber: ['4001', '4005', '4006', '4007', '4008', '4010', '4011', '4012', '4013', '4015', '4016', '4017'],
	soy: ['1201', '120810', '1507', '2304'],
	wood: ['4401', '4402', '4403', '4404', '4405', '4406', '4407', '4408', '4409', '4410', '4411', '4412', '4413', '4414', '4415', '4416', '4417', '4418', '4419', '4420', '4421', '47', '48', '49', '940161', '940169', '940191', '940330', '940340', '940350', '940360', '940391', '940610'],
}; // prettier-ignore

/** The commodity an HS heading belongs to (Annex I), or undefined. */
export function commodityOfHsHeading(hsHeading: string): string | undefined {
	for (const [commodity, headings] of Object.entries(ANNEX_I))
		if (headings.some((h) => hsHeading.startsWith(h))) return commodity;
	return undefined;
}

const name = (commodity: string) => commodity.replace('_', ' ');

/**
 * Why an HS heading is not one the EUDR covers (for its commodity, when one is given), or
 * undefined. 2–6 digits (HSHeadingType), then Annex I.
 */
export function hsHeadingProblem(hsHeading: string, commodity?: string): string | undefined {
	if (!/^[0-9]{2,6}$/.test(hsHeading))
		return `"${hsHeading}" is not an HS heading: enter 2 to 6 digits, e.g. 1801 for cocoa beans.`;
	const covering = commodityOfHsHeading(hsHeading);
	if (commodity !== undefined && ANNEX_I[commodity] !== undefined) {
		if (covering === commodity) return undefined;
		const list = ANNEX_I[commodity].slice(0, 12).join(', ');
		return `${hsHeading} is not an HS heading of ${name(commodity)} in EUDR Annex I${covering ? ` (it is one of ${name(covering)})` : ''}. Use one of ${list}${ANNEX_I[commodity].length > 12 ? ', …' : ''} (or a more precise code starting with one of them), or correct the commodity.`;
	}
	if (covering === undefined)
		return `${hsHeading} is not an HS heading of EUDR Annex I (cattle, cocoa, coffee, oil palm, rubber, soya, wood), or it is broader than one: give the heading of the goods, e.g. 1801 for cocoa beans or 4407 for sawn wood.`;
	return undefined;
}

/** Import/export: HS headings whose supplementary unit is mandatory (and only allowed there). */
const SUPPLEMENTARY_UNITS: ReadonlyArray<{ codes: string[]; unit: string }> = [
	{ codes: ['010221', '010229', '4011', '4013', '4104'], unit: 'NAR' },
	{ codes: ['4403', '4406', '4408', '4410', '4411', '4412', '4413'], unit: 'MTQ' },
	{ codes: ['4701', '4702', '4704', '4705'], unit: 'KSD' },
];
/** Domestic activity: the supplementary unit types the rules list. */
const DOMESTIC_UNITS = ['KSD', 'MTK', 'MTQ', 'MTR', 'NAR', 'NPR'];

/** The supplementary unit an import/export of this heading must carry, or undefined. */
export function requiredSupplementaryUnit(hsHeading: string): string | undefined {
	return SUPPLEMENTARY_UNITS.find((s) => s.codes.some((c) => hsHeading.startsWith(c)))?.unit;
}

/** Why a decimal text is not a DecimalSixteenTotalSixPrecType (≤ 16 digits, ≤ 6 decimals, ≥ 0). */
export function decimalProblem(text: string, { positive = true } = {}): string | undefined {
	const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
	if (!m)
		return `"${text}" is not a plain decimal number: write it with digits and a point, e.g. 1250.5.`;
	const decimals = (m[2] ?? '').replace(/0+$/, '').length;
	const whole = m[1].replace(/^0+(?=\d)/, '');
	if (decimals > 6)
		return `${text} has ${decimals} decimals; the EU Information System takes at most 6. Round it.`;
	if (whole.length > 10 || whole.length + decimals > 16)
		return `${text} is too large: at most 9,999,999,999.999999 with 16 digits in all.`;
	if (positive && Number(text) <= 0) return `${text} must be more than 0.`;
	return undefined;
}

function lengthProblem(text: string | undefined, max: number, min = 0): string | undefined {
	if (text === undefined) return undefined;
	const length = [...text].length;
	if (length > max) return `it has ${length} characters; at most ${max} are allowed. Shorten it.`;
	if (length < min) return `it is empty; fill it in or leave the field out.`;
	return undefined;
}

type Push = (field: string, message: string | undefined) => void;

function representedOperatorProblems(s: Statement, role: OperatorRole, push: Push): void {
	const o = s.representedOperator;
	if (role === 'REPRESENTATIVE_OPERATOR' && !o) {
		push(
			'Represented Operator',
			'an authorised representative files for another operator: give that operator’s name, address and at least one identifier (its EORI for import or export).',
		);
		return;
	}
	if (!o) return;
	push('Represented Operator › Name', lengthProblem(o.operatorName, 200, 1));
	const ids = o.operatorReferenceNumber ?? [];
	if (ids.length > 12)
		push('Represented Operator › Identifiers', `${ids.length} identifiers; at most 12.`);
	ids.forEach((id, i) => {
		if (!(IDENTIFIER_TYPES as readonly string[]).includes(id.identifierType))
			push(
				`Represented Operator › Identifier ${i + 1} › Type`,
				`"${id.identifierType}" is not a type the EU knows: use one of ${IDENTIFIER_TYPES.join(', ')}.`,
			);
		push(
			`Represented Operator › Identifier ${i + 1} › Value`,
			lengthProblem(id.identifierValue, 80, 1),
		);
	});
	if (role === 'REPRESENTATIVE_OPERATOR') {
		if (ids.length === 0)
			push(
				'Represented Operator › Identifiers',
				'give at least one identifier of the operator you represent (its EORI for import or export).',
			);
		if (!o.operatorAddress)
			push(
				'Represented Operator › Address',
				'give the address of the operator you represent (country, street, postal code, city).',
			);
		if (
			(s.activityType === 'IMPORT' || s.activityType === 'EXPORT') &&
			!ids.some((id) => id.identifierType === 'eori')
		)
			push(
				'Represented Operator › Identifiers',
				`an ${s.activityType === 'IMPORT' ? 'import' : 'export'} needs the EORI number of the operator you represent.`,
			);
	}
	const a = o.operatorAddress;
	if (a) {
		if (!/^[A-Za-z]{2}$/.test(a.country))
			push(
				'Represented Operator › Address › Country',
				`"${a.country}" is not a two-letter ISO country code.`,
			);
		push('Represented Operator › Address › Street', lengthProblem(a.street, 300, 1));
		push('Represented Operator › Address › Postal Code', lengthProblem(a.postalCode, 80, 1));
		push('Represented Operator › Address › City', lengthProblem(a.city, 200, 1));
		push('Represented Operator › Address › Full Address', lengthProblem(a.fullAddress, 250, 1));
	}
	if (
		o.operatorEmail !== undefined &&
		!/^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(o.operatorEmail)
	)
		push(
			'Represented Operator › Email',
			`"${o.operatorEmail}" is not an e-mail address the EU accepts.`,
		);
	push('Represented Operator › Email', lengthProblem(o.operatorEmail, 200));
	push('Represented Operator › Phone', lengthProblem(o.operatorPhone, 50));
}

function measureProblems(c: Commodity, activity: ActivityType, at: string, push: Push): void {
	const m = c.descriptors.goodsMeasure;
	const foreign = activity === 'IMPORT' || activity === 'EXPORT';
	if (m.netWeight !== undefined) push(`${at} › Net Weight (kg)`, decimalProblem(m.netWeight));
	if (m.supplementaryUnit !== undefined)
		push(`${at} › Supplementary Unit`, decimalProblem(m.supplementaryUnit));
	if (m.percentageEstimationOrDeviation !== undefined) {
		const p = m.percentageEstimationOrDeviation;
		if (!/^\d+(\.\d{1,3})?$/.test(p) || Number(p) > 25)
			push(
				`${at} › Percentage Estimate or Deviation`,
				`"${p}" must be a number from 0 to 25 with at most 3 decimals.`,
			);
	}
	const hasUnit = m.supplementaryUnit !== undefined;
	const hasQualifier = m.supplementaryUnitQualifier !== undefined;
	if (hasUnit !== hasQualifier)
		push(
			`${at} › ${hasUnit ? 'Supplementary Unit Type' : 'Supplementary Unit'}`,
			'a supplementary unit needs both its quantity and its type (e.g. 12.5 and MTQ); give both or neither.',
		);
	if (hasQualifier)
		push(
			`${at} › Supplementary Unit Type`,
			lengthProblem(m.supplementaryUnitQualifier, 4, 3) ??
				(/^[A-Za-z]{3,4}$/.test(m.supplementaryUnitQualifier!)
					? undefined
					: 'use the unit code, e.g. MTQ, NAR or KSD.'),
		);
	if (foreign) {
		const verb = activity === 'IMPORT' ? 'an import' : 'an export';
		if (m.netWeight === undefined)
			push(`${at} › Net Weight (kg)`, `${verb} must state the net weight in kilograms.`);
		if (m.percentageEstimationOrDeviation !== undefined)
			push(
				`${at} › Percentage Estimate or Deviation`,
				`${verb} does not take a percentage estimate; leave it empty.`,
			);
		const unit = requiredSupplementaryUnit(c.hsHeading);
		if (unit && !hasUnit)
			push(
				`${at} › Supplementary Unit`,
				`${verb} of HS ${c.hsHeading} must also state its supplementary unit (${unit}) with the quantity.`,
			);
		if (!unit && (hasUnit || hasQualifier))
			push(
				`${at} › Supplementary Unit`,
				`${verb} of HS ${c.hsHeading} takes no supplementary unit (only cattle, tyres, hides, some wood and pulp do); leave it empty.`,
			);
		if (unit && hasQualifier && m.supplementaryUnitQualifier!.toUpperCase() !== unit)
			push(
				`${at} › Supplementary Unit Type`,
				`HS ${c.hsHeading} is measured in ${unit}, not ${m.supplementaryUnitQualifier}.`,
			);
	} else {
		if (m.netWeight === undefined && !hasUnit)
			push(
				`${at} › Net Weight (kg)`,
				'give the net weight in kilograms, a supplementary unit, or both.',
			);
		if (m.percentageEstimationOrDeviation !== undefined && m.netWeight === undefined)
			push(
				`${at} › Percentage Estimate or Deviation`,
				'a percentage estimate needs the net weight it applies to.',
			);
		if (hasQualifier && !DOMESTIC_UNITS.includes(m.supplementaryUnitQualifier!.toUpperCase()))
			push(
				`${at} › Supplementary Unit Type`,
				`"${m.supplementaryUnitQualifier}" is not one of ${DOMESTIC_UNITS.join(', ')}.`,
			);
	}
}

function commodityProblems(c: Commodity, i: number, activity: ActivityType, push: Push): number {
	const at = `Commodity ${i + 1}`;
	push(`${at} › Description of Goods`, lengthProblem(c.descriptors.descriptionOfGoods, 150, 1));
	push(`${at} › HS Heading`, hsHeadingProblem(c.hsHeading, c.commodity));
	measureProblems(c, activity, at, push);
	const species = c.speciesInfo ?? [];
	if (species.length > MAX_SPECIES_PER_COMMODITY)
		push(`${at} › Species`, `${species.length} species; at most ${MAX_SPECIES_PER_COMMODITY}.`);
	species.forEach((s, k) => {
		push(`${at} › Species ${k + 1} › Scientific Name`, lengthProblem(s.scientificName, 200, 1));
		push(`${at} › Species ${k + 1} › Common Name`, lengthProblem(s.commonName, 200, 1));
	});
	const isWood = (c.commodity ?? commodityOfHsHeading(c.hsHeading)) === 'wood';
	if (isWood && !species.some((s) => s.scientificName))
		push(
			`${at} › Species › Scientific Name`,
			'wood needs the scientific name of at least one tree species (e.g. Tectona grandis).',
		);
	if (isWood && !species.some((s) => s.commonName))
		push(
			`${at} › Species › Common Name`,
			'wood needs the common name of at least one tree species (e.g. teak).',
		);
	const producers = c.producers ?? [];
	if (producers.length > MAX_PRODUCERS_PER_COMMODITY)
		push(
			`${at} › Producers`,
			`${producers.length} producers; one commodity takes at most ${MAX_PRODUCERS_PER_COMMODITY}. Split the goods over several commodities or statements.`,
		);
	producers.forEach((p, k) => {
		if (!/^[A-Za-z]{2}$/.test(p.country))
			push(
				`${at} › Producer ${k + 1} › Country`,
				`"${p.country}" is not a two-letter ISO country code.`,
			);
		push(`${at} › Producer ${k + 1} › Name`, lengthProblem(p.name, 500));
		if (p.geometryGeojson.trim() === '')
			push(
				`${at} › Producer ${k + 1} › Geolocation`,
				'every producer needs its geolocation (the EU GeoJSON of its plots).',
			);
	});
	return producers.length;
}

/**
 * Every problem of a statement the EU Information System would refuse (the XSD, then the
 * rules), each naming the field and what to change; [] when none is known.
 */
export function statementProblems(statement: Statement, role: OperatorRole): StatementProblem[] {
	const problems: StatementProblem[] = [];
	const push: Push = (field, message) => {
		if (message) problems.push({ field, message });
	};
	const s = statement;
	if (s.internalReferenceNumber !== undefined)
		push(
			'Internal Reference',
			lengthProblem(s.internalReferenceNumber, MAX_INTERNAL_REFERENCE, 1)?.replace(
				'are allowed',
				`are allowed (the EU's limit for statements is ${MAX_INTERNAL_REFERENCE})`,
			),
		);
	if (!['DOMESTIC', 'IMPORT', 'EXPORT'].includes(s.activityType))
		push(
			'Activity Type',
			`"${s.activityType}" is not an activity of V3: use Domestic, Import or Export (Trade was removed).`,
		);
	for (const [field, value] of [
		['Country of Activity', s.countryOfActivity],
		['Border Cross Country', s.borderCrossCountry],
	] as const)
		if (value !== undefined && !EUROPEAN_COUNTRIES.includes(value))
			push(
				field,
				`"${value}" is not an EU member state code (or XI for Northern Ireland); Greece is GR.`,
			);
	push('Comment', lengthProblem(s.comment, 2000));
	representedOperatorProblems(s, role, push);
	if (s.commodities.length === 0) push('Commodities', 'a statement needs at least one commodity.');
	if (s.commodities.length > MAX_COMMODITIES)
		push(
			'Commodities',
			`${s.commodities.length} commodities; a statement takes at most ${MAX_COMMODITIES}. Split it into several statements.`,
		);
	let producers = 0;
	s.commodities.forEach((c, i) => (producers += commodityProblems(c, i, s.activityType, push)));
	if (producers > MAX_PRODUCERS_PER_STATEMENT)
		push(
			'Producers',
			`${producers} producers in all; a statement takes at most ${MAX_PRODUCERS_PER_STATEMENT}. Split it into several statements.`,
		);
	const grouped = s.groupedDeclarations ?? [];
	if (grouped.length > MAX_GROUPED_DECLARATIONS)
		push(
			'Grouped Declarations',
			`${grouped.length} references; at most ${MAX_GROUPED_DECLARATIONS}.`,
		);
	grouped.forEach((r, i) => {
		if (r.length === 0 || r.length > 14)
			push(
				`Grouped Declarations › ${i + 1}`,
				`"${r}" is not a reference number (at most 14 characters, e.g. 26FRXXXXXXXXXX).`,
			);
	});
	const withoutGeo = s.commodities.every((c) => (c.producers ?? []).length === 0);
	if (withoutGeo && grouped.length === 0)
		push(
			'Geolocation',
			'no commodity has a producer with geolocation. A statement needs the geolocation of the plots, unless it groups other statements (Grouped Declarations), whose geolocation it then inherits.',
		);
	return problems;
}

/**
 * Why an Amend or a Withdraw would be refused by the EU (pack §5–6), from a fresh overview of
 * the statement: grouped, not AVAILABLE, past the 72 hours after submission (when the
 * overview's date is known; else the service decides), or a changed activity type (amend).
 */
export function changeRefusal(o: {
	action: 'amend' | 'withdraw';
	overview: StatementOverview;
	now: Date;
	newActivityType?: ActivityType;
	previousActivityType?: ActivityType;
}): string | undefined {
	const verb = o.action === 'amend' ? 'amended' : 'withdrawn';
	const { status } = o.overview;
	if (status === 'GROUPED')
		return `the statement is grouped into another declaration (status GROUPED): it cannot be ${verb} on its own while that declaration stands.`;
	if (status !== 'AVAILABLE')
		return `the statement's status is ${status || 'unknown'}: only an AVAILABLE statement can be ${verb}${status === 'SUBMITTED' ? '; wait until the EU has processed it (about 30 minutes), then run again' : ''}.`;
	const submitted = o.overview.date === null ? NaN : Date.parse(o.overview.date);
	if (!Number.isNaN(submitted) && o.now.getTime() - submitted > AMEND_WINDOW_HOURS * 3600_000)
		return `the statement was submitted on ${o.overview.date}, more than ${AMEND_WINDOW_HOURS} hours ago: it can no longer be ${verb} (only the competent authority can extend the window). ${o.action === 'amend' ? 'File a new statement instead.' : ''}`.trim();
	if (
		o.action === 'amend' &&
		o.newActivityType &&
		o.previousActivityType &&
		o.newActivityType !== o.previousActivityType
	)
		return `the activity type cannot change on an amendment (it is ${o.previousActivityType}, the new statement says ${o.newActivityType}): file a new statement instead.`;
	return undefined;
}

/**
 * The commodity rules a due-diligence statement and a simplified declaration share: the HS
 * heading against EUDR Annex I, the quantities (the decimals of the XSD, the units by
 * activity type, the percentage estimate), and the length facets; rules.ts and sdRules.ts
 * build on them. Pure: no n8n imports.
 */
import type { ActivityType, Commodity } from './statement';

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

export function lengthProblem(text: string | undefined, max: number, min = 0): string | undefined {
	if (text === undefined) return undefined;
	const length = [...text].length;
	if (length > max) return `it has ${length} characters; at most ${max} are allowed. Shorten it.`;
	if (length < min) return `it is empty; fill it in or leave the field out.`;
	return undefined;
}

/** Records a problem of a field (nothing when the message is undefined). */
export type Push = (field: string, message: string | undefined) => void;

function measureProblems(
	c: Pick<Commodity, 'descriptors' | 'hsHeading'>,
	activity: ActivityType,
	at: string,
	push: Push,
): void {
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

/** What a DDS and an SD commodity share: its description, HS heading and quantities. */
export function commodityBaseProblems(
	c: Pick<Commodity, 'descriptors' | 'hsHeading' | 'commodity'>,
	at: string,
	activity: ActivityType,
	push: Push,
): void {
	push(`${at} › Description of Goods`, lengthProblem(c.descriptors.descriptionOfGoods, 150, 1));
	push(`${at} › HS Heading`, hsHeadingProblem(c.hsHeading, c.commodity));
	measureProblems(c, activity, at, push);
}

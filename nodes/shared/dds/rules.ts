/**
 * What the EU Information System would refuse in a due-diligence statement, found before
 * anything is sent: every facet of the V3 XSD (lengths, patterns, enumerations, counts, the
 * decimals) and the EU's validation rules the pack lists (README §6, validation rules v1.3),
 * taking the SAFE side where the documents disagree (internal reference ≤ 35 characters,
 * ≤ 100 commodities, percentage 0–25), and what was refused live (pack §12: a domestic net
 * weight without its percentage). Each problem names the field by its label in the node
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
import { countryCodeProblem } from '../input';
import type { Push } from './commodityRules';
import { commodityBaseProblems, commodityOfHsHeading, lengthProblem } from './commodityRules';

export type { Push } from './commodityRules';
export {
	ANNEX_I,
	commodityBaseProblems,
	commodityOfHsHeading,
	decimalProblem,
	hsHeadingProblem,
	lengthProblem,
	requiredSupplementaryUnit,
} from './commodityRules';

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
 * The represented operator (DDS and SD alike); `representative`: the declaration is filed by
 * an authorised representative (REPRESENTATIVE_OPERATOR, REPRESENTATIVE_MSPO), who must name
 * the operator represented, its address and an identifier (its EORI for import or export).
 */
export function representedOperatorProblems(
	s: Pick<Statement, 'representedOperator' | 'activityType'>,
	representative: boolean,
	push: Push,
): void {
	const o = s.representedOperator;
	if (representative && !o) {
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
	if (representative) {
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

/**
 * DOMESTIC (the DDS): a net weight comes with its percentage estimate or deviation. Refused
 * live on V3 acceptance (EUDR_COMMODITIES_DESCRIPTOR_PERCENTAGE_ESTIMATION_MISSING, pack §12),
 * as the DDS units guidance pairs them (pack §6: net mass + percentage, a supplementary unit,
 * or both). Neither says it of the SD, whose pre-flight leaves it to the EU.
 */
export function domesticPercentageProblem(
	c: Pick<Commodity, 'descriptors'>,
	activity: ActivityType,
): string | undefined {
	const m = c.descriptors.goodsMeasure;
	if (activity !== 'DOMESTIC' || m.netWeight === undefined) return undefined;
	if (m.percentageEstimationOrDeviation !== undefined) return undefined;
	return `a domestic statement's net weight (${m.netWeight} kg) needs its percentage estimate or deviation: fill in Percentage Estimate or Deviation (under Additional Fields; Statement Options in version 1 of the node) with how far the weight may be off, from 0 to 25 (0 when it is exact), or state the quantity as a supplementary unit instead of a net weight.`;
}

function commodityProblems(c: Commodity, i: number, activity: ActivityType, push: Push): number {
	const at = `Commodity ${i + 1}`;
	commodityBaseProblems(c, at, activity, push);
	push(`${at} › Percentage Estimate or Deviation`, domesticPercentageProblem(c, activity));
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
	producers.forEach((p, k) => {
		producerBaseProblems(producers.length, { country: p.country, name: p.name }, at, k, push);
		if (p.geometryGeojson.trim() === '')
			push(
				`${at} › Producer ${k + 1} › Geolocation`,
				'every producer needs its geolocation (the EU GeoJSON of its plots).',
			);
	});
	return producers.length;
}

/** A producer's country and name (DDS and SD); the commodity's count checked with its first. */
export function producerBaseProblems(
	count: number,
	p: { country: string; name?: string },
	at: string,
	k: number,
	push: Push,
): void {
	if (k === 0 && count > MAX_PRODUCERS_PER_COMMODITY)
		push(
			`${at} › Producers`,
			`${count} producers; one commodity takes at most ${MAX_PRODUCERS_PER_COMMODITY}. Split the goods over several commodities or statements.`,
		);
	push(`${at} › Producer ${k + 1} › Country`, countryCodeProblem(p.country));
	push(`${at} › Producer ${k + 1} › Name`, lengthProblem(p.name, 500));
}

/**
 * What a DDS and an SD share before the commodities: activity type, the countries, the
 * comment, the represented operator (`representative`: filed by an authorised representative).
 */
export function declarationHeadProblems(
	s: Omit<Statement, 'commodities'>,
	representative: boolean,
	push: Push,
): void {
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
	representedOperatorProblems(s, representative, push);
}

/**
 * What a DDS and an SD share about their commodities and groups: the commodities' count, the
 * producers' total, the grouped declarations (count, length, and `groupedReference` for a
 * rule of one kind: the SD groups SDs only) and the geolocation rule (a declaration without
 * any located producer must group others, whose geolocation it inherits).
 */
export function declarationTailProblems(
	s: Pick<Statement, 'groupedDeclarations'> & { commodities: unknown[] },
	o: {
		located: boolean;
		/** Checks each commodity; returns the number of producers in all. */
		each: (push: Push) => number;
		groupedReference?: (reference: string) => string | undefined;
		/** What to say when no producer is located and nothing is grouped. */
		unlocated?: string;
	},
	push: Push,
): void {
	if (s.commodities.length === 0) push('Commodities', 'a statement needs at least one commodity.');
	if (s.commodities.length > MAX_COMMODITIES)
		push(
			'Commodities',
			`${s.commodities.length} commodities; a statement takes at most ${MAX_COMMODITIES}. Split it into several statements.`,
		);
	const producers = o.each(push);
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
		else push(`Grouped Declarations › ${i + 1}`, o.groupedReference?.(r));
	});
	if (!o.located && grouped.length === 0)
		push(
			'Geolocation',
			o.unlocated ??
				'no commodity has a producer with geolocation. A statement needs the geolocation of the plots, unless it groups other statements (Grouped Declarations), whose geolocation it then inherits.',
		);
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
	declarationHeadProblems(s, role === 'REPRESENTATIVE_OPERATOR', push);
	declarationTailProblems(
		s,
		{
			located: s.commodities.some((c) => (c.producers ?? []).length > 0),
			each: (p) =>
				s.commodities.reduce((n, c, i) => n + commodityProblems(c, i, s.activityType, p), 0),
		},
		push,
	);
	return problems;
}

/**
 * Why a change (amend, update, withdraw) of a DDS or an SD would be refused for its status: it
 * is grouped into another declaration, or it is not AVAILABLE. `withdraw`: a SUBMITTED one is
 * not refused here — the V3 text says AVAILABLE only, but live acceptance withdrew a SUBMITTED
 * statement (pack §5 CONFLICT, §12), so the EU decides (a wrong statement can be pulled back
 * in its first minutes).
 */
export function statusRefusal(
	status: string,
	verb: string,
	noun: 'statement' | 'declaration',
	withdraw = false,
): string | undefined {
	if (status === 'GROUPED')
		return `the ${noun} is grouped into another declaration (status GROUPED): it cannot be ${verb} on its own while that declaration stands.`;
	if (withdraw && status === 'SUBMITTED') return undefined;
	if (status !== 'AVAILABLE')
		return `the ${noun}'s status is ${status || 'unknown'}: only an AVAILABLE ${noun} can be ${verb}${status === 'SUBMITTED' ? '; wait until the EU has processed it (about 30 minutes), then run again' : ''}.`;
	return undefined;
}

/**
 * Why an Amend or a Withdraw would be refused by the EU (pack §5–6), from a fresh overview of
 * the statement: grouped, not AVAILABLE (a withdrawal of a SUBMITTED one is left to the EU),
 * or a changed activity type (amend). The 72 hours after submission are the EU's to judge:
 * no answer of the EU carries the submission date (the overview's `date` is the last update,
 * OverviewType [X-COM]), and only the competent authority can extend the window.
 */
export function changeRefusal(o: {
	action: 'amend' | 'withdraw';
	overview: StatementOverview;
	newActivityType?: ActivityType;
	previousActivityType?: ActivityType;
}): string | undefined {
	const verb = o.action === 'amend' ? 'amended' : 'withdrawn';
	const byStatus = statusRefusal(o.overview.status, verb, 'statement', o.action === 'withdraw');
	if (byStatus) return byStatus;
	if (
		o.action === 'amend' &&
		o.newActivityType &&
		o.previousActivityType &&
		o.newActivityType !== o.previousActivityType
	)
		return `the activity type cannot change on an amendment (it is ${o.previousActivityType}, the new statement says ${o.newActivityType}): file a new statement instead.`;
	return undefined;
}

/**
 * What the EU's answers say of the 72 hours, for a refusal "no longer possible": the overview's
 * date is the last update (the submission was on or before it); no answer gives the submission
 * date. Undefined when the overview has no readable date.
 */
export function windowNote(overview: StatementOverview, now: Date): string | undefined {
	const updated = overview.date === null ? NaN : Date.parse(overview.date);
	if (Number.isNaN(updated)) return undefined;
	const hours = Math.floor((now.getTime() - updated) / 3600_000);
	const ago = hours >= 1 ? ` (${hours} hour${hours === 1 ? '' : 's'} ago)` : '';
	const past =
		hours >= AMEND_WINDOW_HOURS
			? ` More than ${AMEND_WINDOW_HOURS} hours have passed since then, so also since its submission: file a new statement instead (only the competent authority can extend the window).`
			: '';
	return `The EU Information System gives no submission date; the statement was last updated on ${overview.date}${ago}, and submitted on or before that. The ${AMEND_WINDOW_HOURS} hours for an amendment or a withdrawal run from the submission.${past}`;
}

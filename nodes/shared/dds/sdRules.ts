/**
 * What the EU Information System would refuse in a Simplified Declaration, found before
 * anything is sent: the SD XSD's facets (mandatory internal reference ≤ 14 characters, the
 * role, producer name ≤ 500, postal addresses and cadastral identifiers 1–100 each, their
 * lengths) and the rules the SD shares with the DDS (rules.ts: activity, countries, comment,
 * represented operator, HS heading against Annex I, quantities, counts, grouping), plus the
 * SD's own: an authorised representative (REPRESENTATIVE_MSPO) names the operator it
 * represents, and an SD groups SDs only (their reference numbers start with S, pack §4.2, §6).
 * Update and Withdraw are refused for a grouped or not AVAILABLE declaration (a Withdraw of a
 * SUBMITTED one is left to the EU: its V3 text is the DDS's word for word, which live
 * acceptance contradicted, pack §12); the DDS's 72-hour window is not stated for the SD
 * (pack §5), so the EU decides.
 * Pure: no n8n imports.
 */
import type { Push, StatementProblem } from './rules';
import {
	commodityBaseProblems,
	declarationHeadProblems,
	declarationTailProblems,
	lengthProblem,
	producerBaseProblems,
	statusRefusal,
} from './rules';
import type { SdCommodity, SdProducer, SdRole, SimplifiedDeclaration } from './simplified';
import { MAX_SD_INTERNAL_REFERENCE, SD_ROLES } from './simplified';
import type { StatementOverview } from './statement';

/** postalAddress and cadastralIdentifier: maxOccurs="100" each. */
export const MAX_SD_LOCATIONS = 100;

/** Why a grouped reference is not one an SD may group (SD reference numbers start with S). */
export function sdGroupedReferenceProblem(reference: string): string | undefined {
	if (/^S/i.test(reference)) return undefined;
	return `"${reference}" is not the reference number of a simplified declaration (those start with S, e.g. S26FRNMNBSA96Q): a simplified declaration may group simplified declarations only, not due-diligence statements.`;
}

function locationProblems(p: SdProducer, at: string, push: Push): void {
	const l = p.producerLocation;
	if ('geometryGeojson' in l) {
		if (l.geometryGeojson.trim() === '')
			push(`${at} › Geolocation`, 'give the geolocation (the EU GeoJSON of the plots).');
		return;
	}
	const list: unknown[] = 'postalAddress' in l ? l.postalAddress : l.cadastralIdentifier;
	const what = 'postalAddress' in l ? 'postal addresses' : 'cadastral identifiers';
	if (list.length === 0) push(`${at} › Location`, `give at least one of its ${what}.`);
	if (list.length > MAX_SD_LOCATIONS)
		push(
			`${at} › Location`,
			`${list.length} ${what}; a producer takes at most ${MAX_SD_LOCATIONS}. Split its plots over several producers (another Producer Name).`,
		);
	if ('postalAddress' in l)
		l.postalAddress.forEach((a, k) => {
			const here = `${at} › Postal Address ${k + 1}`;
			push(`${here} › Street`, lengthProblem(a.producerStreet, 300, 1));
			push(`${here} › Postal Code`, lengthProblem(a.producerPostalCode, 80, 1));
			push(`${here} › City`, lengthProblem(a.producerCity, 200, 1));
		});
	else
		l.cadastralIdentifier.forEach((id, k) =>
			push(`${at} › Cadastral Identifier ${k + 1}`, lengthProblem(id, 80, 1)),
		);
}

function commodityProblems(c: SdCommodity, i: number, d: SimplifiedDeclaration, push: Push) {
	const at = `Commodity ${i + 1}`;
	commodityBaseProblems(c, at, d.activityType, push);
	const producers = c.producers ?? [];
	producers.forEach((p, k) => {
		producerBaseProblems(
			producers.length,
			{ country: p.producerCountry, name: p.producerName },
			at,
			k,
			push,
		);
		locationProblems(p, `${at} › Producer ${k + 1}`, push);
	});
	return producers.length;
}

/**
 * Every problem of a simplified declaration the EU Information System would refuse (the XSD,
 * then the rules), each naming the field and what to change; [] when none is known.
 */
export function declarationProblems(d: SimplifiedDeclaration, role: SdRole): StatementProblem[] {
	const problems: StatementProblem[] = [];
	const push: Push = (field, message) => {
		if (message) problems.push({ field, message });
	};
	if (!(SD_ROLES as readonly string[]).includes(role))
		push(
			'Operator Role',
			`"${role}" is not a role of the simplified declaration: use Micro or Small Primary Operator, Authorised Representative or Member State.`,
		);
	push(
		'Internal Reference',
		lengthProblem(d.internalReferenceNumber, MAX_SD_INTERNAL_REFERENCE, 1)?.replace(
			'are allowed',
			`are allowed (the EU's limit for simplified declarations is ${MAX_SD_INTERNAL_REFERENCE})`,
		),
	);
	declarationHeadProblems(d, role === 'REPRESENTATIVE_MSPO', push);
	declarationTailProblems(
		d,
		{
			located: d.commodities.some((c) => (c.producers ?? []).length > 0),
			each: (p) => d.commodities.reduce((n, c, i) => n + commodityProblems(c, i, d, p), 0),
			groupedReference: sdGroupedReferenceProblem,
			unlocated:
				'no commodity has a producer. A simplified declaration locates its producers (by geolocation, postal address or cadastral identifier), unless it groups other simplified declarations (Grouped Declarations).',
		},
		push,
	);
	return problems;
}

/** Why an Update or a Withdraw of an SD would be refused for its status, from a fresh overview. */
export function sdChangeRefusal(o: {
	action: 'update' | 'withdraw';
	overview: StatementOverview;
}): string | undefined {
	return statusRefusal(
		o.overview.status,
		o.action === 'update' ? 'updated' : 'withdrawn',
		'declaration',
		o.action === 'withdraw',
	);
}

/**
 * The pre-flight of a statement (nodes/shared/dds/rules.ts): one case per rule, each naming
 * the field in the user's terms; a clean statement has no problem.
 */
import type { Statement, StatementOverview } from '../../../nodes/shared/dds/statement';
import {
	changeRefusal,
	windowNote,
	decimalProblem,
	hsHeadingProblem,
	statementProblems,
} from '../../../nodes/shared/dds/rules';

const GEO = '{"type":"FeatureCollection","features":[]}';
const base = (over: Partial<Statement> = {}): Statement => ({
	internalReferenceNumber: 'PO-1',
	activityType: 'IMPORT',
	countryOfActivity: 'FR',
	commodities: [
		{
			commodity: 'cocoa',
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '1000' } },
			hsHeading: '1801',
			producers: [{ country: 'CI', geometryGeojson: GEO }],
		},
	],
	geoLocationConfidential: false,
	...over,
});
const withMeasure = (
	goodsMeasure: Statement['commodities'][0]['descriptors']['goodsMeasure'],
	over: Partial<Statement['commodities'][0]> = {},
	s: Partial<Statement> = {},
) => {
	const st = base(s);
	st.commodities[0] = {
		...st.commodities[0],
		descriptors: { descriptionOfGoods: 'Goods', goodsMeasure },
		...over,
	};
	return st;
};
const fields = (st: Statement, role: 'OPERATOR' | 'REPRESENTATIVE_OPERATOR' = 'OPERATOR') =>
	statementProblems(st, role).map((p) => p.field);

describe('statementProblems', () => {
	it('a clean import has no problem', () => {
		expect(statementProblems(base(), 'OPERATOR')).toEqual([]);
	});

	it.each<[string, Statement, string]>([
		[
			'internal reference over 35',
			base({ internalReferenceNumber: 'R'.repeat(36) }),
			'Internal Reference',
		],
		['no commodity', base({ commodities: [] }), 'Commodities'],
		[
			'101 commodities',
			base({ commodities: Array.from({ length: 101 }, () => base().commodities[0]) }),
			'Commodities',
		],
		[
			'country of activity outside the EU',
			base({ countryOfActivity: 'US' }),
			'Country of Activity',
		],
		['Greece as EL', base({ borderCrossCountry: 'EL' }), 'Border Cross Country'],
		['comment over 2000', base({ comment: 'x'.repeat(2001) }), 'Comment'],
		['missing net weight for an import', withMeasure({}), 'Commodity 1 › Net Weight (kg)'],
		['7 decimals', withMeasure({ netWeight: '1.1234567' }), 'Commodity 1 › Net Weight (kg)'],
		[
			'percentage for an import',
			withMeasure({ netWeight: '1', percentageEstimationOrDeviation: '5' }),
			'Commodity 1 › Percentage Estimate or Deviation',
		],
		[
			'HS heading of another commodity',
			withMeasure({ netWeight: '1' }, { hsHeading: '0901' }),
			'Commodity 1 › HS Heading',
		],
		[
			'HS heading with a letter',
			withMeasure({ netWeight: '1' }, { hsHeading: '18A1' }),
			'Commodity 1 › HS Heading',
		],
		[
			'supplementary unit missing for tyres (4011)',
			withMeasure({ netWeight: '1' }, { commodity: 'rubber', hsHeading: '4011' }),
			'Commodity 1 › Supplementary Unit',
		],
		[
			'supplementary unit given for cocoa',
			withMeasure({ netWeight: '1', supplementaryUnit: '3', supplementaryUnitQualifier: 'NAR' }),
			'Commodity 1 › Supplementary Unit',
		],
		[
			'unit without its type',
			withMeasure({ netWeight: '1', supplementaryUnit: '3' }, {}, { activityType: 'DOMESTIC' }),
			'Commodity 1 › Supplementary Unit Type',
		],
		[
			'domestic percentage without net weight',
			withMeasure(
				{
					percentageEstimationOrDeviation: '5',
					supplementaryUnit: '1',
					supplementaryUnitQualifier: 'MTQ',
				},
				{},
				{ activityType: 'DOMESTIC' },
			),
			'Commodity 1 › Percentage Estimate or Deviation',
		],
		[
			'domestic net weight without its percentage (refused live, pack §12)',
			withMeasure({ netWeight: '1' }, {}, { activityType: 'DOMESTIC' }),
			'Commodity 1 › Percentage Estimate or Deviation',
		],
		[
			'domestic net weight beside a unit, without its percentage',
			withMeasure(
				{ netWeight: '1', supplementaryUnit: '2', supplementaryUnitQualifier: 'NAR' },
				{},
				{ activityType: 'DOMESTIC' },
			),
			'Commodity 1 › Percentage Estimate or Deviation',
		],
		[
			'percentage over 25',
			withMeasure(
				{ netWeight: '1', percentageEstimationOrDeviation: '30' },
				{},
				{ activityType: 'DOMESTIC' },
			),
			'Commodity 1 › Percentage Estimate or Deviation',
		],
		[
			'wood without species',
			withMeasure(
				{ netWeight: '1', supplementaryUnit: '2', supplementaryUnitQualifier: 'MTQ' },
				{ commodity: 'wood', hsHeading: '4403' },
			),
			'Commodity 1 › Species › Scientific Name',
		],
		[
			'1001 producers in one commodity',
			withMeasure(
				{ netWeight: '1' },
				{
					producers: Array.from({ length: 1001 }, () => ({ country: 'CI', geometryGeojson: GEO })),
				},
			),
			'Commodity 1 › Producers',
		],
		[
			'producer country not ISO alpha-2',
			withMeasure({ netWeight: '1' }, { producers: [{ country: 'CIV', geometryGeojson: GEO }] }),
			'Commodity 1 › Producer 1 › Country',
		],
		[
			'no geolocation and no grouped declarations',
			withMeasure({ netWeight: '1' }, { producers: [] }),
			'Geolocation',
		],
	])('%s', (_name, statement, field) => {
		expect(fields(statement)).toContain(field);
	});

	it('a domestic net weight with its percentage (0 included), or a unit alone, is clean; the message says what to fill in', () => {
		const domestic = (m: Record<string, string>) =>
			statementProblems(withMeasure(m, {}, { activityType: 'DOMESTIC' }), 'OPERATOR');
		expect(domestic({ netWeight: '1', percentageEstimationOrDeviation: '0' })).toEqual([]);
		expect(domestic({ netWeight: '1', percentageEstimationOrDeviation: '12.5' })).toEqual([]);
		expect(domestic({ supplementaryUnit: '2', supplementaryUnitQualifier: 'NAR' })).toEqual([]);
		expect(domestic({ netWeight: '1200' })).toEqual([
			{
				field: 'Commodity 1 › Percentage Estimate or Deviation',
				message: expect.stringMatching(
					/net weight \(1200 kg\) needs its percentage estimate or deviation: fill in Percentage Estimate or Deviation \(under Additional Fields; Statement Options in version 1 of the node\) .*from 0 to 25 \(0 when it is exact\)/,
				),
			},
		]);
	});

	it('a representative needs the represented operator, its address and its EORI for an import', () => {
		expect(fields(base(), 'REPRESENTATIVE_OPERATOR')).toContain('Represented Operator');
		const st = base({ representedOperator: { operatorName: 'Client SA' } });
		const f = fields(st, 'REPRESENTATIVE_OPERATOR');
		expect(f).toEqual(
			expect.arrayContaining([
				'Represented Operator › Identifiers',
				'Represented Operator › Address',
			]),
		);
	});

	it('a grouping statement may have no producers', () => {
		expect(
			fields(
				withMeasure(
					{ netWeight: '1' },
					{ producers: [] },
					{ groupedDeclarations: ['26FRXXXXXXXXX1'] },
				),
			),
		).toEqual([]);
	});

	it('wood with species and the right unit passes', () => {
		const st = withMeasure(
			{ netWeight: '1', supplementaryUnit: '2', supplementaryUnitQualifier: 'MTQ' },
			{
				commodity: 'wood',
				hsHeading: '440399',
				speciesInfo: [{ scientificName: 'Tectona grandis', commonName: 'teak' }],
			},
		);
		expect(statementProblems(st, 'OPERATOR')).toEqual([]);
	});
});

describe('hsHeadingProblem and decimalProblem', () => {
	it('matches Annex I by prefix, never broader than the entry', () => {
		expect(hsHeadingProblem('180100', 'cocoa')).toBeUndefined();
		expect(hsHeadingProblem('0102', 'beef')).toMatch(/not an HS heading of beef/);
		expect(hsHeadingProblem('1801', 'coffee')).toMatch(/it is one of cocoa/);
		expect(hsHeadingProblem('9999')).toMatch(/not an HS heading of EUDR Annex I/);
	});
	it('decimals: 6 at most, 16 digits, positive', () => {
		expect(decimalProblem('1.123456')).toBeUndefined();
		expect(decimalProblem('1.1234560')).toBeUndefined();
		expect(decimalProblem('1.1234567')).toMatch(/7 decimals/);
		expect(decimalProblem('12345678901')).toMatch(/too large/);
		expect(decimalProblem('0')).toMatch(/more than 0/);
		expect(decimalProblem('1,5')).toMatch(/plain decimal/);
	});
});

describe('changeRefusal', () => {
	const overview = (over: Partial<StatementOverview>): StatementOverview => ({
		uuid: 'u',
		internalReferenceNumber: 'PO-1',
		referenceNumber: null,
		verificationNumber: null,
		status: 'AVAILABLE',
		rejectionReason: null,
		communicationToOperator: null,
		date: '2026-11-01T00:00:00.000Z',
		updatedBy: null,
		version: null,
		...over,
	});
	it('an AVAILABLE statement: allowed', () => {
		expect(changeRefusal({ action: 'amend', overview: overview({}) })).toBeUndefined();
	});
	it('refuses grouped, an amendment not yet available, and a changed activity type', () => {
		expect(
			changeRefusal({ action: 'withdraw', overview: overview({ status: 'GROUPED' }) }),
		).toMatch(/grouped/);
		expect(changeRefusal({ action: 'amend', overview: overview({ status: 'SUBMITTED' }) })).toMatch(
			/SUBMITTED/,
		);
		for (const status of ['WITHDRAWN', 'REJECTED', 'ARCHIVED'])
			expect(changeRefusal({ action: 'withdraw', overview: overview({ status }) })).toMatch(
				new RegExp(`status is ${status}: only an AVAILABLE statement can be withdrawn`),
			);
		expect(
			changeRefusal({
				action: 'amend',
				overview: overview({}),
				previousActivityType: 'IMPORT',
				newActivityType: 'EXPORT',
			}),
		).toMatch(/activity type cannot change/);
	});
	it('a withdrawal of a SUBMITTED statement is left to the EU (withdrawn live, pack §12)', () => {
		expect(
			changeRefusal({ action: 'withdraw', overview: overview({ status: 'SUBMITTED' }) }),
		).toBeUndefined();
	});
	it('never refuses on the overview date (the last update, not the submission): the EU judges the 72 hours', () => {
		expect(
			changeRefusal({ action: 'amend', overview: overview({ date: '2020-01-01T00:00:00Z' }) }),
		).toBeUndefined();
		expect(changeRefusal({ action: 'amend', overview: overview({ date: null }) })).toBeUndefined();
	});
});

describe('windowNote', () => {
	const o = (date: string | null) =>
		({ uuid: 'u', status: 'AVAILABLE', date }) as unknown as StatementOverview;
	it('says "last updated", never "submitted on", and what follows past 72 hours', () => {
		const late = windowNote(o('2026-11-01T00:00:00.000Z'), new Date('2026-11-04T01:00:00.000Z'));
		expect(late).toMatch(
			/gives no submission date; the statement was last updated on 2026-11-01T00:00:00.000Z \(73 hours ago\)/,
		);
		expect(late).toMatch(/More than 72 hours have passed since then, so also since its submission/);
		expect(late).not.toMatch(/submitted on 2026/);
		const early = windowNote(o('2026-11-01T00:00:00.000Z'), new Date('2026-11-02T00:00:00.000Z'));
		expect(early).toMatch(/last updated on .*\(24 hours ago\), and submitted on or before that/);
		expect(early).not.toMatch(/More than/);
		expect(windowNote(o(null), new Date())).toBeUndefined();
	});
});

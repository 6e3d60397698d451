/**
 * The pre-flight of a statement (nodes/shared/dds/rules.ts): one case per rule, each naming
 * the field in the user's terms; a clean statement has no problem.
 */
import type { Statement, StatementOverview } from '../../../nodes/shared/dds/statement';
import {
	changeRefusal,
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
	const within = new Date('2026-11-02T00:00:00.000Z');
	it('within 72 hours of an AVAILABLE statement: allowed', () => {
		expect(changeRefusal({ action: 'amend', overview: overview({}), now: within })).toBeUndefined();
	});
	it('refuses grouped, not yet available, past the window, and a changed activity type', () => {
		expect(
			changeRefusal({ action: 'withdraw', overview: overview({ status: 'GROUPED' }), now: within }),
		).toMatch(/grouped/);
		expect(
			changeRefusal({ action: 'amend', overview: overview({ status: 'SUBMITTED' }), now: within }),
		).toMatch(/SUBMITTED/);
		expect(
			changeRefusal({
				action: 'amend',
				overview: overview({}),
				now: new Date('2026-11-04T00:00:01.000Z'),
			}),
		).toMatch(/72 hours/);
		expect(
			changeRefusal({
				action: 'amend',
				overview: overview({}),
				now: within,
				previousActivityType: 'IMPORT',
				newActivityType: 'EXPORT',
			}),
		).toMatch(/activity type cannot change/);
	});
	it('an unknown submission date is left to the service', () => {
		expect(
			changeRefusal({
				action: 'amend',
				overview: overview({ date: null }),
				now: new Date('2030-01-01'),
			}),
		).toBeUndefined();
	});
});

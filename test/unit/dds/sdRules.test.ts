/**
 * The pre-flight of a simplified declaration (nodes/shared/dds/sdRules.ts): its own facets and
 * rules (internal reference ≤ 14 and mandatory, role, locations, SD-only grouping) and the rules
 * it shares with the DDS, each problem naming the field; a clean declaration has none.
 */
import type { StatementOverview } from '../../../nodes/shared/dds/statement';
import type { SimplifiedDeclaration } from '../../../nodes/shared/dds/simplified';
import {
	declarationProblems,
	sdChangeRefusal,
	sdGroupedReferenceProblem,
} from '../../../nodes/shared/dds/sdRules';

const clean: SimplifiedDeclaration = {
	internalReferenceNumber: 'FARM-2026-01',
	activityType: 'DOMESTIC',
	countryOfActivity: 'FR',
	commodities: [
		{
			commodity: 'coffee',
			descriptors: { descriptionOfGoods: 'Green coffee', goodsMeasure: { netWeight: '500' } },
			hsHeading: '0901',
			producers: [
				{ producerCountry: 'FR', producerLocation: { cadastralIdentifier: ['ZA-0042'] } },
				{
					producerCountry: 'FR',
					producerName: 'Farm',
					producerLocation: {
						postalAddress: [{ producerPostalCode: '12000', producerCity: 'Rodez' }],
					},
				},
			],
		},
	],
	geoLocationConfidential: false,
};

const fields = (d: SimplifiedDeclaration, role = 'MICRO_OPERATOR') =>
	declarationProblems(d, role as never).map((p) => p.field);

describe('simplified declaration rules', () => {
	it('a clean declaration has no problem, under each role that needs no represented operator', () => {
		expect(declarationProblems(clean, 'MICRO_OPERATOR')).toEqual([]);
		expect(declarationProblems(clean, 'MEMBER_STATE')).toEqual([]);
	});

	it('the internal reference is mandatory and at most 14 characters', () => {
		const long = declarationProblems(
			{ ...clean, internalReferenceNumber: 'FARM-2026-0001-X' },
			'MICRO_OPERATOR',
		);
		expect(long).toHaveLength(1);
		expect(long[0].field).toBe('Internal Reference');
		expect(long[0].message).toMatch(/16 characters; at most 14/);
		expect(fields({ ...clean, internalReferenceNumber: '' })).toEqual(['Internal Reference']);
	});

	it('an unknown role is refused; a representative must name the operator it represents', () => {
		expect(fields(clean, 'OPERATOR')).toEqual(['Operator Role']);
		expect(fields(clean, 'REPRESENTATIVE_MSPO')).toEqual(['Represented Operator']);
		const represented: SimplifiedDeclaration = {
			...clean,
			representedOperator: {
				operatorReferenceNumber: [{ identifierType: 'vat', identifierValue: 'FR1' }],
				operatorAddress: { country: 'FR', street: 'x', postalCode: '1', city: 'y' },
				operatorName: 'Farm',
			},
		};
		expect(fields(represented, 'REPRESENTATIVE_MSPO')).toEqual([]);
		expect(fields({ ...represented, activityType: 'EXPORT' }, 'REPRESENTATIVE_MSPO')).toContain(
			'Represented Operator › Identifiers',
		);
	});

	it('locations: lengths, empty lists, more than 100, an empty geolocation', () => {
		const located = (producerLocation: SimplifiedDeclaration['commodities'][0]['producers']) => ({
			...clean,
			commodities: [{ ...clean.commodities[0], producers: producerLocation }],
		});
		expect(
			fields(
				located([
					{ producerCountry: 'FR', producerLocation: { cadastralIdentifier: ['x'.repeat(81)] } },
					{ producerCountry: 'FR', producerLocation: { cadastralIdentifier: [] } },
					{
						producerCountry: 'FR',
						producerLocation: {
							postalAddress: [{ producerStreet: '', producerPostalCode: '', producerCity: 'c' }],
						},
					},
					{ producerCountry: 'FR', producerLocation: { geometryGeojson: ' ' } },
					{
						producerCountry: 'F',
						producerName: 'n'.repeat(501),
						producerLocation: {
							cadastralIdentifier: Array.from({ length: 101 }, (_, k) => `C${k}`),
						},
					},
				]),
			),
		).toEqual([
			'Commodity 1 › Producer 1 › Cadastral Identifier 1',
			'Commodity 1 › Producer 2 › Location',
			'Commodity 1 › Producer 3 › Postal Address 1 › Street',
			'Commodity 1 › Producer 3 › Postal Address 1 › Postal Code',
			'Commodity 1 › Producer 4 › Geolocation',
			'Commodity 1 › Producer 5 › Country',
			'Commodity 1 › Producer 5 › Name',
			'Commodity 1 › Producer 5 › Location',
		]);
	});

	it('shares the DDS rules: HS heading of the commodity, quantities, countries', () => {
		const d: SimplifiedDeclaration = {
			...clean,
			activityType: 'IMPORT',
			countryOfActivity: 'EL',
			commodities: [
				{
					...clean.commodities[0],
					hsHeading: '1801',
					descriptors: { descriptionOfGoods: 'x', goodsMeasure: {} },
				},
			],
		};
		expect(fields(d)).toEqual([
			'Country of Activity',
			'Commodity 1 › HS Heading',
			'Commodity 1 › Net Weight (kg)',
		]);
	});

	it('groups simplified declarations only; no producer needs a group', () => {
		expect(sdGroupedReferenceProblem('S26FRNMNBSA96Q')).toBeUndefined();
		expect(sdGroupedReferenceProblem('26FRXXXXXXXXXX')).toMatch(/simplified declarations only/);
		expect(fields({ ...clean, groupedDeclarations: ['S26FRNMNBSA96Q', '26FRXXXXXXXXXX'] })).toEqual(
			['Grouped Declarations › 2'],
		);
		const unlocated = { ...clean, commodities: [{ ...clean.commodities[0], producers: [] }] };
		const problems = declarationProblems(unlocated, 'MICRO_OPERATOR');
		expect(problems.map((p) => p.field)).toEqual(['Geolocation']);
		expect(problems[0].message).toMatch(/postal address or cadastral identifier/);
		expect(fields({ ...unlocated, groupedDeclarations: ['S26FRNMNBSA96Q'] })).toEqual([]);
	});

	it('update and withdraw: refused when grouped or not AVAILABLE, no DDS window', () => {
		const o = (
			status: string,
			date: string | null = '2020-01-01T00:00:00Z',
		): StatementOverview => ({
			uuid: 'u',
			internalReferenceNumber: 'FARM',
			referenceNumber: null,
			verificationNumber: null,
			status,
			rejectionReason: null,
			communicationToOperator: null,
			date,
			updatedBy: null,
			version: '1',
		});
		expect(sdChangeRefusal({ action: 'update', overview: o('AVAILABLE') })).toBeUndefined();
		expect(sdChangeRefusal({ action: 'withdraw', overview: o('GROUPED') })).toMatch(
			/declaration is grouped.*cannot be withdrawn/,
		);
		expect(sdChangeRefusal({ action: 'update', overview: o('SUBMITTED') })).toMatch(
			/only an AVAILABLE declaration can be updated; wait/,
		);
		expect(sdChangeRefusal({ action: 'update', overview: o('MYSTERY') })).toMatch(/MYSTERY/);
		// a SUBMITTED declaration's withdrawal is the EU's to decide (its text is the DDS's, pack §12)
		expect(sdChangeRefusal({ action: 'withdraw', overview: o('SUBMITTED') })).toBeUndefined();
		expect(sdChangeRefusal({ action: 'withdraw', overview: o('WITHDRAWN') })).toMatch(
			/only an AVAILABLE declaration can be withdrawn/,
		);
	});
});

/**
 * Rows made into a simplified declaration (statements/sdDeclaration.ts): one location per
 * producer, as its rows gave it; a producer located two ways is refused naming it; the SD's
 * rules run on the result (SD_KIND).
 */
import type { GroupedRows } from '../../../../nodes/EuInformationSystem/v1/actions/statements/groupStatements';
import {
	SD_KIND,
	toDeclaration,
} from '../../../../nodes/EuInformationSystem/v1/actions/statements/sdDeclaration';

const group = (
	producers: NonNullable<GroupedRows['statement']['commodities'][0]['producers']>,
): GroupedRows => ({
	items: [0, 1],
	internalReference: 'FARM-1',
	role: 'MICRO_OPERATOR',
	problems: [],
	statement: {
		activityType: 'DOMESTIC',
		geoLocationConfidential: false,
		commodities: [
			{
				commodity: 'coffee',
				descriptors: { descriptionOfGoods: 'Green coffee', goodsMeasure: { netWeight: '10' } },
				hsHeading: '0901',
				producers,
			},
		],
	},
});

describe('rows → simplified declaration', () => {
	it('each producer keeps the one location its rows gave', () => {
		const { declaration, problems } = toDeclaration(
			group([
				{ country: 'FR', name: 'A', geometryGeojson: '{"type":"FeatureCollection","features":[]}' },
				{
					country: 'FR',
					name: 'B',
					geometryGeojson: '',
					postalAddress: [{ producerPostalCode: '1', producerCity: 'X' }],
				},
				{ country: 'FR', geometryGeojson: '', cadastralIdentifier: ['P1', 'P2'] },
			]),
		);
		expect(problems).toEqual([]);
		expect(declaration.internalReferenceNumber).toBe('FARM-1');
		expect(declaration.commodities[0].producers).toEqual([
			{
				producerCountry: 'FR',
				producerName: 'A',
				producerLocation: { geometryGeojson: '{"type":"FeatureCollection","features":[]}' },
			},
			{
				producerCountry: 'FR',
				producerName: 'B',
				producerLocation: { postalAddress: [{ producerPostalCode: '1', producerCity: 'X' }] },
			},
			{ producerCountry: 'FR', producerLocation: { cadastralIdentifier: ['P1', 'P2'] } },
		]);
	});

	it('a producer whose rows locate it two ways is refused, naming it', () => {
		const g = group([
			{
				country: 'FR',
				name: 'Ferme',
				geometryGeojson: '',
				postalAddress: [{ producerPostalCode: '1', producerCity: 'X' }],
				cadastralIdentifier: ['P1'],
			},
		]);
		const problems = SD_KIND.problems(g);
		expect(problems).toEqual([
			{
				field: 'Commodity 1 › Producer 1 › Location',
				message: expect.stringMatching(
					/"Ferme" by postal address and by cadastral identifier; .*one way only/,
				) as unknown as string,
			},
		]);
	});

	it('the SD rules run on the declaration: a reference over 14 characters', () => {
		const g = { ...group([{ country: 'FR', geometryGeojson: '', cadastralIdentifier: ['P'] }]) };
		g.internalReference = 'FARM-2026-0001-X';
		expect(SD_KIND.problems(g).map((p) => p.field)).toEqual(['Internal Reference']);
	});
});

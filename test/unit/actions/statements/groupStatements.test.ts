/**
 * Rows combined into statements (groupStatements.ts): one statement per Internal Reference,
 * one commodity per HS heading + description, one producer per country + name with its plots
 * in one FeatureCollection; disagreeing rows are named, quantities never added up.
 */
import { groupStatements } from '../../../../nodes/EuInformationSystem/v1/actions/statements/groupStatements';
import type { StatementRow } from '../../../../nodes/EuInformationSystem/v1/actions/statements/statementRows';

const feature = (x: number) =>
	`{"type":"Feature","properties":{"ProducerCountry":"CI"},"geometry":{"type":"Point","coordinates":[${x},6.5]}}`;

function row(
	reference: string,
	over: Partial<StatementRow> = {},
	x = 1,
	name = 'Coop A',
): StatementRow {
	return {
		internalReference: reference,
		role: 'OPERATOR',
		head: {
			internalReferenceNumber: reference,
			activityType: 'IMPORT',
			geoLocationConfidential: false,
		},
		commodity: {
			commodity: 'cocoa',
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '1000' } },
			hsHeading: '1801',
		},
		producers: [{ country: 'CI', name, features: [feature(x)] }],
		...over,
	};
}

describe('groupStatements', () => {
	it('one statement per Internal Reference, in input order, with all its items', () => {
		const groups = groupStatements([
			{ itemIndex: 0, value: row('PO-1', {}, 1) },
			{ itemIndex: 1, value: row('PO-2', {}, 2) },
			{ itemIndex: 2, value: row('PO-1', {}, 3) },
		]);
		expect(groups.map((g) => [g.internalReference, g.items])).toEqual([
			['PO-1', [0, 2]],
			['PO-2', [1]],
		]);
		expect(groups[0].problems).toEqual([]);
	});

	it('plots of one producer make one FeatureCollection; other producers stay apart', () => {
		const [g] = groupStatements([
			{ itemIndex: 0, value: row('PO-1', {}, 1, 'Coop A') },
			{ itemIndex: 1, value: row('PO-1', {}, 2, 'Coop A') },
			{ itemIndex: 2, value: row('PO-1', {}, 3, 'Coop B') },
		]);
		const producers = g.statement.commodities[0].producers!;
		expect(producers.map((p) => p.name)).toEqual(['Coop A', 'Coop B']);
		const fc = JSON.parse(producers[0].geometryGeojson);
		expect(fc.type).toBe('FeatureCollection');
		expect(
			fc.features.map((f: { geometry: { coordinates: number[] } }) => f.geometry.coordinates[0]),
		).toEqual([1, 2]);
	});

	it('net weight is the commodity’s, never added up: rows that disagree are named', () => {
		const other = row('PO-1', {}, 2);
		other.commodity = {
			...other.commodity,
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '500' } },
		};
		const [g] = groupStatements([
			{ itemIndex: 0, value: row('PO-1') },
			{ itemIndex: 4, value: other },
		]);
		expect(g.statement.commodities[0].descriptors.goodsMeasure.netWeight).toBe('1000');
		expect(g.problems).toEqual([
			expect.objectContaining({
				field: 'Commodity 1',
				message: expect.stringMatching(/items 0 and 4 .*nothing is added up/),
			}),
		]);
	});

	it('statement fields that differ between rows of one statement are named', () => {
		const exportRow = row('PO-1', {
			head: {
				internalReferenceNumber: 'PO-1',
				activityType: 'EXPORT',
				geoLocationConfidential: false,
			},
		});
		const [g] = groupStatements([
			{ itemIndex: 0, value: row('PO-1') },
			{ itemIndex: 1, value: exportRow },
		]);
		expect(g.problems[0]).toMatchObject({
			field: 'Statement fields',
			message: expect.stringMatching(/items 0 and 1/),
		});
	});

	it('different HS headings make different commodities', () => {
		const coffee = row('PO-1');
		coffee.commodity = {
			commodity: 'coffee',
			descriptors: { descriptionOfGoods: 'Green coffee', goodsMeasure: { netWeight: '10' } },
			hsHeading: '0901',
		};
		const [g] = groupStatements([
			{ itemIndex: 0, value: row('PO-1') },
			{ itemIndex: 1, value: coffee },
		]);
		expect(g.statement.commodities.map((c) => c.hsHeading)).toEqual(['1801', '0901']);
	});
});

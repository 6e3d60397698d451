/**
 * Plot → Export for EU Information System through n8n's engine (issue 20, Deliver 5): rings in
 * RFC 7946 order, vertices that become one at six decimals (a warning; with Repair Geometry left
 * out), and a Maximum File Size that is not a positive number refused, naming the field.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { fake, usePlotService } from './helpers';

const ccw = [
	[-5.282778, 6.793889],
	[-5.272778, 6.793889],
	[-5.272778, 6.803889],
	[-5.282778, 6.803889],
	[-5.282778, 6.793889],
];
const cw = [...ccw].reverse();
// -5.2727781 and -5.2727784: 3 cm apart, one position at six decimals
const close = [
	[-5.282778, 6.793889],
	[-5.2727784, 6.793889],
	[-5.2727781, 6.793889],
	[-5.272778, 6.803889],
	[-5.282778, 6.803889],
	[-5.282778, 6.793889],
];

const exportEu = async (input: IDataObject[], options: IDataObject = {}, continueOnFail = false) =>
	await runNode({
		parameters: {
			resource: 'plot',
			operation: 'exportEu',
			exportInput: 'geometry',
			geometrySource: 'geoJson',
			geoJson: '={{ $json.geojson }}',
			producerCountry: 'CI',
			options: options as INodeParameters,
		},
		input,
		store: new CredentialStore(),
		withCredential: false,
		continueOnFail,
	});

function featuresOf(item: INodeExecutionData) {
	const text = Buffer.from(item.binary!.data.data, 'base64').toString('utf8');
	return (JSON.parse(text) as { features: Array<{ geometry: { coordinates: number[][][] } }> })
		.features;
}

describe('Plot → Export: rings, six decimals and the file size (through the n8n engine)', () => {
	usePlotService();

	it('outer rings counter-clockwise, whatever order they came in; counted (holes: test/unit/plots/euExportRings.test.ts)', async () => {
		// (a hole never reaches the file: it is refused, or left out with "Export the Outer Boundary Only")
		const east = ccw.map(([x, y]) => [+(x + 0.02).toFixed(6), y]);
		const { items, error } = await exportEu([
			{ geojson: { type: 'Polygon', coordinates: [cw] } },
			{ geojson: { type: 'Polygon', coordinates: [ccw] } },
			{ geojson: { type: 'MultiPolygon', coordinates: [[[...east].reverse()], [ccw]] } },
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const [a, b, c] = featuresOf(items[0]);
		expect(a.geometry.coordinates).toEqual([ccw]);
		expect(b.geometry.coordinates).toEqual([ccw]);
		expect(c.geometry.coordinates).toEqual([[east], [ccw]]);
		expect(items[0].json.rings_rewound).toBe(2);
		expect(fake.log.count()).toBe(0);
	});

	it('vertices that become one at six decimals: a warning naming where, the file as given', async () => {
		const { items, error } = await exportEu([
			{ geojson: { type: 'Polygon', coordinates: [close] } },
		]);
		expect(error).toBeUndefined();
		expect(featuresOf(items[0])[0].geometry.coordinates).toEqual([close]);
		expect(items[0].json.vertices_merged_at_6_decimals).toBe(0);
		expect(items[0].json.warnings).toEqual([
			expect.stringMatching(
				/^Item 0, feature 0 \(warning\): 1 vertex becomes one position with the vertex before at six decimals \(first at ring 0, position 2: \[-5\.2727784, 6\.793889\] and \[-5\.2727781, 6\.793889\]\).*turn on "Repair Geometry"/,
			),
		]);
	});

	it('with Repair Geometry: the extra vertex is left out, and said', async () => {
		const { items, error } = await exportEu(
			[{ geojson: { type: 'Polygon', coordinates: [close] } }],
			{ repairGeometry: true },
		);
		expect(error).toBeUndefined();
		expect(featuresOf(items[0])[0].geometry.coordinates).toEqual([
			[close[0], close[1], close[3], close[4], close[5]],
		]);
		expect(items[0].json.vertices_merged_at_6_decimals).toBe(1);
		expect(items[0].json.warnings).toEqual([
			'Item 0, feature 0: left out 1 vertex that became one position with the vertex before at six decimals',
		]);
	});

	it('with Repair Geometry: a ring left with too few positions is refused, not written', async () => {
		const tiny = [
			[-5.2827781, 6.7938891],
			[-5.2827782, 6.7938892],
			[-5.2727781, 6.793889],
			[-5.2827781, 6.7938891],
		];
		const { error } = await exportEu([{ geojson: { type: 'Polygon', coordinates: [tiny] } }], {
			repairGeometry: true,
		});
		expect(`${error?.message}\n${error?.description}`).toMatch(
			/Item 0, feature 0: leaving out the 1 vertices that become one position with their neighbour at six decimals leaves an invalid polygon/,
		);
	});

	it.each([
		['"1 MB"', '={{ "1 MB" }}', /"1 MB" is not a number/],
		['NaN', '={{ NaN }}', /NaN is not a finite number/],
		['0', 0, /0 is below the smallest allowed value, 0\.001/],
		['-1', -1, /-1 is below the smallest allowed value, 0\.001/],
	])(
		'Maximum File Size %s: every item refused, naming the field',
		async (_name, maxFileMb, reason) => {
			const input = [
				{ geojson: { type: 'Polygon', coordinates: [ccw] } },
				{ geojson: { type: 'Polygon', coordinates: [cw] } },
			];
			const { error } = await exportEu(input, { maxFileMb });
			const text = `${error?.message}\n${error?.description}`;
			for (const item of [0, 1]) {
				expect(text).toMatch(new RegExp(`Item ${item}, field "Maximum File Size \\(MB\\)": `));
			}
			expect(text).toMatch(reason);
			const kept = await exportEu(input, { maxFileMb }, true);
			expect(kept.items.map((i) => typeof i.json.error)).toEqual(['string', 'string']);
			expect(kept.items.some((i) => i.binary)).toBe(false);
		},
	);

	it('Maximum File Size as a number, or as numeric text, is the limit', async () => {
		const input = Array.from({ length: 6 }, () => ({
			geojson: { type: 'Polygon', coordinates: [ccw] },
		}));
		for (const maxFileMb of [0.001, '={{ "0,001" }}']) {
			const { items, error } = await exportEu(input, { maxFileMb });
			expect(error).toBeUndefined();
			expect(items.length).toBeGreaterThan(1);
			for (const item of items) {
				expect(item.json.max_bytes).toBe(1000);
				expect(item.json.bytes as number).toBeLessThanOrEqual(1000);
			}
		}
	});
});

/**
 * The EU Information System GeoJSON (nodes/shared/plots/euExport.ts): country codes, at least
 * six decimals, the features as the Information System wants them, and files under the limit.
 */
import { parseGeoJsonValue, validateFeatures } from '../../../nodes/shared/geometry';
import type { PlotGeometry } from '../../../nodes/shared/geometry';
import type { EuPlot } from '../../../nodes/shared/plots/euExport';
import {
	EU_MAX_FILE_BYTES,
	emptyNotes,
	formatCoordinate,
	packEuFiles,
	plotFileBytes,
	writeEuFeature,
} from '../../../nodes/shared/plots/euExport';
import { description } from '../../../nodes/GeospatialAnalysis/v1/actions/plot/exportEu.operation';
import { readCountry as readCountryCode } from '../../../nodes/shared/input';

describe('readCountry as Producer Country reads it (ISO 3166-1 alpha-2)', () => {
	it.each([
		['CI', 'CI'],
		['ci', 'CI'],
		[' br ', 'BR'],
		['CIV', 'CI'],
		['bra', 'BR'],
		["Côte d'Ivoire", 'CI'],
		['Cote d Ivoire', 'CI'],
		['Ivory Coast', 'CI'],
		['Brasil', 'BR'],
		['DRC', 'CD'],
		['Congo', 'CG'],
		['Netherlands', 'NL'],
		['NLD', 'NL'],
		['Viet Nam', 'VN'],
		['Papua New Guinea', 'PG'],
	])('%s → %s', (input, code) => {
		expect(readCountryCode(input)).toEqual({ kind: 'value', value: code });
	});

	it.each([undefined, null, '', '   '])('%p is missing', (input) => {
		expect(readCountryCode(input)).toEqual({ kind: 'missing' });
	});

	it.each([
		['Narnia', /"Narnia" is not a country name or an ISO 3166-1 code/],
		['XX', /"XX" is not a country/],
		['XYZ', /"XYZ" is not a country/],
		[{ code: 'CI' }, /it is an object, not a country name or code/],
	])('%p is refused, saying what to give', (input, reason) => {
		const read = readCountryCode(input);
		expect(read.kind).toBe('invalid');
		if (read.kind === 'invalid') {
			expect(read.reason).toMatch(reason);
			expect(read.reason).toMatch(/alpha-2 code/);
		}
	});
});

describe('formatCoordinate: at least six decimals, never rounded', () => {
	it.each([
		[-47.882778, '-47.882778'],
		[-47.8827781234567, '-47.8827781234567'],
		[12.5, '12.500000'],
		[-3, '-3.000000'],
		[0.1, '0.100000'],
		[1e-7, '0.0000001'],
		[-1.5e-8, '-0.000000015'],
	])('%p → %s', (n, text) => {
		const notes = emptyNotes();
		expect(formatCoordinate(n, notes)).toBe(text);
		expect(Number(text)).toBe(n);
		expect(notes.paddedCoordinates).toBe(text.endsWith('0') && String(n) !== text ? 1 : 0);
	});
});

describe('writeEuFeature', () => {
	const ring = [
		[-5.282778, 6.793889],
		[-5.272778, 6.793889, 210],
		[-5.272778, 6.803889],
		[-5.282778, 6.793889],
	];
	it('writes the EU properties in order, 2D positions, no crs, no other member', () => {
		const notes = emptyNotes();
		const f = writeEuFeature(
			{ type: 'Polygon', coordinates: [ring] },
			{
				ProducerCountry: 'CI',
				ProductionPlace: 'Kouassi farm',
				ProducerName: 'Kouassi Yao',
				Area: 2,
			},
			'refuse',
			notes,
		);
		expect(f.text).toBe(
			'{"type":"Feature","properties":{"ProducerName":"Kouassi Yao","ProducerCountry":"CI","ProductionPlace":"Kouassi farm"},' +
				'"geometry":{"type":"Polygon","coordinates":[[[-5.282778,6.793889],[-5.272778,6.793889],[-5.272778,6.803889],[-5.282778,6.793889]]]}}',
		);
		expect(f.bytes).toBe(Buffer.byteLength(f.text));
		expect(notes).toEqual({
			paddedCoordinates: 0,
			droppedZ: 1,
			droppedHoles: 0,
			rewoundRings: 0,
			mergedVertices: 0,
		});
	});

	it('a point carries Area; holes are left out only when asked, and counted', () => {
		const point = writeEuFeature(
			{ type: 'Point', coordinates: [-5.28, 6.79] },
			{ ProducerCountry: 'CI', Area: 1.5 },
			'refuse',
			emptyNotes(),
		);
		expect(JSON.parse(point.text)).toEqual({
			type: 'Feature',
			properties: { ProducerCountry: 'CI', Area: 1.5 },
			geometry: { type: 'Point', coordinates: [-5.28, 6.79] },
		});
		expect(point.text).toContain('[-5.280000,6.790000]');
		const notes = emptyNotes();
		const hole = [
			[-5.28, 6.795],
			[-5.275, 6.8],
			[-5.275, 6.795],
			[-5.28, 6.795],
		];
		const holed = writeEuFeature(
			{ type: 'MultiPolygon', coordinates: [[ring, hole]] },
			{ ProducerCountry: 'CI' },
			'drop',
			notes,
		);
		expect(JSON.parse(holed.text).geometry.coordinates[0]).toHaveLength(1);
		expect(notes.droppedHoles).toBe(1);
	});

	it('round-trips through the node’s own GeoJSON parser and validator, keeping every coordinate', () => {
		const geometries: PlotGeometry[] = [
			{ type: 'Polygon', coordinates: [ring.map(([x, y]) => [x, y])] },
			{ type: 'Point', coordinates: [-47.8827781234567, -15.793889] },
			{
				type: 'MultiPolygon',
				coordinates: [[ring.map(([x, y]) => [x + 0.1, y])], [ring.map(([x, y]) => [x, y + 0.1])]],
			},
		];
		const features = geometries.map((g) =>
			writeEuFeature(g, { ProducerCountry: 'CI', Area: 1 }, 'refuse', emptyNotes()),
		);
		const [file] = packEuFiles([{ item: 0, features, notes: emptyNotes() }]);
		const parsed = parseGeoJsonValue(file.text, { maxFeatures: 100 });
		expect(parsed.crs).toBeUndefined();
		expect(parsed.features.map((f) => f.geometry.coordinates)).toEqual(
			geometries.map((g) => g.coordinates),
		);
		const result = validateFeatures(parsed.features, { country: 'CI' });
		expect(result.valid).toBe(true);
		// six decimals at least on every number of every position in the text
		const numbers = file.text.match(/-?\d+\.?\d*(?=[,\]])/g) ?? [];
		expect(numbers.length).toBeGreaterThan(20);
		for (const n of numbers) expect(n.split('.')[1]?.length ?? 0).toBeGreaterThanOrEqual(6);
	});
});

describe('packEuFiles', () => {
	/** A plot of one small polygon with 6-decimal coordinates, ~300 bytes. */
	function plot(item: number, country: string): EuPlot {
		const x = -5 - (item % 1000) * 0.001;
		const y = 6 + Math.floor(item / 1000) * 0.001;
		const r = (n: number) => Number(n.toFixed(6));
		const ring = [
			[r(x), r(y)],
			[r(x + 0.0005), r(y)],
			[r(x + 0.0005), r(y + 0.0005)],
			[r(x), r(y)],
		];
		const notes = emptyNotes();
		return {
			item,
			features: [
				writeEuFeature(
					{ type: 'Polygon', coordinates: [ring] },
					{ ProducerCountry: country, ProductionPlace: `Plot ${item}` },
					'refuse',
					notes,
				),
			],
			notes,
		};
	}

	it('30,000 plots: every file under the limit and none empty, every plot in exactly one file, in order', () => {
		const plots = Array.from({ length: 30_000 }, (_, i) => plot(i, i % 3 === 0 ? 'CI' : 'GH'));
		const limit = 1_000_000;
		const files = packEuFiles(plots, limit);
		expect(files.length).toBeGreaterThan(5);
		const seen: number[] = [];
		for (const f of files) {
			expect(f.items.length).toBeGreaterThan(0);
			expect(f.bytes).toBe(Buffer.byteLength(f.text));
			expect(f.bytes).toBeLessThanOrEqual(limit);
			const parsed = JSON.parse(f.text) as { type: string; features: unknown[] };
			expect(parsed.type).toBe('FeatureCollection');
			expect(parsed.features).toHaveLength(f.features);
			expect(f.features).toBe(f.items.length);
			expect(f.perCountry.CI + f.perCountry.GH).toBe(f.features);
			seen.push(...f.items);
		}
		expect(seen).toEqual(plots.map((p) => p.item));
		// each file but the last is full: the next plot would not have fitted
		for (const f of files.slice(0, -1)) expect(f.bytes + 400).toBeGreaterThan(limit);
		expect(files.map((f) => f.number)).toEqual(files.map((_f, i) => i + 1));
	});

	it('with the default limit of 25 MB the same 30,000 plots make one file', () => {
		const plots = Array.from({ length: 30_000 }, (_, i) => plot(i, 'CI'));
		const files = packEuFiles(plots);
		expect(files).toHaveLength(1);
		expect(files[0].bytes).toBeLessThanOrEqual(EU_MAX_FILE_BYTES);
		expect(files[0].perCountry).toEqual({ CI: 30_000 });
	});

	it('keeps the features of one plot together and refuses a plot larger than a file', () => {
		const big = plot(1, 'CI');
		big.features = [...big.features, ...plot(2, 'CI').features, ...plot(3, 'CI').features];
		const size = plotFileBytes(big);
		const files = packEuFiles([plot(0, 'CI'), big, plot(4, 'CI')], size);
		expect(files.map((f) => f.items)).toEqual([[0], [1], [4]]);
		expect(files[1].features).toBe(3);
		expect(() => packEuFiles([big], size - 1)).toThrow(/Item 1 needs/);
	});

	it('the default Maximum File Size of the node is EU_MAX_FILE_BYTES', () => {
		const options = description.find((p) => p.name === 'options')!.options as Array<{
			name: string;
			default: unknown;
		}>;
		expect(options.find((o) => o.name === 'maxFileMb')!.default).toBe(EU_MAX_FILE_BYTES / 1e6);
	});
});

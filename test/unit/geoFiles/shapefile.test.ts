/**
 * The Shapefile reader (nodes/shared/geoFiles/shapefile.ts, shapefileDbf.ts): records at the
 * `.shx` offsets (GDAL's way; a `.shp` padded after its last record reads), `.dbf` rows capped
 * by the shapes, field names kept as own properties whatever they are, and the ring
 * assembly through a box index keeping "each hole to the smallest outer ring that contains it".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { unzipSync, zipSync } from 'fflate';

import type { Position } from '../../../nodes/shared/geoFiles';
import { readGeoFile } from '../../../nodes/shared/geoFiles';
import { OutputBudget } from '../../../nodes/shared/geoFiles/outputBudget';
import { assembleRings, readShp } from '../../../nodes/shared/geoFiles/shapefile';
import { readDbf } from '../../../nodes/shared/geoFiles/shapefileDbf';
import { WGS84_PRJ, refusal, square, writeDbf, writeShp } from '../../helpers/geoFileTests';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
	plots: Array<{ name: string; rings: Position[][] }>;
};

describe('Shapefile: records at the .shx offsets', () => {
	it('shx-padded-after-last-record.zip: a .shp padded after its last record reads at the .shx offsets, as GDAL reads it', () => {
		const file = readGeoFile(bytesOf('shx-padded-after-last-record.zip'), 'padded.zip');
		expect(file.features.map((f) => f.properties.Name)).toEqual(expected.plots.map((p) => p.name));
		const rings = (file.features[0].geometry as { coordinates: Position[][] }).coordinates;
		rings.forEach((ring, r) =>
			ring.forEach((p, k) => {
				expect(Math.abs(p[0] - expected.plots[0].rings[r][k][0])).toBeLessThan(1e-9);
				expect(Math.abs(p[1] - expected.plots[0].rings[r][k][1])).toBeLessThan(1e-9);
			}),
		);
	});
	it('the same without its .shx: the records are walked in order and the padding is met (refused as damaged, as before)', () => {
		const files = unzipSync(bytesOf('shx-padded-after-last-record.zip'));
		delete files['fazendas.shx'];
		expect(refusal(() => readGeoFile(zipSync(files), 'padded.zip')).message).toMatch(
			/"fazendas" is damaged: record 0 is shorter than its shape type/,
		);
	});
	it('a .shx placing a record outside the .shp: refused naming the record and the sizes', () => {
		const { shp, shx } = writeShp(
			[
				{ type: 'point', point: [1, 2] },
				{ type: 'point', point: [3, 4] },
			],
			1,
		);
		shx.writeInt32BE(shp.length, 108); // record 2's offset (in 16-bit words): far past the end
		expect(() => readShp(shp, 'sedes', { shx })).toThrow(
			/"sedes" is damaged: the \.shx places record 2 at bytes \d+ to \d+, outside the \d+ bytes of the \.shp/,
		);
	});
	it('a .shx that is not an index: not used, with a warning, the records walked in order', () => {
		const { shp } = writeShp([{ type: 'point', point: [1, 2] }], 1);
		const warnings: string[] = [];
		const records = readShp(shp, 'sedes', { shx: new Uint8Array(7), warnings });
		expect(records.map((r) => r.geometry)).toEqual([{ type: 'Point', coordinates: [1, 2] }]);
		expect(warnings).toEqual([
			'Layer "sedes": the .shx is not a Shapefile index, so it was not used (the records were read in order)',
		]);
	});
	it('records stop at Maximum Features left, and positions are counted in the budget before they are built', () => {
		const { shp } = writeShp(
			[{ type: 'point', point: [1, 2] }, { type: 'point', point: [3, 4] }, null],
			1,
		);
		expect(() => readShp(shp, 'sedes', { maxRecords: 2 })).toThrow(/holds more than 2 features/);
		const budget = new OutputBudget('b.zip', { maxFileBytes: 20 }); // one position
		expect(() => readShp(shp, 'sedes', { budget })).toThrow(
			/"b\.zip" gives more than 1 coordinate positions/,
		);
	});
});

describe('Shapefile: the .dbf', () => {
	it('rows are built for the shapes only, the header count checked against the real size', () => {
		const dbf = writeDbf(
			[{ name: 'Name', type: 'C', length: 10 }],
			[{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }],
			'latin1',
		);
		const table = readDbf(dbf, 'l', undefined, 'latin1', 1);
		expect(table.rows).toEqual([{ Name: 'a' }]);
		expect(table.rowCount).toBe(3);
		expect(table.complete).toBe(true);
		const claiming = Buffer.from(dbf);
		claiming.writeUInt32LE(124_000_000, 4);
		const cut = readDbf(claiming, 'l', undefined, 'latin1', 5);
		expect(cut.rows).toHaveLength(3);
		expect(cut.rowCount).toBe(3);
		expect(cut.warnings.join()).toMatch(/the \.dbf is cut short \(3 of 124000000 attribute rows\)/);
	});
	it('a .dbf with more rows than shapes: the rows said as counted, the extra ones not built', () => {
		const point = writeShp([{ type: 'point', point: [-51.2, -12.5] }], 1);
		const rows = Array.from({ length: 2_000 }, (_, i) => ({ Name: `r${i}` }));
		const zip = zipSync({
			'sede.shp': point.shp,
			'sede.dbf': writeDbf([{ name: 'Name', type: 'C', length: 10 }], rows, 'latin1'),
			'sede.prj': new TextEncoder().encode(WGS84_PRJ),
		});
		const file = readGeoFile(zip, 'sede.zip');
		expect(file.features.map((f) => f.properties)).toEqual([{ Name: 'r0' }]);
		expect(file.warnings).toContain(
			'Layer "sede": the .dbf has 2,000 rows for 1 shapes; rows were paired with shapes in order',
		);
	});
	it('field names are own properties whatever they are: toString, valueOf, __proto__, constructor', () => {
		const names = ['toString', 'valueOf', '__proto__', 'constructor', 'hasOwnProp'];
		const fields = names.map((_, i) => ({ name: `F${i}`, type: 'C', length: 8 }));
		const dbf = writeDbf(fields, [{ F0: 'a', F1: 'b', F2: 'c', F3: 'd', F4: 'e' }], 'latin1');
		names.forEach((name, i) => {
			const at = 32 + 32 * i;
			dbf.fill(0, at, at + 11);
			dbf.write(name, at, 11, 'latin1'); // 'constructor' fills all 11 bytes, no terminator
		});
		const row = readDbf(dbf, 'l', undefined, 'latin1').rows[0] as Record<string, unknown>;
		expect(Object.keys(row)).toEqual(names);
		names.forEach((name, i) => {
			expect(Object.getOwnPropertyDescriptor(row, name)?.value).toBe('abcde'[i]);
		});
		expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
		expect(JSON.parse(JSON.stringify(row))).toEqual(
			JSON.parse(
				'{"toString":"a","valueOf":"b","__proto__":"c","constructor":"d","hasOwnProp":"e"}',
			),
		);
	});
});

describe('Shapefile: rings matched through a box index', () => {
	it('concentric outer rings: each hole goes to the smallest outer ring that contains it, whatever the order', () => {
		const big = square(0, 0, 10, true);
		const middle = square(2, 2, 6, true);
		const holeInMiddle = square(4, 4, 1, false);
		const holeInBig = square(0.5, 0.5, 1, false);
		for (const order of [
			[big, middle, holeInMiddle, holeInBig],
			[holeInBig, holeInMiddle, middle, big],
		]) {
			const polygons = assembleRings(order);
			const withHoles = polygons.map((p) => [p[0][0], p.length - 1]);
			expect(withHoles).toEqual(
				expect.arrayContaining([
					[[0, 0], 1],
					[[2, 2], 1],
				]),
			);
			const middlePolygon = polygons.find((p) => p[0][0][0] === 2)!;
			expect(middlePolygon[1][0]).toEqual([4, 4]);
		}
	});
	it('more outer rings than are tested directly (the box index): six concentric rings, each hole in its annulus', () => {
		const sizes = [12, 2, 8, 4, 10, 6];
		const outers = sizes.map((h) => square(-h, -h, 2 * h, true));
		const holes = sizes.map((h) => square(h - 1.5, 0, 0.5, false));
		const polygons = assembleRings([...holes, ...outers]);
		expect(polygons).toHaveLength(6);
		for (const polygon of polygons) {
			const h = -polygon[0][0][0];
			expect(polygon).toHaveLength(2);
			expect(polygon[1][0][0]).toBe(h - 1.5);
		}
	});
	it('a hole inside no outer ring (its box in none) is an outer ring of its own', () => {
		const polygons = assembleRings([square(0, 0, 1, true), square(5, 5, 1, false)]);
		expect(polygons).toHaveLength(2);
		expect(polygons[1]).toEqual([square(5, 5, 1, false)]);
	});
});

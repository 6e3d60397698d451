/**
 * Warnings bounded (nodes/shared/geoFiles/fileWarnings.ts and readGeoFile): each file-level
 * warning said once, repeats counted, at most MAX_FILE_WARNINGS distinct ones, on the first
 * feature of the file only; a feature's own warnings stay on it.
 */
import { zipSync } from 'fflate';

import { MAX_FILE_WARNINGS, readGeoFile } from '../../../nodes/shared/geoFiles';
import {
	CountedSkips,
	FileWarnings,
	featureWarnings,
} from '../../../nodes/shared/geoFiles/fileWarnings';

const { writeShp } = require('../../fixtures/geofiles/writers') as {
	writeShp: (
		shapes: Array<{ type: 'point'; point: number[] } | null>,
		type: number,
	) => { shp: Buffer };
};

describe('FileWarnings', () => {
	it('a repeat is counted into the one kept', () => {
		const w = new FileWarnings();
		w.addAll(['a', 'b', 'a', 'a']);
		expect(w.list()).toEqual(['a (×3)', 'b']);
	});
	it(`at most ${MAX_FILE_WARNINGS} distinct ones, then a line saying how many more`, () => {
		const w = new FileWarnings();
		for (let i = 0; i < 250; i++) w.add(`w${i}`);
		const list = w.list();
		expect(list).toHaveLength(MAX_FILE_WARNINGS + 1);
		expect(list[MAX_FILE_WARNINGS]).toBe(
			'…and 150 more warning(s) not listed (the first 100 distinct ones are)',
		);
	});
	it("a feature's own: each once, at most 20", () => {
		expect(featureWarnings(['x', 'x'])).toEqual(['x']);
		const many = featureWarnings(Array.from({ length: 30 }, (_, i) => `w${i}`));
		expect(many).toHaveLength(21);
		expect(many[20]).toBe('…and 10 more warning(s) on this feature not listed');
	});
	it('CountedSkips: nothing, the one as said, or the count with the first', () => {
		const s = new CountedSkips('members were skipped');
		expect(s.warning()).toBeUndefined();
		s.add('first');
		expect(s.warning()).toBe('first');
		s.add('second');
		expect(s.warning()).toBe('2 members were skipped; the first: first');
	});
});

describe('readGeoFile: file-level warnings once, on the first feature', () => {
	it('a layer without .prj and .dbf: its warnings on the file and its first feature, not on the others', () => {
		const { shp } = writeShp(
			[{ type: 'point', point: [1, 2] }, { type: 'point', point: [3, 4] }, null],
			1,
		);
		const file = readGeoFile(zipSync({ 'sedes.shp': shp }), 'sedes.zip');
		expect(file.warnings).toEqual([
			'Layer "sedes" has no .prj: its coordinates were read as WGS84 longitude/latitude (they all fit degrees)',
			'Layer "sedes" has no .dbf: its features have no attributes',
		]);
		expect(file.features[0].warnings).toEqual(file.warnings);
		expect(file.features[1].warnings).toEqual([]);
		// a feature's own warning stays on it
		expect(file.features[2].warnings).toEqual(['Record 3 has no geometry (a null shape)']);
	});
});

/**
 * The GeoJSON reader's bounds (nodes/shared/geoFiles/geojson.ts): members that are not
 * features counted into one warning, property names kept as own properties whatever they
 * are, positions counted in the read's budget.
 */
import { GeoFileError, readGeoFile } from '../../../nodes/shared/geoFiles';
import { readGeoJsonText } from '../../../nodes/shared/geoFiles/geojson';
import { OutputBudget } from '../../../nodes/shared/geoFiles/outputBudget';

const point = (props: string) =>
	`{"type":"Feature","properties":${props},"geometry":{"type":"Point","coordinates":[-51,-12]}}`;

describe('GeoJSON: skipped members counted, never one warning each', () => {
	it('one skipped member: said as it is', () => {
		const read = readGeoJsonText(`[${point('{}')},{"type":"Foo"}]`, 'a.json');
		expect(read.warnings).toEqual([
			'the file[1] has the type "Foo", which is not GeoJSON, and was skipped',
		]);
	});
	it('many skipped members of different kinds: one counted warning naming the first', () => {
		const members = [point('{}'), '0', '{"type":"Foo"}', '"x"', ...Array(997).fill('1')];
		const read = readGeoJsonText(
			`{"type":"FeatureCollection","features":[${members.join(',')}]}`,
			'a.json',
		);
		expect(read.features).toHaveLength(1);
		expect(read.warnings).toEqual([
			'1,000 members were skipped as not GeoJSON features; the first: the file.features[1] is not a GeoJSON object and was skipped',
		]);
	});
	it('newline-delimited: counted the same', () => {
		const read = readGeoJsonText([point('{}'), '1', '2', '3'].join('\n'), 'a.ndjson');
		expect(read.ndjson).toBe(true);
		expect(read.warnings).toEqual([
			'3 members were skipped as not GeoJSON features; the first: line 2 is not a GeoJSON object and was skipped',
		]);
	});
});

describe('GeoJSON: property names kept as own properties whatever they are', () => {
	const names = ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor'];
	const props = `{${names.map((n, i) => `"${n}":${i}`).join(',')}}`;
	it.each([
		['shallow properties', props],
		// a deep property beside them takes the other path (property by property)
		[
			'beside a property nested too deep',
			props.replace(/}$/, `,"deep":${'['.repeat(200)}${']'.repeat(200)}}`),
		],
	])('%s', (_label, properties) => {
		const file = readGeoFile(new TextEncoder().encode(point(properties)), 'p.geojson');
		const got = file.features[0].properties;
		expect(Object.keys(got)).toEqual(names);
		names.forEach((n, i) => expect(Object.getOwnPropertyDescriptor(got, n)?.value).toBe(i));
		expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
	});
});

describe('GeoJSON: positions counted in the read budget', () => {
	it('every geometry kept counts its positions; past the budget the file is refused', () => {
		const budget = new OutputBudget('p.json', { maxFileBytes: 100 }); // 5 positions
		const line = `{"type":"LineString","coordinates":[[0,0],[1,1],[2,2]]}`;
		expect(readGeoJsonText(`[${line}]`, 'p.json', 10, budget).features).toHaveLength(1);
		expect(budget.used).toBe(3);
		let error: unknown;
		try {
			readGeoJsonText(`[${line}]`, 'p.json', 10, budget);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(GeoFileError);
		expect((error as GeoFileError).message).toMatch(
			/"p\.json" gives more than 5 coordinate positions/,
		);
	});
});

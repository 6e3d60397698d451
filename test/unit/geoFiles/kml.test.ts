/**
 * Read File's KML reader (nodes/shared/geoFiles/kml.ts) on the issue-28 cases, each a
 * fixture of test/fixtures/geofiles written by generate.js with the property of the real
 * files: GDAL's nested Documents as layers, RFC 7946 winding, names that are JavaScript
 * object members, the placemark warnings counted, Maximum Features stopping the read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { booleanClockwise } from '@turf/boolean-clockwise';

import type { Position } from '../../../nodes/shared/geoFiles';
import { readGeoFile } from '../../../nodes/shared/geoFiles';
import { readKml } from '../../../nodes/shared/geoFiles/kml';
import { OutputBudget } from '../../../nodes/shared/geoFiles/outputBudget';
import { CoordinateReader } from '../../../nodes/shared/geoFiles/xmlTree';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const read = (name: string) => readGeoFile(bytesOf(name), name);
const enc = (s: string) => new TextEncoder().encode(s);
const kmlDoc = (body: string) =>
	enc(
		`<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`,
	);
const options = (maxFeatures = 100_000) => ({
	budget: new OutputBudget('t.kml', { maxFileBytes: 50e6 }),
	maxKeptChars: 50e6,
	maxFeatures,
});

describe('Read File: KML as GDAL reads it', () => {
	it('placemarks in nested Documents (GDAL LIBKML layers) get the Document name as their layer; the root Document is no layer', () => {
		const result = read('gdal-nested-documents.kml');
		expect(
			result.features.map((f) => [f.source.layer, f.source.featureIndex, f.properties.name]),
		).toEqual([
			[null, 0, 'Sede sem camada'],
			['talhoes', 0, 'Fazenda São João'],
			['sedes', 0, 'Armazém Boa Esperança'],
		]);
		expect(result.features[1].properties).toEqual({
			name: 'Fazenda São João',
			owner: 'José Araújo',
			area_ha: 48.25,
		});
	});

	it('a Document nested in a Folder, and unnamed ones, are layers too', () => {
		const result = readGeoFile(
			kmlDoc(
				'<Folder><name>F</name><Document><name>D</name><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Document></Folder>' +
					'<Document><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></Document>',
			),
			'n.kml',
		);
		expect(result.features.map((f) => f.source.layer)).toEqual(['F / D', '(unnamed document)']);
	});

	it('polygons in RFC 7946 winding: outer rings counter-clockwise, holes clockwise, whatever the file wrote', () => {
		const rings = (name: string, k: number) =>
			(read(name).features[k].geometry as { coordinates: Position[][] }).coordinates;
		for (const [file, k] of [
			['gdal-nested-documents.kml', 1], // written clockwise / counter-clockwise
			['cooperativa-nested-folders.kml', 0], // written counter-clockwise / clockwise
		] as const) {
			const [outer, hole] = rings(file, k);
			expect(booleanClockwise(outer)).toBe(false);
			expect(booleanClockwise(hole)).toBe(true);
		}
		// the same plot either way
		expect(rings('gdal-nested-documents.kml', 1)).toEqual(
			rings('cooperativa-nested-folders.kml', 0),
		);
	});

	it.each(['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor'])(
		'SimpleData and Data named %s: own properties with their values',
		(name) => {
			const [simple, data] = read('kml-object-member-names.kml').features;
			const i = ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor'].indexOf(name);
			for (const [feature, value] of [
				[simple, i % 2 ? i : `valor ${name}`], // typed by the Schema: int for odd ones
				[data, `dado ${name}`],
			] as const) {
				expect(Object.prototype.hasOwnProperty.call(feature.properties, name)).toBe(true);
				expect(Object.getOwnPropertyDescriptor(feature.properties, name)?.value).toBe(value);
				expect(Object.getPrototypeOf(feature.properties)).toBe(Object.prototype);
			}
			expect(JSON.parse(JSON.stringify(data.properties))[name]).toBe(`dado ${name}`);
		},
	);

	it('a Schema field of a type named like an object member is read as text', () => {
		const result = readGeoFile(
			kmlDoc(
				'<Schema id="s"><SimpleField name="a" type="constructor"/><SimpleField name="b" type="bool"/></Schema>' +
					'<Placemark><ExtendedData><SchemaData><SimpleData name="a">x</SimpleData><SimpleData name="b">0</SimpleData></SchemaData></ExtendedData><Point><coordinates>1,2</coordinates></Point></Placemark>',
			),
			's.kml',
		);
		// a bool as GDAL reads it: 0 is false (togeojson's Boolean("0") made it true)
		expect(result.features[0].properties).toEqual({ a: 'x', b: false });
	});

	it('placemarks without geometry: the first 20 named, the rest counted in one file warning (no string per placemark)', () => {
		const n = 1000;
		const body = Array.from(
			{ length: n },
			(_, i) => `<Placemark><name>P${i}</name></Placemark>`,
		).join('');
		const result = readGeoFile(kmlDoc(body), 'empty.kml');
		expect(result.features).toHaveLength(n);
		expect(result.features[0].warnings).toContain(
			'Placemark "P0" has no geometry that could be read',
		);
		expect(result.features[19].warnings).toContain(
			'Placemark "P19" has no geometry that could be read',
		);
		expect(result.warnings).toEqual([
			'1000 placemarks have no geometry that could be read (the first 20 are named in their warnings)',
		]);
		const distinct = new Set(result.features.flatMap((f) => f.warnings));
		expect(distinct.size).toBe(22);
	});

	it('Maximum Features stops the read: what follows is never read', () => {
		const body =
			Array.from(
				{ length: 5 },
				() => '<Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>',
			).join('') +
			'<Placemark><Point><coordinates>this is never read</coordinates></Point></Placemark><broken>';
		expect(readKml(kmlDoc(body), 'm.kml', options(3)).features).toHaveLength(4);
		expect(() => readGeoFile(kmlDoc(body), 'm.kml', { maxFeatures: 3 })).toThrow(
			/holds more than 3 features/,
		);
	});

	it('every position is counted in the OutputBudget, which refuses past its limit naming it', () => {
		const line = Array.from({ length: 100 }, (_, i) => `${i / 1000},1`).join(' ');
		const doc = kmlDoc(
			`<Placemark><LineString><coordinates>${line}</coordinates></LineString></Placemark>`,
		);
		const budget = new OutputBudget('b.kml', { maxFileBytes: 1e6 });
		readKml(doc, 'b.kml', { ...options(), budget });
		expect(budget.used).toBe(100);
		expect(() =>
			readKml(doc, 'b.kml', {
				...options(),
				budget: new OutputBudget('b.kml', { maxFileBytes: 1e3 }),
			}),
		).toThrow(/gives more than 50 coordinate positions/);
	});

	it('kept text is bounded by Maximum File Size', () => {
		const doc = kmlDoc(`<Placemark><description>${'x'.repeat(5000)}</description></Placemark>`);
		expect(() => readKml(doc, 'd.kml', { ...options(), maxKeptChars: 1000 })).toThrow(
			/more than 0\.001 MB of names, descriptions and attributes/,
		);
	});

	it('gx: elements are skipped by their namespace too, however prefixed; GroundOverlays skipped; NetworkLinks listed, at most 3', () => {
		const result = readGeoFile(
			kmlDoc(
				'<Placemark xmlns:google="http://www.google.com/kml/ext/2.2"><name>T</name><google:Track><google:coord>1 2 0</google:coord></google:Track><Point><coordinates>1,2</coordinates></Point></Placemark>' +
					'<GroundOverlay><name>img</name><Icon><href>a.png</href></Icon><LatLonBox><north>1</north><south>0</south><east>1</east><west>0</west></LatLonBox></GroundOverlay>' +
					[1, 2, 3, 4]
						.map(
							(i) =>
								`<NetworkLink><Link><href>http://example.invalid/${i}.kml</href></Link></NetworkLink>`,
						)
						.join(''),
			),
			'g.kml',
		);
		expect(result.features.map((f) => f.geometry?.type)).toEqual(['Point']);
		expect(result.warnings.join('\n')).toMatch(
			/Google Earth extensions \(google:Track ×1\) were ignored/,
		);
		expect(result.warnings.join('\n')).toMatch(
			/4 NetworkLink\(s\) not followed \(http:\/\/example\.invalid\/1\.kml, http:\/\/example\.invalid\/2\.kml, http:\/\/example\.invalid\/3\.kml, …\)/,
		);
	});

	it('the declared encoding and a UTF-16 byte-order mark are honoured', () => {
		for (const file of ['kml-utf16-bom.kml', 'kml-latin1.kml'])
			expect(read(file).features[0].properties.description).toEqual({
				'@type': 'html',
				value: '<b>Proprietário</b>: José Araújo',
			});
	});

	it('coordinates are read exactly as parseFloat reads them, whatever the digits, cut anywhere', () => {
		// a seeded generator: plain decimals of 0–17 digits, signs, exponents, junk
		let seed = 28;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const number = () => {
			const kind = Math.floor(random() * 10);
			if (kind === 0) return `${(random() * 10).toFixed(3)}e${Math.floor(random() * 5) - 2}`;
			if (kind === 1) return `+${(random() * 90).toFixed(6)}`;
			if (kind === 2) return `.${Math.floor(random() * 1e6)}`;
			return ((random() - 0.5) * 10 ** Math.floor(random() * 4)).toFixed(Math.floor(random() * 18));
		};
		const tuples = Array.from({ length: 5000 }, () => `${number()},${number()},0`);
		const text = tuples.join(' \n\t');
		const reader = new CoordinateReader(new OutputBudget('c.kml', { maxFileBytes: 1e9 }));
		for (let at = 0; at < text.length; at += 997) reader.push(text.slice(at, at + 997));
		const positions = reader.finish();
		expect(positions).toHaveLength(5000);
		positions.forEach((p, i) => {
			const [x, y] = tuples[i].split(',').map((v) => parseFloat(v));
			expect(Object.is(p[0], x) && Object.is(p[1], y)).toBe(true);
		});
	});
});

/**
 * Plot → Read File's reader (nodes/shared/geoFiles) on the fixtures of
 * test/fixtures/geofiles (generate.js writes them; README.md there says what each is):
 * every format read back and compared with the known coordinates (within 1e-9° of proj4's
 * own results for projected files) and areas (within 1e-6 relative of @turf/area), the
 * attribute encodings, and every hostile or broken file of issue 24 item 4.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import area from '@turf/area';
import { unzipSync, zipSync } from 'fflate';
import proj4 from 'proj4';

import type { GeoFileOptions, Geometry, Position } from '../../../nodes/shared/geoFiles';
import {
	DEFAULT_OPTIONS,
	GeoFileError,
	declaredBytes,
	readGeoFile,
} from '../../../nodes/shared/geoFiles';
import { SUPPORTED_PROJECTIONS } from '../../../nodes/shared/geoFiles/projectionNames';
import { assembleRings, readShp } from '../../../nodes/shared/geoFiles/shapefile';
import { square } from '../../helpers/geoFileTests';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
	plots: Array<{
		name: string;
		owner: string;
		area_ha: number;
		planted: string;
		certified: boolean | null;
		rings: Position[][];
	}>;
	points: Array<{ name: string; lon: number; lat: number }>;
	prj: Record<string, string>;
	walk: Position[];
};

const bytesOf = (name: string) => new Uint8Array(fs.readFileSync(path.join(dir, name)));
const read = (name: string, options: Partial<GeoFileOptions> = {}) =>
	readGeoFile(bytesOf(name), name, options);
function failure(run: () => unknown): GeoFileError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(GeoFileError);
		return error as GeoFileError;
	}
	throw new Error('expected the file to be refused');
}
const refused = (name: string, options: Partial<GeoFileOptions> = {}) =>
	failure(() => read(name, options));

const polygonArea = (rings: Position[][]) =>
	area({ type: 'Polygon', coordinates: rings } as Parameters<typeof area>[0]);
const geometryArea = (g: Geometry | null) => area(g as Parameters<typeof area>[0]);

/** Positions equal within `tolerance` degrees, ring by ring, vertex by vertex. */
function expectRings(actual: Position[][], wanted: Position[][], tolerance: number) {
	expect(actual.length).toBe(wanted.length);
	actual.forEach((ring, r) => {
		expect(ring.length).toBe(wanted[r].length);
		ring.forEach((p, i) => {
			expect(Math.abs(p[0] - wanted[r][i][0])).toBeLessThanOrEqual(tolerance);
			expect(Math.abs(p[1] - wanted[r][i][1])).toBeLessThanOrEqual(tolerance);
			expect(p.length).toBe(2);
		});
	});
}

/** proj4's own result for a lon/lat stored in `prj` and read back: forward, then inverse. */
const throughProj4 = (prj: string) => {
	const there = proj4('WGS84', prj);
	const back = proj4(prj, 'WGS84');
	return (p: Position) => back.forward(there.forward([p[0], p[1]]));
};

describe('Read File: projected Shapefiles round-trip', () => {
	it.each([
		['fazendas-utm22s-latin1.zip', 'fazendas_utm22s', 'utm22s'],
		['fazendas-utm22s-no-cpg.zip', 'fazendas_utm22s', 'utm22s'],
		['sirgas2000-two-layers.zip', 'talhoes_sirgas2000_utm22s', 'sirgasUtm22s'],
	])(
		'%s (%s): coordinates within 1e-9° of proj4, areas within 1e-6 of @turf/area',
		(file, layer, prj) => {
			const result = read(file);
			expect(result.format).toBe('shapefile');
			const plots = result.features.filter((f) => f.source.layer === layer);
			expect(plots).toHaveLength(expected.plots.length);
			const viaProj4 = throughProj4(expected.prj[prj]);
			plots.forEach((feature, k) => {
				const plot = expected.plots[k];
				expect(feature.geometry?.type).toBe('Polygon');
				const rings = (feature.geometry as { coordinates: Position[][] }).coordinates;
				expectRings(
					rings,
					plot.rings.map((r) => r.map(viaProj4)),
					1e-9,
				);
				// and the lon/lat the plots were defined in (proj4's round trip is exact to far below this)
				expectRings(rings, plot.rings, 1e-9);
				const a = polygonArea(plot.rings);
				expect(Math.abs(geometryArea(feature.geometry) - a) / a).toBeLessThanOrEqual(1e-6);
				expect(feature.source).toEqual({
					fileName: file,
					format: 'shapefile',
					layer,
					featureIndex: k,
				});
				expect(feature.properties).toEqual({
					Name: plot.name,
					owner: plot.owner,
					area_ha: plot.area_ha,
					planted: plot.planted || null,
					certified: plot.certified,
				});
			});
			// the first plot keeps its hole (a pond), written clockwise as RFC 7946 wants
			const first = plots[0].geometry as { coordinates: Position[][] };
			expect(first.coordinates).toHaveLength(2);
		},
	);

	it('several layers in one zip: SIRGAS 2000 / UTM 22S polygons and SIRGAS 2000 geographic points', () => {
		const result = read('sirgas2000-two-layers.zip');
		const points = result.features.filter((f) => f.source.layer === 'sedes_sirgas2000');
		expect(points.map((p) => p.geometry)).toEqual(
			expected.points.map((p) => ({ type: 'Point', coordinates: [p.lon, p.lat] })),
		);
		expect(points.map((p) => p.properties.Name)).toEqual(expected.points.map((p) => p.name));
		expect(result.warnings).toEqual([]);
	});
});

/**
 * Anchors independent of proj4: on a UTM zone's central meridian the northing is k0 × the
 * meridian arc length M(φ) (false northing 10,000,000 m in the south), a closed form. A point
 * layer at those coordinates, under the fixtures' own .prj, must read back at the latitude
 * M was computed for: a misread false northing, central meridian, scale or ellipsoid fails.
 */
describe('Read File: projected Shapefiles against closed-form UTM anchors', () => {
	/** Meridian arc length from the equator (the standard series, error well under 1 mm). */
	function meridianArc(latDeg: number, a: number, invF: number): number {
		const f = 1 / invF;
		const e2 = f * (2 - f);
		const [e4, e6] = [e2 * e2, e2 * e2 * e2];
		const phi = (latDeg * Math.PI) / 180;
		return (
			a *
			((1 - e2 / 4 - (3 * e4) / 64 - (5 * e6) / 256) * phi -
				((3 * e2) / 8 + (3 * e4) / 32 + (45 * e6) / 1024) * Math.sin(2 * phi) +
				((15 * e4) / 256 + (45 * e6) / 1024) * Math.sin(4 * phi) -
				((35 * e6) / 3072) * Math.sin(6 * phi))
		);
	}
	/** A point Shapefile (.shp + .shx) of the given positions. */
	function pointShp(points: Position[]): { shp: Uint8Array; shx: Uint8Array } {
		const xs = points.map((p) => p[0]);
		const ys = points.map((p) => p[1]);
		const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
		const header = (bytes: number) => {
			const b = Buffer.alloc(100);
			b.writeInt32BE(9994, 0);
			b.writeInt32BE(bytes / 2, 24);
			b.writeInt32LE(1000, 28);
			b.writeInt32LE(1, 32);
			box.forEach((v, i) => b.writeDoubleLE(v, 36 + 8 * i));
			return b;
		};
		const shp = Buffer.concat([header(100 + 28 * points.length), Buffer.alloc(28 * points.length)]);
		const shx = Buffer.concat([header(100 + 8 * points.length), Buffer.alloc(8 * points.length)]);
		points.forEach((p, i) => {
			const at = 100 + 28 * i;
			shp.writeInt32BE(i + 1, at);
			shp.writeInt32BE(10, at + 4);
			shp.writeInt32LE(1, at + 8);
			shp.writeDoubleLE(p[0], at + 12);
			shp.writeDoubleLE(p[1], at + 20);
			shx.writeInt32BE(at / 2, 100 + 8 * i);
			shx.writeInt32BE(10, 104 + 8 * i);
		});
		return { shp, shx };
	}
	const LATITUDES = [-1, -5, -10, -17.5, -25, -33];
	it.each([
		// file with the .prj, its layer, the ellipsoid (WGS 84; SIRGAS 2000 is on GRS 80)
		['fazendas-utm22s-latin1.zip', 'fazendas_utm22s', 6378137, 298.257223563],
		['sirgas2000-two-layers.zip', 'talhoes_sirgas2000_utm22s', 6378137, 298.257222101],
	])(
		'%s: points on the central meridian (51° W) read back at their latitude',
		(file, layer, a, invF) => {
			const prj = unzipSync(bytesOf(file))[`${layer}.prj`];
			expect(prj).toBeDefined();
			const points = LATITUDES.map(
				(lat): Position => [500_000, 10_000_000 - 0.9996 * meridianArc(-lat, a, invF)],
			);
			const { shp, shx } = pointShp(points);
			const result = readGeoFile(
				zipSync({ 'anchors.shp': shp, 'anchors.shx': shx, 'anchors.prj': prj }),
				'anchors.zip',
			);
			const read = result.features.map(
				(f) => (f.geometry as { coordinates: Position }).coordinates,
			);
			expect(read).toHaveLength(LATITUDES.length);
			read.forEach(([lon, lat], i) => {
				expect(Math.abs(lon - -51)).toBeLessThan(1e-9);
				expect(Math.abs(lat - LATITUDES[i])).toBeLessThan(1e-8);
			});
		},
	);
});

describe('Read File: attribute encodings', () => {
	it('a .cpg saying ISO-8859-1 reads Latin-1 names', () => {
		expect(read('fazendas-utm22s-latin1.zip').features[0].properties.Name).toBe('Fazenda São João');
	});
	it('no .cpg and no language driver id: the stated default, Latin-1 (as GDAL and QGIS)', () => {
		expect(DEFAULT_OPTIONS.defaultEncoding).toBe('ISO-8859-1');
		const f = read('fazendas-utm22s-no-cpg.zip').features;
		expect(f.map((x) => x.properties.owner)).toEqual(expected.plots.map((p) => p.owner));
	});
	it('the Attribute Encoding option decides for a layer without .cpg (UTF-8 garbles Latin-1 bytes)', () => {
		const f = read('fazendas-utm22s-no-cpg.zip', { defaultEncoding: 'utf-8' }).features;
		expect(f[0].properties.Name).toContain('\uFFFD');
	});
	it('a .cpg saying UTF-8 reads UTF-8 names', () => {
		expect(read('sirgas2000-two-layers.zip').features[1].properties.owner).toBe(
			'Conceição Gonçalves',
		);
	});
	it('an unknown .cpg: a warning and the default', () => {
		const files = unzipSync(bytesOf('fazendas-utm22s-no-cpg.zip'));
		files['fazendas_utm22s.cpg'] = new TextEncoder().encode('KLINGON-9');
		const result = readGeoFile(zipSync(files), 'x.zip');
		expect(result.features[0].properties.Name).toBe('Fazenda São João');
		expect(result.warnings.join()).toMatch(
			/"KLINGON-9", which is not known: attributes read as ISO-8859-1/,
		);
	});
});

describe('Read File: KML and KMZ', () => {
	it.each(['cooperativa-nested-folders.kmz', 'cooperativa-nested-folders.kml'])(
		'%s: placemarks in nested folders, MultiGeometry, ExtendedData, gx: ignored, NetworkLink not followed',
		(file) => {
			const result = read(file);
			expect(result.format).toBe(file.endsWith('.kmz') ? 'kmz' : 'kml');
			expect(
				result.features.map((f) => [
					f.source.layer,
					f.source.featureIndex,
					f.geometry?.type ?? null,
				]),
			).toEqual([
				['Cooperativa Norte / Fazenda São João', 0, 'Polygon'],
				['Cooperativa Norte / Fazenda São João', 1, 'Polygon'],
				['Cooperativa Norte', 0, null],
				['Cooperativa Sul', 0, 'Polygon'],
				['Cooperativa Sul', 1, 'Point'],
			]);
			const [saoJoao, boaEsperanca, track, tresIrmaos] = result.features;
			for (const [feature, plot] of [
				[saoJoao, expected.plots[0]],
				[boaEsperanca, expected.plots[1]],
				[tresIrmaos, expected.plots[2]],
			] as const) {
				expectRings((feature.geometry as { coordinates: Position[][] }).coordinates, plot.rings, 0);
				expect(feature.properties).toMatchObject({
					name: plot.name,
					description: `Proprietário: ${plot.owner}`,
					owner: plot.owner,
					area_ha: plot.area_ha, // a double in the KML Schema
				});
				const a = polygonArea(plot.rings);
				expect(Math.abs(geometryArea(feature.geometry) - a) / a).toBeLessThanOrEqual(1e-6);
			}
			expect(boaEsperanca.warnings).toContain(
				'Mixed geometry types: the 1 polygon(s) are kept, 1 point(s) left out',
			);
			// A file-level warning is said once: in the file's warnings and on its first feature
			// (issue 28; it was copied onto every feature before), the feature's own stays on it.
			expect(result.warnings.join()).toMatch(/gx:Track ×1\) were ignored/);
			expect(saoJoao.warnings.join()).toMatch(/gx:Track ×1\) were ignored/);
			expect(track.warnings.join()).not.toMatch(/gx:Track/);
			expect(track.warnings.join()).toMatch(/Placemark "Caminhada" has no geometry/);
			expect(result.warnings.join()).toMatch(
				/1 NetworkLink\(s\) not followed \(http:\/\/example\.invalid\/more-plots\.kml\)/,
			);
		},
	);
});

describe('Read File: GPX', () => {
	it('a walked boundary is a line by default, with a warning saying how to make it a plot', () => {
		const result = read('walked-boundary.gpx');
		expect(result.features.map((f) => [f.source.layer, f.geometry?.type])).toEqual([
			['tracks', 'LineString'],
			['routes', 'LineString'],
			['waypoints', 'Point'],
		]);
		expect(result.features[0].warnings.join()).toMatch(/Closed Tracks as Polygons/);
		expect(result.features[2].geometry).toEqual({
			type: 'Point',
			coordinates: [expected.points[1].lon, expected.points[1].lat],
		});
		// a track's own fields (GPX 1.1 gives a track no <time>; the one its first point has
		// is no longer copied onto it: issue 28, test/unit/geoFiles/xmlPaths.test.ts)
		expect(result.features[0].properties).toEqual({
			name: 'Sítio Boa Esperança',
			type: 'walking',
		});
	});
	it('with Closed Tracks as Polygons, a track ending within the closing distance is a polygon', () => {
		const result = read('walked-boundary.gpx', {
			closedLinesAsPolygons: true,
			closingDistanceM: 10,
		});
		const track = result.features[0];
		expect(track.geometry?.type).toBe('Polygon');
		const ring = [...expected.walk, expected.walk[0]];
		expectRings((track.geometry as { coordinates: Position[][] }).coordinates, [ring], 0);
		const a = polygonArea([ring]);
		expect(Math.abs(geometryArea(track.geometry) - a) / a).toBeLessThanOrEqual(1e-6);
		// close to the field it walks around (the walk ends 2.4 m from its start)
		const field = polygonArea(expected.plots[1].rings);
		expect(Math.abs(a - field) / field).toBeLessThan(0.01);
		// the open route stays a line
		expect(result.features[1].geometry?.type).toBe('LineString');
		expect(result.features[1].warnings.join()).toMatch(/does not end within 10 m/);
	});
	it('a track that ends farther than the closing distance stays a line', () => {
		const result = read('walked-boundary.gpx', {
			closedLinesAsPolygons: true,
			closingDistanceM: 1,
		});
		expect(result.features[0].geometry?.type).toBe('LineString');
	});
});

describe('Read File: GeoJSON', () => {
	it.each([
		['plots.geojson', 'geojson'],
		['plots.ndjson', 'ndjson'],
	])('%s', (file, format) => {
		const result = read(file);
		expect(result.format).toBe(format);
		result.features.forEach((f, k) => {
			expectRings(
				(f.geometry as { coordinates: Position[][] }).coordinates,
				expected.plots[k].rings,
				0,
			);
			expect(f.properties.Name).toBe(expected.plots[k].name);
			expect(f.source).toEqual({ fileName: file, format, layer: null, featureIndex: k });
		});
	});
	it('a bare geometry and a single Feature', () => {
		const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
		const polygon = { type: 'Polygon', coordinates: expected.plots[2].rings };
		expect(readGeoFile(enc(polygon), 'g.json').features[0].geometry).toEqual(polygon);
		expect(
			readGeoFile(enc({ type: 'Feature', properties: { a: 1 }, geometry: polygon }), 'f.json')
				.features[0].properties,
		).toEqual({ a: 1 });
	});
	it('a zip as a Mac or Windows user makes it: a folder, upper-case extensions, __MACOSX resource forks', () => {
		const files = unzipSync(bytesOf('fazendas-utm22s-no-cpg.zip'));
		const zipped: Record<string, Uint8Array> = {
			'__MACOSX/export/._FAZENDAS.SHP': new Uint8Array([0, 5, 22, 7, 0, 2, 0, 0]),
		};
		for (const [name, data] of Object.entries(files))
			zipped[
				`export/${name.replace('fazendas_utm22s', 'FAZENDAS').replace(/\.(\w+)$/, (m) => m.toUpperCase())}`
			] = data;
		const result = readGeoFile(zipSync(zipped), 'export.zip');
		expect(result.features.map((f) => [f.source.layer, f.properties.Name])).toEqual(
			expected.plots.map((p) => ['FAZENDAS', p.name]),
		);
		expectRings(
			(result.features[0].geometry as { coordinates: Position[][] }).coordinates,
			expected.plots[0].rings,
			1e-9,
		);
	});
	it('the format is detected from the content, not the name', () => {
		const result = readGeoFile(bytesOf('cooperativa-nested-folders.kmz'), 'attachment.bin');
		expect(result.format).toBe('kmz');
		expect(readGeoFile(bytesOf('plots.geojson'), 'plots.kml').format).toBe('geojson');
	});
});

describe('Read File: hostile and broken files (issue 24, item 4)', () => {
	it('zip bomb: refused from the declared sizes before anything is inflated', () => {
		const e = refused('hostile-zip-bomb.zip');
		expect(e.message).toMatch(
			/would unpack to more than 250 MB \("bomb\.shp" alone declares 300\.0 MB\)/,
		);
		expect(e.description).toMatch(/Maximum Uncompressed Size/);
	});
	it('zip bomb: the limit counts every entry together', () => {
		const e = refused('sirgas2000-two-layers.zip', { maxUncompressedBytes: 1000 });
		expect(e.message).toMatch(/would unpack to more than/);
	});
	it('zip that lies about its sizes: inflation stops at the declared size and the layer is refused as damaged', () => {
		const zip = bytesOf('fazendas-utm22s-no-cpg.zip').slice();
		const view = new DataView(zip.buffer);
		let patched = 0;
		for (let at = 0; at + 46 < zip.length; at++) {
			if (view.getUint32(at, true) !== 0x02014b50) continue; // central directory entry
			const nameLength = view.getUint16(at + 28, true);
			const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
			if (name.endsWith('.shp')) {
				view.setUint32(at + 24, 120, true); // uncompressed size: 120 bytes
				patched++;
			}
		}
		expect(patched).toBe(1);
		const e = failure(() => readGeoFile(zip, 'liar.zip'));
		expect(e.message).toMatch(/damaged|cannot be opened/);
	});
	it('XML entity expansion ("billion laughs"): refused, nothing expanded', () => {
		expect(refused('hostile-entity-expansion.kml').message).toMatch(
			/declares XML entities .* refused, nothing in it was expanded or fetched/,
		);
	});
	it('XML external entity: refused, nothing fetched or read', () => {
		const e = refused('hostile-external-entity.kml');
		expect(e.message).toMatch(/declares XML entities/);
		expect(e.message).not.toMatch(/root:/);
	});
	it.each([
		['broken-truncated.kml', /is not well-formed XML: unclosed xml tag.*cut short/],
		['broken-truncated.geojson', /is not valid JSON: .*cut short/],
		[
			'broken-truncated-shp.zip',
			/"fazendas" is damaged: the \.shp is cut short \(619 of the 656 bytes/,
		],
		['broken-truncated-zip.zip', /cannot be opened: .*complete/],
	])('truncated file %s: a clear error', (file, message) => {
		expect(refused(file).message).toMatch(message);
	});
	it('a .shp record cut short, with a header that agrees: the record is named, nothing dropped silently', () => {
		const shp = unzipSync(bytesOf('fazendas-utm22s-no-cpg.zip'))['fazendas_utm22s.shp'];
		const cut = shp.slice(0, shp.length - 37);
		new DataView(cut.buffer).setInt32(24, cut.length / 2, false);
		expect(() => readShp(cut, 'fazendas')).toThrow(/record 3 is cut short/);
	});
	it('an empty layer beside others: a warning, the others read', () => {
		const result = read('broken-empty-layer.zip');
		expect(result.features).toHaveLength(3);
		expect(result.warnings).toContain('Layer "vazia" is empty (no features)');
		expect(result.features[0].warnings).toContain('Layer "vazia" is empty (no features)');
	});
	it('a file whose only layer is empty: an error', () => {
		expect(refused('broken-only-empty-layer.zip').message).toMatch(
			/holds no features: Layer "vazia" is empty/,
		);
	});
	it('mixed geometry types: each feature as it is; a mixed collection keeps its polygons with a warning', () => {
		const result = read('broken-mixed-types.geojson');
		expect(result.features.map((f) => f.geometry?.type ?? null)).toEqual([
			'Polygon',
			'Point',
			'LineString',
			'Polygon',
			null,
		]);
		expect(result.features[3].warnings).toEqual([
			'Mixed geometry types: the 1 polygon(s) are kept, 1 point(s) left out',
		]);
		expect(result.features[4].warnings.join()).toMatch(/has no geometry/);
		const collection = readGeoFile(
			new TextEncoder().encode(
				JSON.stringify({
					type: 'GeometryCollection',
					geometries: [
						{ type: 'Point', coordinates: [1, 2] },
						{
							type: 'LineString',
							coordinates: [
								[1, 2],
								[3, 4],
							],
						},
					],
				}),
			),
			'c.json',
		);
		expect(collection.features[0].geometry?.type).toBe('GeometryCollection');
		expect(collection.features[0].warnings.join()).toMatch(
			/without a polygon .* Validate and Register refuse/,
		);
	});
	it('KML folders (or GPX elements) nested thousands deep: refused with a clear error, not a stack overflow', () => {
		const deep = (n: number) =>
			new TextEncoder().encode(
				`<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${'<Folder><name>f</name>'.repeat(n)}<Placemark><Point><coordinates>1,2</coordinates></Point></Placemark>${'</Folder>'.repeat(n)}</Document></kml>`,
			);
		expect(readGeoFile(deep(50), 'ok.kml').features[0].source.layer).toBe(
			Array(50).fill('f').join(' / '),
		);
		expect(failure(() => readGeoFile(deep(20000), 'deep.kml')).message).toMatch(
			/nests its XML elements more than 200 deep: refused/,
		);
		const gpx = `<gpx xmlns="http://www.topografix.com/GPX/1/1">${'<extensions>'.repeat(20000)}${'</extensions>'.repeat(20000)}</gpx>`;
		expect(failure(() => readGeoFile(new TextEncoder().encode(gpx), 'deep.gpx')).message).toMatch(
			/nests its XML elements more than 200 deep/,
		);
	});
	it('Shapefile without .dbf: features without attributes, with a warning', () => {
		const result = read('broken-missing-dbf.zip');
		expect(result.features).toHaveLength(3);
		expect(result.features.every((f) => Object.keys(f.properties).length === 0)).toBe(true);
		expect(result.warnings).toEqual([
			'Layer "fazendas" has no .dbf: its features have no attributes',
		]);
		expectRings(
			(result.features[0].geometry as { coordinates: Position[][] }).coordinates,
			expected.plots[0].rings,
			1e-9,
		);
	});
	it('Shapefile without .prj, coordinates in metres: refused (never read as degrees)', () => {
		expect(refused('broken-missing-prj-projected.zip').message).toMatch(
			/"fazendas" has no \.prj and its coordinates are not degrees .* refused/,
		);
	});
	it('Shapefile without .prj, coordinates that fit degrees: read as WGS84 with a warning', () => {
		const result = read('broken-missing-prj-degrees.zip');
		expect(result.warnings.join()).toMatch(/has no \.prj: its coordinates were read as WGS84/);
		expectRings(
			(result.features[0].geometry as { coordinates: Position[][] }).coordinates,
			expected.plots[0].rings,
			0,
		);
	});
	it('coordinates in metres under a geographic .prj: refused', () => {
		expect(refused('broken-metres-under-geographic-prj.zip').message).toMatch(
			/cannot be degrees .* "GCS_SIRGAS_2000", a geographic system .*\(meters under a geographic \.prj/,
		);
	});
	it('degrees under a projected .prj: refused', () => {
		const files = unzipSync(bytesOf('broken-missing-prj-degrees.zip'));
		files['fazendas_wgs84.prj'] = new TextEncoder().encode(expected.prj.utm22s);
		expect(failure(() => readGeoFile(zipSync(files), 'x.zip')).message).toMatch(
			/look like degrees .* "WGS_1984_UTM_Zone_22S", a projected system/,
		);
	});
	it('a .prj that cannot be recognised: refused naming it', () => {
		const e = refused('broken-unknown-prj.zip');
		expect(e.message).toMatch(
			/names the coordinate system "Fazenda_Local_Grid", which cannot be recognized/,
		);
		expect(e.description).toMatch(/EPSG:4326/);
	});
	it('a datum without a stated shift to WGS84 (SAD69): converted, with a warning', () => {
		const sad69 = expected.prj.sirgasUtm22s
			.replace('SIRGAS_2000_UTM_Zone_22S', 'SAD_1969_UTM_Zone_22S')
			.replace('GCS_SIRGAS_2000', 'GCS_South_American_1969')
			.replace('D_SIRGAS_2000', 'D_South_American_1969')
			.replace(
				'SPHEROID["GRS_1980",6378137.0,298.257222101]',
				'SPHEROID["GRS_1967_Truncated",6378160.0,298.25]',
			);
		const files = unzipSync(bytesOf('fazendas-utm22s-no-cpg.zip'));
		files['fazendas_utm22s.prj'] = new TextEncoder().encode(sad69);
		const result = readGeoFile(zipSync(files), 'x.zip');
		expect(result.warnings.join()).toMatch(
			/"D_South_American_1969" .* has no stated shift to WGS84/,
		);
	});
	it('GeoJSON with coordinates in metres: refused', () => {
		expect(refused('broken-projected-coordinates.geojson').message).toMatch(
			/\[476543\.2,8617654\.1\], which is not WGS84 longitude\/latitude .* refused/,
		);
	});
	it('GeoJSON declaring another crs: refused naming it', () => {
		const text = JSON.stringify({
			type: 'FeatureCollection',
			crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::31982' } },
			features: [],
		});
		expect(failure(() => readGeoFile(new TextEncoder().encode(text), 'p.geojson')).message).toMatch(
			/declares the coordinate system "urn:ogc:def:crs:EPSG::31982"/,
		);
	});
	it('a file over the stated size (50 MB by default): refused before reading', () => {
		expect(DEFAULT_OPTIONS.maxFileBytes).toBe(50_000_000);
		expect(refused('plots.geojson', { maxFileBytes: 1000 }).message).toMatch(
			/"plots\.geojson" is 0\.002292 MB, over the 0\.001 MB this node reads \(Maximum File Size\)/,
		);
	});
	it('more features than Maximum Features: refused', () => {
		expect(refused('plots.geojson', { maxFeatures: 2 }).message).toMatch(
			/holds more than 2 features, over the 2 one file may give \(Maximum Features\)/,
		);
	});
	it('Maximum Features stops reading GeoJSON at the first feature over it (what follows is never read)', () => {
		const plots = JSON.parse(fs.readFileSync(path.join(dir, 'plots.geojson'), 'utf8')) as {
			features: unknown[];
		};
		// After the cap: a collection in a projected system, which would refuse the file if read.
		const text = JSON.stringify([
			...plots.features,
			{ type: 'FeatureCollection', crs: 'EPSG:31982', features: [] },
		]);
		const bytes = new TextEncoder().encode(text);
		expect(failure(() => readGeoFile(bytes, 'p.json', { maxFeatures: 2 })).message).toMatch(
			/holds more than 2 features/,
		);
		expect(failure(() => readGeoFile(bytes, 'p.json')).message).toMatch(/EPSG:31982/);
		const ndjson = new TextEncoder().encode(
			[...plots.features.map((f) => JSON.stringify(f)), '{"type":"Feature",'].join('\n'),
		);
		expect(failure(() => readGeoFile(ndjson, 'p.ndjson', { maxFeatures: 2 })).message).toMatch(
			/holds more than 2 features/,
		);
	});
	it('Maximum Features stops reading a Shapefile zip after the layer that passes it', () => {
		const zipped: Record<string, Uint8Array> = {};
		for (const [name, data] of Object.entries(unzipSync(bytesOf('fazendas-utm22s-latin1.zip'))))
			zipped[name] = data;
		// A second layer whose .prj cannot be recognised: reading it would refuse the file.
		for (const [name, data] of Object.entries(unzipSync(bytesOf('broken-unknown-prj.zip'))))
			zipped[name.replace(/^.*?(\.\w+)$/, 'zz_unknown$1')] = data;
		const bytes = zipSync(zipped);
		expect(failure(() => readGeoFile(bytes, 'two.zip', { maxFeatures: 2 })).message).toMatch(
			/"two\.zip" holds more than 2 features/,
		);
		expect(failure(() => readGeoFile(bytes, 'two.zip')).message).toMatch(/Fazenda_Local_Grid/);
	});
	it('records deleted in the .dbf are left out, as QGIS does', () => {
		const result = read('deleted-record.zip');
		expect(result.features.map((f) => f.source.featureIndex)).toEqual([0, 2]);
		expect(result.warnings.join()).toMatch(/1 record\(s\) marked deleted/);
	});
	it.each([
		['empty.geojson', new Uint8Array(), /the file is empty/],
		[
			'plots.csv',
			new TextEncoder().encode('name,lat,lon\nA,1,2\n'),
			/neither JSON, XML \(KML, GPX\) nor a zip/,
		],
		[
			'x.xml',
			new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
			/root element is <svg>/,
		],
		['a.gz', new Uint8Array([0x1f, 0x8b, 8, 0]), /gzip/],
		['plots.shp', new Uint8Array([0, 0, 0x27, 0x0a, 0, 0]), /bare \.shp/],
		[
			'other.zip',
			zipSync({ 'readme.txt': new TextEncoder().encode('hi') }),
			/a zip holding readme\.txt/,
		],
	])('not a geo file (%s): a clear error naming the formats read', (name, bytes, message) => {
		const e = failure(() => readGeoFile(bytes, name));
		expect(e.message).toMatch(message);
	});
});

describe('Read File: values nested too deep for n8n to save (5,000 and 50,000 levels)', () => {
	const nested = (levels: number, leaf: string) =>
		'{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
	const list = (levels: number, leaf: string) => '['.repeat(levels) + leaf + ']'.repeat(levels);
	const square = '[[[0,0],[1,0],[1,1],[0,1],[0,0]]]';
	const feature = (properties: string, coordinates = square) =>
		`{"type":"Feature","properties":${properties},"geometry":{"type":"Polygon","coordinates":${coordinates}}}`;
	const collection = (...features: string[]) =>
		`{"type":"FeatureCollection","features":[${features.join(',')}]}`;
	const readText = (text: string, name: string) =>
		readGeoFile(new TextEncoder().encode(text), name);
	/** What n8n does with the output: save it (JSON.stringify) and deep-copy it. */
	const expectSavable = (result: ReturnType<typeof readGeoFile>) => {
		expect(() => JSON.stringify(result.features)).not.toThrow();
		expect(() => structuredClone(result.features)).not.toThrow();
	};

	it.each([5_000, 50_000])(
		'%d levels: JSON.parse reads it (iterative in V8), but the walk afterwards would not',
		(levels) => {
			const value = JSON.parse(nested(levels, '1')) as unknown;
			expect(() => JSON.stringify(value)).toThrow(RangeError);
		},
	);

	describe.each([
		['GeoJSON', 'deep.geojson', 'geojson', (f: string[]) => collection(...f)],
		['NDJSON', 'deep.ndjson', 'ndjson', (f: string[]) => f.join('\n')],
	])('%s', (_label, name, format, file) => {
		it.each([5_000, 50_000])(
			'%d levels in a property: that property is left out with a warning naming it, the rest kept',
			(levels) => {
				const result = readText(
					file([
						feature(`{"Name":"Fazenda A","deep":${nested(levels, '1')},"area":2}`),
						feature('{"Name":"Fazenda B"}'),
					]),
					name,
				);
				expect(result.format).toBe(format);
				expect(result.features).toHaveLength(2);
				expect(result.features[0].properties).toEqual({ Name: 'Fazenda A', area: 2 });
				expect(result.features[0].geometry).toEqual({
					type: 'Polygon',
					coordinates: JSON.parse(square),
				});
				expect(result.features[0].warnings).toEqual([
					expect.stringMatching(
						/^The property "deep" of (the file\.features\[0\]|line 1) nests more than 100 levels deep \(at deep\.a\.a\.a\.a\.a\.a\.a…\) and was left out; the feature's other properties are kept$/,
					),
				]);
				expect(result.features[1].properties).toEqual({ Name: 'Fazenda B' });
				expect(result.features[1].warnings).toEqual([]);
				expectSavable(result);
			},
		);
		it.each([5_000, 50_000])(
			'%d levels in the geometry (coordinates, a foreign member): the geometry is left out with a warning, the properties kept',
			(levels) => {
				const deepForeign = `{"type":"Feature","properties":{"Name":"C"},"geometry":{"type":"Point","coordinates":[1,2],"extra":${nested(levels, '1')}}}`;
				const result = readText(
					file([feature('{"Name":"A"}', list(levels, '0')), deepForeign, feature('{"Name":"B"}')]),
					name,
				);
				expect(result.features.map((f) => f.properties.Name)).toEqual(['A', 'C', 'B']);
				expect(result.features[0].geometry).toBeNull();
				expect(result.features[0].warnings.join()).toMatch(
					/The geometry of .* nests more than 100 levels deep \(at geometry\.coordinates\[0\]\[0\]/,
				);
				expect(result.features[1].geometry).toBeNull();
				expect(result.features[1].warnings.join()).toMatch(/\(at geometry\.extra\.a\.a/);
				expect(result.features[2].geometry).not.toBeNull();
				expectSavable(result);
			},
		);
	});

	it.each([5_000, 50_000])(
		'%d levels of lists or collections around the features: skipped with a warning, no stack overflow',
		(levels) => {
			const text = `[${feature('{"Name":"A"}')},${list(levels, feature('{"Name":"deep"}'))}]`;
			const result = readText(text, 'lists.json');
			expect(result.features.map((f) => f.properties.Name)).toEqual(['A']);
			expect(result.warnings.join()).toMatch(
				/nests lists or collections more than 100 levels deep and was skipped/,
			);
			const collections =
				'{"type":"FeatureCollection","features":['.repeat(levels) +
				feature('{"Name":"deep"}') +
				']}'.repeat(levels);
			const refusedDeep = failure(() => readText(collections, 'c.json'));
			expect(refusedDeep.message).toMatch(/holds no features: .*more than 100 levels deep/);
		},
	);

	it('a deeply nested "type" or "crs" is named without printing it', () => {
		const deepType = readText(`[${feature('{}')},{"type":${nested(5_000, '1')}}]`, 't.json');
		expect(deepType.warnings.join()).toMatch(/has the type \(a deeply nested value\)/);
		expect(
			failure(() =>
				readText(`{"type":"Point","coordinates":[1,2],"crs":${list(5_000, '1')}}`, 'c.json'),
			).message,
		).toMatch(/declares the coordinate system "\(a deeply nested value\)"/);
	});
});

describe('Read File: the size a binary states (Maximum File Size before reading)', () => {
	it.each([
		[{ fileSize: '12345' }, 12345],
		[{ fileSize: 12345 }, 12345],
		[{ fileSize: '512 B' }, 512],
		[{ fileSize: '12.3 kB' }, Math.floor(12_300 * 0.995)],
		[{ fileSize: '60.2 MB' }, Math.floor(60_200_000 * 0.995)],
		[{ fileSize: '1,5 MB' }, Math.floor(1_500_000 * 0.995)],
		[{ fileSize: '2 MiB' }, Math.floor(2 * 1024 * 1024 * 0.995)],
		[{ fileSize: '1.2 GB' }, Math.floor(1.2e9 * 0.995)],
		[{ data: Buffer.from('hello world!').toString('base64') }, 12],
		[{ data: Buffer.from('hello world').toString('base64') }, 11],
		[{ fileSize: 'big', data: Buffer.from('abcd').toString('base64') }, 4],
		[{ fileSize: '12.5', data: Buffer.from('abcd').toString('base64') }, 4],
		[{ id: 'filesystem-v2:x', data: 'filesystem-v2' }, undefined],
		[{}, undefined],
	])('%j → %s bytes at least', (binary, bytes) => {
		expect(declaredBytes(binary)).toBe(bytes);
	});
});

describe('Read File: Shapefile rings (our assembly cross-checked)', () => {
	it('outer with a hole', () => {
		const p = assembleRings([square(0, 0, 10, true), square(2, 2, 2, false)]);
		expect(p).toHaveLength(1);
		expect(p[0]).toHaveLength(2);
	});
	it('two outers, the hole in the second: each hole goes to the ring that contains it', () => {
		const p = assembleRings([
			square(0, 0, 10, true),
			square(20, 0, 10, true),
			square(22, 2, 2, false),
		]);
		expect(p.map((poly) => poly.length)).toEqual([1, 2]);
	});
	it('island in a lake: the lake is a hole of the outer ring, the island its own polygon', () => {
		const p = assembleRings([
			square(0, 0, 10, true),
			square(2, 2, 6, false),
			square(4, 4, 2, true),
		]);
		expect(p.map((poly) => poly.length).sort()).toEqual([1, 2]);
		const withHole = p.find((poly) => poly.length === 2)!;
		expect(withHole[0][0]).toEqual([0, 0]);
	});
	it('a hole whose box fits two outer rings goes to the one that really contains it (nested outers)', () => {
		// an L-shaped outer ring whose box holds the hole, the hole lying in a small square inside the box but outside the L
		const ell: Position[] = [
			[0, 0],
			[0, 10],
			[2, 10],
			[2, 2],
			[10, 2],
			[10, 0],
			[0, 0],
		]; // clockwise
		const inner = square(5, 5, 4, true);
		const hole = square(6, 6, 1, false);
		const p = assembleRings([ell, inner, hole]);
		const holder = p.find((poly) => poly.length === 2)!;
		expect(holder[0]).toContainEqual([5, 5]);
	});
	it('a lone counter-clockwise ring (written with the wrong winding) is kept as a polygon', () => {
		expect(assembleRings([square(0, 0, 1, false)])).toHaveLength(1);
	});
	it('RFC 7946 winding: outer counter-clockwise, holes clockwise', () => {
		const [[outer, hole]] = assembleRings([square(0, 0, 10, true), square(2, 2, 2, false)]);
		const signed = (r: Position[]) =>
			r.slice(0, -1).reduce((s, p, i) => s + p[0] * r[i + 1][1] - r[i + 1][0] * p[1], 0);
		expect(signed(outer)).toBeGreaterThan(0);
		expect(signed(hole)).toBeLessThan(0);
	});
});

describe('Read File: beside shpjs 6 (the maintained JavaScript reader, measured)', () => {
	// shpjs's own .shp reader; jest compiles its ES modules (jest.config.js).
	const shpjsParseShp = require('../../../node_modules/shpjs/lib/parseShp.js').default as (
		shp: DataView,
		trans?: unknown,
	) => Array<Geometry | null>;
	const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

	it.each([
		['fazendas-utm22s-no-cpg.zip', 'fazendas_utm22s'],
		['sirgas2000-two-layers.zip', 'talhoes_sirgas2000_utm22s'],
	])('%s: the same polygons (areas within 1e-9, same vertices)', (file, layer) => {
		const files = unzipSync(bytesOf(file));
		const prj = new TextDecoder().decode(files[`${layer}.prj`]);
		const theirs = shpjsParseShp(view(files[`${layer}.shp`]), proj4(prj));
		const ours = read(file).features.filter((f) => f.source.layer === layer);
		expect(theirs).toHaveLength(ours.length);
		ours.forEach((f, k) => {
			const a = geometryArea(f.geometry);
			expect(Math.abs(geometryArea(theirs[k]) - a) / a).toBeLessThanOrEqual(1e-9);
			const sortKey = (g: Geometry | null) =>
				JSON.stringify(
					(g as { coordinates: Position[][] }).coordinates
						.flat()
						.map((p) => [p[0].toFixed(10), p[1].toFixed(10)])
						.sort(),
				);
			expect(sortKey(theirs[k])).toBe(sortKey(f.geometry));
		});
	});

	it('measured: shpjs drops a record cut short at the end of the .shp without a word; Read File refuses the layer', () => {
		const shp = unzipSync(bytesOf('broken-truncated-shp.zip'))['fazendas.shp'];
		expect(shpjsParseShp(view(shp))).toHaveLength(2); // 3 plots in the file
		expect(refused('broken-truncated-shp.zip').message).toMatch(/cut short/);
	});
});

describe('Read File: the projections of the published bundle', () => {
	it('proj4Bundled.ts registers exactly the modules of SUPPORTED_PROJECTIONS (what the .prj check accepts)', () => {
		const text = fs.readFileSync(
			path.join(__dirname, '../../../nodes/shared/geoFiles/proj4Bundled.ts'),
			'utf8',
		);
		const imported = [...text.matchAll(/from 'proj4\/lib\/projections\/(\w+)'/g)].map((m) => m[1]);
		const registered = text
			.slice(text.indexOf('for (const projection of ['))
			.match(/\[([^\]]*)\]/)![1];
		expect(
			registered
				.split(',')
				.map((s) => s.trim())
				.filter(Boolean)
				.sort(),
		).toEqual([...imported].sort());
		// each module's names include the one listed (merc and longlat are built into proj4's core)
		const expectedNames = imported.map((m) => (m === 'tmerc' ? 'Fast_Transverse_Mercator' : m));
		expect([...SUPPORTED_PROJECTIONS].sort()).toEqual([...expectedNames, 'longlat', 'merc'].sort());
		for (const module of imported) {
			const source = fs.readFileSync(require.resolve(`proj4/lib/projections/${module}.js`), 'utf8');
			const names = /names = \[([^\]]*)\]/.exec(source)![1];
			expect(names).toContain(`'${module === 'tmerc' ? 'Fast_Transverse_Mercator' : module}'`);
		}
	});

	it('a projection outside that list is refused naming the system, as the bundle would', () => {
		const robinson = expected.prj.utm22s
			.replace('WGS_1984_UTM_Zone_22S', 'World_Robinson')
			.replace('PROJECTION["Transverse_Mercator"]', 'PROJECTION["Robinson"]');
		const files = unzipSync(bytesOf('fazendas-utm22s-no-cpg.zip'));
		files['fazendas_utm22s.prj'] = new TextEncoder().encode(robinson);
		expect(failure(() => readGeoFile(zipSync(files), 'x.zip')).message).toMatch(
			/"World_Robinson", which cannot be recognized \(the projection "Robinson" is not one this node converts from\)/,
		);
	});
});

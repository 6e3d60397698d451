/**
 * Read File's GPX reader (nodes/shared/geoFiles/gpx.ts) on gpx-fields.gpx (generate.js): the
 * fields GDAL's GPX driver and the GPX 1.1 schema give each element, empty and one-point
 * routes and tracks kept with their reason.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { booleanClockwise } from '@turf/boolean-clockwise';

import type { Position } from '../../../nodes/shared/geoFiles';
import { readGeoFile } from '../../../nodes/shared/geoFiles';

const dir = path.join(__dirname, '../../fixtures/geofiles');
const read = (name: string, options = {}) =>
	readGeoFile(new Uint8Array(fs.readFileSync(path.join(dir, name))), name, options);
const enc = (s: string) => new TextEncoder().encode(s);
const gpxDoc = (body: string) =>
	enc(`<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">${body}</gpx>`);

describe('Read File: GPX as GDAL reads it', () => {
	const result = read('gpx-fields.gpx');
	const byName = (name: string) => result.features.find((f) => f.properties.name === name)!;

	it('the layers in GDAL order (tracks, routes, waypoints), every element kept', () => {
		expect(
			result.features.map((f) => [f.source.layer, f.source.featureIndex, f.properties.name]),
		).toEqual([
			['tracks', 0, 'Um ponto'],
			['tracks', 1, 'Dois segmentos'],
			['routes', 0, 'Acesso'],
			['routes', 1, 'Rota vazia'],
			['waypoints', 0, 'Sede São João'],
		]);
	});

	it("a waypoint's type is its own <type>, not its link's; src, ele, sat, hdop kept (numbers as numbers)", () => {
		const waypoint = byName('Sede São João');
		expect(waypoint.properties.type).toBe('Sede');
		expect(waypoint.properties).toMatchObject({
			src: 'GPSMAP 66s',
			ele: 305.5,
			sat: 9,
			hdop: 0.9,
			time: '2024-04-02T08:10:00Z',
			links: [
				{ href: 'https://example.invalid/sede.jpg', text: 'foto da sede', type: 'image/jpeg' },
			],
		});
	});

	it('a route has no time taken from its first point; its src and number are kept', () => {
		expect(byName('Acesso').properties).toEqual({ name: 'Acesso', src: 'planejada', number: 1 });
	});

	it('a route without points is kept without geometry, saying so', () => {
		const empty = byName('Rota vazia');
		expect(empty.geometry).toBeNull();
		expect(empty.warnings).toContain('The route has no points: kept without geometry');
	});

	it('a one-point track gives its reason (not "holds no features")', () => {
		const one = byName('Um ponto');
		expect(one.geometry).toBeNull();
		expect(one.warnings).toContain(
			'The track has only 1 point: a line needs 2 or more, so it is kept without geometry',
		);
		const alone = readGeoFile(
			gpxDoc('<trk><name>t</name><trkseg><trkpt lat="1" lon="2"/></trkseg></trk>'),
			'one.gpx',
		);
		expect(alone.features[0].warnings.join()).toMatch(/only 1 point: a line needs 2 or more/);
	});

	it("a one-point segment is left out with a warning; the track's own extensions kept", () => {
		const two = byName('Dois segmentos');
		expect(two.geometry?.type).toBe('LineString');
		expect(two.warnings).toContain(
			'1 segment(s) of the track with fewer than 2 points left out (a line needs 2 or more)',
		);
		expect(two.properties).toMatchObject({ type: 'walking', gpxx_DisplayColor: 'Red' });
		expect(two.properties).not.toHaveProperty('time');
	});

	it('a closed track as a polygon is wound as RFC 7946 says, whichever way it was walked', () => {
		const walked = fs.readFileSync(path.join(dir, 'walked-boundary.gpx'), 'utf8');
		const points = [...walked.matchAll(/<trkpt [^>]*>.*?<\/trkpt>/g)].map((m) => m[0]);
		const reversed = walked.replace(points.join('\n\t\t'), points.slice().reverse().join('\n\t\t'));
		expect(reversed).not.toBe(walked);
		for (const text of [walked, reversed]) {
			const track = readGeoFile(enc(text), 'w.gpx', { closedLinesAsPolygons: true }).features[0];
			const [outer] = (track.geometry as { coordinates: Position[][] }).coordinates;
			expect(booleanClockwise(outer)).toBe(false);
		}
	});

	it('a file holding only a point-less route is read, the reason on its feature', () => {
		const only = readGeoFile(gpxDoc('<rte><name>r</name></rte>'), 'r.gpx');
		expect(only.features).toHaveLength(1);
		expect(only.features[0].warnings).toContain('The route has no points: kept without geometry');
	});

	it("a waypoint's ele is a property and its Point has two coordinates, as GDAL's GPX driver reads it by default (ELE_AS_25D off)", () => {
		const waypoint = byName('Sede São João');
		expect(waypoint.properties.ele).toBe(305.5);
		expect(waypoint.geometry).toEqual({
			type: 'Point',
			coordinates: [expect.any(Number), expect.any(Number)],
		});
		const plain = readGeoFile(gpxDoc('<wpt lat="1" lon="2"><name>w</name></wpt>'), 'w.gpx');
		expect(plain.features[0].properties).toEqual({ name: 'w' });
		expect(plain.features[0].geometry).toEqual({ type: 'Point', coordinates: [2, 1] });
	});

	it('a track without usable positions (none finite: lat="1e999", text, absent) is output without geometry, named in its warning', () => {
		const file = readGeoFile(
			gpxDoc(
				'<trk><name>Talhão 7</name><trkseg><trkpt lat="1e999" lon="2"/><trkpt lat="x" lon="3"/><trkpt/></trkseg></trk>' +
					'<trk><trkseg><trkpt lat="-Infinity" lon="2"/><trkpt lat="1" lon="3"/><trkpt lat="1" lon="4"/></trkseg></trk>',
			),
			't.gpx',
		);
		expect(file.features).toHaveLength(2);
		const [unusable, partly] = file.features;
		expect(unusable.geometry).toBeNull();
		expect(unusable.properties).toEqual({ name: 'Talhão 7' });
		expect(unusable.warnings).toEqual([
			'3 point(s) of the track have no valid lat/lon attributes and were left out',
			'The track "Talhão 7" has no usable points (3 without a valid lat/lon): kept without geometry',
		]);
		// no infinity in a geometry (JSON would write it as null)
		expect(partly.geometry).toEqual({
			type: 'LineString',
			coordinates: [
				[3, 1],
				[4, 1],
			],
		});
		expect(partly.warnings).toContain(
			'1 point(s) of the track have no valid lat/lon attributes and were left out',
		);
	});

	it('trkpt children (times, extensions) are not kept, and a waypoint without lat/lon says so', () => {
		const file = readGeoFile(
			gpxDoc(
				'<wpt lon="x"><name>w</name></wpt><trk><trkseg><trkpt lat="1" lon="2"><extensions><a:b xmlns:a="u">x</a:b></extensions></trkpt><trkpt lat="1" lon="3"/></trkseg></trk>',
			),
			'p.gpx',
		);
		expect(file.features[0].properties).toEqual({});
		expect(file.features[1].geometry).toBeNull();
		expect(file.features[1].warnings).toContain(
			'The waypoint has no valid lat/lon attributes: kept without geometry',
		);
	});
});

import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';
import { booleanClockwise } from '@turf/boolean-clockwise';
import sweeplineIntersections from 'sweepline-intersections';

import {
	GeometryInputError,
	describeProblem,
	featureFromLatLon,
	parseGeoJsonValue,
	parseWkt,
	validateFeatures,
	type Position,
	type Problem,
	type ValidateOptions,
} from '../../nodes/shared/geometry';

// ---------------------------------------------------------------- fixtures

/** A valid plot near Brasília, counter-clockwise, six decimals. */
const SQUARE: Position[] = [
	[-47.882778, -15.793889],
	[-47.872778, -15.793889],
	[-47.872778, -15.783889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];

/** A hole inside SQUARE, clockwise. */
const HOLE: Position[] = [
	[-47.880001, -15.791001],
	[-47.880001, -15.786001],
	[-47.875001, -15.786001],
	[-47.875001, -15.791001],
	[-47.880001, -15.791001],
];

const BOW_TIE: Position[] = [
	[-47.882778, -15.793889],
	[-47.872778, -15.783889],
	[-47.872778, -15.793889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];

function polygon(...rings: Position[][]): Record<string, unknown> {
	return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } };
}

function multiPolygon(...polygons: Position[][][]): Record<string, unknown> {
	return {
		type: 'Feature',
		properties: {},
		geometry: { type: 'MultiPolygon', coordinates: polygons },
	};
}

function point(
	position: Position,
	properties: Record<string, unknown> = {},
): Record<string, unknown> {
	return { type: 'Feature', properties, geometry: { type: 'Point', coordinates: position } };
}

function shift(ring: Position[], dx: number, dy: number): Position[] {
	return ring.map(([x, y]) => [Number((x + dx).toFixed(6)), Number((y + dy).toFixed(6))]);
}

function reversed(ring: Position[]): Position[] {
	return [...ring].reverse();
}

/** A closed, counter-clockwise circle of `n` distinct vertices with seven decimals. */
function circleRing(n: number, lon = -47.882778, lat = -15.793889, radius = 0.01): Position[] {
	const ring: Position[] = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * i) / n;
		ring.push([
			Number((lon + radius * Math.cos(a)).toFixed(7)),
			Number((lat + radius * Math.sin(a)).toFixed(7)),
		]);
	}
	ring.push([...ring[0]]);
	return ring;
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
		Object.freeze(value);
	}
	return value;
}

const errors = (problems: Problem[]) => problems.filter((p) => p.severity === 'error');
const codes = (problems: Problem[]) => problems.map((p) => p.code);

// ---------------------------------------------------------------- the malformed table

type Source =
	| { geojson: unknown; opts?: ValidateOptions }
	| { features: unknown[]; opts?: ValidateOptions }
	| { latlon: [unknown, unknown]; opts?: ValidateOptions }
	| { wkt: unknown; opts?: ValidateOptions };

interface Row {
	name: string;
	input: Source;
	code: string;
	fragment: string | RegExp;
}

/** Runs an input through the same steps the node does: parse, then validate. Returns the errors. */
function errorsOf(source: Source): Array<{ code: string; message: string }> {
	let features: unknown[];
	let opts = source.opts ?? {};
	try {
		if ('geojson' in source) {
			const parsed = parseGeoJsonValue(source.geojson);
			features = parsed.features;
			opts = { ...opts, crs: parsed.crs };
		} else if ('latlon' in source) {
			features = [featureFromLatLon(source.latlon[0], source.latlon[1])];
		} else if ('wkt' in source) {
			features = parseWkt(source.wkt);
		} else {
			features = source.features;
		}
	} catch (error) {
		expect(error).toBeInstanceOf(GeometryInputError);
		return [
			{ code: (error as GeometryInputError).code, message: (error as GeometryInputError).message },
		];
	}
	return errors(validateFeatures(features, opts).problems);
}

const TWENTY_ONE = {
	type: 'FeatureCollection',
	features: Array.from({ length: 21 }, (_, i) => point([-47.882778 + i / 1000, -15.793889])),
};

const MALFORMED: Row[] = [
	// strings, nulls and empties
	{
		name: 'a string that is not JSON',
		input: { geojson: 'hello world' },
		code: 'not_json',
		fragment: 'not valid JSON: it starts with "hello world"',
	},
	{
		name: 'truncated JSON',
		input: { geojson: '{"type": "Point", "coordinates": [1' },
		code: 'not_json',
		fragment: '"{"type": "Point", "coordinates": [1"',
	},
	{
		name: 'a long non-JSON string is cut to 40 characters',
		input: { geojson: `plot boundary: ${'x'.repeat(80)}` },
		code: 'not_json',
		fragment: `"plot boundary: ${'x'.repeat(25)}…"`,
	},
	{
		name: 'an empty string',
		input: { geojson: '' },
		code: 'empty_input',
		fragment: 'empty string',
	},
	{
		name: 'a blank string',
		input: { geojson: '   \n ' },
		code: 'empty_input',
		fragment: 'empty string',
	},
	{ name: 'null', input: { geojson: null }, code: 'empty_input', fragment: 'the value is null' },
	{
		name: 'undefined',
		input: { geojson: undefined },
		code: 'empty_input',
		fragment: 'the value is undefined',
	},
	{ name: 'the JSON text null', input: { geojson: 'null' }, code: 'empty_input', fragment: 'null' },
	{
		name: 'an empty object',
		input: { geojson: {} },
		code: 'empty_object',
		fragment: 'empty object',
	},
	{ name: 'a number', input: { geojson: 42 }, code: 'not_geojson', fragment: 'a number (42)' },
	{
		name: 'a bare coordinate pair',
		input: { geojson: [-47.88, -15.79] },
		code: 'not_geojson',
		fragment: 'coordinate pair',
	},
	{
		name: 'a list of features',
		input: { geojson: [point([-47.882778, -15.793889])] },
		code: 'not_geojson',
		fragment: 'Wrap features in a FeatureCollection',
	},
	{
		name: 'WKT given as GeoJSON',
		input: { geojson: 'POLYGON ((1 2, 3 4, 5 6, 1 2))' },
		code: 'looks_like_wkt',
		fragment: 'looks like WKT',
	},
	{
		name: 'an object without type but with features',
		input: { geojson: { features: [] } },
		code: 'not_geojson',
		fragment: 'add "type": "FeatureCollection"',
	},
	{
		name: 'an unknown type',
		input: { geojson: { type: 'Circle', radius: 3 } },
		code: 'not_geojson',
		fragment: '"Circle", which is not a GeoJSON type',
	},
	// collections
	{
		name: 'a FeatureCollection without features',
		input: { geojson: { type: 'FeatureCollection', features: [] } },
		code: 'empty_feature_collection',
		fragment: 'has no features',
	},
	{
		name: 'a 21-feature FeatureCollection in one item',
		input: { geojson: TWENTY_ONE },
		code: 'too_many_features',
		fragment: 'holds 21 features; one item may hold at most 20',
	},
	{
		name: 'a nested FeatureCollection',
		input: {
			geojson: {
				type: 'FeatureCollection',
				features: [point([-47.882778, -15.793889]), { type: 'FeatureCollection', features: [] }],
			},
		},
		code: 'nested_feature_collection',
		fragment: 'feature 1 is itself a FeatureCollection',
	},
	{
		name: 'a bare geometry inside features',
		input: {
			geojson: {
				type: 'FeatureCollection',
				features: [{ type: 'Point', coordinates: [-47.882778, -15.793889] }],
			},
		},
		code: 'not_a_feature',
		fragment: 'feature 0 is a bare Point',
	},
	// unsupported geometry types
	{
		name: 'a GeometryCollection',
		input: { geojson: { type: 'GeometryCollection', geometries: [] } },
		code: 'unsupported_geometry',
		fragment: 'is a GeometryCollection; only Point, Polygon and MultiPolygon',
	},
	{
		name: 'a LineString',
		input: {
			geojson: {
				type: 'LineString',
				coordinates: [
					[1, 2],
					[3, 4],
				],
			},
		},
		code: 'unsupported_geometry',
		fragment: 'is a LineString',
	},
	{
		name: 'a MultiPoint',
		input: { geojson: { type: 'MultiPoint', coordinates: [[1, 2]] } },
		code: 'unsupported_geometry',
		fragment: 'is a MultiPoint',
	},
	{
		name: 'a Feature with a MultiLineString geometry',
		input: {
			geojson: {
				type: 'Feature',
				properties: {},
				geometry: { type: 'MultiLineString', coordinates: [] },
			},
		},
		code: 'unsupported_geometry',
		fragment: 'MultiLineString',
	},
	{
		name: 'a Feature with null geometry',
		input: { geojson: { type: 'Feature', properties: {}, geometry: null } },
		code: 'missing_geometry',
		fragment: 'has no geometry',
	},
	{
		name: 'a geometry that is a string',
		input: { geojson: { type: 'Feature', properties: {}, geometry: 'abc' } },
		code: 'invalid_geometry',
		fragment: 'a string ("abc")',
	},
	// empty geometry and bad coordinates
	{
		name: 'a Polygon with empty coordinates',
		input: { geojson: { type: 'Polygon', coordinates: [] } },
		code: 'empty_geometry',
		fragment: 'Polygon has no coordinates',
	},
	{
		name: 'a Point with empty coordinates',
		input: { geojson: { type: 'Point', coordinates: [] } },
		code: 'empty_geometry',
		fragment: 'Point has no coordinates',
	},
	{
		name: 'a Polygon with an empty ring',
		input: { geojson: { type: 'Polygon', coordinates: [[]] } },
		code: 'empty_geometry',
		fragment: 'ring 0 is empty',
	},
	{
		name: 'a NaN coordinate',
		input: { geojson: point([NaN, -15.793889]) },
		code: 'non_finite_coordinate',
		fragment: 'contains NaN',
	},
	{
		name: 'an Infinity coordinate',
		input: { geojson: polygon([...SQUARE.slice(0, 2), [Infinity, -15.78], ...SQUARE.slice(2)]) },
		code: 'non_finite_coordinate',
		fragment: 'position 2 of ring 0 contains Infinity',
	},
	{
		name: 'NaN in JSON text',
		input: { geojson: '{"type": "Point", "coordinates": [NaN, 1]}' },
		code: 'non_finite_coordinate',
		fragment: 'NaN or Infinity',
	},
	{
		name: 'a coordinate given as text',
		input: { geojson: point(['-47.882778' as unknown as number, -15.793889]) },
		code: 'non_numeric_coordinate',
		fragment: 'remove the quotes',
	},
	{
		name: 'a null coordinate',
		input: { geojson: point([null as unknown as number, -15.793889]) },
		code: 'non_numeric_coordinate',
		fragment: 'null',
	},
	{
		name: 'a position with one number',
		input: { geojson: point([-47.882778]) },
		code: 'invalid_position',
		fragment: 'has 1 number',
	},
	{
		name: 'Polygon coordinates nested one level too shallow',
		input: {
			geojson: {
				type: 'Polygon',
				coordinates: [
					[-47.88, -15.79],
					[-47.87, -15.79],
				],
			},
		},
		code: 'invalid_coordinates',
		fragment: 'Polygon coordinates are nested three deep',
	},
	// rings
	{
		name: 'an unclosed ring',
		input: { geojson: polygon(SQUARE.slice(0, 4)) },
		code: 'ring_not_closed',
		fragment: 'the polygon ring is not closed (first and last positions differ) in ring 0',
	},
	{
		name: 'a ring of 3 positions',
		input: { geojson: polygon([SQUARE[0], SQUARE[1], SQUARE[0]]) },
		code: 'ring_too_few_positions',
		fragment: 'ring 0 has only 3 positions; a polygon ring needs at least four',
	},
	{
		name: 'a bow tie',
		input: { geojson: polygon(BOW_TIE) },
		code: 'self_intersection',
		fragment: 'crosses itself',
	},
	{
		name: 'a hole crossing the exterior',
		input: { geojson: polygon(SQUARE, shift(HOLE, 0.006, 0)) },
		code: 'self_intersection',
		fragment: 'crosses itself',
	},
	{
		name: 'duplicate consecutive vertices',
		input: {
			geojson: polygon([
				SQUARE[0],
				SQUARE[1],
				SQUARE[1],
				SQUARE[2],
				SQUARE[2],
				SQUARE[3],
				SQUARE[4],
			]),
		},
		code: 'duplicate_vertices',
		fragment:
			'has 2 duplicate consecutive vertices (the same position repeated, first at position 2',
	},
	{
		name: 'a zero-area ring',
		input: { geojson: polygon([SQUARE[0], SQUARE[1], [-47.862778, -15.793889], SQUARE[0]]) },
		code: 'ring_zero_area',
		fragment: 'zero area',
	},
	{
		name: 'overlapping MultiPolygon parts',
		input: { geojson: multiPolygon([SQUARE], [shift(SQUARE, 0.005, 0.005)]) },
		code: 'polygons_overlap',
		fragment: 'polygons of the MultiPolygon cross each other',
	},
	{
		name: 'an unclosed ring in polygon 1 of a MultiPolygon',
		input: { geojson: multiPolygon([SQUARE], [shift(SQUARE, 1, 0).slice(0, 4)]) },
		code: 'ring_not_closed',
		fragment: 'ring 0 of polygon 1',
	},
	// coordinate systems and ranges
	{
		name: 'projected metres',
		input: {
			geojson: polygon([
				[-5330000.5, -1780000.25],
				[-5329000.5, -1780000.25],
				[-5329000.5, -1779000.25],
				[-5330000.5, -1780000.25],
			]),
		},
		code: 'projected_coordinates',
		fragment: 'look like projected metres',
	},
	{
		name: 'an EPSG:3857 crs member',
		input: {
			geojson: {
				type: 'FeatureCollection',
				crs: { type: 'name', properties: { name: 'EPSG:3857' } },
				features: [polygon(SQUARE)],
			},
		},
		code: 'crs_not_wgs84',
		fragment: '"EPSG:3857"',
	},
	{
		name: 'an EPSG urn crs on a feature',
		input: {
			features: [
				{
					...polygon(SQUARE),
					crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32722' } },
				},
			],
		},
		code: 'crs_not_wgs84',
		fragment: 'Reproject the data to WGS84',
	},
	{
		name: 'swapped lat/lon with country "Brazil"',
		input: { geojson: point([-15.793889, -47.882778]), opts: { country: 'Brazil' } },
		code: 'swapped_lat_lon',
		fragment: 'lies outside Brazil, but with the two values swapped it lies inside',
	},
	{
		name: 'swapped polygon with country code "bra"',
		input: { geojson: polygon(SQUARE.map(([x, y]) => [y, x]).reverse()), opts: { country: 'bra' } },
		code: 'swapped_lat_lon',
		fragment: 'look swapped',
	},
	{
		name: 'latitude beyond 90 (swapped)',
		input: { geojson: point([-2.512345, 110.412345]) },
		code: 'swapped_lat_lon',
		fragment: 'latitude 110.412345 outside -90..90',
	},
	{
		name: 'longitude beyond 180',
		input: { geojson: point([190.123456, 10.123456]) },
		code: 'coordinate_out_of_range',
		fragment: 'outside the WGS84 range',
	},
	// point_ha
	{
		name: 'point_ha 4.5',
		input: { geojson: point([-47.882778, -15.793889], { point_ha: 4.5 }) },
		code: 'point_requires_polygon',
		fragment: 'point_ha is 4.5 ha: a plot of 4 ha or more must be given as a polygon',
	},
	{
		name: 'point_ha 4 exactly',
		input: { geojson: point([-47.882778, -15.793889], { point_ha: 4 }) },
		code: 'point_requires_polygon',
		fragment: 'below 4',
	},
	{
		name: 'point_ha "abc" from the node',
		input: { geojson: point([-47.882778, -15.793889]), opts: { pointHa: 'abc' } },
		code: 'point_ha_invalid',
		fragment: 'point_ha "abc" is not a number',
	},
	{
		name: 'point_ha -1 in properties',
		input: { geojson: point([-47.882778, -15.793889], { point_ha: -1 }) },
		code: 'point_ha_invalid',
		fragment: 'must be a positive number',
	},
	{
		name: 'point_ha as text in properties',
		input: { geojson: point([-47.882778, -15.793889], { point_ha: '2.5' }) },
		code: 'point_ha_invalid',
		fragment: 'not text: remove the quotes',
	},
	{
		name: 'point_ha "4,5" from the node',
		input: { latlon: ['-15,793889', '-47,882778'], opts: { pointHa: '4,5' } },
		code: 'point_requires_polygon',
		fragment: '4.5 ha',
	},
	// features given directly to validation
	{
		name: 'a bare geometry given as a feature',
		input: { features: [{ type: 'Polygon', coordinates: [SQUARE] }] },
		code: 'not_a_feature',
		fragment: 'a bare Polygon geometry',
	},
	{
		name: 'a string given as a feature',
		input: { features: ['abc'] },
		code: 'not_a_feature',
		fragment: 'a string ("abc")',
	},
	{
		name: 'no features at all',
		input: { features: [] },
		code: 'no_features',
		fragment: 'no features',
	},
	// latitude / longitude
	{
		name: 'latitude missing',
		input: { latlon: ['', '-47.882778'] },
		code: 'latitude_missing',
		fragment: 'the latitude is empty',
	},
	{
		name: 'both missing',
		input: { latlon: [null, undefined] },
		code: 'latitude_missing',
		fragment: 'latitude and the longitude are both empty',
	},
	{
		name: 'longitude not a number',
		input: { latlon: ['-15.793889', 'abc'] },
		code: 'longitude_not_a_number',
		fragment: 'the longitude is not a number: "abc" is not a number',
	},
	{
		name: 'latitude in degrees/minutes/seconds',
		input: { latlon: ['15°47\'38"S', '-47.882778'] },
		code: 'latitude_not_a_number',
		fragment: 'degrees/minutes/seconds',
	},
	{
		name: 'latitude NaN',
		input: { latlon: [NaN, -47.882778] },
		code: 'latitude_not_a_number',
		fragment: 'NaN is not a finite number',
	},
	{
		name: 'lat/lon swapped (latitude 120)',
		input: { latlon: [120.5, 45.25] },
		code: 'swapped_lat_lon',
		fragment: 'latitude and longitude look swapped',
	},
	{
		name: 'longitude 200',
		input: { latlon: [10, 200] },
		code: 'longitude_out_of_range',
		fragment: 'outside -180..180',
	},
	{
		name: 'lat/lon in metres',
		input: { latlon: [-1780000, -5330000] },
		code: 'projected_coordinates',
		fragment: 'projected metres',
	},
	{
		name: 'lat/lon swapped against the country',
		input: { latlon: ['-47.882778', '-15.793889'], opts: { country: 'BR' } },
		code: 'swapped_lat_lon',
		fragment: 'Brazil',
	},
	// WKT
	{
		name: 'WKT LINESTRING',
		input: { wkt: 'LINESTRING (30 10, 10 30)' },
		code: 'unsupported_geometry',
		fragment: 'the WKT is a LINESTRING',
	},
	{
		name: 'WKT GEOMETRYCOLLECTION',
		input: { wkt: 'GEOMETRYCOLLECTION (POINT (4 6))' },
		code: 'unsupported_geometry',
		fragment: 'GEOMETRYCOLLECTION',
	},
	{
		name: 'unparsable WKT',
		input: { wkt: 'POLYGON ((30 10, 40 40' },
		code: 'invalid_wkt',
		fragment: 'could not be read as WKT: it starts with "POLYGON ((30 10, 40 40"',
	},
	{
		name: 'WKT in another SRID',
		input: { wkt: 'SRID=3857;POINT (-5330000 -1780000)' },
		code: 'crs_not_wgs84',
		fragment: 'SRID=3857',
	},
	{
		name: 'WKT POINT EMPTY',
		input: { wkt: 'POINT EMPTY' },
		code: 'empty_geometry',
		fragment: 'EMPTY',
	},
	{ name: 'empty WKT', input: { wkt: '  ' }, code: 'empty_input', fragment: 'no WKT was given' },
	{ name: 'WKT that is not text', input: { wkt: 12 }, code: 'invalid_wkt', fragment: 'a number' },
	{
		name: 'unclosed WKT polygon',
		input: {
			wkt: 'POLYGON ((-47.882778 -15.793889, -47.872778 -15.793889, -47.872778 -15.783889, -47.882778 -15.783889))',
		},
		code: 'ring_not_closed',
		fragment: 'not closed',
	},
];

describe('malformed inputs', () => {
	it('has at least 40 cases with distinct names', () => {
		expect(MALFORMED.length).toBeGreaterThanOrEqual(40);
		expect(new Set(MALFORMED.map((row) => row.name)).size).toBe(MALFORMED.length);
	});

	it.each(MALFORMED.map((row) => [row.name, row] as const))('%s', (_name, row) => {
		const found = errorsOf(row.input);
		const match = found.find((e) => e.code === row.code);
		if (!match) throw new Error(`expected code ${row.code}, got ${JSON.stringify(found, null, 1)}`);
		if (typeof row.fragment === 'string') expect(match.message).toContain(row.fragment);
		else expect(match.message).toMatch(row.fragment);
	});

	it('every message says what to do', () => {
		const advice =
			/\b(give|use|set|map|remove|close|add|check|reproject|wrap|move|put|split|replace|fix|merge|turn on|swap|redraw|convert|export)\b/i;
		for (const row of MALFORMED) {
			for (const e of errorsOf(row.input)) {
				expect(e.message).toMatch(advice);
				expect(e.message).toMatch(/\.$/);
				expect(e.message[0]).toBe(e.message[0].toLowerCase());
			}
		}
	});
});

// ---------------------------------------------------------------- valid inputs and warnings

describe('validateFeatures on valid input', () => {
	it('accepts a polygon, a polygon with a hole, a multipolygon and a point', () => {
		const features = [
			polygon(SQUARE),
			polygon(SQUARE, HOLE),
			multiPolygon([SQUARE], [shift(SQUARE, 0.1, 0)]),
			point([-47.882778, -15.793889], { point_ha: 2.5 }),
		];
		const result = validateFeatures(features, { country: 'Brazil' });
		expect(result.problems).toEqual([]);
		expect(result.repairs).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('does not treat clockwise winding as an error when repair is off, and leaves it alone', () => {
		const input = polygon(reversed(SQUARE), reversed(HOLE));
		const result = validateFeatures([input]);
		expect(result.problems).toEqual([]);
		expect(result.features[0]).toBe(input);
	});

	it('accepts z values and passes them through', () => {
		const input = polygon(SQUARE.map(([x, y]) => [x, y, 812.5]));
		const result = validateFeatures([input]);
		expect(result.problems).toEqual([]);
		expect(result.features[0]).toBe(input);
	});

	it.each([
		['EPSG:4326', { type: 'name', properties: { name: 'EPSG:4326' } }],
		['CRS84 urn', { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } }],
		['EPSG urn', { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } }],
		[
			'opengis URL',
			{ type: 'name', properties: { name: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' } },
		],
		['old EPSG code form', { type: 'EPSG', properties: { code: 4326 } }],
		['plain string', 'WGS84'],
		['null', null],
	])('accepts a WGS84 crs member (%s)', (_name, crs) => {
		expect(validateFeatures([polygon(SQUARE)], { crs }).problems).toEqual([]);
		expect(validateFeatures([{ ...polygon(SQUARE), crs }]).problems).toEqual([]);
	});

	it('warns (but does not fail) below six decimal places', () => {
		const result = validateFeatures([point([-47.88, -15.79])]);
		expect(result.valid).toBe(true);
		expect(result.problems).toEqual([
			expect.objectContaining({ severity: 'warning', code: 'low_precision', featureIndex: 0 }),
		]);
		expect(result.problems[0].message).toContain('as few as 2');
		expect(result.problems[0].message).toContain('six decimal digits');
	});

	it('does not warn when one coordinate merely lost a trailing zero', () => {
		expect(validateFeatures([point([-47.88278, -15.793889])]).problems).toEqual([]);
	});

	it('warns when the plot lies outside the given country (neither way round fits)', () => {
		const result = validateFeatures([point([9.993682, 53.551086])], { country: 'Brazil' });
		expect(result.valid).toBe(true);
		expect(codes(result.problems)).toEqual(['outside_country']);
	});

	it('ignores a country it has no bounding box for', () => {
		expect(
			validateFeatures([point([-15.793889, -47.882778])], { country: 'Atlantis' }).problems,
		).toEqual([]);
	});

	it('warns about exact duplicate features', () => {
		const result = validateFeatures([polygon(SQUARE), polygon(SQUARE)]);
		expect(result.valid).toBe(true);
		expect(result.problems).toEqual([
			expect.objectContaining({ code: 'duplicate_feature', featureIndex: 1, severity: 'warning' }),
		]);
		expect(result.problems[0].message).toContain('identical to feature 0');
	});

	it('the node option pointHa wins over properties.point_ha, and applies to points only', () => {
		expect(
			validateFeatures([point([-47.882778, -15.793889], { point_ha: 9 })], { pointHa: '2,5' })
				.problems,
		).toEqual([]);
		expect(validateFeatures([polygon(SQUARE)], { pointHa: 9 }).problems).toEqual([]);
		expect(
			validateFeatures([point([-47.882778, -15.793889], { point_ha: 1 })], { pointHa: '' })
				.problems,
		).toEqual([]);
	});

	it('reports each problem with the index of its feature', () => {
		const result = validateFeatures([
			polygon(SQUARE),
			polygon(BOW_TIE),
			point([-47.882778, -15.793889], { point_ha: 5 }),
		]);
		expect(errors(result.problems).map((p) => [p.featureIndex, p.code])).toEqual([
			[1, 'self_intersection'],
			[2, 'point_requires_polygon'],
		]);
		expect(result.valid).toBe(false);
	});

	it('reports a top-level crs once, for the whole input', () => {
		const result = validateFeatures([polygon(SQUARE), polygon(shift(SQUARE, 1, 0))], {
			crs: 'EPSG:3857',
		});
		expect(result.problems).toEqual([
			expect.objectContaining({ featureIndex: -1, code: 'crs_not_wgs84' }),
		]);
	});
});

// ---------------------------------------------------------------- self-intersections (sweep line)

describe('self-intersection detection', () => {
	it('the sweep line finds the crossing of a bow tie', () => {
		const found = sweeplineIntersections(
			{
				type: 'Feature',
				properties: {},
				geometry: {
					type: 'Polygon',
					coordinates: [
						[
							[0, 0],
							[1, 1],
							[1, 0],
							[0, 1],
							[0, 0],
						],
					],
				},
			},
			false,
		);
		expect(found).toEqual([[0.5, 0.5]]);
	});

	it('the sweep line finds no crossing in a valid 20,000-vertex circle', () => {
		const ring = circleRing(20_000);
		expect(ring).toHaveLength(20_001);
		expect(
			sweeplineIntersections(
				{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
				false,
			),
		).toEqual([]);
	});

	it('finds a single crossing hidden in a 20,000-vertex ring', () => {
		const ring = circleRing(20_000);
		[ring[5000], ring[5100]] = [ring[5100], ring[5000]];
		const result = validateFeatures([polygon(ring)]);
		expect(codes(result.problems)).toEqual(['self_intersection']);
		expect(result.problems[0].message).toContain('crosses itself');
	});

	it('a valid 20,000-vertex polygon validates clean', () => {
		const result = validateFeatures([polygon(circleRing(20_000))], { country: 'Brazil' });
		expect(result.problems).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('a valid 20,000-vertex polygon validates clean with repair on, unchanged', () => {
		const input = polygon(circleRing(20_000));
		const result = validateFeatures([input], { repair: true });
		expect(result.problems).toEqual([]);
		expect(result.repairs).toEqual([]);
		expect(result.features[0]).toEqual(input);
		expect(result.features[0]).not.toBe(input);
	});

	it('the geometry layer does not use the quadratic @turf/kinks', () => {
		const dir = join(__dirname, '../../nodes/shared/geometry');
		for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
			expect(readFileSync(join(dir, file), 'utf8')).not.toMatch(
				/(from|require\()\s*'@turf\/kinks'/,
			);
		}
		expect(readFileSync(join(dir, 'validate.ts'), 'utf8')).toMatch(
			/from 'sweepline-intersections'/,
		);
	});
});

// ---------------------------------------------------------------- repair

describe('repair', () => {
	const messages = (result: { repairs: Array<{ message: string }> }) =>
		result.repairs.map((r) => r.message);

	it('closes an unclosed ring, then validates', () => {
		const result = validateFeatures([polygon(SQUARE.slice(0, 4))], { repair: true });
		expect(result.repairs).toEqual([
			{ featureIndex: 0, code: 'closed_ring', message: 'closed ring 0 of polygon' },
		]);
		expect(result.problems).toEqual([]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
	});

	it('closes an unclosed three-corner ring into a valid triangle', () => {
		const result = validateFeatures([polygon(SQUARE.slice(0, 3))], { repair: true });
		expect(messages(result)).toEqual(['closed ring 0 of polygon']);
		expect(result.valid).toBe(true);
	});

	it('removes duplicate consecutive vertices', () => {
		const ring = [
			SQUARE[0],
			SQUARE[0],
			SQUARE[1],
			SQUARE[2],
			SQUARE[2],
			SQUARE[2],
			SQUARE[3],
			SQUARE[4],
		];
		const result = validateFeatures([polygon(ring)], { repair: true });
		expect(result.repairs).toEqual([
			{
				featureIndex: 0,
				code: 'removed_duplicate_vertices',
				message: 'removed 3 duplicate consecutive vertices',
			},
		]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
		expect(result.problems).toEqual([]);
	});

	it('rewinds the exterior to counter-clockwise and holes to clockwise', () => {
		const result = validateFeatures([polygon(reversed(SQUARE), reversed(HOLE))], { repair: true });
		expect(messages(result)).toEqual([
			'rewound exterior ring to counter-clockwise',
			'rewound hole (ring 1 of polygon) to clockwise',
		]);
		const [outer, hole] = (result.features[0].geometry as { coordinates: Position[][] })
			.coordinates;
		expect(booleanClockwise(outer)).toBe(false);
		expect(booleanClockwise(hole)).toBe(true);
		expect(result.problems).toEqual([]);
	});

	it('drops z values from polygons and points', () => {
		const result = validateFeatures(
			[polygon(SQUARE.map(([x, y]) => [x, y, 10])), point([-47.882778, -15.793889, 3])],
			{ repair: true },
		);
		expect(result.repairs).toEqual([
			{
				featureIndex: 0,
				code: 'dropped_z',
				message: 'dropped z values (third coordinate) from 5 positions',
			},
			{
				featureIndex: 1,
				code: 'dropped_z',
				message: 'dropped z values (third coordinate) from 1 position',
			},
		]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
		expect((result.features[1].geometry as { coordinates: Position }).coordinates).toEqual([
			-47.882778, -15.793889,
		]);
	});

	it('names the polygon of a MultiPolygon', () => {
		const result = validateFeatures(
			[multiPolygon([SQUARE], [reversed(shift(SQUARE, 1, 0)).slice(0, 4)])],
			{ repair: true },
		);
		expect(messages(result)).toEqual([
			'closed ring 0 of polygon 1',
			'rewound exterior ring of polygon 1 to counter-clockwise',
		]);
		expect(result.valid).toBe(true);
	});

	it('fixes everything repairable at once, and the result then validates with repair off', () => {
		const dirty = [...reversed(SQUARE).slice(0, 4)].flatMap((p, i) =>
			i === 1
				? [
						[...p, 5],
						[...p, 5],
					]
				: [[...p, 5]],
		);
		const result = validateFeatures([polygon(dirty)], { repair: true });
		expect(result.repairs.map((r) => r.code)).toEqual([
			'dropped_z',
			'removed_duplicate_vertices',
			'closed_ring',
			'rewound_ring',
		]);
		expect(messages(result)).toEqual([
			'dropped z values (third coordinate) from 5 positions',
			'removed 1 duplicate consecutive vertex',
			'closed ring 0 of polygon',
			'rewound exterior ring to counter-clockwise',
		]);
		expect(result.valid).toBe(true);
		const again = validateFeatures(result.features);
		expect(again.problems).toEqual([]);
	});

	it('the same defects are errors with repair off', () => {
		const dirty = [...reversed(SQUARE).slice(0, 4)].flatMap((p, i) => (i === 1 ? [p, p] : [p]));
		expect(codes(validateFeatures([polygon(dirty)]).problems).sort()).toEqual([
			'duplicate_vertices',
			'ring_not_closed',
		]);
	});

	it.each([
		['a bow tie stays a self-intersection', polygon(BOW_TIE.slice(0, 4)), {}, 'self_intersection'],
		[
			'a closed 3-position ring stays too short',
			polygon([SQUARE[0], SQUARE[1], SQUARE[0]]),
			{},
			'ring_too_few_positions',
		],
		[
			'duplicates that leave too few positions stay too short',
			polygon([SQUARE[0], SQUARE[1], SQUARE[1], SQUARE[0]]),
			{},
			'ring_too_few_positions',
		],
		[
			'swapped coordinates stay swapped',
			point([-15.793889, -47.882778]),
			{ country: 'Brazil' },
			'swapped_lat_lon',
		],
		[
			'projected metres stay projected',
			point([-5330000.5, -1780000.5]),
			{},
			'projected_coordinates',
		],
		[
			'point_ha 4.5 stays an error',
			point([-47.882778, -15.793889], { point_ha: 4.5 }),
			{},
			'point_requires_polygon',
		],
	])('after repair, %s', (_name, feature, opts, code) => {
		const result = validateFeatures([feature], { ...opts, repair: true });
		expect(result.valid).toBe(false);
		expect(codes(errors(result.problems))).toContain(code);
	});

	it('lists nothing and still returns copies when there is nothing to repair', () => {
		const input = [
			polygon(SQUARE, HOLE),
			point([-47.882778, -15.793889], { point_ha: 1.5, name: 'A' }),
		];
		const result = validateFeatures(input, { repair: true });
		expect(result.repairs).toEqual([]);
		expect(result.features).toEqual(input);
		expect(result.features[0]).not.toBe(input[0]);
		expect(result.features[1].properties).not.toBe(input[1].properties);
	});

	it('keeps properties and other members on the repaired copy', () => {
		const input = {
			...polygon(SQUARE.slice(0, 4)),
			id: 'p-1',
			properties: { point_ha: 1, owner: 'Ana' },
		};
		const [repaired] = validateFeatures([input], { repair: true }).features;
		expect(repaired).toEqual({ ...input, geometry: { type: 'Polygon', coordinates: [SQUARE] } });
	});

	it('returns structurally invalid features as copies, untouched, with their error', () => {
		const result = validateFeatures([{ type: 'Feature', geometry: null }], { repair: true });
		expect(result.features).toEqual([{ type: 'Feature', geometry: null }]);
		expect(codes(result.problems)).toEqual(['missing_geometry']);
	});
});

// ---------------------------------------------------------------- immutability

describe('inputs are never mutated', () => {
	const inputs = () => [
		polygon(
			reversed(SQUARE)
				.slice(0, 4)
				.map(([x, y]) => [x, y, 1]),
		),
		polygon([SQUARE[0], SQUARE[0], ...SQUARE.slice(1)], reversed(HOLE)),
		multiPolygon([SQUARE.slice(0, 4)], [shift(SQUARE, 1, 0)]),
		point([-47.882778, -15.793889, 4], { point_ha: 2 }),
		polygon(BOW_TIE),
	];

	it.each([false, true])(
		'validateFeatures (repair %s) leaves frozen inputs as they were',
		(repair) => {
			const original = inputs();
			const frozen = deepFreeze(inputs());
			const result = validateFeatures(frozen, { repair, country: 'Brazil', pointHa: '1,5' });
			expect(frozen).toEqual(original);
			if (repair) {
				expect(result.repairs.length).toBeGreaterThan(0);
				result.features.forEach((f, i) => expect(f).not.toBe(frozen[i]));
			} else {
				expect(result.repairs).toEqual([]);
				result.features.forEach((f, i) => expect(f).toBe(frozen[i]));
			}
		},
	);

	it('parseGeoJsonValue returns copies: changing them does not change the input', () => {
		const input = {
			type: 'FeatureCollection',
			crs: { type: 'name', properties: { name: 'EPSG:4326' } },
			features: inputs(),
		};
		const before = structuredClone(input);
		const parsed = parseGeoJsonValue(deepFreeze(input));
		(parsed.features[0].properties as Record<string, unknown>).point_ha = 3;
		(parsed.features[0].geometry as { coordinates: Position[][] }).coordinates[0].push([0, 0]);
		(parsed.crs as { type: string }).type = 'changed';
		expect(input).toEqual(before);
	});
});

// ---------------------------------------------------------------- messages

describe('describeProblem', () => {
	it('prefixes the item and feature', () => {
		const [problem] = validateFeatures(
			[polygon(SQUARE), polygon(SQUARE.slice(0, 4))].slice(1),
		).problems;
		expect(describeProblem(3, problem)).toBe(
			'Item 3, feature 0: the polygon ring is not closed (first and last positions differ) in ring 0: [-47.882778, -15.793889] vs [-47.882778, -15.783889]. Close the ring (repeat the first position at the end) or turn on "Repair Geometry".',
		);
	});

	it('marks warnings and omits the feature for whole-input problems', () => {
		expect(
			describeProblem(1, {
				severity: 'warning',
				featureIndex: 2,
				code: 'low_precision',
				message: 'x.',
			}),
		).toBe('Item 1, feature 2 (warning): x.');
		expect(
			describeProblem(0, {
				severity: 'error',
				featureIndex: -1,
				code: 'crs_not_wgs84',
				message: 'y.',
			}),
		).toBe('Item 0: y.');
	});
});

import fc from 'fast-check';

import {
	COUNTRY_BOXES,
	GeometryInputError,
	describeInputError,
	featureFromLatLon,
	findCountry,
	isWgs84Crs,
	parseGeoJsonValue,
	parseWkt,
	readLooseNumber,
	validateFeatures,
} from '../../../nodes/shared/geometry';

const RING = [
	[-47.882778, -15.793889],
	[-47.872778, -15.793889],
	[-47.872778, -15.783889],
	[-47.882778, -15.793889],
];
const POLYGON = { type: 'Polygon', coordinates: [RING] };
const POINT = { type: 'Point', coordinates: [-47.882778, -15.793889] };
const FEATURE = { type: 'Feature', properties: { name: 'A' }, geometry: POLYGON };

function thrown(fn: () => unknown): GeometryInputError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(GeometryInputError);
		return error as GeometryInputError;
	}
	throw new Error('expected a GeometryInputError');
}

describe('parseGeoJsonValue', () => {
	it('accepts a Feature', () => {
		expect(parseGeoJsonValue(FEATURE)).toEqual({ features: [FEATURE] });
	});

	it('accepts a FeatureCollection, keeping its crs', () => {
		const crs = { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } };
		const parsed = parseGeoJsonValue({
			type: 'FeatureCollection',
			crs,
			features: [FEATURE, { type: 'Feature', properties: null, geometry: POINT }],
		});
		expect(parsed.features).toHaveLength(2);
		expect(parsed.crs).toEqual(crs);
	});

	it.each([
		['Point', POINT],
		['Polygon', POLYGON],
		['MultiPolygon', { type: 'MultiPolygon', coordinates: [[RING]] }],
	])('wraps a bare %s geometry in a Feature', (_type, geometry) => {
		expect(parseGeoJsonValue(geometry).features).toEqual([
			{ type: 'Feature', properties: {}, geometry },
		]);
	});

	it('accepts JSON strings, with surrounding whitespace, and double-encoded JSON', () => {
		expect(parseGeoJsonValue(`  ${JSON.stringify(FEATURE)}\n`).features).toEqual([FEATURE]);
		expect(parseGeoJsonValue(JSON.stringify(JSON.stringify(POINT))).features[0].geometry).toEqual(
			POINT,
		);
	});

	it('accepts 20 features and z values', () => {
		const features = Array.from({ length: 20 }, (_, i) => ({
			type: 'Feature',
			properties: {},
			geometry: { type: 'Point', coordinates: [-47.882778 + i / 100, -15.793889, 900] },
		}));
		expect(parseGeoJsonValue({ type: 'FeatureCollection', features }).features).toHaveLength(20);
	});

	it('maxFeatures can be raised', () => {
		const features = Array.from({ length: 25 }, () => FEATURE);
		expect(
			parseGeoJsonValue({ type: 'FeatureCollection', features }, { maxFeatures: 100 }).features,
		).toHaveLength(25);
		expect(thrown(() => parseGeoJsonValue({ type: 'FeatureCollection', features })).code).toBe(
			'too_many_features',
		);
	});

	it('names the feature index of a bad feature in a collection', () => {
		const error = thrown(() =>
			parseGeoJsonValue({
				type: 'FeatureCollection',
				features: [
					FEATURE,
					FEATURE,
					{ type: 'Feature', geometry: { type: 'LineString', coordinates: [] } },
				],
			}),
		);
		expect(error.code).toBe('unsupported_geometry');
		expect(error.featureIndex).toBe(2);
		expect(describeInputError(4, error)).toMatch(
			/^Item 4, feature 2: the geometry is a LineString; only Point, Polygon and MultiPolygon are accepted/,
		);
	});

	it('describeInputError names only the item when no feature is concerned', () => {
		expect(
			describeInputError(
				0,
				thrown(() => parseGeoJsonValue('not json')),
			),
		).toMatch(/^Item 0: the value is not valid JSON/);
	});

	it('throws errors that are real Errors with a name and code', () => {
		const error = thrown(() => parseGeoJsonValue(null));
		expect(error).toBeInstanceOf(Error);
		expect(error.name).toBe('GeometryInputError');
		expect(error.code).toBe('empty_input');
	});
});

describe('featureFromLatLon', () => {
	it.each([
		[-15.793889, -47.882778],
		['-15.793889', '-47.882778'],
		['  -15.793889 ', '\t-47.882778\n'],
		['-15,793889', '-47,882778'],
		['\u221215.793889', '\u221247.882778'],
		['-1.5793889e1', '-4.7882778E1'],
	])('reads %p, %p', (lat, lon) => {
		expect(featureFromLatLon(lat, lon)).toEqual({
			type: 'Feature',
			properties: {},
			geometry: { type: 'Point', coordinates: [-47.882778, -15.793889] },
		});
	});

	it('accepts the edges of the ranges', () => {
		expect(featureFromLatLon(90, 180).geometry.coordinates).toEqual([180, 90]);
		expect(featureFromLatLon('-90', '-180').geometry.coordinates).toEqual([-180, -90]);
	});

	// Rejected latitudes are fixture files (test/fixtures/geometry/defects/latitude-*.json), run by
	// geometry/defects.test.ts.

	it('round-trips any in-range number written with a comma decimal separator', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: -90_000_000, max: 90_000_000 }),
				fc.integer({ min: -180_000_000, max: 180_000_000 }),
				(a, b) => {
					const lat = a / 1e6;
					const lon = b / 1e6;
					const feature = featureFromLatLon(String(lat).replace('.', ','), ` ${lon} `);
					expect(feature.geometry.coordinates).toEqual([lon, lat]);
				},
			),
		);
	});
});

describe('parseWkt', () => {
	it('reads POINT, POLYGON and MULTIPOLYGON', () => {
		expect(parseWkt('POINT (-47.882778 -15.793889)')).toEqual([
			{ type: 'Feature', properties: {}, geometry: POINT },
		]);
		expect(
			parseWkt(
				'POLYGON ((-47.882778 -15.793889, -47.872778 -15.793889, -47.872778 -15.783889, -47.882778 -15.793889))',
			)[0].geometry,
		).toEqual(POLYGON);
		const multi = parseWkt(
			'MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))',
		);
		expect(multi).toHaveLength(1);
		expect(multi[0].geometry.type).toBe('MultiPolygon');
		expect(multi[0].geometry.coordinates).toHaveLength(2);
	});

	it("reads Z variants and keeps z, without Terraformer's properties on the geometry", () => {
		const [point] = parseWkt('POINT Z (1 2 3)');
		expect(point.geometry).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
		expect(parseWkt('POINTZ(1 2 3)')[0].geometry).toEqual({
			type: 'Point',
			coordinates: [1, 2, 3],
		});
		expect(
			parseWkt('MULTIPOLYGON Z (((30 20 1, 45 40 1, 10 40 1, 30 20 1)))')[0].geometry.coordinates,
		).toEqual([
			[
				[
					[30, 20, 1],
					[45, 40, 1],
					[10, 40, 1],
					[30, 20, 1],
				],
			],
		]);
	});

	it('drops M values (a third number that is not z)', () => {
		expect(parseWkt('POINT M (1 2 7)')[0].geometry).toEqual({ type: 'Point', coordinates: [1, 2] });
		expect(parseWkt('POINT ZM (1 2 3 7)')[0].geometry).toEqual({
			type: 'Point',
			coordinates: [1, 2, 3],
		});
	});

	it('is case-insensitive and accepts SRID=4326', () => {
		expect(parseWkt('  polygon((1 2, 3 4, 5 1, 1 2)) ')[0].geometry.type).toBe('Polygon');
		expect(parseWkt('SRID=4326;POINT(1 2)')[0].geometry).toEqual({
			type: 'Point',
			coordinates: [1, 2],
		});
	});

	it('WKT results validate like GeoJSON', () => {
		const features = parseWkt(
			'POLYGON Z ((-47.882778 -15.793889 5, -47.872778 -15.793889 5, -47.872778 -15.783889 5, -47.882778 -15.793889 5))',
		);
		expect(validateFeatures(features).problems).toEqual([]);
		const repaired = validateFeatures(features, { repair: true });
		expect(repaired.repairs.map((r) => r.code)).toEqual(['dropped_z']);
	});
});

describe('helpers', () => {
	it('readLooseNumber', () => {
		expect(readLooseNumber(' 2,5 ')).toEqual({ kind: 'number', value: 2.5 });
		expect(readLooseNumber('')).toEqual({ kind: 'missing' });
		expect(readLooseNumber(null)).toEqual({ kind: 'missing' });
		expect(readLooseNumber('2.5 ha')).toMatchObject({ kind: 'invalid' });
		expect(readLooseNumber(NaN)).toMatchObject({ kind: 'invalid' });
	});

	it.each([
		['Brazil', 'BR'],
		['brasil', 'BR'],
		['BRA', 'BR'],
		['br', 'BR'],
		["Côte d'Ivoire", 'CI'],
		['cote d’ivoire', 'CI'],
		['Ivory Coast', 'CI'],
		['CIV', 'CI'],
		['DRC', 'CD'],
		['Democratic Republic of the Congo', 'CD'],
		['Congo', 'CG'],
		['Viet Nam', 'VN'],
		['  indonesia ', 'ID'],
	])('findCountry(%p) is %s', (name, iso2) => {
		expect(findCountry(name)?.iso2).toBe(iso2);
	});

	it('every country box is well-formed and codes are unique', () => {
		for (const { bbox, iso2, iso3 } of COUNTRY_BOXES) {
			const [w, s, e, n] = bbox;
			expect(w).toBeLessThan(e);
			expect(s).toBeLessThan(n);
			expect(
				Math.abs(w) <= 180 && Math.abs(e) <= 180 && Math.abs(s) <= 90 && Math.abs(n) <= 90,
			).toBe(true);
			expect(iso2).toHaveLength(2);
			expect(iso3).toHaveLength(3);
		}
		expect(new Set(COUNTRY_BOXES.map((c) => c.iso2)).size).toBe(COUNTRY_BOXES.length);
		expect(COUNTRY_BOXES.length).toBeGreaterThanOrEqual(40);
	});

	it.each([
		['Brazil', [-47.882778, -15.793889]],
		["Côte d'Ivoire", [-5.54708, 7.539989]],
		['Ghana', [-1.023194, 7.946527]],
		['Indonesia', [101.447777, 0.507068]],
		['Colombia', [-75.563591, 6.251028]],
		['Ethiopia', [38.763611, 9.005401]],
		['Vietnam', [108.277199, 14.058324]],
		['Malaysia', [101.686855, 3.139003]],
	])('a real place in %s is not flagged', (country, position) => {
		expect(
			validateFeatures(
				[{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: position } }],
				{ country },
			).problems,
		).toEqual([]);
	});

	it('isWgs84Crs rejects projected and unreadable crs members', () => {
		expect(isWgs84Crs({ type: 'name', properties: { name: 'EPSG:3857' } })).toBe(false);
		expect(isWgs84Crs({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::900913' } })).toBe(
			false,
		);
		expect(isWgs84Crs({ type: 'link', properties: {} })).toBe(false);
		expect(isWgs84Crs('EPSG:4326')).toBe(true);
		expect(isWgs84Crs(undefined)).toBe(true);
	});
});

describe('hasDecimalPlaces', () => {
	const {
		decimalPlaces,
		hasDecimalPlaces,
	} = require('../../../nodes/shared/geometry/looseNumbers');
	it.each([
		[-15.793889, true],
		[-15.79389, false],
		[12.3456, false],
		[0.1, false],
		[1.000001, true],
		[10, false],
		[1e-7, true],
		[-47.8827781234, true],
	])('%p has six decimals: %p (agrees with decimalPlaces)', (n, expected) => {
		expect(hasDecimalPlaces(n, 6)).toBe(expected);
		expect(decimalPlaces(n) >= 6).toBe(expected);
	});
});

import { MAX_JSON_DEPTH, pathDeeperThan, showPath } from '../input/depth';
import { isObject } from '../values/answerValues';
import { GeometryInputError } from './geometryError';
import { readLooseNumber } from './looseNumbers';
import {
	checkGeometryShape,
	isAcceptedGeometryType,
	isOtherGeometryType,
	kindOf,
	showValue,
	unsupportedGeometryIssue,
} from './shape';
import type {
	Feature,
	Location,
	ParsedFeatures,
	PlotFeature,
	PlotGeometry,
	Point,
} from './geoJsonTypes';
import { WktSyntaxError, readWkt, type WktReading } from './wkt';

/** The service takes at most 20 features per registration request, so one input value may hold at most 20. */
const MAX_FEATURES_PER_VALUE = 20;

interface ParseOptions {
	/** Most features one value may hold (default 20, the service's per-request limit). */
	maxFeatures?: number;
}

const EXAMPLE = '{"type": "Point", "coordinates": [-47.882778, -15.793889]}';
const WKT_START =
	/^\s*(SRID\s*=\s*\d+\s*;\s*)?(POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION)\b/i;

/**
 * Copy of JSON-shaped data (GeoJSON: plain objects, arrays, numbers, strings). Several
 * times faster than structuredClone on large coordinate arrays, which matters when
 * thousands of spreadsheet rows are checked before upload.
 */
function clone<T>(value: T): T {
	if (Array.isArray(value)) {
		const out = new Array(value.length);
		for (let i = 0; i < value.length; i++) out[i] = clone(value[i]);
		return out as T;
	}
	if (value !== null && typeof value === 'object') {
		if (
			Object.getPrototypeOf(value) !== Object.prototype &&
			Object.getPrototypeOf(value) !== null
		) {
			return structuredClone(value);
		}
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value)) out[key] = clone((value as Record<string, unknown>)[key]);
		return out as T;
	}
	return value;
}

/** How the parse functions copy what they return: `clone`, or nothing for objects parsed from JSON text here. */
type Copy = <T>(value: T) => T;

function fail(code: string, message: string, featureIndex?: number, where?: Location): never {
	throw new GeometryInputError(code, message, featureIndex, where);
}

function parseJsonText(text: string): unknown {
	const trimmed = text.trim();
	if (trimmed === '') {
		fail(
			'empty_input',
			`no GeoJSON was given (the value is an empty string). Map a field holding a Feature, a FeatureCollection or a geometry, e.g. ${EXAMPLE}.`,
		);
	}
	if (WKT_START.test(trimmed)) {
		fail(
			'looks_like_wkt',
			`the value looks like WKT (${showValue(trimmed)}), not GeoJSON. Set the geometry source to WKT, or give GeoJSON such as ${EXAMPLE}.`,
		);
	}
	try {
		return JSON.parse(trimmed) as unknown;
	} catch (error) {
		if (/\b(NaN|-?Infinity)\b/.test(trimmed)) {
			fail(
				'non_finite_coordinate',
				'the GeoJSON text contains NaN or Infinity, which are not numbers in JSON. Replace them with the real coordinates.',
			);
		}
		const detail = error instanceof Error ? ` (${error.message})` : '';
		fail(
			'not_json',
			`the value is not valid JSON: it starts with ${showValue(trimmed)}${detail}. Give GeoJSON as an object or a JSON string, e.g. ${EXAMPLE}.`,
		);
	}
}

function checkFeature(value: unknown, index: number | undefined, copy: Copy): PlotFeature {
	const which = index === undefined ? 'the Feature' : `feature ${index}`;
	const issue = checkGeometryShape(isObject(value) ? value.geometry : undefined);
	if (issue) {
		const message =
			issue.code === 'missing_geometry'
				? `${which} has no geometry (it is null or missing). Give it a Point, Polygon or MultiPolygon geometry.`
				: issue.message;
		fail(issue.code, message, index, issue.where);
	}
	return copy(value) as PlotFeature;
}

function wrapGeometry(geometry: Record<string, unknown>, copy: Copy): PlotFeature {
	const issue = checkGeometryShape(geometry);
	if (issue) fail(issue.code, issue.message, undefined, issue.where);
	const { type, coordinates } = geometry;
	return {
		type: 'Feature',
		properties: {},
		geometry: copy({ type, coordinates }) as PlotGeometry,
	};
}

function parseFeatureCollection(
	collection: Record<string, unknown>,
	maxFeatures: number,
	copy: Copy,
): PlotFeature[] {
	const { features } = collection;
	if (!Array.isArray(features)) {
		fail(
			'not_geojson',
			`the FeatureCollection has no "features" list (found ${kindOf(features)}). Put the features in a "features": [...] array.`,
		);
	}
	if (features.length === 0) {
		fail(
			'empty_feature_collection',
			'the FeatureCollection has no features. Add at least one Feature with a Point, Polygon or MultiPolygon geometry.',
		);
	}
	if (features.length > maxFeatures) {
		fail(
			'too_many_features',
			`the FeatureCollection holds ${features.length} features; one item may hold at most ${maxFeatures} (the service registers at most 20 per request). Split the features across several items.`,
		);
	}
	return features.map((feature: unknown, i) => {
		if (!isObject(feature)) {
			fail(
				'not_a_feature',
				`feature ${i} is ${kindOf(feature)} (${showValue(feature)}), not a GeoJSON Feature. Each entry of "features" must be {"type": "Feature", "geometry": ..., "properties": {...}}.`,
				i,
			);
		}
		if (feature.type === 'FeatureCollection') {
			fail(
				'nested_feature_collection',
				`feature ${i} is itself a FeatureCollection; FeatureCollections cannot be nested. Move its features into the outer "features" list, or give each collection as its own item.`,
				i,
			);
		}
		if (feature.type !== 'Feature') {
			const found =
				typeof feature.type === 'string'
					? `a bare ${showValue(feature.type, 30).slice(1, -1)}`
					: 'an object without "type": "Feature"';
			fail(
				'not_a_feature',
				`feature ${i} is ${found}, not a Feature. Wrap it as {"type": "Feature", "geometry": ..., "properties": {}}.`,
				i,
			);
		}
		return checkFeature(feature, i, copy);
	});
}

/**
 * Reads a GeoJSON value: a Feature, a FeatureCollection, a bare Point, Polygon
 * or MultiPolygon geometry, or a JSON string of any of these. Returns copies
 * of the features (the input is never modified) and the top-level `crs`
 * member, if any. Throws a `GeometryInputError` naming the defect otherwise.
 * Coordinate ranges, rings and the rest are checked by `validateFeatures`.
 */
export function parseGeoJsonValue(value: unknown, options: ParseOptions = {}): ParsedFeatures {
	const maxFeatures = options.maxFeatures ?? MAX_FEATURES_PER_VALUE;
	let parsed = value;
	for (let depth = 0; typeof parsed === 'string' && depth < 2; depth++)
		parsed = parseJsonText(parsed);
	// Before any recursive walk (the copy below, repair's clone, hashing): a value nested
	// thousands of levels deep is this item's problem, not a stack overflow that ends the run.
	const deep = pathDeeperThan(parsed);
	if (deep) {
		fail(
			'json_too_deep',
			`the GeoJSON value nests more than ${MAX_JSON_DEPTH} levels deep (at ${showPath(deep)}), which no plot needs (GeoJSON itself needs 8 levels). Remove or flatten the deeply nested member, e.g. a "crs" or a property.`,
		);
	}
	// JSON text parsed here is not the caller's: it needs no copy (a 20 MB value parses once, not twice)
	const copy: Copy = typeof value === 'string' ? (v) => v : clone;
	if (parsed === undefined || parsed === null) {
		fail(
			'empty_input',
			`no GeoJSON was given (the value is ${parsed === null ? 'null' : 'undefined'}). Map a field holding a Feature, a FeatureCollection or a geometry, e.g. ${EXAMPLE}.`,
		);
	}
	if (Array.isArray(parsed)) {
		if (parsed.length >= 2 && parsed.length <= 3 && parsed.every((n) => typeof n === 'number')) {
			fail(
				'not_geojson',
				`the value is a bare coordinate pair (${showValue(parsed)}), not GeoJSON. Use the Latitude/Longitude geometry source, or give ${EXAMPLE}.`,
			);
		}
		fail(
			'not_geojson',
			`the value is a list (${showValue(parsed)}), not GeoJSON. Wrap features in a FeatureCollection: {"type": "FeatureCollection", "features": [...]}.`,
		);
	}
	if (!isObject(parsed)) {
		fail(
			'not_geojson',
			`the value is ${kindOf(parsed)} (${showValue(parsed)}), not GeoJSON. Give a Feature, a FeatureCollection or a geometry, e.g. ${EXAMPLE}.`,
		);
	}
	if (Object.keys(parsed).length === 0) {
		fail(
			'empty_object',
			`the value is an empty object ({}). Give a Feature, a FeatureCollection or a geometry, e.g. ${EXAMPLE}.`,
		);
	}
	const crs = parsed.crs;
	const result = (features: PlotFeature[]): ParsedFeatures =>
		crs === undefined ? { features } : { features, crs: copy(crs) };
	const type = parsed.type;
	if (type === 'FeatureCollection')
		return result(parseFeatureCollection(parsed, maxFeatures, copy));
	if (type === 'Feature') return result([checkFeature(parsed, undefined, copy)]);
	if (isAcceptedGeometryType(type)) return result([wrapGeometry(parsed, copy)]);
	if (isOtherGeometryType(type)) {
		const issue = unsupportedGeometryIssue(type, 'the value');
		fail(issue.code, issue.message);
	}
	if (type === undefined) {
		const guess = Array.isArray(parsed.features)
			? ' It has a "features" list: add "type": "FeatureCollection".'
			: 'geometry' in parsed
				? ' It has a "geometry": add "type": "Feature".'
				: 'coordinates' in parsed
					? ' It has "coordinates": add "type": "Point", "Polygon" or "MultiPolygon".'
					: '';
		fail(
			'not_geojson',
			`the object has no "type" member, so it is not GeoJSON.${guess || ` Give a Feature, a FeatureCollection or a geometry, e.g. ${EXAMPLE}.`}`,
		);
	}
	fail(
		'not_geojson',
		`the object's "type" is ${showValue(type)}, which is not a GeoJSON type. Use "Feature", "FeatureCollection", "Point", "Polygon" or "MultiPolygon".`,
	);
}

function coordinate(value: unknown, name: 'latitude' | 'longitude'): number {
	const read = readLooseNumber(value);
	if (read.kind === 'number') return read.value;
	if (read.kind === 'missing') {
		fail(
			`${name}_missing`,
			`the ${name} is empty. Map a field holding the plot's ${name} in decimal degrees (e.g. ${name === 'latitude' ? '-15.793889' : '-47.882778'}).`,
		);
	}
	fail(
		`${name}_not_a_number`,
		`the ${name} is not a number: ${read.reason}. Give the ${name} in decimal degrees (e.g. ${name === 'latitude' ? '-15.793889' : '-47.882778'}); a comma decimal separator is fine.`,
	);
}

/**
 * Builds a Point feature from a latitude and a longitude (numbers or numeric
 * strings; whitespace is trimmed and "-3,4567" is read as -3.4567).
 */
export function featureFromLatLon(lat: unknown, lon: unknown): Feature<Point> {
	if (readLooseNumber(lat).kind === 'missing' && readLooseNumber(lon).kind === 'missing') {
		fail(
			'latitude_missing',
			"the latitude and the longitude are both empty. Map the fields holding the plot's latitude and longitude in decimal degrees.",
		);
	}
	const latitude = coordinate(lat, 'latitude');
	const longitude = coordinate(lon, 'longitude');
	if (
		Math.abs(latitude) > 180 &&
		Math.abs(longitude) > 180 &&
		Math.max(Math.abs(latitude), Math.abs(longitude)) >= 1000
	) {
		fail(
			'projected_coordinates',
			`latitude ${latitude} and longitude ${longitude} look like projected metres, not degrees. Reproject to WGS84 (EPSG:4326) decimal degrees.`,
		);
	}
	if (Math.abs(latitude) > 90) {
		if (Math.abs(longitude) <= 90) {
			fail(
				'swapped_lat_lon',
				`latitude and longitude look swapped: the latitude is ${latitude}, outside -90..90, while the longitude is ${longitude}. Map the latitude field to Latitude and the longitude field to Longitude.`,
			);
		}
		fail(
			'latitude_out_of_range',
			`the latitude ${latitude} is outside -90..90. Give the latitude in decimal degrees.`,
		);
	}
	if (Math.abs(longitude) > 180) {
		fail(
			'longitude_out_of_range',
			`the longitude ${longitude} is outside -180..180. Give the longitude in decimal degrees.`,
		);
	}
	return {
		type: 'Feature',
		properties: {},
		geometry: { type: 'Point', coordinates: [longitude, latitude] },
	};
}

/** Drops the measure (M) values, so that a third number is always z (the input is not modified). */
function dropMeasures(coordinates: unknown, z: boolean): unknown {
	const keep = z ? 3 : 2;
	const walk = (node: unknown): unknown => {
		if (!Array.isArray(node)) return node;
		if (node.length > 0 && typeof node[0] === 'number') return node.slice(0, keep);
		return node.map(walk);
	};
	return walk(coordinates);
}

/** Where the WKT text stops being WKT: `at character 23 (after "…40 40"), "," or ")" is missing …`. */
function wktSyntaxDetail(text: string, error: WktSyntaxError): string {
	const from = Math.max(0, error.index - 20);
	const before = text.slice(from, error.index);
	const after = before.trim() === '' ? '' : ` (after "${from > 0 ? '…' : ''}${before}")`;
	return `at character ${error.index + 1}${after}, ${error.message}`;
}

/**
 * Reads POINT, POLYGON or MULTIPOLYGON WKT (optionally with Z, and with an
 * `SRID=4326;` prefix) into one feature. Keywords are case-insensitive.
 */
export function parseWkt(value: unknown): PlotFeature[] {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		fail(
			'empty_input',
			'no WKT was given (the value is empty). Map a field holding WKT such as POLYGON ((lon lat, lon lat, ...)).',
		);
	}
	if (typeof value !== 'string') {
		fail(
			'invalid_wkt',
			`the WKT value is ${kindOf(value)} (${showValue(value)}), not text. Map a field holding WKT such as POINT (-47.882778 -15.793889).`,
		);
	}
	const text = value.trim();
	const srid = /^SRID\s*=\s*(\d+)\s*;\s*/i.exec(text);
	if (srid && srid[1] !== '4326') {
		fail(
			'crs_not_wgs84',
			`the WKT declares SRID=${srid[1]}; the service only takes WGS84 longitude/latitude degrees (SRID 4326). Reproject the geometry to WGS84.`,
		);
	}
	const start = srid ? srid[0].length : 0;
	let reading: WktReading;
	try {
		reading = readWkt(text, start);
	} catch (error) {
		// readWkt throws only WktSyntaxError; anything else is reported without a position
		const where = error instanceof WktSyntaxError ? `; ${wktSyntaxDetail(text, error)}` : '';
		fail(
			'invalid_wkt',
			`the value could not be read as WKT: it starts with ${showValue(text)}${where}. Give POINT, POLYGON or MULTIPOLYGON WKT with "longitude latitude" pairs, e.g. POLYGON ((-47.1 -15.1, -47.0 -15.1, -47.0 -15.0, -47.1 -15.1)).`,
		);
	}
	if (reading.kind === 'unsupported') {
		fail(
			'unsupported_geometry',
			`the WKT is a ${reading.keyword}; only POINT, POLYGON and MULTIPOLYGON are accepted. Give the plot boundary as a POLYGON (or a POINT for a plot below 4 ha).`,
		);
	}
	const { type } = reading;
	const coordinates = reading.m
		? dropMeasures(reading.coordinates, reading.z)
		: reading.coordinates;
	const result = { type, coordinates };
	const issue = checkGeometryShape(result);
	if (issue) {
		const message =
			issue.code === 'empty_geometry'
				? `the WKT ${type.toUpperCase()} is EMPTY. Give the plot's coordinates.`
				: issue.message;
		fail(issue.code, message, undefined, issue.where);
	}
	return [{ type: 'Feature', properties: {}, geometry: result as PlotGeometry }];
}

import { isObject } from '../values/answerValues';
import type { Location, PlotGeometry, Position } from './geoJsonTypes';

/** A defect found while checking the structure of a value. */
interface Issue {
	code: string;
	message: string;
	/** Where inside the geometry, when narrower than the whole geometry. */
	where?: Location;
}

const ACCEPTED_GEOMETRY_TYPES = ['Point', 'Polygon', 'MultiPolygon'] as const;

/** GeoJSON geometry types the service does not take, with what to do instead. */
const OTHER_GEOMETRY_HINTS: Record<string, string> = {
	LineString:
		'a LineString is a line, not an area. Give the plot boundary as a closed Polygon (or a Point for a plot below 4 ha)',
	MultiLineString:
		'a MultiLineString is a set of lines, not an area. Give the plot boundary as a closed Polygon or MultiPolygon',
	MultiPoint: 'give each point as its own Feature with a Point geometry',
	GeometryCollection:
		'split it into separate Features, each with one Point, Polygon or MultiPolygon geometry',
};

export function isAcceptedGeometryType(type: unknown): type is PlotGeometry['type'] {
	return (ACCEPTED_GEOMETRY_TYPES as readonly unknown[]).includes(type);
}

export function isOtherGeometryType(type: unknown): type is string {
	return (
		typeof type === 'string' && Object.prototype.hasOwnProperty.call(OTHER_GEOMETRY_HINTS, type)
	);
}

/** The error for a geometry type the service does not accept (LineString, GeometryCollection, ...). */
export function unsupportedGeometryIssue(type: string, what = 'the geometry'): Issue {
	return {
		code: 'unsupported_geometry',
		message: `${what} is a ${type}; only Point, Polygon and MultiPolygon are accepted: ${OTHER_GEOMETRY_HINTS[type]}.`,
	};
}

/** Shows a value in a message: strings quoted and cut to `max` characters. */
export function showValue(value: unknown, max = 40): string {
	let text: string;
	if (typeof value === 'string') {
		const cut = value.length > max ? `${value.slice(0, max)}…` : value;
		return `"${cut}"`;
	}
	if (typeof value === 'number') return String(value);
	if (value === undefined) return 'undefined';
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A short name for the kind of a value ("a string", "null", "a list"). */
export function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

export function showPosition(position: Position): string {
	return `[${position.join(', ')}]`;
}

/** "ring 0" for a Polygon, "ring 0 of polygon 2" for a MultiPolygon. */
export function ringName(ringIndex: number, polygonIndex: number | undefined): string {
	return polygonIndex === undefined
		? `ring ${ringIndex}`
		: `ring ${ringIndex} of polygon ${polygonIndex}`;
}

/** [x, y] or [x, y, z] of finite numbers. */
function isFinitePosition(position: unknown): boolean {
	if (!Array.isArray(position)) return false;
	const n = position.length;
	if (n !== 2 && n !== 3) return false;
	for (let i = 0; i < n; i++) {
		const v: unknown = position[i];
		if (typeof v !== 'number' || !Number.isFinite(v)) return false;
	}
	return true;
}

function checkPosition(position: unknown, where: string, at?: Location): Issue | null {
	const located = (issue: Issue): Issue => (at ? { ...issue, where: at } : issue);
	if (!Array.isArray(position)) {
		return located({
			code: 'invalid_coordinates',
			message: `${where} should be a position [longitude, latitude] but is ${kindOf(position)} (${showValue(position)}). Check the nesting of the coordinates array.`,
		});
	}
	if (position.length < 2 || position.length > 3) {
		return located({
			code: 'invalid_position',
			message: `${where} has ${position.length} number${position.length === 1 ? '' : 's'} (${showValue(position)}); a position is [longitude, latitude] or [longitude, latitude, z]. Fix the coordinates.`,
		});
	}
	for (let i = 0; i < position.length; i++) {
		const n: unknown = position[i];
		if (typeof n === 'number') {
			if (!Number.isFinite(n)) {
				return located({
					code: 'non_finite_coordinate',
					message: `${where} contains ${String(n)} (${showValue(position.map(String))}). Coordinates must be finite numbers; replace it with the real value.`,
				});
			}
			continue;
		}
		const hint =
			typeof n === 'string'
				? ' Coordinates must be JSON numbers, not text: remove the quotes.'
				: ' Coordinates must be numbers: replace it with the real value.';
		const found = n === null || n === undefined ? String(n) : `${kindOf(n)} (${showValue(n)})`;
		return located({
			code: 'non_numeric_coordinate',
			message: `${where} contains ${found} instead of a number.${hint}`,
		});
	}
	return null;
}

function checkPolygonCoordinates(rings: unknown, polygonIndex: number | undefined): Issue | null {
	const of = polygonIndex === undefined ? '' : ` of polygon ${polygonIndex}`;
	const polygon = polygonIndex === undefined ? {} : { polygon: polygonIndex };
	if (!Array.isArray(rings)) {
		return {
			where: polygon,
			code: 'invalid_coordinates',
			message: `${polygonIndex === undefined ? 'the polygon' : `polygon ${polygonIndex}`} should be a list of rings but is ${kindOf(rings)} (${showValue(rings)}). Check the nesting of the MultiPolygon coordinates: [[[[lon, lat], ...]]].`,
		};
	}
	if (rings.length === 0) {
		return {
			where: polygon,
			code: 'empty_geometry',
			message: `polygon${polygonIndex === undefined ? '' : ` ${polygonIndex}`} has no rings (empty coordinates). Give the plot boundary as a ring of [longitude, latitude] positions.`,
		};
	}
	for (let r = 0; r < rings.length; r++) {
		const ring: unknown = rings[r];
		const at = { ...polygon, ring: r };
		if (!Array.isArray(ring)) {
			return {
				where: at,
				code: 'invalid_coordinates',
				message: `ring ${r}${of} should be a list of [longitude, latitude] positions but is ${kindOf(ring)} (${showValue(ring)}). Polygon coordinates are nested three deep: [[[lon, lat], ...]].`,
			};
		}
		if (typeof ring[0] === 'number') {
			return {
				where: at,
				code: 'invalid_coordinates',
				message: `ring ${r}${of} is a single position (${showValue(ring)}), not a list of positions. Polygon coordinates are nested three deep: [[[lon, lat], [lon, lat], ...]]; add the missing brackets.`,
			};
		}
		if (ring.length === 0) {
			return {
				where: at,
				code: 'empty_geometry',
				message: `ring ${r}${of} is empty. Give at least four [longitude, latitude] positions, the last equal to the first.`,
			};
		}
		for (let p = 0; p < ring.length; p++) {
			// the common case first, without building the words of a message
			if (isFinitePosition(ring[p])) continue;
			const issue = checkPosition(ring[p], `position ${p} of ring ${r}${of}`, {
				...at,
				position: p,
			});
			if (issue) return issue;
		}
	}
	return null;
}

/**
 * Checks that a value is a Point, Polygon or MultiPolygon geometry with
 * well-formed, finite numeric coordinates. Returns the first defect or null.
 * Shared by parsing (which throws it) and validation (which reports it).
 */
export function checkGeometryShape(geometry: unknown): Issue | null {
	if (geometry === null || geometry === undefined) {
		return {
			code: 'missing_geometry',
			message:
				'the feature has no geometry (it is null or missing). Give it a Point, Polygon or MultiPolygon geometry.',
		};
	}
	if (!isObject(geometry)) {
		return {
			code: 'invalid_geometry',
			message: `the geometry is ${kindOf(geometry)} (${showValue(geometry)}), not a GeoJSON geometry object. Use e.g. {"type": "Polygon", "coordinates": [[[lon, lat], ...]]}.`,
		};
	}
	const type = geometry.type;
	if (type === 'Feature' || type === 'FeatureCollection') {
		return {
			code: 'invalid_geometry',
			message: `the geometry member holds a ${type}, not a geometry. Put only the Point, Polygon or MultiPolygon geometry there.`,
		};
	}
	if (typeof type !== 'string' || type === '') {
		return {
			code: 'invalid_geometry',
			message:
				'the geometry has no "type" member. Set "type" to "Point", "Polygon" or "MultiPolygon".',
		};
	}
	if (isOtherGeometryType(type)) return unsupportedGeometryIssue(type);
	if (!isAcceptedGeometryType(type)) {
		return {
			code: 'unsupported_geometry',
			message: `the geometry type "${showValue(type).slice(1, -1)}" is not a GeoJSON geometry type. Use "Point", "Polygon" or "MultiPolygon".`,
		};
	}
	const coordinates = geometry.coordinates;
	if (
		coordinates === undefined ||
		coordinates === null ||
		(Array.isArray(coordinates) && coordinates.length === 0)
	) {
		return {
			code: 'empty_geometry',
			message: `the ${type} has no coordinates (empty geometry). Give the plot's [longitude, latitude] coordinates.`,
		};
	}
	if (!Array.isArray(coordinates)) {
		return {
			code: 'invalid_coordinates',
			message: `the ${type} coordinates are ${kindOf(coordinates)} (${showValue(coordinates)}), not a list. Give them as a JSON array.`,
		};
	}
	if (type === 'Point') return checkPosition(coordinates, 'the point');
	if (type === 'Polygon') return checkPolygonCoordinates(coordinates, undefined);
	for (let i = 0; i < coordinates.length; i++) {
		const issue = checkPolygonCoordinates(coordinates[i], i);
		if (issue) return issue;
	}
	return null;
}

/** The polygons of a geometry as lists of rings (none for a Point). */
export function polygonsOf(geometry: PlotGeometry): Position[][][] {
	if (geometry.type === 'Polygon') return [geometry.coordinates];
	if (geometry.type === 'MultiPolygon') return geometry.coordinates;
	return [];
}

/**
 * Calls `fn` for every position of a geometry (no allocation per position), with where it is:
 * the ring and the position inside it, and the polygon of a MultiPolygon (all undefined for a
 * Point; `polygon` undefined for a Polygon).
 */
export function forEachPosition(
	geometry: PlotGeometry,
	fn: (position: Position, ring?: number, index?: number, polygon?: number) => void,
): void {
	if (geometry.type === 'Point') {
		fn(geometry.coordinates);
		return;
	}
	const multi = geometry.type === 'MultiPolygon';
	const polygons = polygonsOf(geometry);
	for (let p = 0; p < polygons.length; p++) {
		const rings = polygons[p];
		for (let r = 0; r < rings.length; r++) {
			const ring = rings[r];
			for (let i = 0; i < ring.length; i++) fn(ring[i], r, i, multi ? p : undefined);
		}
	}
}

/** The location of a position found by `forEachPosition` (nothing for a Point). */
export function positionLocation(
	ring: number | undefined,
	index: number | undefined,
	polygon: number | undefined,
): Location {
	const where: Location = {};
	if (polygon !== undefined) where.polygon = polygon;
	if (ring !== undefined) where.ring = ring;
	if (index !== undefined) where.position = index;
	return where;
}

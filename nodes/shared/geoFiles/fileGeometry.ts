/**
 * Small pure helpers on the geometries read from files: positions cut to longitude/latitude,
 * KML MultiGeometry folded into GeoJSON Multi* types, closed GPX lines as polygons.
 */
import type { Geometry, Position } from './geoFileTypes';

/** The first two numbers of each position (heights and measures are dropped). */
export function flat2d(geometry: Geometry): Geometry {
	const p = (q: Position): Position => [q[0], q[1]];
	switch (geometry.type) {
		case 'Point':
			return { type: 'Point', coordinates: p(geometry.coordinates) };
		case 'MultiPoint':
		case 'LineString':
			return { type: geometry.type, coordinates: geometry.coordinates.map(p) } as Geometry;
		case 'MultiLineString':
		case 'Polygon':
			return {
				type: geometry.type,
				coordinates: geometry.coordinates.map((r) => r.map(p)),
			} as Geometry;
		case 'MultiPolygon':
			return {
				type: 'MultiPolygon',
				coordinates: geometry.coordinates.map((poly) => poly.map((r) => r.map(p))),
			};
		case 'GeometryCollection':
			return { type: 'GeometryCollection', geometries: geometry.geometries.map(flat2d) };
	}
}

/** Every position of a geometry. */
function* positionsOf(geometry: Geometry): Generator<Position> {
	switch (geometry.type) {
		case 'Point':
			yield geometry.coordinates;
			return;
		case 'MultiPoint':
		case 'LineString':
			yield* geometry.coordinates;
			return;
		case 'MultiLineString':
		case 'Polygon':
			for (const r of geometry.coordinates) yield* r;
			return;
		case 'MultiPolygon':
			for (const poly of geometry.coordinates) for (const r of poly) yield* r;
			return;
		case 'GeometryCollection':
			for (const g of geometry.geometries) yield* positionsOf(g);
	}
}

/**
 * How many positions a geometry holds, counted without copying (for the output budget);
 * anything that is not a list where a list belongs counts as nothing (the readers say so).
 */
export function positionCount(geometry: Geometry): number {
	const len = (v: unknown) => (Array.isArray(v) ? v.length : 0);
	const sum = (v: unknown, inner: (x: unknown) => number) =>
		Array.isArray(v) ? v.reduce((n: number, x: unknown) => n + inner(x), 0) : 0;
	switch (geometry.type) {
		case 'Point':
			return 1;
		case 'MultiPoint':
		case 'LineString':
			return len(geometry.coordinates);
		case 'MultiLineString':
		case 'Polygon':
			return sum(geometry.coordinates, len);
		case 'MultiPolygon':
			return sum(geometry.coordinates, (p) => sum(p, len));
		case 'GeometryCollection':
			// Nesting is bounded before this (MAX_JSON_DEPTH in GeoJSON, the XML depth in KML).
			return sum(geometry.geometries, (g) =>
				typeof g === 'object' && g !== null ? positionCount(g as Geometry) : 0,
			);
		default:
			return 0;
	}
}

/** The first position that is not a finite WGS84 longitude/latitude, if any. */
export function outOfRange(geometry: Geometry): Position | undefined {
	for (const q of positionsOf(geometry)) {
		const [x, y] = q;
		if (
			typeof x !== 'number' ||
			typeof y !== 'number' ||
			!Number.isFinite(x) ||
			!Number.isFinite(y) ||
			Math.abs(x) > 180 ||
			Math.abs(y) > 90
		)
			return q;
	}
	return undefined;
}

function partsOf(geometry: Geometry): Geometry[] {
	return geometry.type === 'GeometryCollection' ? geometry.geometries.flatMap(partsOf) : [geometry];
}

/**
 * A GeometryCollection (KML MultiGeometry) as the GeoJSON type a plot tool takes: polygons
 * only → Polygon/MultiPolygon, lines only → (Multi)LineString, points only → (Multi)Point.
 * Mixed: the polygons are kept (the points and lines beside a boundary are labels or
 * tracks), with a warning naming what was left out; without polygons the collection stays.
 */
export function foldCollection(geometry: Geometry, warnings: string[]): Geometry {
	if (geometry.type !== 'GeometryCollection') return geometry;
	const parts = partsOf(geometry);
	const polygons: Position[][][] = [];
	const lines: Position[][] = [];
	const points: Position[] = [];
	for (const g of parts) {
		if (g.type === 'Polygon') polygons.push(g.coordinates);
		else if (g.type === 'MultiPolygon') polygons.push(...g.coordinates);
		else if (g.type === 'LineString') lines.push(g.coordinates);
		else if (g.type === 'MultiLineString') lines.push(...g.coordinates);
		else if (g.type === 'Point') points.push(g.coordinates);
		else if (g.type === 'MultiPoint') points.push(...g.coordinates);
	}
	const kinds = [polygons, lines, points].filter((list) => list.length > 0).length;
	if (polygons.length > 0) {
		if (kinds > 1) {
			const left = [
				lines.length ? `${lines.length} line(s)` : '',
				points.length ? `${points.length} point(s)` : '',
			].filter(Boolean);
			warnings.push(
				`Mixed geometry types: the ${polygons.length} polygon(s) are kept, ${left.join(' and ')} left out`,
			);
		}
		return polygons.length === 1
			? { type: 'Polygon', coordinates: polygons[0] }
			: { type: 'MultiPolygon', coordinates: polygons };
	}
	if (kinds > 1) {
		warnings.push(
			`Mixed geometry types without a polygon (${lines.length} line(s), ${points.length} point(s)): kept as a GeometryCollection, which Validate and Register refuse`,
		);
		return geometry;
	}
	if (lines.length > 0)
		return lines.length === 1
			? { type: 'LineString', coordinates: lines[0] }
			: { type: 'MultiLineString', coordinates: lines };
	if (points.length > 0)
		return points.length === 1
			? { type: 'Point', coordinates: points[0] }
			: { type: 'MultiPoint', coordinates: points };
	return geometry;
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres between two lon/lat positions. */
function distanceM(a: Position, b: Position): number {
	const rad = Math.PI / 180;
	const dLat = (b[1] - a[1]) * rad;
	const dLon = (b[0] - a[0]) * rad;
	const h =
		Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
	return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A line whose ends are within `withinM` metres as a polygon (its ring closed by repeating
 * the first position); undefined when the line is open or has fewer than 3 distinct positions.
 */
export function lineAsPolygon(line: Position[], withinM: number): Position[][] | undefined {
	if (line.length < 3) return undefined;
	const first = line[0];
	const last = line[line.length - 1];
	if (distanceM(first, last) > withinM) return undefined;
	const ring = first[0] === last[0] && first[1] === last[1] ? line.slice() : [...line, first];
	if (ring.length < 4) return undefined;
	return [ring];
}

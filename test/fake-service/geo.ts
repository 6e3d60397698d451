/** Geometry validation and measurement for the fake (Turf + sweepline-intersections). */
import { area as turfArea } from '@turf/area';
import { centroid as turfCentroid } from '@turf/centroid';
import { circle as turfCircle } from '@turf/circle';
import { intersect as turfIntersect } from '@turf/intersect';
import { featureCollection, polygon as turfPolygon } from '@turf/helpers';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import sweeplineIntersections = require('sweepline-intersections');
import { INDIGENOUS_LANDS, LEGALITY_ORDER, PA_SOURCES, PROTECTED_AREAS, IL_SOURCES } from './data';

export class GeometryError extends Error {}

export const DEFAULT_POINT_HA = 4.0;
export const UNCLOSED_MESSAGE =
	'Invalid Polygon in GeoJSON: the ring is not closed. The first and last coordinate of a linear ring must be identical.';

function invalid(detail: string): GeometryError {
	return new GeometryError(`Invalid Geometry in GeoJSON: ${detail}`);
}

function isObj(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkPosition(p: unknown, where: string): [number, number] {
	if (
		!Array.isArray(p) ||
		p.length < 2 ||
		p.length > 3 ||
		!p.every((n) => typeof n === 'number' && Number.isFinite(n))
	)
		throw invalid(`${where}: a position must be an array of 2 or 3 numbers`);
	const [lon, lat] = p as number[];
	if (lon < -180 || lon > 180)
		throw invalid(`${where}: longitude ${lon} is out of range [-180, 180]`);
	if (lat < -90 || lat > 90) throw invalid(`${where}: latitude ${lat} is out of range [-90, 90]`);
	return [lon, lat];
}

function samePos(a: Position, b: Position): boolean {
	return a[0] === b[0] && a[1] === b[1];
}

/** Validates a polygon's rings; returns 2-D rings with consecutive duplicate vertices removed. */
function checkPolygonRings(rings: unknown, where: string): Position[][] {
	if (!Array.isArray(rings) || rings.length === 0)
		throw invalid(`${where}: a Polygon needs at least one linear ring`);
	return rings.map((r, ri) => {
		const w = `${where}, ring ${ri}`;
		if (!Array.isArray(r)) throw invalid(`${w}: a linear ring must be an array of positions`);
		const pts = r.map((p, pi) => checkPosition(p, `${w}, position ${pi}`));
		if (pts.length >= 2 && !samePos(pts[0], pts[pts.length - 1]))
			throw new GeometryError(`${UNCLOSED_MESSAGE} (${w})`);
		if (pts.length < 4)
			throw invalid(`${w}: a linear ring must have at least 4 positions, found ${pts.length}`);
		const dedup: Position[] = [];
		for (const p of pts) if (!dedup.length || !samePos(dedup[dedup.length - 1], p)) dedup.push(p);
		if (dedup.length < 4)
			throw invalid(`${w}: the ring is degenerate (fewer than 3 distinct vertices)`);
		return dedup;
	});
}

function checkSelfIntersection(geom: Polygon | MultiPolygon, where: string): void {
	const feature: Feature<Polygon | MultiPolygon> = {
		type: 'Feature',
		properties: {},
		geometry: geom,
	};
	const hits = sweeplineIntersections(feature, false);
	if (hits.length > 0) {
		const [x, y] = hits[0];
		throw invalid(`${where}: the geometry self-intersects at [${x}, ${y}]`);
	}
	if (turfArea(geom) <= 0) throw invalid(`${where}: the polygon has zero area`);
}

export interface NormalizedGeometry {
	/** Polygon or MultiPolygon used for analysis (2-D, cleaned); points are buffered into circles */
	analysisGeometry: Polygon | MultiPolygon;
	/** The geometry to store on the plot (input geometry, points replaced by their circle) */
	storedGeometry: Polygon | MultiPolygon;
	wasPoint: boolean;
}

/** Validates a GeoJSON geometry (Point, Polygon, MultiPolygon). Throws GeometryError with the contract's message. */
export function normalizeGeometry(
	geometry: unknown,
	properties: Record<string, unknown>,
	where: string,
): NormalizedGeometry {
	if (!isObj(geometry)) throw invalid(`${where}: geometry is required`);
	const type = geometry.type;
	if (type === 'Point') {
		const [lon, lat] = checkPosition(geometry.coordinates, where);
		let ha = DEFAULT_POINT_HA;
		if (properties.point_ha !== undefined && properties.point_ha !== null) {
			const v = properties.point_ha;
			if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v >= 4.0)
				throw invalid(
					`${where}: point_ha must be a number above 0 and below 4.0, got ${JSON.stringify(v)}`,
				);
			ha = v;
		}
		const radiusM = Math.sqrt((ha * 10000) / Math.PI);
		const c = turfCircle([lon, lat], radiusM / 1000, { steps: 64, units: 'kilometers' }).geometry;
		return { analysisGeometry: c, storedGeometry: c, wasPoint: true };
	}
	if (properties.point_ha !== undefined && properties.point_ha !== null)
		throw invalid(`${where}: point_ha is only allowed on Point geometries`);
	if (type === 'Polygon') {
		const rings = checkPolygonRings(geometry.coordinates, where);
		const g: Polygon = { type: 'Polygon', coordinates: rings };
		checkSelfIntersection(g, where);
		return { analysisGeometry: g, storedGeometry: geometry as unknown as Polygon, wasPoint: false };
	}
	if (type === 'MultiPolygon') {
		if (!Array.isArray(geometry.coordinates) || geometry.coordinates.length === 0)
			throw invalid(`${where}: a MultiPolygon needs at least one polygon`);
		const polys = (geometry.coordinates as unknown[]).map((p, i) =>
			checkPolygonRings(p, `${where}, polygon ${i}`),
		);
		const g: MultiPolygon = { type: 'MultiPolygon', coordinates: polys };
		checkSelfIntersection(g, where);
		return {
			analysisGeometry: g,
			storedGeometry: geometry as unknown as MultiPolygon,
			wasPoint: false,
		};
	}
	throw invalid(
		`${where}: unsupported geometry type '${String(type)}'; expected Point, Polygon or MultiPolygon`,
	);
}

export function areaHa(g: Polygon | MultiPolygon): number {
	return turfArea(g) / 10000;
}

export function centre(g: Polygon | MultiPolygon): [number, number] {
	const c = turfCentroid(g).geometry.coordinates;
	return [c[0], c[1]];
}

export function round(n: number, d = 4): number {
	const f = 10 ** d;
	return Math.round(n * f) / f;
}

function overlapHa(g: Polygon | MultiPolygon, r: [number, number][]): number {
	const other = turfPolygon([r]);
	const mine: Feature<Polygon | MultiPolygon> = { type: 'Feature', properties: {}, geometry: g };
	try {
		const x = turfIntersect(featureCollection([mine, other]));
		return x ? turfArea(x) / 10000 : 0;
	} catch {
		return 0;
	}
}

export function strictestLegality(values: string[]): string | null {
	for (const l of LEGALITY_ORDER) if (values.includes(l)) return l;
	return null;
}

export function protectedAreaOverlap(g: Polygon | MultiPolygon, plotAreaHa: number) {
	const details = [] as Record<string, unknown>[];
	let total = 0;
	for (const pa of PROTECTED_AREAS) {
		const ov = overlapHa(g, pa.ring);
		if (ov <= 0) continue;
		total += ov;
		details.push({
			area_id: pa.area_id,
			area_name: pa.area_name,
			local_name: pa.local_name,
			source_name: pa.source_name,
			iucn_category: pa.iucn_category,
			overlap_area_ha: round(ov),
			extractive_activity_legality: pa.extractive_activity_legality,
			extractive_activity_conditions: pa.extractive_activity_conditions,
			regulation_names: pa.regulation_names,
			regulation_urls: pa.regulation_urls,
			type: pa.type,
		});
	}
	total = Math.min(total, plotAreaHa);
	return {
		protected_area_overlap_summary: {
			protected_area_overlap: details.length > 0,
			total_overlap_percentage: plotAreaHa > 0 ? round((100 * total) / plotAreaHa, 2) : 0,
			total_overlap_area_ha: round(total),
			most_restrictive_extractive_activity_legality: strictestLegality(
				details.map((d) => String(d.extractive_activity_legality)),
			),
		},
		protected_area_details: details,
		sources: PA_SOURCES,
	};
}

export function indigenousLandOverlap(g: Polygon | MultiPolygon, plotAreaHa: number) {
	const details = [] as Record<string, unknown>[];
	let total = 0;
	for (const il of INDIGENOUS_LANDS) {
		const ov = overlapHa(g, il.ring);
		if (ov <= 0) continue;
		total += ov;
		details.push({
			id: il.id,
			name: il.name,
			government_acknowledged: il.government_acknowledged,
			overlap_area_ha: round(ov),
			land_status: il.land_status,
		});
	}
	total = Math.min(total, plotAreaHa);
	return {
		indigenous_land_overlap_summary: {
			indigenous_land_overlap: details.length > 0,
			total_overlap_percentage: plotAreaHa > 0 ? round((100 * total) / plotAreaHa, 2) : 0,
			total_overlap_area_ha: round(total),
		},
		indigenous_land_details: details,
		sources: IL_SOURCES,
	};
}

/** Deterministic pseudo-random number in [0,1) from a string. */
export function hash01(s: string): number {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 16777619);
	}
	h ^= h >>> 13;
	h = Math.imul(h, 0x5bd1e995);
	h ^= h >>> 15;
	return (h >>> 0) / 4294967296;
}

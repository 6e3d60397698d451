/**
 * Plots compared with each other across a whole run (Plot → Validate): exact duplicate
 * geometries, and overlapping plots with the overlap in hectares and in % of each plot.
 * Pure: no n8n imports.
 *
 * How (so that the cost grows as n log n, not n²):
 * 1. duplicates: one hash map keyed by the geometry (type + coordinates), O(n);
 * 2. overlaps: the bounding boxes of all polygon plots go into a static spatial index
 *    (Flatbush, a packed Hilbert R-tree: built in O(n log n), each query O(log n + k)); each
 *    plot asks the index for the plots whose box meets its own, which gives the candidate
 *    pairs; boxes that only touch (no common area) are dropped at once; for the rest Turf
 *    computes the exact shared area (`@turf/intersect`, `@turf/area`, geodesic).
 * A naive check compares every pair (n² / 2 pairs: 50 million for 10,000 plots); the index
 * leaves the few pairs that are really near each other (see BENCHMARKS.md).
 *
 * Points take part in the duplicate check only: a point has no area of its own (the service
 * draws a circle around it), so it cannot be said to overlap.
 */
import { area } from '@turf/area';
import { intersect } from '@turf/intersect';
import Flatbush from 'flatbush';

import type { MultiPolygon, PlotGeometry, Polygon, Position } from '../geometry';

/** One plot: a feature of an input row. */
export interface PlotRef {
	/** The input row (item index). */
	row: number;
	/** The feature inside the row (0 for a row holding one geometry). */
	feature: number;
}

export interface PlotShape extends PlotRef {
	geometry: PlotGeometry;
}

export interface Duplicate {
	/** The first plot (in input order) with this geometry. */
	first: PlotRef;
	/** A later plot with exactly the same geometry. */
	duplicate: PlotRef;
}

export interface Overlap {
	/** The plot that comes first in input order. */
	a: PlotRef;
	b: PlotRef;
	/** The shared area in square metres (geodesic), unrounded. */
	overlapM2: number;
	/** The shared area as a share of a's and of b's own area, 0–100, unrounded. */
	percentOfA: number;
	percentOfB: number;
}

/** A pair whose overlap could not be computed (Turf threw): reported, never dropped silently. */
export interface OverlapFailure {
	a: PlotRef;
	b: PlotRef;
	reason: string;
}

export interface CrossCheckOptions {
	/** Look for overlaps (default true); duplicates are always looked for. */
	overlaps?: boolean;
	/** Shared areas smaller than this (square metres) are not reported; default 1 m². */
	minOverlapM2?: number;
}

export interface CrossCheck {
	duplicates: Duplicate[];
	overlaps: Overlap[];
	failures: OverlapFailure[];
	/** Pairs whose bounding boxes share an area (the candidates from the index). */
	candidatePairs: number;
	/** Candidate pairs found to share area, whose overlap Turf computed. */
	exactChecks: number;
}

export const DEFAULT_MIN_OVERLAP_M2 = 1;

/** The key under which two geometries are exact duplicates: same type, same coordinates. */
export function geometryKey(geometry: PlotGeometry): string {
	return `${geometry.type}:${JSON.stringify(geometry.coordinates)}`;
}

type Box = [number, number, number, number];

function boxOf(geometry: Polygon | MultiPolygon): Box {
	let minX = Infinity;
	let minY = Infinity;
	let maxX = -Infinity;
	let maxY = -Infinity;
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	for (const polygon of polygons) {
		// The outer ring bounds the polygon; holes lie inside it.
		for (const [x, y] of polygon[0] ?? []) {
			if (x < minX) minX = x;
			if (y < minY) minY = y;
			if (x > maxX) maxX = x;
			if (y > maxY) maxY = y;
		}
	}
	return [minX, minY, maxX, maxY];
}

/*
 * Whether two polygons share interior (area), decided exactly enough to skip Turf for pairs
 * that do not: Turf's intersect (polyclip-ts, exact arithmetic) takes milliseconds per pair,
 * and most candidate pairs (neighbours whose boxes meet) share no area at all. Each polygon
 * part of one plot is compared with each part of the other:
 * - two edges crossing properly (inside both): the interiors overlap;
 * - otherwise each edge is cut where it meets the other polygon's boundary, and the middle of
 *   each piece that does not run along that boundary is tested: inside the other polygon
 *   means the interiors overlap (a plot inside another, a part reaching into it);
 * - when every piece of both boundaries runs along the other's boundary, the two parts have
 *   the same outline (e.g. the same ring started at another vertex): overlap.
 * If none of these holds, the two only touch (shared edges or corners) or are apart. A pair
 * found overlapping goes to Turf for the exact shared area, so a wrong "overlap" here costs
 * time only; "apart" is only given when no piece lies inside the other.
 */

type Rings = Position[][];

interface Contacts {
	/** Parameters 0..1 along the edge where the other boundary meets it. */
	at: number[];
	/** Intervals of the edge that run along an edge of the other boundary. */
	along: Array<[number, number]>;
}

const EPS = 1e-12;

function cross(ax: number, ay: number, bx: number, by: number): number {
	return ax * by - ay * bx;
}

/** Even-odd rule over all rings (holes included); the point is assumed off the boundary. */
function insideRings(x: number, y: number, rings: Rings): boolean {
	let inside = false;
	for (const ring of rings) {
		for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
			const [xi, yi] = ring[i];
			const [xj, yj] = ring[j];
			if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
		}
	}
	return inside;
}

type Verdict = 'overlap' | 'apart';

/** Cuts the edges of `rings` at the boundary of `other` and classifies the pieces. */
function piecesOf(rings: Rings, other: Rings): { inside: boolean; allAlong: boolean } {
	let allAlong = true;
	for (const ring of rings) {
		for (let i = 0; i + 1 < ring.length; i++) {
			const [ax, ay] = ring[i];
			const [bx, by] = ring[i + 1];
			const dx = bx - ax;
			const dy = by - ay;
			const len2 = dx * dx + dy * dy;
			if (len2 === 0) continue;
			const contacts: Contacts = { at: [0, 1], along: [] };
			const eMinX = Math.min(ax, bx);
			const eMaxX = Math.max(ax, bx);
			const eMinY = Math.min(ay, by);
			const eMaxY = Math.max(ay, by);
			for (const oring of other) {
				for (let k = 0; k + 1 < oring.length; k++) {
					const [cx, cy] = oring[k];
					const [ex, ey] = oring[k + 1];
					if (Math.max(cx, ex) < eMinX || Math.min(cx, ex) > eMaxX) continue;
					if (Math.max(cy, ey) < eMinY || Math.min(cy, ey) > eMaxY) continue;
					const fx = ex - cx;
					const fy = ey - cy;
					const d = cross(dx, dy, fx, fy);
					const wx = cx - ax;
					const wy = cy - ay;
					if (d !== 0) {
						const t = cross(wx, wy, fx, fy) / d;
						const u = cross(wx, wy, dx, dy) / d;
						if (t < -EPS || t > 1 + EPS || u < -EPS || u > 1 + EPS) continue;
						// A proper crossing: both boundaries pass through each other.
						if (t > EPS && t < 1 - EPS && u > EPS && u < 1 - EPS) return PROPER;
						contacts.at.push(Math.min(1, Math.max(0, t)));
					} else if (cross(wx, wy, dx, dy) === 0) {
						// Collinear: the part of the edge that runs along the other edge.
						const t0 = (wx * dx + wy * dy) / len2;
						const t1 = ((ex - ax) * dx + (ey - ay) * dy) / len2;
						const lo = Math.max(0, Math.min(t0, t1));
						const hi = Math.min(1, Math.max(t0, t1));
						if (hi >= lo) {
							contacts.at.push(lo, hi);
							if (hi > lo) contacts.along.push([lo, hi]);
						}
					}
				}
			}
			contacts.at.sort((p, q) => p - q);
			for (let c = 0; c + 1 < contacts.at.length; c++) {
				const t0 = contacts.at[c];
				const t1 = contacts.at[c + 1];
				if (t1 - t0 <= EPS) continue;
				const mid = (t0 + t1) / 2;
				if (contacts.along.some(([lo, hi]) => mid >= lo && mid <= hi)) continue;
				allAlong = false;
				if (insideRings(ax + dx * mid, ay + dy * mid, other)) return INSIDE;
			}
		}
	}
	return { inside: false, allAlong };
}

const PROPER = { inside: true, allAlong: false };
const INSIDE = { inside: true, allAlong: false };

function boxOfRings(rings: Rings): Box {
	let minX = Infinity;
	let minY = Infinity;
	let maxX = -Infinity;
	let maxY = -Infinity;
	for (const [x, y] of rings[0] ?? []) {
		if (x < minX) minX = x;
		if (y < minY) minY = y;
		if (x > maxX) maxX = x;
		if (y > maxY) maxY = y;
	}
	return [minX, minY, maxX, maxY];
}

function boxesShareArea(a: Box, b: Box): boolean {
	return Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);
}

/** Whether two polygon geometries (validated: closed rings that do not cross themselves) share area. */
export function sharesArea(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): Verdict {
	const partsA = a.type === 'Polygon' ? [a.coordinates] : a.coordinates;
	const partsB = b.type === 'Polygon' ? [b.coordinates] : b.coordinates;
	for (const p of partsA) {
		const boxP = boxOfRings(p);
		for (const q of partsB) {
			if (!boxesShareArea(boxP, boxOfRings(q))) continue;
			const fromP = piecesOf(p, q);
			if (fromP.inside) return 'overlap';
			const fromQ = piecesOf(q, p);
			if (fromQ.inside) return 'overlap';
			if (fromP.allAlong && fromQ.allAlong) return 'overlap';
		}
	}
	return 'apart';
}

function isArea(geometry: PlotGeometry): geometry is Polygon | MultiPolygon {
	return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon';
}

function asFeature(geometry: Polygon | MultiPolygon) {
	return { type: 'Feature' as const, properties: {}, geometry };
}

/**
 * Duplicates and overlaps among `shapes` (give only geometries that passed validation:
 * closed, simple rings). Pairs come out in input order of their first plot, then of the
 * second; a pair of exact duplicates is reported as a duplicate only, not also as an overlap.
 */
export function crossCheckPlots(
	shapes: readonly PlotShape[],
	options: CrossCheckOptions = {},
): CrossCheck {
	const minOverlapM2 = options.minOverlapM2 ?? DEFAULT_MIN_OVERLAP_M2;
	const duplicates: Duplicate[] = [];
	const keys = shapes.map((s) => geometryKey(s.geometry));
	const firstWithKey = new Map<string, number>();
	keys.forEach((key, i) => {
		const first = firstWithKey.get(key);
		if (first === undefined) firstWithKey.set(key, i);
		else duplicates.push({ first: ref(shapes[first]), duplicate: ref(shapes[i]) });
	});
	const result: CrossCheck = {
		duplicates,
		overlaps: [],
		failures: [],
		candidatePairs: 0,
		exactChecks: 0,
	};
	if (options.overlaps === false) return result;

	const areas = shapes.flatMap((s, i) => (isArea(s.geometry) ? [i] : []));
	if (areas.length < 2) return result;
	const boxes = areas.map((i) => boxOf(shapes[i].geometry as Polygon | MultiPolygon));
	const index = new Flatbush(areas.length);
	for (const [minX, minY, maxX, maxY] of boxes) index.add(minX, minY, maxX, maxY);
	index.finish();

	const ownArea = new Map<number, number>();
	const areaOf = (i: number): number => {
		let m2 = ownArea.get(i);
		if (m2 === undefined) {
			m2 = area(shapes[i].geometry as never);
			ownArea.set(i, m2);
		}
		return m2;
	};

	for (let a = 0; a < areas.length; a++) {
		const [minX, minY, maxX, maxY] = boxes[a];
		const found = index.search(minX, minY, maxX, maxY).filter((b) => b > a);
		found.sort((x, y) => x - y);
		for (const b of found) {
			const [bMinX, bMinY, bMaxX, bMaxY] = boxes[b];
			// Boxes that only touch share no area, so neither can the plots.
			if (Math.min(maxX, bMaxX) <= Math.max(minX, bMinX)) continue;
			if (Math.min(maxY, bMaxY) <= Math.max(minY, bMinY)) continue;
			const i = areas[a];
			const j = areas[b];
			if (keys[i] === keys[j]) continue; // an exact duplicate, reported as such
			result.candidatePairs++;
			const first = shapes[i].geometry as Polygon | MultiPolygon;
			const second = shapes[j].geometry as Polygon | MultiPolygon;
			if (sharesArea(first, second) === 'apart') continue;
			result.exactChecks++;
			let shared: ReturnType<typeof intersect>;
			try {
				shared = intersect({
					type: 'FeatureCollection',
					features: [asFeature(first), asFeature(second)],
				});
			} catch (error) {
				result.failures.push({
					a: ref(shapes[i]),
					b: ref(shapes[j]),
					reason: error instanceof Error ? error.message : String(error),
				});
				continue;
			}
			if (!shared) continue;
			const overlapM2 = area(shared);
			if (!(overlapM2 >= minOverlapM2)) continue;
			result.overlaps.push({
				a: ref(shapes[i]),
				b: ref(shapes[j]),
				overlapM2,
				percentOfA: percent(overlapM2, areaOf(i)),
				percentOfB: percent(overlapM2, areaOf(j)),
			});
		}
	}
	return result;
}

function ref(shape: PlotRef): PlotRef {
	return { row: shape.row, feature: shape.feature };
}

function percent(part: number, whole: number): number {
	return whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
}

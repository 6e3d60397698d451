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
 *    pairs; boxes that only touch (no common area) are dropped at once; for the rest the
 *    exact shared area (geodesic, as `@turf/area` measures) is computed from the two
 *    boundaries, by Turf (`@turf/intersect` + `@turf/area`) where they touch or run along
 *    each other (see `sharedArea`).
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
	/** Candidate pairs sharing area whose overlap was not plain, computed by Turf. */
	turfChecks: number;
}

export const DEFAULT_MIN_OVERLAP_M2 = 1;

/** The key under which two geometries are exact duplicates: same type, same coordinates. */
export function geometryKey(geometry: PlotGeometry): string {
	return `${geometry.type}:${JSON.stringify(geometry.coordinates)}`;
}

const words = new Float64Array(1);
const halves = new Int32Array(words.buffer);

/** A hash of a geometry's type and coordinates (equal geometries, equal hashes), without building text. */
function geometryHash(geometry: PlotGeometry): string {
	let h1 = geometry.type.length;
	let h2 = 0x9e3779b9;
	let count = 0;
	const walk = (node: unknown): void => {
		if (typeof node === 'number') {
			words[0] = node;
			h1 = Math.imul(h1 ^ halves[0], 0x85ebca6b) ^ halves[1];
			h2 = Math.imul(h2 ^ halves[1], 0xc2b2ae35) ^ halves[0];
			count++;
		} else if (Array.isArray(node)) {
			h1 = Math.imul(h1 ^ node.length, 0x27d4eb2f);
			for (const child of node) walk(child);
		}
	};
	walk(geometry.coordinates);
	return `${geometry.type}:${count}:${h1 >>> 0}:${h2 >>> 0}`;
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
 * The shared area of two polygons, computed exactly where that is plain, so that Turf's
 * intersect (polyclip-ts, exact arithmetic: about 1.5 ms per pair) runs only where it is
 * needed. Most candidate pairs (neighbours whose boxes meet) share no area at all, and the
 * overlaps of walked or digitised plots are plain crossings.
 *
 * Each polygon part of one plot is compared with each part of the other. Every edge is cut
 * where the other boundary meets it; a piece that does not run along the other boundary lies
 * wholly inside or wholly outside the other polygon (its middle point tells). The boundary of
 * the shared area is made of the pieces of each boundary that lie inside the other, plus the
 * stretches both boundaries run along in the same direction. By Green's theorem the shared
 * area is the sum of those pieces' terms in the formula @turf/area uses for a ring,
 * (λ₂ − λ₁)(sin φ₁ + sin φ₂) · R² / 2, with every ring turned so that its polygon lies on its
 * left: the same figure as @turf/area of @turf/intersect's result (checked against them in
 * test/unit/plot-overlaps.test.ts).
 * - No piece inside the other polygon and no common stretch: the two only touch or are apart.
 * - Pieces inside, crossings in the middle of edges only: the sum is the shared area.
 * - Anything less plain (a common stretch of boundary, a corner of one on the other's
 *   boundary): Turf computes the shared area.
 */

type Rings = Position[][];

const EPS = 1e-12;
const RADIANS = Math.PI / 180;
/** @turf/area's factor: R² / 2 with R = 6,371,008.8 m (@turf/helpers' earthRadius). */
const AREA_FACTOR = (6_371_008.8 * 6_371_008.8) / 2;

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

/** +1 when a ring already has its polygon on its left (outer ring counter-clockwise, holes clockwise), else -1. */
function turnOf(ring: Position[], hole: boolean): number {
	let twice = 0;
	for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
		twice += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
	return twice > 0 !== hole ? 1 : -1;
}

/** The ring-area term of the segment from (x1, y1) to (x2, y2), in radians (see above). */
function term(x1: number, y1: number, x2: number, y2: number): number {
	return (x2 - x1) * RADIANS * (Math.sin(y1 * RADIANS) + Math.sin(y2 * RADIANS));
}

interface Pieces {
	/** Some piece lies inside the other polygon, or the boundaries run along each other the same way. */
	shares: boolean;
	/** A common stretch of boundary or a corner on the other boundary: Turf decides the area. */
	plain: boolean;
	/** Sum of the terms of the pieces inside (and of the common stretches, when `withAlong`). */
	sum: number;
}

/** Cuts the edges of `rings` at the boundary of `other` and sums the pieces inside it. */
function piecesOf(rings: Rings, other: Rings, withAlong: boolean): Pieces {
	const turns = other.map((ring, r) => turnOf(ring, r > 0));
	const result: Pieces = { shares: false, plain: true, sum: 0 };
	rings.forEach((ring, r) => {
		const turn = turnOf(ring, r > 0);
		let state: boolean | undefined;
		for (let i = 0; i + 1 < ring.length; i++) {
			const [ax, ay] = ring[i];
			const [bx, by] = ring[i + 1];
			const dx = bx - ax;
			const dy = by - ay;
			const len2 = dx * dx + dy * dy;
			if (len2 === 0) continue;
			const cuts = [0, 1];
			const along: Array<[number, number, boolean]> = [];
			const eMinX = Math.min(ax, bx);
			const eMaxX = Math.max(ax, bx);
			const eMinY = Math.min(ay, by);
			const eMaxY = Math.max(ay, by);
			other.forEach((oring, o) => {
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
						// a corner of one on the other's boundary: not plain
						if (t <= EPS || t >= 1 - EPS || u <= EPS || u >= 1 - EPS) result.plain = false;
						cuts.push(Math.min(1, Math.max(0, t)));
					} else if (cross(wx, wy, dx, dy) === 0) {
						// Collinear: the stretch of the edge that runs along the other edge.
						const t0 = (wx * dx + wy * dy) / len2;
						const t1 = ((ex - ax) * dx + (ey - ay) * dy) / len2;
						const lo = Math.max(0, Math.min(t0, t1));
						const hi = Math.min(1, Math.max(t0, t1));
						if (hi < lo) continue;
						cuts.push(lo, hi);
						if (hi > lo) {
							result.plain = false;
							const sameWay = (dx * fx + dy * fy) * turn * turns[o] > 0;
							along.push([lo, hi, sameWay]);
						}
					}
				}
			});
			cuts.sort((p, q) => p - q);
			// Whether a piece is inside changes only where the other boundary meets this one:
			// a point-in-polygon test is needed only after a contact (or at a ring's start).
			if (cuts.length > 2 || along.length > 0) state = undefined;
			for (let c = 0; c + 1 < cuts.length; c++) {
				const t0 = cuts[c];
				const t1 = cuts[c + 1];
				if (t1 - t0 <= EPS) continue;
				const mid = (t0 + t1) / 2;
				const x0 = ax + dx * t0;
				const y0 = ay + dy * t0;
				const x1 = ax + dx * t1;
				const y1 = ay + dy * t1;
				const stretch = along.find(([lo, hi]) => mid >= lo && mid <= hi);
				if (stretch) {
					if (stretch[2]) {
						result.shares = true;
						if (withAlong) result.sum += turn * term(x0, y0, x1, y1);
					}
					state = undefined;
					continue;
				}
				if (c > 0) state = undefined; // after a contact inside the edge
				state ??= insideRings(ax + dx * mid, ay + dy * mid, other);
				if (state) {
					result.shares = true;
					result.sum += turn * term(x0, y0, x1, y1);
				}
			}
			// the next edge starts at this edge's end: a contact there was found by both
			if (cuts.length > 2 && cuts[cuts.length - 2] >= 1 - EPS) state = undefined;
		}
	});
	return result;
}

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

/** What two polygon geometries share: nothing, an area computed here, or an area for Turf to compute. */
export type Sharing = { verdict: 'apart' } | { verdict: 'overlap'; m2: number | undefined };

/**
 * Whether two polygon geometries (validated: closed rings that do not cross themselves) share
 * area, and how much when that is plain (`m2`; undefined: ask Turf). See above.
 */
export function sharedArea(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): Sharing {
	const partsA = a.type === 'Polygon' ? [a.coordinates] : a.coordinates;
	const partsB = b.type === 'Polygon' ? [b.coordinates] : b.coordinates;
	let shares = false;
	let plain = true;
	let total = 0;
	for (const p of partsA) {
		const boxP = boxOfRings(p);
		for (const q of partsB) {
			if (!boxesShareArea(boxP, boxOfRings(q))) continue;
			const fromP = piecesOf(p, q, true);
			const fromQ = piecesOf(q, p, false);
			if (!fromP.shares && !fromQ.shares) continue;
			shares = true;
			plain &&= fromP.plain && fromQ.plain;
			total += Math.abs(fromP.sum + fromQ.sum) * AREA_FACTOR;
		}
	}
	if (!shares) return { verdict: 'apart' };
	return { verdict: 'overlap', m2: plain ? total : undefined };
}

/** Whether two polygon geometries share area (see `sharedArea`). */
export function sharesArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
): 'overlap' | 'apart' {
	return sharedArea(a, b).verdict;
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
	// Hashes find the candidates; equal text of the coordinates confirms them.
	const hashes = shapes.map((s) => geometryHash(s.geometry));
	const withHash = new Map<string, number[]>();
	const firstOf: number[] = shapes.map((_s, i) => i);
	hashes.forEach((hash, i) => {
		const earlier = withHash.get(hash);
		if (!earlier) return void withHash.set(hash, [i]);
		const key = geometryKey(shapes[i].geometry);
		const first = earlier.find((e) => geometryKey(shapes[e].geometry) === key);
		if (first === undefined) earlier.push(i);
		else {
			firstOf[i] = first;
			duplicates.push({ first: ref(shapes[first]), duplicate: ref(shapes[i]) });
		}
	});
	const sameGeometry = (i: number, j: number) => firstOf[i] === firstOf[j];
	const result: CrossCheck = {
		duplicates,
		overlaps: [],
		failures: [],
		candidatePairs: 0,
		turfChecks: 0,
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
			if (sameGeometry(i, j)) continue; // an exact duplicate, reported as such
			result.candidatePairs++;
			const first = shapes[i].geometry as Polygon | MultiPolygon;
			const second = shapes[j].geometry as Polygon | MultiPolygon;
			const sharing = sharedArea(first, second);
			if (sharing.verdict === 'apart') continue;
			let overlapM2 = sharing.m2;
			if (overlapM2 === undefined) {
				result.turfChecks++;
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
				overlapM2 = area(shared);
			}
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

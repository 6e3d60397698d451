/**
 * The shared area of two plot polygons (m²), exact where it can be and clipped where it must
 * be, for Validate's duplicate and overlap check across rows (plotOverlaps.ts). Pure.
 */
import { area } from '@turf/area';
import * as polyclip from 'polyclip-ts';
import polygonClipping from 'polygon-clipping';
import { orient2d } from 'robust-predicates';

import type { MultiPolygon, Polygon, Position } from '../geometry';
import { edgesOf } from '../geometry/polygonChecks';

/** A bounding box: [minX, minY, maxX, maxY]. */
export type Box = [number, number, number, number];

/*
 * The shared area of two polygons. A polygon-clipping library computes it (see `clipArea`);
 * one shortcut is kept because it is exact by construction: when no edge of one polygon
 * touches any edge of the other — decided with exact orientation tests (robust-predicates),
 * so a corner that lies on an edge in decimal terms but not in binary ones is still a contact
 * and goes to the clipper — every ring of each polygon lies wholly inside or wholly outside
 * the other. By Green's theorem the boundary of the shared area is then the rings of each
 * polygon that lie inside the other (told by an exact point-in-polygon test of one vertex,
 * which is off the other boundary), so the shared area is the sum of their areas (outer rings
 * added, holes taken away), each measured as @turf/area measures a ring: plots apart, a plot
 * strictly inside another, a plot inside another's hole. Checked against the clippers in
 * test/unit/plots/plotOverlaps.test.ts and test/unit/plots/plotOverlapsCorpus.test.ts.
 *
 * The contact test compares edges pairwise, so it runs only while the two boundaries have at
 * most SHORTCUT_MAX_EDGE_PAIRS edge pairs; bigger pairs go straight to the clipper (a sweep
 * line: O((n + k) log n)).
 */

type Rings = Position[][];

/** The largest product of the two polygons' edge counts for which the contact test runs. */
const SHORTCUT_MAX_EDGE_PAIRS = 40_000;

/**
 * Shared areas below this (m²) are what clipping touching plots leaves (slivers of about
 * 1e-8 m² where edges are snapped onto each other): never an overlap, even with Minimum
 * Overlap 0. A real overlap this small is 10 cm².
 */
export const SLIVER_M2 = 0.001;

/** The box of a polygon's rings: its outer ring's (holes lie inside it). */
export function boxOfRings(rings: Rings): Box {
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

export function boxesShareArea(a: Box, b: Box): boolean {
	return Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);
}

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** Whether the closed segments ab and cd have a point in common (exact). */
export function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
	if (Math.max(a[0], b[0]) < Math.min(c[0], d[0]) || Math.max(c[0], d[0]) < Math.min(a[0], b[0]))
		return false;
	if (Math.max(a[1], b[1]) < Math.min(c[1], d[1]) || Math.max(c[1], d[1]) < Math.min(a[1], b[1]))
		return false;
	const o1 = sign(orient2d(a[0], a[1], b[0], b[1], c[0], c[1]));
	const o2 = sign(orient2d(a[0], a[1], b[0], b[1], d[0], d[1]));
	const o3 = sign(orient2d(c[0], c[1], d[0], d[1], a[0], a[1]));
	const o4 = sign(orient2d(c[0], c[1], d[0], d[1], b[0], b[1]));
	// all on one line: the boxes (checked above to meet) tell whether the segments do
	if (o1 === 0 && o2 === 0 && o3 === 0 && o4 === 0) return true;
	return o1 * o2 <= 0 && o3 * o4 <= 0;
}

/** Whether any edge of `p` has a point in common with any edge of `q` (exact). */
function boundariesMeet(p: Rings, q: Rings): boolean {
	for (const ring of p) {
		for (let i = 0; i + 1 < ring.length; i++) {
			const a = ring[i];
			const b = ring[i + 1];
			const minX = Math.min(a[0], b[0]);
			const maxX = Math.max(a[0], b[0]);
			const minY = Math.min(a[1], b[1]);
			const maxY = Math.max(a[1], b[1]);
			for (const other of q) {
				for (let k = 0; k + 1 < other.length; k++) {
					const c = other[k];
					const d = other[k + 1];
					if (c[0] < minX && d[0] < minX) continue;
					if (c[0] > maxX && d[0] > maxX) continue;
					if (c[1] < minY && d[1] < minY) continue;
					if (c[1] > maxY && d[1] > maxY) continue;
					if (segmentsMeet(a, b, c, d)) return true;
				}
			}
		}
	}
	return false;
}

/**
 * Whether the point lies inside the polygon `rings` (even-odd over all rings), for a point
 * known to be off its boundary: winding numbers with exact orientation tests.
 */
export function insideRings(x: number, y: number, rings: Rings): boolean {
	let inside = false;
	for (const ring of rings) {
		let winding = 0;
		for (let i = 0; i + 1 < ring.length; i++) {
			const [ax, ay] = ring[i];
			const [bx, by] = ring[i + 1];
			// orient2d > 0: the point lies to the right of a → b (robust-predicates' sign)
			if (ay <= y) {
				if (by > y && orient2d(ax, ay, bx, by, x, y) < 0) winding++;
			} else if (by <= y && orient2d(ax, ay, bx, by, x, y) > 0) winding--;
		}
		if (winding !== 0) inside = !inside;
	}
	return inside;
}

function ringM2(ring: Position[]): number {
	return area({ type: 'Polygon', coordinates: [ring] });
}

/**
 * The shared area of two polygon parts whose boundaries do not meet: the rings of each that
 * lie inside the other, outer rings added and holes taken away (see above).
 */
function sharedWithoutContact(p: Rings, q: Rings): number {
	let m2 = 0;
	for (const [mine, theirs] of [
		[p, q],
		[q, p],
	]) {
		mine.forEach((ring, r) => {
			if (ring.length === 0 || !insideRings(ring[0][0], ring[0][1], theirs)) return;
			m2 += (r === 0 ? 1 : -1) * ringM2(ring);
		});
	}
	return Math.max(0, m2);
}

/**
 * The shared area of two polygon geometries in m², by the clipping library: polygon-clipping
 * (a sweep line with exact orientation tests), and polyclip-ts (the same algorithm in
 * arbitrary precision, what @turf/intersect runs) should it throw; measured in BENCHMARKS.md.
 */
function clipArea(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): number {
	let shared: Position[][][];
	try {
		shared = polygonClipping.intersection(a.coordinates as never, b.coordinates as never);
	} catch {
		shared = polyclip.intersection(a.coordinates as never, b.coordinates as never);
	}
	return shared.length === 0 ? 0 : area({ type: 'MultiPolygon', coordinates: shared });
}

/** How a pair's shared area was found: `apart` (boxes of no two parts share area), `shortcut`, `clipped`. */
export type SharedBy = 'apart' | 'shortcut' | 'clipped';

/**
 * The shared area of two polygon geometries (validated: closed rings that do not cross
 * themselves) in m², and how it was found. Plots that only touch share 0 m² or a sliver below
 * SLIVER_M2.
 */
export function sharedArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
): { m2: number; by: SharedBy } {
	const partsA = a.type === 'Polygon' ? [a.coordinates] : a.coordinates;
	const partsB = b.type === 'Polygon' ? [b.coordinates] : b.coordinates;
	// Parts whose boxes share no area (apart, or boxes that only touch) share no area either.
	const pairs: Array<[Rings, Rings]> = [];
	for (const p of partsA) {
		const boxP = boxOfRings(p);
		for (const q of partsB) if (boxesShareArea(boxP, boxOfRings(q))) pairs.push([p, q]);
	}
	if (pairs.length === 0) return { m2: 0, by: 'apart' };
	if (edgesOf(partsA) * edgesOf(partsB) <= SHORTCUT_MAX_EDGE_PAIRS) {
		if (!pairs.some(([p, q]) => boundariesMeet(p, q))) {
			let m2 = 0;
			for (const [p, q] of pairs) m2 += sharedWithoutContact(p, q);
			return { m2, by: 'shortcut' };
		}
	}
	return { m2: clipArea(a, b), by: 'clipped' };
}

/** Whether two polygon geometries share area: at least SLIVER_M2 (see `sharedArea`). */
export function sharesArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
): 'overlap' | 'apart' {
	return sharedArea(a, b).m2 >= SLIVER_M2 ? 'overlap' : 'apart';
}

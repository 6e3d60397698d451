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
import { overlayArea } from './overlayArea';

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
 *
 * Pairs of more than OVERLAY_MIN_EDGES edges are not given to a sweep-line clipper at all: it
 * holds about 3 KB an edge and took 26 s to over 150 s and 2–2.6 GB on two re-digitised
 * 300,000-vertex outlines (issue 35). Their shared area comes from `overlayArea` (the boundary
 * pieces of each geometry inside the other, summed by Green's theorem; overlayArea.ts): on
 * that pair 0.86 s of CPU and +53 MB, within 1e-5 m² of GEOS; 15–20 times faster than
 * polygon-clipping from 10,000 edges up (BENCHMARKS.md, "Validate measures the big pair").
 */

/**
 * Pairs of more edges than this (both boundaries together) are measured by `overlayArea`, not
 * clipped: below it polygon-clipping is fast enough (under 0.15 s a pair) and stays the path
 * the corpus tests were written against.
 */
export const OVERLAY_MIN_EDGES = 10_000;

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

/** A clipping path: the intersection of two polygon geometries' coordinates (throws when it cannot finish). */
export type ClipPath = (a: Position[][][], b: Position[][][]) => Position[][][];

const asParts = (g: Polygon | MultiPolygon): Position[][][] =>
	g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

/**
 * Both polygons snapped to a grid of `step` degrees (consecutive positions made equal by it
 * merged, rings left with fewer than 4 positions dropped), then clipped by polygon-clipping,
 * else by polyclip-ts. What a sweep line cannot finish is near-degenerate geometry (edges
 * crossing within 1e-15° of a vertex, near a hole's edge); on the grid those meet exactly. The
 * area moves by at most the perimeter × the step (1e-9° ≈ 0.1 mm: 0.1 m² for 1 km of boundary);
 * checked against the reference on the corpus's pairs (test/unit/plots/sharedArea.test.ts).
 */
export function snappedClip(step: number): ClipPath {
	const snap = (parts: Position[][][]) =>
		parts
			.map((rings) =>
				rings
					.map((ring) => {
						const out: Position[] = [];
						for (const p of ring) {
							const x = Math.round(p[0] / step) * step;
							const y = Math.round(p[1] / step) * step;
							const last = out[out.length - 1];
							if (!last || last[0] !== x || last[1] !== y) out.push([x, y]);
						}
						return out;
					})
					.filter((ring) => ring.length >= 4),
			)
			.filter((rings) => rings.length > 0);
	return (a, b) => {
		const sa = snap(a);
		const sb = snap(b);
		try {
			return polygonClipping.intersection(sa as never, sb as never);
		} catch {
			return polyclip.intersection(sa as never, sb as never);
		}
	};
}

/**
 * The clipping paths, in order, each tried when the one before throws: polygon-clipping (a
 * sweep line with exact orientation tests), polyclip-ts (the same algorithm in arbitrary
 * precision, what @turf/intersect runs; measured in BENCHMARKS.md), then both on the polygons
 * snapped to a 1e-9° grid, then to 1e-8°. When every path throws, the pair's overlap is not
 * known: the caller reports it as a problem, never as "no overlap".
 */
export const CLIP_PATHS: ReadonlyArray<{ name: string; clip: ClipPath }> = [
	{
		name: 'polygon-clipping',
		clip: (a, b) => polygonClipping.intersection(a as never, b as never),
	},
	{ name: 'polyclip-ts', clip: (a, b) => polyclip.intersection(a as never, b as never) },
	{ name: 'snapped to 1e-9°', clip: snappedClip(1e-9) },
	{ name: 'snapped to 1e-8°', clip: snappedClip(1e-8) },
];

/** Every clipping path threw: the reasons, path by path. */
export class ClipFailed extends Error {}

/** The pair was not clipped: its boundaries have more edges than the clipping budget left. */
export class ClipRefused extends Error {
	constructor(
		readonly edges: number,
		readonly limit: number,
	) {
		super(`${edges} edges, more than the ${limit} left to clip`);
	}
}

function clipArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
	paths: ReadonlyArray<{ name: string; clip: ClipPath }>,
): { m2: number; by: SharedBy } {
	const reasons: string[] = [];
	for (const path of paths) {
		let shared: Position[][][];
		try {
			shared = path.clip(asParts(a), asParts(b));
		} catch (error) {
			reasons.push(`${path.name}: ${error instanceof Error ? error.message : String(error)}`);
			continue;
		}
		const m2 = shared.length === 0 ? 0 : area({ type: 'MultiPolygon', coordinates: shared });
		return { m2, by: path.name.startsWith('snapped') ? 'snapped' : 'clipped' };
	}
	throw new ClipFailed(reasons.join('; '));
}

/**
 * How a pair's shared area was found: `apart` (boxes of no two parts share area), `shortcut`,
 * `clipped`, `snapped` (only the snapped paths of CLIP_PATHS could clip it), or `overlay`
 * (a pair of more than OVERLAY_MIN_EDGES edges: `overlayArea`).
 */
export type SharedBy = 'apart' | 'shortcut' | 'clipped' | 'snapped' | 'overlay';

export interface SharedAreaOptions {
	/**
	 * The most edges (both polygons together) the clipper may be given for this pair: above
	 * it, `ClipRefused` is thrown instead of clipping (the caller's work budget).
	 */
	maxClipEdges?: number;
	/** The clipping paths (default CLIP_PATHS; tests give failing ones). */
	paths?: ReadonlyArray<{ name: string; clip: ClipPath }>;
}

/**
 * The shared area of two polygon geometries (validated: closed rings that do not cross
 * themselves) in m², and how it was found. Plots that only touch share 0 m² or a sliver below
 * SLIVER_M2. Throws `ClipFailed` when every clipping path throws, `ClipRefused` when the pair
 * must be clipped and has more edges than `options.maxClipEdges`.
 */
export function sharedArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
	options: SharedAreaOptions = {},
): { m2: number; by: SharedBy } {
	const partsA = asParts(a);
	const partsB = asParts(b);
	// Parts whose boxes share no area (apart, or boxes that only touch) share no area either.
	const pairs: Array<[Rings, Rings]> = [];
	for (const p of partsA) {
		const boxP = boxOfRings(p);
		for (const q of partsB) if (boxesShareArea(boxP, boxOfRings(q))) pairs.push([p, q]);
	}
	if (pairs.length === 0) return { m2: 0, by: 'apart' };
	const edgesA = edgesOf(partsA);
	const edgesB = edgesOf(partsB);
	if (edgesA * edgesB <= SHORTCUT_MAX_EDGE_PAIRS) {
		if (!pairs.some(([p, q]) => boundariesMeet(p, q))) {
			let m2 = 0;
			for (const [p, q] of pairs) m2 += sharedWithoutContact(p, q);
			return { m2, by: 'shortcut' };
		}
	}
	const limit = options.maxClipEdges ?? Infinity;
	if (edgesA + edgesB > limit) throw new ClipRefused(edgesA + edgesB, limit);
	if (edgesA + edgesB > OVERLAY_MIN_EDGES) {
		let failed: unknown;
		try {
			return { m2: overlayArea(a, b), by: 'overlay' };
		} catch (error) {
			failed = error;
		}
		throw new ClipFailed(`overlay: ${failed instanceof Error ? failed.message : String(failed)}`);
	}
	return clipArea(a, b, options.paths ?? CLIP_PATHS);
}

/** Whether two polygon geometries share area: at least SLIVER_M2 (see `sharedArea`). */
export function sharesArea(
	a: Polygon | MultiPolygon,
	b: Polygon | MultiPolygon,
): 'overlap' | 'apart' {
	return sharedArea(a, b).m2 >= SLIVER_M2 ? 'overlap' : 'apart';
}

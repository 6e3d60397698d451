/**
 * Plots compared with each other across a whole run (Plot → Validate): exact duplicate
 * geometries, and overlapping plots with the overlap in hectares and in % of each plot.
 * Pure: no n8n imports.
 *
 * How (so that the cost grows as n log n, not n²):
 * 1. duplicates: one hash map keyed by the geometry (type + coordinates), O(n);
 * 2. overlaps: the bounding boxes of all polygon plots go into a static spatial index
 *    (Flatbush, a packed Hilbert R-tree: built in O(n log n), each query O(log n + k)); each
 *    plot asks the index for the plots whose box shares area with its own (boxes that only
 *    touch are dropped at once), which gives the candidate pairs; for each the shared area
 *    (geodesic, as `@turf/area` measures) comes from a polygon-clipping library, or from an
 *    exact shortcut where no boundaries meet (see `sharedArea`). Whether two plots overlap is
 *    that area against Minimum Overlap, never a floating-point coincidence: touching plots
 *    share 0 m² or a sliver below SLIVER_M2.
 * 3. bounds, for files where plots pile up (e.g. 1,000 near-identical copies: n² / 2 pairs):
 *    the index stops looking after MAX_CANDIDATES_PER_PLOT candidates per plot, and each plot
 *    is measured against at most MAX_MEASURED_PER_PLOT of them; the rest are counted, and the
 *    output names both caps.
 * A naive check compares every pair (n² / 2 pairs: 50 million for 10,000 plots); the index
 * leaves the few pairs that are really near each other (see BENCHMARKS.md).
 *
 * Points take part in the duplicate check only: a point has no area of its own (the service
 * draws a circle around it), so it cannot be said to overlap.
 */
import { area } from '@turf/area';
import Flatbush from 'flatbush';
import * as polyclip from 'polyclip-ts';
import polygonClipping from 'polygon-clipping';
import { orient2d } from 'robust-predicates';

import type { MultiPolygon, PlotGeometry, Polygon, Position } from '../geometry';

/** One plot: a feature of an input row. */
interface PlotRef {
	/** The input row (item index). */
	row: number;
	/** The feature inside the row (0 for a row holding one geometry). */
	feature: number;
}

export interface PlotShape extends PlotRef {
	geometry: PlotGeometry;
}

interface Duplicate {
	/** The first plot (in input order) with this geometry. */
	first: PlotRef;
	/** A later plot with exactly the same geometry. */
	duplicate: PlotRef;
}

interface Overlap {
	/** The plot that comes first in input order. */
	a: PlotRef;
	b: PlotRef;
	/** The shared area in square metres (geodesic), unrounded. */
	overlapM2: number;
	/** The shared area as a share of a's and of b's own area, 0–100, unrounded. */
	percentOfA: number;
	percentOfB: number;
}

/** A pair whose overlap could not be computed (both clippers threw): reported, never dropped silently. */
interface OverlapFailure {
	a: PlotRef;
	b: PlotRef;
	reason: string;
}

interface CrossCheckOptions {
	/** Look for overlaps (default true); duplicates are always looked for. */
	overlaps?: boolean;
	/** Shared areas smaller than this (square metres) are not reported; default 1 m². */
	minOverlapM2?: number;
	/** At most this many candidate pairs are measured per plot (default MAX_MEASURED_PER_PLOT). */
	maxMeasuredPerPlot?: number;
	/** The index stops looking for a plot's candidates after this many (default MAX_CANDIDATES_PER_PLOT). */
	maxCandidatesPerPlot?: number;
}

/** A plot some of whose candidate pairs were left unmeasured by the per-plot cap. */
interface Unmeasured {
	plot: PlotRef;
	/** Candidate pairs of this plot that were not measured. */
	count: number;
	/** The index stopped at MAX_CANDIDATES_PER_PLOT for this plot: there may be more. */
	atLeast: boolean;
}

export interface CrossCheck {
	duplicates: Duplicate[];
	overlaps: Overlap[];
	failures: OverlapFailure[];
	/** Pairs whose bounding boxes share an area (the candidates from the index; exact duplicates left out). */
	candidatePairs: number;
	/** Candidate pairs whose shared area was measured (the others: `unmeasured`). */
	measuredPairs: number;
	/** Measured pairs whose shared area the clipping library computed (the rest: the exact shortcut). */
	clippedPairs: number;
	/** Plots with candidate pairs beyond the per-plot cap, in input order. */
	unmeasured: Unmeasured[];
	/** Candidate pairs not measured (each counted once). */
	unmeasuredPairs: number;
	/**
	 * Plots for which the index stopped looking at MAX_CANDIDATES_PER_PLOT boxes: for them
	 * (and so for `candidatePairs` and `unmeasuredPairs`) the counts are minimums.
	 */
	cappedPlots: number;
}

export const DEFAULT_MIN_OVERLAP_M2 = 1;

/**
 * The shared area of each plot is measured with at most this many other plots: those whose
 * bounding boxes overlap its own the most (a pair is measured when it is among the first of
 * either plot). Real plot files give a plot a handful of candidates; a file of near-identical
 * copies gives every plot every other one (n² / 2 pairs), and then the rest are counted, not
 * measured, and the output says so (`overlaps_not_measured`).
 */
export const MAX_MEASURED_PER_PLOT = 10;

/**
 * The index stops looking for one plot's candidates after this many boxes that share area
 * with its own (exact duplicates included), so that even a file of 10,000 copies of one plot
 * costs n × this, not n² / 2; the counts of such a plot are then minimums (`atLeast`).
 */
export const MAX_CANDIDATES_PER_PLOT = 1_000;

const STOP = new Error('enough candidates');

/** The key under which two geometries are exact duplicates: same type, same coordinates. */
function geometryKey(geometry: PlotGeometry): string {
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
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	// The outer ring bounds each polygon; holes lie inside it.
	return polygons
		.map(boxOfRings)
		.reduce<Box>(
			(a, b) => [
				Math.min(a[0], b[0]),
				Math.min(a[1], b[1]),
				Math.max(a[2], b[2]),
				Math.max(a[3], b[3]),
			],
			[Infinity, Infinity, -Infinity, -Infinity],
		);
}

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
 * test/unit/plot-overlaps.test.ts and test/unit/plot-overlaps.corpus.test.ts.
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
const SLIVER_M2 = 0.001;

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

const sign = (n: number) => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** Whether the closed segments ab and cd have a point in common (exact). */
function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
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
function insideRings(x: number, y: number, rings: Rings): boolean {
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

function edgeCount(parts: Rings[]): number {
	let n = 0;
	for (const rings of parts) for (const ring of rings) n += Math.max(0, ring.length - 1);
	return n;
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
type SharedBy = 'apart' | 'shortcut' | 'clipped';

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
	if (edgeCount(partsA) * edgeCount(partsB) <= SHORTCUT_MAX_EDGE_PAIRS) {
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

function isArea(geometry: PlotGeometry): geometry is Polygon | MultiPolygon {
	return geometry.type === 'Polygon' || geometry.type === 'MultiPolygon';
}

/**
 * Duplicates and overlaps among `shapes` (give only geometries that passed validation:
 * closed, simple rings). Pairs come out in input order of their first plot, then of the
 * second; a pair of exact duplicates is reported as a duplicate only, not also as an overlap.
 * Shared areas below SLIVER_M2 are touching, never an overlap.
 */
export function crossCheckPlots(
	shapes: readonly PlotShape[],
	options: CrossCheckOptions = {},
): CrossCheck {
	const minOverlapM2 = Math.max(options.minOverlapM2 ?? DEFAULT_MIN_OVERLAP_M2, SLIVER_M2);
	const cap = Math.max(1, options.maxMeasuredPerPlot ?? MAX_MEASURED_PER_PLOT);
	const enough = Math.max(cap, options.maxCandidatesPerPlot ?? MAX_CANDIDATES_PER_PLOT);
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
		measuredPairs: 0,
		clippedPairs: 0,
		unmeasured: [],
		unmeasuredPairs: 0,
		cappedPlots: 0,
	};
	if (options.overlaps === false) return result;

	const areas = shapes.flatMap((s, i) => (isArea(s.geometry) ? [i] : []));
	if (areas.length < 2) return result;
	const boxes = areas.map((i) => boxOf(shapes[i].geometry as Polygon | MultiPolygon));
	const index = new Flatbush(areas.length);
	for (const [minX, minY, maxX, maxY] of boxes) index.add(minX, minY, maxX, maxY);
	index.finish();

	// 1. The candidates of each plot (boxes sharing area), and the pairs to measure: each
	//    plot's first `cap` by the area its box shares with the other's.
	const n = areas.length;
	const candidates = new Uint32Array(n);
	const capped = new Uint8Array(n);
	const chosen = new Set<number>();
	for (let a = 0; a < n; a++) {
		const box = boxes[a];
		const found: number[] = [];
		const scores: number[] = [];
		let seen = 0;
		const outcome = searchUntil(index, box, (b) => {
			// Boxes that only touch share no area, so neither can the plots.
			if (b === a || !boxesShareArea(box, boxes[b])) return true;
			if (++seen > enough) return false;
			if (sameGeometry(areas[a], areas[b])) return true; // a duplicate, reported as such
			found.push(b);
			scores.push(boxOverlap(box, boxes[b]));
			return true;
		});
		if (typeof outcome === 'object') throw outcome.failed;
		if (outcome === 'stopped') {
			capped[a] = 1;
			result.cappedPlots++;
		}
		candidates[a] = found.length;
		if (found.length > cap) {
			// the first `cap` by shared box area (ties: input order), kept in a short sorted list
			const best: number[] = [];
			const bestScore: number[] = [];
			const before = (score: number, b: number, k: number) =>
				score > bestScore[k] || (score === bestScore[k] && b < best[k]);
			found.forEach((b, k) => {
				const score = scores[k];
				if (best.length === cap && !before(score, b, cap - 1)) return;
				let at = best.length;
				while (at > 0 && before(score, b, at - 1)) at--;
				best.splice(at, 0, b);
				bestScore.splice(at, 0, score);
				if (best.length > cap) {
					best.pop();
					bestScore.pop();
				}
			});
			found.length = 0;
			found.push(...best);
		}
		for (const b of found) chosen.add(a < b ? a * n + b : b * n + a);
	}
	// Each pair is found from both ends, except where one end's search stopped early.
	const pairs = Float64Array.from(chosen).sort();
	let candidateEnds = 0;
	for (const c of candidates) candidateEnds += c;
	result.candidatePairs = Math.max(pairs.length, Math.ceil(candidateEnds / 2));
	result.measuredPairs = pairs.length;
	result.unmeasuredPairs = result.candidatePairs - pairs.length;

	const ownArea = new Map<number, number>();
	const areaOf = (i: number): number => {
		let m2 = ownArea.get(i);
		if (m2 === undefined) {
			m2 = area(shapes[i].geometry as never);
			ownArea.set(i, m2);
		}
		return m2;
	};

	// 2. The shared area of each chosen pair, in input order.
	const measured = new Uint32Array(n);
	for (const key of pairs) {
		const a = Math.floor(key / n);
		const b = key - a * n;
		measured[a]++;
		measured[b]++;
		const i = areas[a];
		const j = areas[b];
		let shared: ReturnType<typeof sharedArea>;
		try {
			shared = sharedArea(
				shapes[i].geometry as Polygon | MultiPolygon,
				shapes[j].geometry as Polygon | MultiPolygon,
			);
		} catch (error) {
			result.failures.push({
				a: ref(shapes[i]),
				b: ref(shapes[j]),
				reason: error instanceof Error ? error.message : String(error),
			});
			continue;
		}
		if (shared.by === 'clipped') result.clippedPairs++;
		const overlapM2 = shared.m2;
		if (!(overlapM2 >= minOverlapM2)) continue;
		result.overlaps.push({
			a: ref(shapes[i]),
			b: ref(shapes[j]),
			overlapM2,
			percentOfA: percent(overlapM2, areaOf(i)),
			percentOfB: percent(overlapM2, areaOf(j)),
		});
	}
	for (let a = 0; a < n; a++) {
		const count = Math.max(0, candidates[a] - measured[a]);
		if (count > 0 || capped[a])
			result.unmeasured.push({ plot: ref(shapes[areas[a]]), count, atLeast: capped[a] === 1 });
	}
	return result;
}

/**
 * Calls `visit` for each box the index finds over `box` until it returns false (Flatbush has
 * no way to stop a search but an exception): `stopped` when it did, `done` when the search
 * ran out, or what the index threw otherwise (never expected: reported, not swallowed).
 */
function searchUntil(
	index: Flatbush,
	box: Box,
	visit: (b: number) => boolean,
): 'done' | 'stopped' | { failed: unknown } {
	try {
		index.search(box[0], box[1], box[2], box[3], (b) => {
			if (!visit(b)) throw STOP;
			return false;
		});
		return 'done';
	} catch (error) {
		return error === STOP ? 'stopped' : { failed: error };
	}
}

function boxOverlap(a: Box, b: Box): number {
	return (
		(Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * (Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
	);
}

function ref(shape: PlotRef): PlotRef {
	return { row: shape.row, feature: shape.feature };
}

function percent(part: number, whole: number): number {
	return whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
}

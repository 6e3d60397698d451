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
 *    (geodesic, as `@turf/area` measures) comes from a polygon-clipping library (for pairs of
 *    more than 10,000 edges, from `overlayArea`), or from an exact shortcut where no boundaries
 *    meet (see `sharedArea`). Whether two plots overlap is
 *    that area against Minimum Overlap, never a floating-point coincidence: touching plots
 *    share 0 m² or a sliver below SLIVER_M2.
 * 3. copies of one boundary that are not exact duplicates (the ring starting at another vertex,
 *    walked the other way, holes or parts in another order: `sameShape.ts`) are found by the
 *    canonical form of each plot before any clip: their shared area is the whole plot. And a
 *    pair of plots whose shapes were measured already (a copy of X against Y, after X against
 *    Y) takes that result: no boundary is clipped against the same other boundary twice.
 * 4. bounds, for files where plots pile up (e.g. 1,000 near-identical copies: n² / 2 pairs):
 *    the index stops looking after MAX_CANDIDATES_PER_PLOT candidates per plot, and each plot
 *    is measured against at most MAX_MEASURED_PER_PLOT of them; the rest are counted, and the
 *    output names both caps.
 * 5. a work budget for the clipper (MAX_CLIP_EDGES_PER_PAIR, CLIP_EDGES_PER_RUN, with their
 *    reasons below): a pair beyond it is not clipped but named as not measured, on both rows
 *    and in the summary (`refused`), never read as "no overlap".
 * A naive check compares every pair (n² / 2 pairs: 50 million for 10,000 plots); the index
 * leaves the few pairs that are really near each other (see BENCHMARKS.md).
 *
 * Points take part in the duplicate check only: a point has no area of its own (the service
 * draws a circle around it), so it cannot be said to overlap.
 */
import { area } from '@turf/area';
import Flatbush from 'flatbush';

import type { MultiPolygon, PlotGeometry, Polygon } from '../geometry';
import { edgesOf } from '../geometry/polygonChecks';
import { boxOf, boxOverlap, geometryHash, searchUntil } from './candidateIndex';
import { sameShapeClasses } from './sameShape';
import type { ClipPath } from './sharedArea';
import { boxesShareArea, ClipRefused, sharedArea, SLIVER_M2 } from './sharedArea';

/** The pairwise measure of two plots lives in sharedArea.ts; its callers import it from here too. */

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

/** A pair whose overlap could not be computed (every clipping path threw): reported, never dropped silently. */
interface OverlapFailure {
	a: PlotRef;
	b: PlotRef;
	reason: string;
}

/** A pair not clipped because of the work budget: named, never read as "no overlap". */
interface OverlapRefused {
	a: PlotRef;
	b: PlotRef;
	/** The edges of both boundaries together (what the clipper would have been given). */
	edges: number;
	/** `pair`: more than MAX_CLIP_EDGES_PER_PAIR; `run`: more than what was left of CLIP_EDGES_PER_RUN. */
	budget: 'pair' | 'run';
}

export interface CrossCheckOptions {
	/** Look for overlaps (default true); duplicates are always looked for. */
	overlaps?: boolean;
	/** Shared areas smaller than this (square metres) are not reported; default 1 m². */
	minOverlapM2?: number;
	/** At most this many candidate pairs are measured per plot (default MAX_MEASURED_PER_PLOT). */
	maxMeasuredPerPlot?: number;
	/** The index stops looking for a plot's candidates after this many (default MAX_CANDIDATES_PER_PLOT). */
	maxCandidatesPerPlot?: number;
	/** The clipper's budget per pair and per run, in edges (defaults: the constants below). */
	maxClipEdgesPerPair?: number;
	clipEdgesPerRun?: number;
	/** The clipping paths (tests inject failing ones; default: sharedArea's CLIP_PATHS). */
	clipPaths?: ReadonlyArray<{ name: string; clip: ClipPath }>;
}

/** A plot some of whose candidate pairs were left unmeasured by the per-plot cap. */
interface Unmeasured {
	plot: PlotRef;
	/** Candidate pairs of this plot that were not measured. */
	count: number;
	/** The index stopped at MAX_CANDIDATES_PER_PLOT for this plot: there may be more. */
	atLeast: boolean;
	/** The plots over this one's extent the index found (exact duplicates left out). */
	candidates: number;
	/** Of those, the pairs whose shared area was measured. */
	measured: number;
}

export interface CrossCheck {
	duplicates: Duplicate[];
	overlaps: Overlap[];
	failures: OverlapFailure[];
	/** Pairs left unclipped by the work budget (in input order). */
	refused: OverlapRefused[];
	/** Measured pairs that are copies of one boundary (not exact duplicates): known without a clip. */
	samePairs: number;
	/** Edges given to the clipper in this run (see CLIP_EDGES_PER_RUN). */
	clippedEdges: number;
	/** Pairs whose bounding boxes share an area (the candidates from the index; exact duplicates left out). */
	candidatePairs: number;
	/** Candidate pairs whose shared area was measured (the others: `unmeasured`). */
	measuredPairs: number;
	/** Measured pairs whose shared area the clipping library computed (the rest: the exact shortcut). */
	clippedPairs: number;
	/** Plots with candidate pairs beyond the per-plot cap, in input order. */
	unmeasured: Unmeasured[];
	/** Every plot with candidates: how many, and how many of those pairs were measured (input order). */
	perPlot: Array<{ plot: PlotRef; candidates: number; measured: number; atLeast: boolean }>;
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

/**
 * The clipper's work budget, in edges of the two boundaries given to it together. Pairs of up
 * to OVERLAY_MIN_EDGES (10,000) edges go to the sweep line (polygon-clipping: about 3 KB an
 * edge, 10–40 µs an edge); larger pairs to `overlayArea` (overlayArea.ts: about 1.5 µs and 100
 * bytes an edge). Two re-digitised outlines of 300,000 vertices each (600,000 edges, crossing
 * each other 167,000 times): 0.86 s of CPU and +53 MB; 2 × 500,000: 1.7 s and +97 MB
 * (BENCHMARKS.md, "Validate measures the big pair"). So that one pair stays within about 5 s and 500 MB on the dev machine, a pair of more
 * edges than this is not measured: it is named on both rows as not measured, with the reason
 * (simplify the boundaries, or split the plots). The exact shortcut (no boundaries meeting) and
 * copies of one boundary cost no clip.
 */
export const MAX_CLIP_EDGES_PER_PAIR = 1_000_000;

/**
 * The edges given to the clipper across one run, at most: about a minute of clipping at
 * 10–20 µs per edge (a file of real plots uses a few percent of it: 10,000 plots of 12–40
 * vertices clip about 25,000 edges; 1,000 near-identical copies about 300,000). Once it is
 * spent, the pairs left are named as not measured on their rows and in the summary.
 */
export const CLIP_EDGES_PER_RUN = 4_000_000;

/** The key under which two geometries are exact duplicates: same type, same coordinates. */
function geometryKey(geometry: PlotGeometry): string {
	return `${geometry.type}:${JSON.stringify(geometry.coordinates)}`;
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
		refused: [],
		perPlot: [],
		samePairs: 0,
		clippedEdges: 0,
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

	// 2. The shared area of each chosen pair, in input order: copies of one boundary known
	//    without a clip, a pair of shapes measured already taken from before, the others
	//    within the clipper's budget.
	const perPair = Math.max(0, options.maxClipEdgesPerPair ?? MAX_CLIP_EDGES_PER_PAIR);
	let runLeft = Math.max(0, options.clipEdgesPerRun ?? CLIP_EDGES_PER_RUN);
	const shapeOf = sameShapeClasses(
		(a) => shapes[areas[a]].geometry as Polygon | MultiPolygon,
		(a) => firstOf[areas[a]],
		pairs,
		n,
	);
	const known = new Map<string, { m2: number }>();
	const chosenOf = new Uint32Array(n);
	const measured = new Uint32Array(n);
	for (const key of pairs) {
		const a = Math.floor(key / n);
		const b = key - a * n;
		chosenOf[a]++;
		chosenOf[b]++;
		const i = areas[a];
		const j = areas[b];
		const gi = shapes[i].geometry as Polygon | MultiPolygon;
		const gj = shapes[j].geometry as Polygon | MultiPolygon;
		const same = shapeOf[a] === shapeOf[b];
		const cacheKey = `${Math.min(shapeOf[a], shapeOf[b])}|${Math.max(shapeOf[a], shapeOf[b])}`;
		let shared = same ? { m2: Math.min(areaOf(i), areaOf(j)) } : known.get(cacheKey);
		if (same) result.samePairs++;
		if (!shared) {
			try {
				const edges = edgesOf(partsOf(gi)) + edgesOf(partsOf(gj));
				const found = sharedArea(gi, gj, {
					maxClipEdges: Math.min(perPair, runLeft),
					paths: options.clipPaths,
				});
				if (found.by === 'clipped' || found.by === 'snapped' || found.by === 'overlay') {
					result.clippedPairs++;
					result.clippedEdges += edges;
					runLeft -= edges;
				}
				shared = found;
			} catch (error) {
				if (error instanceof ClipRefused)
					result.refused.push({
						a: ref(shapes[i]),
						b: ref(shapes[j]),
						edges: error.edges,
						budget: error.edges > perPair ? 'pair' : 'run',
					});
				else
					result.failures.push({
						a: ref(shapes[i]),
						b: ref(shapes[j]),
						reason: error instanceof Error ? error.message : String(error),
					});
				continue;
			}
			known.set(cacheKey, shared);
		}
		measured[a]++;
		measured[b]++;
		const overlapM2 = shared.m2;
		if (!(overlapM2 >= minOverlapM2)) continue;
		result.overlaps.push({
			a: ref(shapes[i]),
			b: ref(shapes[j]),
			overlapM2,
			percentOfA: same ? 100 : percent(overlapM2, areaOf(i)),
			percentOfB: same ? 100 : percent(overlapM2, areaOf(j)),
		});
	}
	for (let a = 0; a < n; a++) {
		if (candidates[a] > 0)
			result.perPlot.push({
				plot: ref(shapes[areas[a]]),
				candidates: candidates[a],
				measured: measured[a],
				atLeast: capped[a] === 1,
			});
		const count = Math.max(0, candidates[a] - chosenOf[a]);
		if (count > 0 || capped[a])
			result.unmeasured.push({
				plot: ref(shapes[areas[a]]),
				count,
				atLeast: capped[a] === 1,
				candidates: candidates[a],
				measured: measured[a],
			});
	}
	return result;
}

const partsOf = (g: Polygon | MultiPolygon) =>
	g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

function ref(shape: PlotRef): PlotRef {
	return { row: shape.row, feature: shape.feature };
}

function percent(part: number, whole: number): number {
	return whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
}

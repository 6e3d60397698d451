/**
 * Where the edges of polygon rings cross (pure; no n8n imports).
 *
 * A sweep over the edges in order of their left end: each edge is tested against the edges
 * still open at its left end (those whose right end is not behind it), after a bounding-box
 * test. Open edges are kept in a flat list of typed arrays, so for a real plot outline, where
 * a vertical line crosses a handful of edges, the sweep costs one sort plus a few tests per
 * edge. (sweepline-intersections, used before, does the same tests but keeps its events as
 * objects in a binary heap: at 300,000 vertices it spent most of its time in heap comparisons
 * and garbage collection, and grew as n^1.4; see BENCHMARKS.md, "Pre-flight growth".)
 *
 * Bounded (`scanCrossings`): an outline made of long spikes, where a line across the sweep meets
 * O(n) edges, would make any sweep that reports each crossing quadratic (a 4,001-vertex star took
 * 5 s and 640 MB, 8,001 vertices ran out of memory). So the scan stops at a number of crossings
 * (`CROSSING_LIMIT`; validation then says "at least N") and after a budget of edge tests that
 * grows linearly with the outline (`crossingBudget`; validation then says the check could not be
 * finished, never "valid"). It sweeps along the longer side of the bounding box, so that a thin
 * north–south strip costs a few tests per edge, as an east–west one does. Which edge of a pair is
 * the "later" one is always decided in x order, so a pair's answer (and the point reported) is
 * the same whichever way the sweep runs. Figures: BENCHMARKS.md, "Worst cases of the crossing
 * check".
 *
 * What counts as a crossing is what sweepline-intersections reports, pair by pair: two edges
 * of the same ring that share an end do not cross (neighbours, or a ring touching itself at a
 * vertex); edges of different rings that share an end cross there; collinear overlapping edges
 * do not cross; any other contact, ends included, does. Every pair of edges whose boxes meet is
 * tested, so it also finds the touches that sweepline-intersections' event order skips (a vertex
 * lying on a vertical edge of its own ring). The side test is the exact orientation (Shewchuk's
 * stage-A error bound; when the floating-point sign is not certain the pair goes on to the
 * intersection test, which can only report more, never less).
 */
import type { Position } from './geoJsonTypes';

interface CrossingOptions {
	/** Report only crossings between different parts (the polygons of a MultiPolygon). */
	betweenPartsOnly?: boolean;
	/** Stop after this many crossings (default: no limit). */
	limit?: number;
	/** Stop after this many tests of an edge against an open edge (default: no limit). */
	budget?: number;
}

/**
 * What a bounded scan found: the crossings up to the limit, whether it stopped there (there
 * are at least that many) and whether it ran out of its budget of edge tests first (then
 * whether any other edges cross is not known).
 */
export interface CrossingScan {
	crossings: Position[];
	/** The limit was reached: there are at least `crossings.length` crossings. */
	capped: boolean;
	/** The budget ran out before the sweep ended: edges not reached are untested. */
	outOfBudget: boolean;
	/** Edge-against-open-edge tests made. */
	tests: number;
}

/** Crossings Validate and the pre-flights list at most (then "at least N"). */
export const CROSSING_LIMIT = 100;

/**
 * Edge tests the checks of one feature may make: at least this many, whatever its size (every
 * outline of up to about 6,000 vertices is checked to the end, and so is the bench's adversarial
 * 20,000-vertex "spiky" outline, 17 million tests) ...
 */
const CROSSING_BUDGET_MIN = 20_000_000;
/** ... and this many per edge (a real outline needs a handful; see BENCHMARKS.md). */
const CROSSING_BUDGET_PER_EDGE = 300;

/** The budget of edge tests for an outline of `edges` edges. */
export function crossingBudget(edges: number): number {
	return Math.max(CROSSING_BUDGET_MIN, CROSSING_BUDGET_PER_EDGE * edges);
}

/** Shewchuk's error bound for the first, floating-point stage of orient2d. */
const ORIENT_ERROR_BOUND = (3 + 16 * Number.EPSILON) * Number.EPSILON;

/**
 * The sign of the turn a → b → c (positive, negative), or 0 when it is 0 or when
 * floating point cannot tell (a caller must then treat c as possibly on the line).
 */
function orientSign(
	ax: number,
	ay: number,
	bx: number,
	by: number,
	cx: number,
	cy: number,
): number {
	const left = (ay - cy) * (bx - cx);
	const right = (ax - cx) * (by - cy);
	const det = left - right;
	if (left === 0 || right === 0 || left > 0 !== right > 0) return Math.sign(det);
	const sum = Math.abs(left + right);
	return Math.abs(det) >= ORIENT_ERROR_BOUND * sum ? Math.sign(det) : 0;
}

/**
 * The crossings of the edges of `parts` (each part a list of closed rings without repeated
 * consecutive positions), one [x, y] per crossing pair of edges, roughly in sweep order.
 * Only the first two numbers of each position are read. Unbounded: see `scanCrossings`.
 */
export function findCrossings(parts: Position[][][], options: CrossingOptions = {}): Position[] {
	return scanCrossings(parts, options).crossings;
}

/**
 * `findCrossings` with bounds: it stops at `options.limit` crossings and after
 * `options.budget` edge tests. The sweep runs along the longer side of the outline's bounding
 * box (a thin north–south strip is swept from south to north, where a line across it meets
 * two edges, not all of them).
 */
export function scanCrossings(parts: Position[][][], options: CrossingOptions = {}): CrossingScan {
	const betweenPartsOnly = options.betweenPartsOnly === true;
	const limit = options.limit ?? Infinity;
	const budget = options.budget ?? Infinity;
	let edgeCount = 0;
	let ringCount = 0;
	let minX = Infinity;
	let maxX = -Infinity;
	let minY = Infinity;
	let maxY = -Infinity;
	for (const rings of parts) {
		ringCount += rings.length;
		for (const ring of rings) {
			edgeCount += Math.max(0, ring.length - 1);
			for (const p of ring) {
				if (p[0] < minX) minX = p[0];
				if (p[0] > maxX) maxX = p[0];
				if (p[1] < minY) minY = p[1];
				if (p[1] > maxY) maxY = p[1];
			}
		}
	}
	// Each edge from its left end (smaller x, then smaller y) to its right end: what every test
	// of a pair reads, so that the answer for a pair never depends on the sweep's direction.
	const lx = new Float64Array(edgeCount);
	const ly = new Float64Array(edgeCount);
	const rx = new Float64Array(edgeCount);
	const ry = new Float64Array(edgeCount);
	const ringOf = new Int32Array(edgeCount);
	const partOfRing = new Int32Array(ringCount);
	let e = 0;
	let r = 0;
	parts.forEach((rings, part) => {
		for (const ring of rings) {
			partOfRing[r] = part;
			for (let i = 0; i + 1 < ring.length; i++) {
				const [ax, ay] = ring[i];
				const [bx, by] = ring[i + 1];
				const aFirst = ax < bx || (ax === bx && ay < by);
				lx[e] = aFirst ? ax : bx;
				ly[e] = aFirst ? ay : by;
				rx[e] = aFirst ? bx : ax;
				ry[e] = aFirst ? by : ay;
				ringOf[e] = r;
				e++;
			}
			r++;
		}
	});
	// The sweep runs along the longer side of the bounding box: u is its axis, v the other.
	// Along x the sweep arrays are the ones above; along y each edge runs from its lower end.
	const alongY = maxY - minY > maxX - minX;
	let ul = lx;
	let vl = ly;
	let ur = rx;
	let vr = ry;
	if (alongY) {
		ul = new Float64Array(edgeCount);
		vl = new Float64Array(edgeCount);
		ur = new Float64Array(edgeCount);
		vr = new Float64Array(edgeCount);
		for (let i = 0; i < edgeCount; i++) {
			const lowFirst = ly[i] < ry[i] || (ly[i] === ry[i] && lx[i] < rx[i]);
			ul[i] = lowFirst ? ly[i] : ry[i];
			vl[i] = lowFirst ? lx[i] : rx[i];
			ur[i] = lowFirst ? ry[i] : ly[i];
			vr[i] = lowFirst ? rx[i] : lx[i];
		}
	}

	const order = new Int32Array(edgeCount);
	for (let i = 0; i < edgeCount; i++) order[i] = i;
	order.sort((a, b) => ul[a] - ul[b] || vl[a] - vl[b]);

	const crossings: Position[] = [];
	const open = new Int32Array(edgeCount);
	let openCount = 0;
	let tests = 0;
	let outOfBudget = false;
	for (let k = 0; k < edgeCount; k++) {
		if (tests + openCount > budget) {
			outOfBudget = true;
			break;
		}
		tests += openCount;
		const current = order[k];
		const uStart = ul[current];
		const vLow = Math.min(vl[current], vr[current]);
		const vHigh = Math.max(vl[current], vr[current]);
		let kept = 0;
		for (let j = 0; j < openCount; j++) {
			const other = open[j];
			if (ur[other] < uStart) continue; // behind the sweep: closed for good
			open[kept++] = other;
			const v3 = vl[other];
			const v4 = vr[other];
			if ((v3 < vLow && v4 < vLow) || (v3 > vHigh && v4 > vHigh)) continue;
			// s: the edge of the two that an x-sweep meets later (on a tie, the later one in the list)
			const otherLater =
				lx[other] > lx[current] ||
				(lx[other] === lx[current] &&
					(ly[other] > ly[current] || (ly[other] === ly[current] && other > current)));
			const s = alongY && otherLater ? other : current;
			const o = s === current ? other : current;
			const sRing = ringOf[s];
			const oRing = ringOf[o];
			if (betweenPartsOnly && partOfRing[oRing] === partOfRing[sRing]) continue;
			const x1 = lx[s];
			const y1 = ly[s];
			const x2 = rx[s];
			const y2 = ry[s];
			const x3 = lx[o];
			const y3 = ly[o];
			const x4 = rx[o];
			const y4 = ry[o];
			const side3 = orientSign(x1, y1, x2, y2, x3, y3);
			const side4 = orientSign(x1, y1, x2, y2, x4, y4);
			if ((side3 > 0 && side4 > 0) || (side3 < 0 && side4 < 0)) continue;
			const r1l = x2 === x3 && y2 === y3;
			const r1r = x2 === x4 && y2 === y4;
			const l1l = x1 === x3 && y1 === y3;
			const l1r = x1 === x4 && y1 === y4;
			if (r1l || r1r || l1l || l1r) {
				// a shared end: no crossing within a ring, a crossing there between rings
				if (oRing !== sRing) crossings.push(r1l || (!r1r && l1l) ? [x3, y3] : [x4, y4]);
			} else {
				const denom = (y4 - y3) * (x2 - x1) - (x4 - x3) * (y2 - y1);
				if (denom === 0) continue; // parallel or collinear
				const uA = ((x4 - x3) * (y1 - y3) - (y4 - y3) * (x1 - x3)) / denom;
				const uB = ((x2 - x1) * (y1 - y3) - (y2 - y1) * (x1 - x3)) / denom;
				if (uA >= 0 && uA <= 1 && uB >= 0 && uB <= 1)
					crossings.push([x1 + uA * (x2 - x1), y1 + uA * (y2 - y1)]);
			}
			if (crossings.length >= limit) break;
		}
		if (crossings.length >= limit) break;
		openCount = kept;
		open[openCount++] = current;
	}
	return { crossings, capped: crossings.length >= limit, outOfBudget, tests };
}

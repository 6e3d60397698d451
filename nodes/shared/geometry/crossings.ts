/**
 * Where the edges of polygon rings cross (pure; no n8n imports).
 *
 * A sweep over the edges in order of their left end: each edge is tested against the edges
 * still open at its left end (those whose right end is not behind it), after a bounding-box
 * test. Open edges are kept in a flat list of typed arrays, so for a real plot outline, where
 * a vertical line crosses a handful of edges, the sweep costs one sort plus a few tests per
 * edge. (sweepline-intersections, used before, does the same tests but keeps its events as
 * objects in a binary heap: at 300,000 vertices it spent most of its time in heap comparisons
 * and garbage collection, and grew as n^1.4; see BENCHMARKS.md, "Pre-flight growth".) An
 * outline made of long spikes, where a vertical line crosses O(n) edges, stays quadratic, as
 * it is with every sweep that reports each crossing.
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
import type { Position } from './types';

export interface CrossingOptions {
	/** Report only crossings between different parts (the polygons of a MultiPolygon). */
	betweenPartsOnly?: boolean;
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
 * consecutive positions), one [x, y] per crossing pair of edges, roughly from west to east.
 * Only the first two numbers of each position are read.
 */
export function findCrossings(parts: Position[][][], options: CrossingOptions = {}): Position[] {
	const betweenPartsOnly = options.betweenPartsOnly === true;
	let edgeCount = 0;
	let ringCount = 0;
	for (const rings of parts) {
		ringCount += rings.length;
		for (const ring of rings) edgeCount += Math.max(0, ring.length - 1);
	}
	// Each edge from its left end (smaller x, then smaller y) to its right end.
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

	const order = new Int32Array(edgeCount);
	for (let i = 0; i < edgeCount; i++) order[i] = i;
	order.sort((a, b) => lx[a] - lx[b] || ly[a] - ly[b]);

	const crossings: Position[] = [];
	const open = new Int32Array(edgeCount);
	let openCount = 0;
	for (let k = 0; k < edgeCount; k++) {
		const s = order[k];
		const x1 = lx[s];
		const y1 = ly[s];
		const x2 = rx[s];
		const y2 = ry[s];
		const sLow = Math.min(y1, y2);
		const sHigh = Math.max(y1, y2);
		const sRing = ringOf[s];
		const sPart = partOfRing[sRing];
		let kept = 0;
		for (let j = 0; j < openCount; j++) {
			const o = open[j];
			const x4 = rx[o];
			if (x4 < x1) continue; // behind the sweep: closed for good
			open[kept++] = o;
			const y3 = ly[o];
			const y4 = ry[o];
			if ((y3 < sLow && y4 < sLow) || (y3 > sHigh && y4 > sHigh)) continue;
			const oRing = ringOf[o];
			if (betweenPartsOnly && partOfRing[oRing] === sPart) continue;
			const x3 = lx[o];
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
				continue;
			}
			const denom = (y4 - y3) * (x2 - x1) - (x4 - x3) * (y2 - y1);
			if (denom === 0) continue; // parallel or collinear
			const uA = ((x4 - x3) * (y1 - y3) - (y4 - y3) * (x1 - x3)) / denom;
			const uB = ((x2 - x1) * (y1 - y3) - (y2 - y1) * (x1 - x3)) / denom;
			if (uA >= 0 && uA <= 1 && uB >= 0 && uB <= 1) {
				crossings.push([x1 + uA * (x2 - x1), y1 + uA * (y2 - y1)]);
			}
		}
		openCount = kept;
		open[openCount++] = s;
	}
	return crossings;
}

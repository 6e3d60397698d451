/**
 * The same land drawn again: two polygon geometries whose rings are the same closed paths,
 * whatever vertex each ring starts at, whichever way it is walked, in whatever order the holes
 * and the parts come (a Polygon and a MultiPolygon of that one part included). Validate's
 * overlap check (plotOverlaps.ts) finds such copies before clipping: their shared area is the
 * whole plot, known without a clip. Pure.
 *
 * How: each ring in a canonical form — its closing position dropped, started at its smallest
 * vertex (x, then y), walked in the direction that gives the smaller sequence (both directions
 * compared, so that the choice is exact and needs no area sign) —; the holes of a polygon and
 * the parts of a MultiPolygon sorted by their canonical sequences; the whole as one array of
 * numbers with the lengths that give it structure. Equal arrays, the same point set. A hash of
 * the array finds the candidates in O(n) over all plots; the arrays themselves confirm them.
 * Only x and y count (a third coordinate has no area).
 */
import type { MultiPolygon, Polygon, Position } from '../geometry';

/** The canonical form of a polygon geometry: numbers (lengths and coordinates) and their hash. */
export interface ShapeForm {
	values: Float64Array;
	hash: string;
}

function compareSeq(a: ArrayLike<number>, b: ArrayLike<number>): number {
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
	return a.length - b.length;
}

/** The ring without its closing position (when closed). */
function openRing(ring: Position[]): Position[] {
	const n = ring.length;
	if (n > 1 && ring[0][0] === ring[n - 1][0] && ring[0][1] === ring[n - 1][1])
		return ring.slice(0, n - 1);
	return ring;
}

/** The ring's x, y from `start`, forward or backward, as one sequence. */
function walk(ring: Position[], start: number, forward: boolean): number[] {
	const n = ring.length;
	const out = new Array<number>(2 * n);
	for (let k = 0; k < n; k++) {
		const p = ring[forward ? (start + k) % n : (start - k + n) % n];
		out[2 * k] = p[0] + 0; // -0 as 0
		out[2 * k + 1] = p[1] + 0;
	}
	return out;
}

/** Compares the ring walked from `s1` (forward or not) with the ring walked from `s2`, lazily. */
function compareWalks(ring: Position[], s1: number, f1: boolean, s2: number, f2: boolean): number {
	const n = ring.length;
	for (let k = 0; k < n; k++) {
		const p = ring[f1 ? (s1 + k) % n : (s1 - k + n) % n];
		const q = ring[f2 ? (s2 + k) % n : (s2 - k + n) % n];
		if (p[0] !== q[0]) return p[0] < q[0] ? -1 : 1;
		if (p[1] !== q[1]) return p[1] < q[1] ? -1 : 1;
	}
	return 0;
}

/** The canonical sequence of one ring (x0, y0, x1, y1, …; no closing position). */
export function canonicalRing(ring: Position[]): number[] {
	const open = openRing(ring);
	if (open.length === 0) return [];
	// the smallest vertex; a ring that touches itself there has it more than once: try each
	let starts: number[] = [0];
	for (let i = 1; i < open.length; i++) {
		const c = open[i][0] - open[starts[0]][0] || open[i][1] - open[starts[0]][1];
		if (c < 0) starts = [i];
		else if (c === 0) starts.push(i);
	}
	let best = { start: starts[0], forward: true };
	for (const start of starts)
		for (const forward of [true, false])
			if (compareWalks(open, start, forward, best.start, best.forward) < 0)
				best = { start, forward };
	return walk(open, best.start, best.forward);
}

/** A polygon's rings: the outer ring's canonical sequence, then the holes' sorted. */
function canonicalPolygon(rings: Position[][]): number[][] {
	const [outer, ...holes] = rings.map(canonicalRing);
	return [outer ?? [], ...holes.sort(compareSeq)];
}

const words = new Float64Array(1);
const halves = new Int32Array(words.buffer);

function hashOf(values: Float64Array): string {
	let h1 = 0x811c9dc5;
	let h2 = 0x9e3779b9;
	for (let i = 0; i < values.length; i++) {
		words[0] = values[i];
		h1 = Math.imul(h1 ^ halves[0], 0x85ebca6b) ^ halves[1];
		h2 = Math.imul(h2 ^ halves[1], 0xc2b2ae35) ^ halves[0];
	}
	return `${values.length}:${h1 >>> 0}:${h2 >>> 0}`;
}

/** The canonical form of a polygon geometry (see the header): O(n) in its vertices, plus the sort of its parts. */
export function shapeForm(geometry: Polygon | MultiPolygon): ShapeForm {
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	const flat = polygons.map((rings) => {
		const out: number[] = [];
		for (const r of canonicalPolygon(rings)) {
			out.push(r.length);
			for (const x of r) out.push(x);
		}
		return out;
	});
	flat.sort(compareSeq);
	let size = 1;
	for (const f of flat) size += 1 + f.length;
	const values = new Float64Array(size);
	values[0] = flat.length;
	let at = 1;
	for (const f of flat) {
		values[at++] = f.length;
		values.set(f, at);
		at += f.length;
	}
	return { values, hash: hashOf(values) };
}

/** Whether two canonical forms are the same shape (the arrays, not only their hashes). */
export function sameForm(a: ShapeForm, b: ShapeForm): boolean {
	return a.hash === b.hash && compareSeq(a.values, b.values) === 0;
}

/**
 * For each of `n` plots, the number of its shape: plots with equal numbers are the same
 * boundary (exact duplicates, told by `firstOf`, or copies starting at another vertex or walked
 * the other way). Only plots in some pair of `pairs` (keys a × n + b) need their canonical form.
 */
export function sameShapeClasses(
	geometryOf: (a: number) => Polygon | MultiPolygon,
	firstOf: (a: number) => number,
	pairs: Float64Array,
	n: number,
): Uint32Array {
	const inPair = new Uint8Array(n);
	for (const key of pairs) {
		const a = Math.floor(key / n);
		inPair[a] = 1;
		inPair[key - a * n] = 1;
	}
	const classOf = new Uint32Array(n);
	const byHash = new Map<string, Array<{ form: ShapeForm; id: number }>>();
	const ofFirst = new Map<number, number>();
	let next = 0;
	for (let a = 0; a < n; a++) {
		const first = firstOf(a);
		const earlier = ofFirst.get(first);
		if (earlier !== undefined) {
			classOf[a] = earlier;
			continue;
		}
		let id = next++;
		if (inPair[a]) {
			const form = shapeForm(geometryOf(a));
			const list = byHash.get(form.hash) ?? [];
			const match = list.find((e) => sameForm(e.form, form));
			if (match) id = match.id;
			else {
				list.push({ form, id });
				byHash.set(form.hash, list);
			}
		}
		ofFirst.set(first, id);
		classOf[a] = id;
	}
	return classOf;
}

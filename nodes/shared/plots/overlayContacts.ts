/**
 * The first step of `overlayArea` (overlayArea.ts): each geometry's rings as flat arrays with
 * its edges in a Flatbush index, and every point where an edge of one meets an edge of the
 * other, decided with exact orientation tests (robust-predicates). Pure.
 */
import Flatbush from 'flatbush';
import { orient2d } from 'robust-predicates';

import type { MultiPolygon, Polygon, Position } from '../geometry';

export const RAD = Math.PI / 180;

/**
 * The most points where the two boundaries meet that one pair may have (then OverlayTooLarge):
 * about 40 bytes each on either side. Two re-digitised 300,000-vertex outlines meet 167,000
 * times.
 */
export const MAX_CONTACTS = 2_000_000;

/**
 * The most edge-box tests (edges of one side whose boxes meet an edge's box of the other) per
 * edge of the two boundaries, on average (then OverlayTooLarge): long edges lying over many
 * others make it grow with the product of the edge counts. Two re-digitised outlines of
 * 300,000 vertices each make 6.7 an edge, of 500,000 vertices 11.2 (BENCHMARKS.md).
 */
export const MAX_TESTS_PER_EDGE = 32;

/** The pair is beyond the bounds above: not measured (never read as "no overlap"). */
export class OverlayTooLarge extends Error {}

export const PROPER = 0;
export const CONTACT = 1;

/** One geometry's rings as flat arrays, its edges in a Flatbush index. */
export interface Side {
	/** Longitude, latitude of every vertex (rings one after another, each with its closing vertex). */
	xy: Float64Array;
	/** The first vertex of each ring, and one past the last ring's closing vertex. */
	ringStart: Int32Array;
	/** For each edge's first vertex: +1 when the ring runs with the interior on its left, else −1. */
	sign: Int8Array;
	/** The ring of each vertex. */
	ringOf: Int32Array;
	/** The first vertex of each edge, in the index's order. */
	edgeVertex: Int32Array;
	index: Flatbush;
	maxX: number;
}

/** The points where one side's edges meet the other's, growable. */
export class Events {
	n = 0;
	vertex = new Int32Array(1024);
	t = new Float64Array(1024);
	kind = new Uint8Array(1024);
	x = new Float64Array(1024);
	y = new Float64Array(1024);
	/** The other side's edge (its first vertex) met there, and where along it (0–1). */
	other = new Int32Array(1024);
	u = new Float64Array(1024);
	/** Stretches of an edge shared with an edge of the other side: edge → [t0, t1, same (1/0), …]. */
	on = new Map<number, number[]>();

	push(vertex: number, t: number, kind: number, x: number, y: number, other: number, u: number) {
		if (this.n === this.t.length) this.grow();
		const k = this.n++;
		this.vertex[k] = vertex;
		this.t[k] = t;
		this.kind[k] = kind;
		this.x[k] = x;
		this.y[k] = y;
		this.other[k] = other;
		this.u[k] = u;
	}

	private grow(): void {
		const size = this.t.length * 2;
		const copy = <T extends Int32Array | Float64Array | Uint8Array>(a: T, b: T) => (b.set(a), b);
		this.vertex = copy(this.vertex, new Int32Array(size));
		this.t = copy(this.t, new Float64Array(size));
		this.kind = copy(this.kind, new Uint8Array(size));
		this.x = copy(this.x, new Float64Array(size));
		this.y = copy(this.y, new Float64Array(size));
		this.other = copy(this.other, new Int32Array(size));
		this.u = copy(this.u, new Float64Array(size));
	}

	addOn(vertex: number, t0: number, t1: number, same: boolean): void {
		const list = this.on.get(vertex) ?? [];
		list.push(t0, t1, same ? 1 : 0);
		this.on.set(vertex, list);
	}
}

export const partsOf = (g: Polygon | MultiPolygon): Position[][][] =>
	g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

/** Twice the signed plane area of a ring in (longitude, sin latitude), local to (x0, s0). */
export function ringTwiceArea(
	xy: Float64Array,
	from: number,
	to: number,
	x0: number,
	s0: number,
): number {
	let sum = 0;
	for (let v = from; v < to; v++) sum += term(xy, v, v + 1, x0, s0);
	return sum;
}

function term(xy: Float64Array, v: number, w: number, x0: number, s0: number): number {
	return cross(xy[2 * v], xy[2 * v + 1], xy[2 * w], xy[2 * w + 1], x0, s0);
}

/** x₁·s₂ − x₂·s₁ for two points given in degrees, local to (x0, s0). */
export function cross(
	lon1: number,
	lat1: number,
	lon2: number,
	lat2: number,
	x0: number,
	s0: number,
) {
	const x1 = lon1 * RAD - x0;
	const x2 = lon2 * RAD - x0;
	return x1 * (Math.sin(lat2 * RAD) - s0) - x2 * (Math.sin(lat1 * RAD) - s0);
}

export function sideOf(g: Polygon | MultiPolygon, x0: number, s0: number): Side {
	const parts = partsOf(g);
	let vertices = 0;
	let rings = 0;
	for (const part of parts)
		for (const ring of part) {
			vertices += ring.length;
			rings++;
		}
	const xy = new Float64Array(2 * vertices);
	const ringStart = new Int32Array(rings + 1);
	const sign = new Int8Array(vertices);
	const ringOf = new Int32Array(vertices);
	const edgeVertex = new Int32Array(vertices - rings);
	let v = 0;
	let r = 0;
	let e = 0;
	let maxX = -Infinity;
	for (const part of parts)
		part.forEach((ring, k) => {
			ringStart[r++] = v;
			const from = v;
			for (const p of ring) {
				ringOf[v] = r - 1;
				xy[2 * v] = p[0];
				xy[2 * v + 1] = p[1];
				if (p[0] > maxX) maxX = p[0];
				v++;
			}
			const twice = ringTwiceArea(xy, from, v - 1, x0, s0);
			// outer rings counter-clockwise, holes clockwise: the interior on the left
			const s = (k === 0 ? twice >= 0 : twice <= 0) ? 1 : -1;
			for (let w = from; w < v - 1; w++) {
				sign[w] = s;
				edgeVertex[e++] = w;
			}
		});
	ringStart[r] = v;
	const index = new Flatbush(Math.max(1, e));
	for (let k = 0; k < e; k++) {
		const w = edgeVertex[k];
		const ax = xy[2 * w];
		const ay = xy[2 * w + 1];
		const bx = xy[2 * w + 2];
		const by = xy[2 * w + 3];
		index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
	}
	if (e === 0) index.add(0, 0, 0, 0);
	index.finish();
	return { xy, ringStart, sign, ringOf, edgeVertex: edgeVertex.subarray(0, e), index, maxX };
}

/** Where point p lies on segment a → b, as a parameter 0–1 (p known to lie on its line). */
function along(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
	if (px === ax && py === ay) return 0;
	if (px === bx && py === by) return 1;
	const dx = bx - ax;
	const dy = by - ay;
	const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
	return t < 0 ? 0 : t > 1 ? 1 : t;
}

export const within = (p: number, a: number, b: number) =>
	a <= b ? a <= p && p <= b : b <= p && p <= a;

/** Finds every point where an edge of A meets an edge of B, as events on both sides. */
export function findContacts(a: Side, b: Side, evA: Events, evB: Events): void {
	const A = a.xy;
	const B = b.xy;
	let tests = 0;
	const maxTests = MAX_TESTS_PER_EDGE * (a.edgeVertex.length + b.edgeVertex.length);
	let i = 0;
	let ax0 = 0;
	let ay0 = 0;
	let ax1 = 0;
	let ay1 = 0;
	const contact = (j: number, t: number, u: number, x: number, y: number) => {
		evA.push(i, t, CONTACT, x, y, j, u);
		evB.push(j, u, CONTACT, x, y, i, t);
	};
	const test = (id: number): boolean => {
		if (++tests > maxTests)
			throw new OverlayTooLarge(
				`the edges' boxes overlap too often (more than ${MAX_TESTS_PER_EDGE} tests an edge)`,
			);
		const j = b.edgeVertex[id];
		const bx0 = B[2 * j];
		const by0 = B[2 * j + 1];
		const bx1 = B[2 * j + 2];
		const by1 = B[2 * j + 3];
		const o1 = orient2d(ax0, ay0, ax1, ay1, bx0, by0);
		const o2 = orient2d(ax0, ay0, ax1, ay1, bx1, by1);
		if ((o1 > 0 && o2 > 0) || (o1 < 0 && o2 < 0)) return false;
		const o3 = orient2d(bx0, by0, bx1, by1, ax0, ay0);
		const o4 = orient2d(bx0, by0, bx1, by1, ax1, ay1);
		if ((o3 > 0 && o4 > 0) || (o3 < 0 && o4 < 0)) return false;
		if (evA.n >= MAX_CONTACTS)
			throw new OverlayTooLarge(`the boundaries meet more than ${MAX_CONTACTS} times`);
		if (o1 !== 0 && o2 !== 0 && o3 !== 0 && o4 !== 0) {
			// a proper crossing: inside both edges
			const dax = ax1 - ax0;
			const day = ay1 - ay0;
			const dbx = bx1 - bx0;
			const dby = by1 - by0;
			const den = dax * dby - day * dbx;
			const t = Math.min(1, Math.max(0, ((bx0 - ax0) * dby - (by0 - ay0) * dbx) / den));
			const u = Math.min(1, Math.max(0, ((bx0 - ax0) * day - (by0 - ay0) * dax) / den));
			const x = ax0 + t * dax;
			const y = ay0 + t * day;
			evA.push(i, t, PROPER, x, y, j, u);
			evB.push(j, u, PROPER, x, y, i, t);
			return false;
		}
		if (o1 === 0 && o2 === 0 && o3 === 0 && o4 === 0) {
			// collinear, boxes meeting: the ends of each that lie on the other are contacts
			if (within(bx0, ax0, ax1) && within(by0, ay0, ay1))
				contact(j, along(ax0, ay0, ax1, ay1, bx0, by0), 0, bx0, by0);
			if (within(bx1, ax0, ax1) && within(by1, ay0, ay1))
				contact(j, along(ax0, ay0, ax1, ay1, bx1, by1), 1, bx1, by1);
			if (within(ax0, bx0, bx1) && within(ay0, by0, by1))
				contact(j, 0, along(bx0, by0, bx1, by1, ax0, ay0), ax0, ay0);
			if (within(ax1, bx0, bx1) && within(ay1, by0, by1))
				contact(j, 1, along(bx0, by0, bx1, by1, ax1, ay1), ax1, ay1);
			const tb0 = along(ax0, ay0, ax1, ay1, bx0, by0);
			const tb1 = along(ax0, ay0, ax1, ay1, bx1, by1);
			const ua0 = along(bx0, by0, bx1, by1, ax0, ay0);
			const ua1 = along(bx0, by0, bx1, by1, ax1, ay1);
			if (Math.max(tb0, tb1) > Math.min(tb0, tb1)) {
				// a stretch shared: the interiors on one side when the two run the same way
				const dot = (ax1 - ax0) * (bx1 - bx0) + (ay1 - ay0) * (by1 - by0);
				const same = dot * a.sign[i] * b.sign[j] > 0;
				evA.addOn(i, Math.min(tb0, tb1), Math.max(tb0, tb1), same);
				evB.addOn(j, Math.min(ua0, ua1), Math.max(ua0, ua1), same);
			}
			return false;
		}
		// an end of one on the other (the only point they share)
		if (o1 === 0) contact(j, along(ax0, ay0, ax1, ay1, bx0, by0), 0, bx0, by0);
		if (o2 === 0) contact(j, along(ax0, ay0, ax1, ay1, bx1, by1), 1, bx1, by1);
		if (o3 === 0) contact(j, 0, along(bx0, by0, bx1, by1, ax0, ay0), ax0, ay0);
		if (o4 === 0) contact(j, 1, along(bx0, by0, bx1, by1, ax1, ay1), ax1, ay1);
		return false;
	};
	for (let k = 0; k < a.edgeVertex.length; k++) {
		i = a.edgeVertex[k];
		ax0 = A[2 * i];
		ay0 = A[2 * i + 1];
		ax1 = A[2 * i + 2];
		ay1 = A[2 * i + 3];
		b.index.search(
			Math.min(ax0, ax1),
			Math.min(ay0, ay1),
			Math.max(ax0, ax1),
			Math.max(ay0, ay1),
			test,
		);
	}
}

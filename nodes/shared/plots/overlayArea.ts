/**
 * The shared area of two large polygon geometries (m², as @turf/area measures), found without
 * building the shared polygon: for Validate's cross-row check when the boundaries are too large
 * for the sweep-line clippers (two re-digitised 300,000-vertex outlines of one field:
 * polygon-clipping had not finished after 160 s of CPU and 2.6 GB; see BENCHMARKS.md,
 * "Validate measures the big pair"). Pure.
 *
 * Why it is exact in what it decides: @turf/area measures a ring as the plane area of its
 * vertices in (longitude, sin latitude) (Lambert's equal-area projection) times R². By Green's
 * theorem the area of A ∩ B is then the sum, over the boundary of A ∩ B walked with the
 * interior on its left, of (x₁·s₂ − x₂·s₁) / 2 for each segment. That boundary is made of
 * - the pieces of A's boundary that lie inside B,
 * - the pieces of B's boundary that lie inside A,
 * - the pieces where the two boundaries run along each other in the same direction (the two
 *   interiors on one side; counted once), but not those where they run in opposite directions
 *   (plots that touch: the interiors on either side).
 * So: (1) every pair of an edge of A and an edge of B whose boxes meet (a Flatbush index of B's
 * edges) is decided with exact orientation tests (robust-predicates): apart, a proper crossing
 * (in the interior of both edges), or a contact (an end on the other edge, or collinear edges:
 * then the stretch they share is marked as "on"); (2) each ring is cut at these points into
 * pieces, and each piece is placed from where it starts, exactly, on the input coordinates:
 * after a crossing of (or a contact inside) an edge of the other geometry, by the side of
 * that edge its own edge's far end lies on; after a contact at a corner of the other, by
 * whether its direction lies within that corner's interior angle; a stretch marked "on" is
 * kept (from A only) when the two run the same way. Only a ring that meets nothing, or a
 * piece these tests cannot place, is placed by an exact point-in-polygon test of one of its
 * vertices (or, for a piece within one edge, of a point on it) against the other geometry's
 * edges (the same index, a ray to the east). Only the crossing points themselves are rounded
 * (to doubles), which moves the area by far less than 1e-6 m² a crossing. (A first version
 * placed a piece after a contact by its midpoint: on snapped plots at six decimals, whose
 * corners lie on a neighbour's edge in decimal but not in binary, the rounded midpoint fell
 * on the wrong side of the near-coincident edge; 168 of 1,830 corpus comparisons with GEOS
 * were off by up to 7.7 ha.) Cross-checked against GEOS on degenerate pairs (snapped edges,
 * T-junctions, corners on edges, shared vertices, near-coincident lines) and on the snapped
 * GIS corpora in test/unit/plots/overlayArea.test.ts.
 *
 * Takes validated geometries: rings closed, not crossing themselves or each other; the parts of
 * a MultiPolygon apart (a point is inside when an odd number of rings surround it, as the
 * shortcut of sharedArea.ts reads it).
 *
 * Bounded: the work grows with the edges plus the contacts between the two boundaries; a pair
 * whose boundaries meet more than MAX_CONTACTS times, or whose edge boxes make more than
 * MAX_TESTS_PER_EDGE tests an edge, throws `OverlayTooLarge` (the caller names the pair as not
 * measured) before it can hold more memory than that.
 */
import { orient2d } from 'robust-predicates';

import type { MultiPolygon, Polygon } from '../geometry';
import type { Side } from './overlayContacts';
import {
	cross,
	Events,
	findContacts,
	partsOf,
	PROPER,
	RAD,
	ringTwiceArea,
	sideOf,
	within,
} from './overlayContacts';

export { MAX_CONTACTS, MAX_TESTS_PER_EDGE, OverlayTooLarge } from './overlayContacts';

/** @turf/helpers' earthRadius, which @turf/area uses. */
const RADIUS = 6371008.8;

const IN = 1;
const OUT = 0;
const UNKNOWN = -1;

/**
 * Whether the point lies inside the geometry of `side` (IN, OUT), or on its boundary (UNKNOWN):
 * exact orientation tests on the edges the index finds along a ray to the east.
 */
function locate(px: number, py: number, side: Side): number {
	const xy = side.xy;
	let inside = 0;
	let on = false;
	side.index.search(px, py, Math.max(px, side.maxX), py, (id) => {
		const v = side.edgeVertex[id];
		const ax = xy[2 * v];
		const ay = xy[2 * v + 1];
		const bx = xy[2 * v + 2];
		const by = xy[2 * v + 3];
		const o = orient2d(ax, ay, bx, by, px, py);
		if (o === 0 && within(px, ax, bx) && within(py, ay, by)) on = true;
		// orient2d > 0: the point lies to the right of a → b (robust-predicates' sign)
		if (ay <= py) {
			if (by > py && o < 0) inside ^= 1;
		} else if (by <= py && o > 0) inside ^= 1;
		return false;
	});
	return on ? UNKNOWN : inside ? IN : OUT;
}

/**
 * Whether the boundary of one side, leaving the point of event `k` towards (ax, ay) along its
 * edge, runs into the other side `q` (IN) or not (OUT), decided exactly from the edge of `q`
 * met there (a crossing, or a point inside that edge: which side of it (ax, ay) lies on) or
 * from the corner of `q` met there (whether the direction lies within the corner's interior
 * angle). UNKNOWN when the direction runs along `q`'s boundary (a shared stretch) or has no
 * length.
 */
function leaving(q: Side, ev: Events, k: number, ax: number, ay: number): number {
	const xy = q.xy;
	const j = ev.other[k];
	const u = ev.u[k];
	if (ev.kind[k] === PROPER || (u > 0 && u < 1)) {
		const o = orient2d(xy[2 * j], xy[2 * j + 1], xy[2 * j + 2], xy[2 * j + 3], ax, ay);
		if (o === 0) return UNKNOWN;
		// orient2d < 0: (ax, ay) lies to the left of the edge, where the interior is when sign > 0
		return o < 0 === q.sign[j] > 0 ? IN : OUT;
	}
	const vx = ev.x[k];
	const vy = ev.y[k];
	if (ax === vx && ay === vy) return UNKNOWN;
	const r = q.ringOf[j];
	const from = q.ringStart[r];
	const last = q.ringStart[r + 1] - 1;
	const same = (w: number) => xy[2 * w] === vx && xy[2 * w + 1] === vy;
	// the corner's neighbours (skipping repeated positions), in the order that keeps the interior on the left
	let v = u === 0 ? j : j + 1;
	if (v === last) v = from;
	let p = v;
	let n = v;
	for (let guard = last - from; guard > 0 && same(p); guard--) p = p === from ? last - 1 : p - 1;
	for (let guard = last - from; guard > 0 && same(n); guard--) n = n + 1 >= last ? from : n + 1;
	if (q.sign[from] < 0) [p, n] = [n, p];
	const px = xy[2 * p];
	const py = xy[2 * p + 1];
	const nx = xy[2 * n];
	const ny = xy[2 * n + 1];
	const turn = orient2d(px, py, vx, vy, nx, ny);
	const left1 = orient2d(px, py, vx, vy, ax, ay) < 0;
	const left2 = orient2d(vx, vy, nx, ny, ax, ay) < 0;
	const inside = turn < 0 ? left1 && left2 : turn > 0 ? left1 || left2 : left2;
	return inside ? IN : OUT;
}

/** Events sorted by edge (their first vertex), then along it: an order of their indices. */
function sortEvents(ev: Events, vertices: number): { order: Int32Array; first: Int32Array } {
	const first = new Int32Array(vertices + 1);
	for (let k = 0; k < ev.n; k++) first[ev.vertex[k] + 1]++;
	for (let v = 0; v < vertices; v++) first[v + 1] += first[v];
	const fill = first.slice(0, vertices);
	const order = new Int32Array(ev.n);
	for (let k = 0; k < ev.n; k++) order[fill[ev.vertex[k]]++] = k;
	const t = ev.t;
	for (let v = 0; v < vertices; v++)
		for (let p = first[v] + 1; p < first[v + 1]; p++) {
			const k = order[p];
			let q = p;
			while (q > first[v] && t[order[q - 1]] > t[k]) {
				order[q] = order[q - 1];
				q--;
			}
			order[q] = k;
		}
	return { order, first };
}

/**
 * The sum of (x₁·s₂ − x₂·s₁) over the pieces of `side`'s boundary that bound the shared area:
 * those inside `other`, and (when `keepOn`) those shared with it running the same way.
 */
function tracePieces(
	side: Side,
	other: Side,
	ev: Events,
	keepOn: boolean,
	x0: number,
	s0: number,
): number {
	const xy = side.xy;
	const { order, first } = sortEvents(ev, xy.length / 2);
	let total = 0;
	for (let r = 0; r + 1 < side.ringStart.length; r++) {
		const from = side.ringStart[r];
		const last = side.ringStart[r + 1] - 1; // the closing vertex
		if (last <= from) continue;
		const sign = side.sign[from];
		let k = from;
		while (k < last && first[k + 1] === first[k]) k++;
		if (k === last) {
			// no contact: the ring lies wholly inside or outside the other geometry
			const where = locate(xy[2 * from], xy[2 * from + 1], other);
			if (where === UNKNOWN) throw new Error('a vertex lies on the other boundary, unmarked');
			if (where === IN) total += sign * ringTwiceArea(xy, from, last, x0, s0);
			continue;
		}
		// walk from the first event of edge k once round the ring, back to it
		const start = order[first[k]];
		let px = ev.x[start];
		let py = ev.y[start];
		let sum = 0;
		let pieceWhere = leaving(other, ev, start, xy[2 * k + 2], xy[2 * k + 3]);
		let passed = false; // the piece has passed a vertex (so it is not within one edge)
		let passedOther = false; // … a vertex other than its start
		let testVertex = -1;
		let pieceT = ev.t[start];
		let startX = px;
		let startY = py;
		const classify = (ex: number, ey: number): number => {
			if (testVertex >= 0) {
				const where = locate(xy[2 * testVertex], xy[2 * testVertex + 1], other);
				if (where !== UNKNOWN) return where;
			}
			if (!passedOther)
				for (const f of [0.5, 0.25, 0.75]) {
					const where = locate(startX + f * (ex - startX), startY + f * (ey - startY), other);
					if (where !== UNKNOWN) return where;
				}
			throw new Error(`a piece of boundary near [${ex}, ${ey}] could not be placed`);
		};
		const close = (e: number, evk: number) => {
			const ex = ev.x[evk];
			const ey = ev.y[evk];
			sum += cross(px, py, ex, ey, x0, s0);
			let on = -1;
			const onList = passed ? undefined : ev.on.get(e);
			if (onList) {
				const mid = (pieceT + ev.t[evk]) / 2;
				for (let q = 0; q < onList.length; q += 3)
					if (onList[q] <= mid && mid <= onList[q + 1]) on = onList[q + 2];
			}
			let where: number;
			if (on >= 0) where = keepOn && on === 1 ? IN : OUT;
			else if (!passedOther && ex === startX && ey === startY)
				where = OUT; // no length
			else if (pieceWhere !== UNKNOWN) where = pieceWhere;
			else where = classify(ex, ey);
			if (where === IN) total += sign * sum;
			// the next piece starts here, along edge e
			sum = 0;
			px = ex;
			py = ey;
			startX = ex;
			startY = ey;
			pieceT = ev.t[evk];
			passed = false;
			passedOther = false;
			testVertex = -1;
			pieceWhere = leaving(other, ev, evk, xy[2 * e + 2], xy[2 * e + 3]);
		};
		let e = k;
		let p = first[k] + 1; // edge k's events after the start
		for (;;) {
			for (; p < first[e + 1]; p++) close(e, order[p]);
			// on to the end of edge e
			const w = e + 1;
			const wx = xy[2 * w];
			const wy = xy[2 * w + 1];
			sum += cross(px, py, wx, wy, x0, s0);
			px = wx;
			py = wy;
			passed = true;
			if (wx !== startX || wy !== startY) {
				passedOther = true;
				if (testVertex < 0) testVertex = w;
			}
			e = w === last ? from : w;
			if (e === k) break;
			p = first[e];
		}
		// back at edge k: its first event (the start) closes the last piece
		close(k, start);
	}
	return total;
}

/**
 * The shared area (m²) of two validated polygon geometries, as @turf/area would measure the
 * intersection a clipper builds. Throws `OverlayTooLarge` beyond its bounds, and an Error when
 * a piece of boundary cannot be placed (never silently 0).
 */
export function overlayArea(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): number {
	const first = partsOf(a)[0]?.[0]?.[0];
	if (!first || !partsOf(b)[0]?.[0]?.[0]) return 0;
	// a local origin keeps the terms small (the sum over a closed boundary does not depend on it)
	const x0 = first[0] * RAD;
	const s0 = Math.sin(first[1] * RAD);
	const sa = sideOf(a, x0, s0);
	const sb = sideOf(b, x0, s0);
	const evA = new Events();
	const evB = new Events();
	findContacts(sa, sb, evA, evB);
	const twice = tracePieces(sa, sb, evA, true, x0, s0) + tracePieces(sb, sa, evB, false, x0, s0);
	return Math.max(0, (twice * RADIUS * RADIUS) / 2);
}

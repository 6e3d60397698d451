/**
 * Pairs of plots whose shared area GEOS measured (test/fixtures/overlaps/, made by its
 * geos.py): the two re-digitised 300,000-vertex outlines of issue 35, degenerate pairs written
 * by hand (snapped edges, T-junctions, corners on edges, shared vertices, near-coincident
 * lines, holes, parts), and every pair of plots of the snapped GIS corpus whose boxes share
 * area. Used by test/unit/plots/overlayArea.test.ts and bench/overlaps.ts.
 */
import type { MultiPolygon, Polygon, Position } from '../../nodes/shared/geometry';
import { gisCorpus, seeded } from './gisCorpus';

export interface OverlapCase {
	name: string;
	a: Polygon | MultiPolygon;
	b: Polygon | MultiPolygon;
}

/** A wavy field boundary of `n` vertices (star-shaped: angles strictly increasing, so simple). */
export function fieldOutline(
	n: number,
	radiusDeg: number,
	noiseDeg: number,
	phase: number,
	seed: number,
): Position[] {
	const rnd = seeded(seed);
	const ring: Position[] = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * (i + phase)) / n;
		const r =
			radiusDeg * (1 + 0.15 * Math.sin(3 * a) + 0.05 * Math.sin(17 * a)) +
			(rnd() - 0.5) * 2 * noiseDeg;
		ring.push([10 + r * Math.cos(a), 5 + r * Math.sin(a)]);
	}
	ring.push([...ring[0]]);
	return ring;
}

/**
 * Two re-digitised outlines of one field, `n` vertices each: the same wavy boundary (about
 * 63 ha at 5° N) traced twice with 0.3 m of noise, so that they cross each other often
 * (167,000 times at 300,000 vertices).
 */
export function bigPair(n: number): [Position[], Position[]] {
	return [fieldOutline(n, 0.004, 0.000003, 0, 1), fieldOutline(n, 0.004, 0.000003, 0.5, 2)];
}

const U = 0.001; // about 111 m
const pt = (x: number, y: number): Position => [10 + x * U, 5 + y * U];
const ring = (...points: Array<[number, number]>): Position[] => {
	const r = points.map(([x, y]) => pt(x, y));
	return [...r, r[0]];
};
const poly = (...rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });
const square = (x: number, y: number, w: number, h = w) =>
	ring([x, y], [x + w, y], [x + w, y + h], [x, y + h]);
const E = 1e-12 / U; // 1e-12° in units of U

/** Degenerate pairs, written by hand around (10° E, 5° N); the unit square is about 111 m wide. */
export function degenerateCases(): OverlapCase[] {
	const A = poly(square(0, 0, 1));
	const zigzag: Array<[number, number]> = [];
	for (let k = 0; k <= 10; k++) zigzag.push([1 + (k % 2) * 0.05, k / 10]);
	const left = poly(ring([0, 0], ...zigzag, [0, 1]));
	const right = poly(ring(...zigzag.slice().reverse(), [2, 0], [2, 1]));
	const c: Array<[string, Polygon | MultiPolygon, Polygon | MultiPolygon]> = [
		['snapped: a whole edge shared, plots side by side', A, poly(square(1, 0, 1))],
		['snapped: part of an edge shared, side by side', A, poly(square(1, 0.5, 1))],
		['snapped: part of an edge shared, overlapping', A, poly(square(0.5, 0, 1, 0.5))],
		['snapped: a zigzag boundary shared, side by side', left, right],
		['snapped: a plot inside another along two of its edges', A, poly(square(0, 0, 0.5))],
		[
			'T-junction: a corner in the middle of an edge, outside',
			A,
			poly(ring([1, 0.5], [2, 0], [2, 1])),
		],
		[
			'T-junction: a corner in the middle of an edge, inside',
			A,
			poly(ring([1, 0.5], [0.5, 0.2], [0.5, 0.8])),
		],
		[
			'corner on an edge, the plot passing through it',
			A,
			poly(ring([0.5, 1], [0.7, 0.7], [0.9, 1.3], [0.3, 1.3])),
		],
		[
			'corner on an edge from inside, edges along it',
			A,
			poly(ring([0.2, 1], [0.5, 0.5], [0.8, 1])),
		],
		['shared vertex: crossing there', A, poly(ring([1, 1], [0.5, 1.5], [0.5, 0.5]))],
		['shared vertex: touching there only', A, poly(square(1, 1, 1))],
		[
			'shared corner: edges along both edges of the corner, overlapping',
			A,
			poly(ring([0.5, 0], [1, 0], [1, 0.5], [1.5, 1.5], [0.5, 1.5])),
		],
		[
			'identical, started at another vertex and walked the other way',
			A,
			poly(ring([1, 1], [1, 0], [0, 0], [0, 1])),
		],
		[
			'near-coincident lines 1e-12° apart, overlapping',
			A,
			poly(ring([0.5, E], [1.5, E], [1.5, 0.5], [0.5, 0.5])),
		],
		[
			'near-coincident lines 1e-12° apart, side by side',
			A,
			poly(ring([0.5, -E], [0.5, -0.5], [1.5, -0.5], [1.5, -E])),
		],
		[
			'near-coincident lines crossing at an angle of 1e-9',
			A,
			poly(ring([0.4, -E], [1.5, E], [1.5, 0.5], [0.4, 0.5])),
		],
		[
			'near-coincident: a corner 1e-12° inside an edge',
			A,
			poly(ring([0.5, 1 - E], [0.8, 1.5], [0.2, 1.5])),
		],
		[
			'a hole filled by the other plot',
			poly(square(0, 0, 1), square(0.25, 0.25, 0.5)),
			poly(square(0.25, 0.25, 0.5)),
		],
		[
			'a hole crossed by the other plot',
			poly(square(0, 0, 1), square(0.25, 0.25, 0.5)),
			poly(square(0.5, 0.1, 1, 0.5)),
		],
		[
			'a plot inside a hole, touching its edge',
			poly(square(0, 0, 1), square(0.25, 0.25, 0.5)),
			poly(square(0.25, 0.4, 0.2)),
		],
		[
			'a MultiPolygon crossed by a plot over both parts',
			{ type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(1.5, 0, 1)]] },
			poly(square(0.5, 0.25, 1.5, 0.5)),
		],
		[
			'two MultiPolygons, parts meeting at corners',
			{ type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(1, 1, 1)]] },
			{ type: 'MultiPolygon', coordinates: [[square(1, 0, 1)], [square(0, 1, 1)]] },
		],
		['apart', A, poly(square(3, 3, 1))],
	];
	return c.map(([name, a, b]) => ({ name, a, b }));
}

/** Boxes that share area (as the cross-row check's index finds candidates). */
function boxesShare(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): boolean {
	const box = (g: Polygon | MultiPolygon) => {
		const parts = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
		const xs = parts.flatMap((p) => p[0].map((q) => q[0]));
		const ys = parts.flatMap((p) => p[0].map((q) => q[1]));
		return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
	};
	const p = box(a);
	const q = box(b);
	return Math.min(p[2], q[2]) > Math.max(p[0], q[0]) && Math.min(p[3], q[3]) > Math.max(p[1], q[1]);
}

/** The corpora: the three where polygon-clipping cannot finish some pairs, and three more. */
export const CORPORA: Array<[number, 'full' | 'six', number]> = [
	[45, 'six', 58],
	[-45, 'full', 215],
	[62, 'full', 426],
	[5, 'six', 1],
	[0.5, 'full', 7],
	[-20, 'six', 33],
];

/** Every pair of plots of the snapped GIS corpora whose boxes share area. */
export function corpusCases(): OverlapCase[] {
	const out: OverlapCase[] = [];
	for (const [lat, precision, seed] of CORPORA) {
		const { plots } = gisCorpus(lat, precision, seed, 4);
		for (let i = 0; i < plots.length; i++)
			for (let j = i + 1; j < plots.length; j++)
				if (boxesShare(plots[i].geometry, plots[j].geometry))
					out.push({
						name: `corpus ${lat}° ${precision} seed ${seed}: ${plots[i].id} | ${plots[j].id}`,
						a: plots[i].geometry,
						b: plots[j].geometry,
					});
	}
	return out;
}

export const BIG_PAIR_VERTICES = 300_000;

/** Every case GEOS measured, the big pair last. */
export function referenceCases(): OverlapCase[] {
	const [a, b] = bigPair(BIG_PAIR_VERTICES);
	return [
		...degenerateCases(),
		...corpusCases(),
		{
			name: `two re-digitised outlines of ${BIG_PAIR_VERTICES} vertices`,
			a: { type: 'Polygon', coordinates: [a] },
			b: { type: 'Polygon', coordinates: [b] },
		},
	];
}

/** The sum of all coordinates in order: the fixture names the input GEOS was given by it. */
export function checksum(g: Polygon | MultiPolygon): number {
	let sum = 0;
	for (const part of g.type === 'Polygon' ? [g.coordinates] : g.coordinates)
		for (const r of part) for (const [x, y] of r) sum += x + y;
	return sum;
}

/**
 * A seeded corpus of plots built the way GIS data is (issue 20): parents subdivided into
 * children (the children's corners on the parent's edges at fractional positions, and a
 * T-junction where a grandchild's corner lies on its sibling's edge), neighbours snapped onto
 * part of a parent's edge, a neighbour sharing one vertex, near-coincident edges 1e-9° apart,
 * copies that start at another vertex or run the other way, a MultiPolygon with a part inside
 * a parent, an estate with a hole (a plot filling the hole, one snapped inside it, one across
 * its edge). At a given latitude, at full precision or at six decimals.
 *
 * How the snapping is made exact in decimal terms: the design is on an integer lattice (units
 * of 1e-6°); every parent corner is a multiple of 60 units, so a point at j/60 of an edge is a
 * lattice point, exactly on the edge in decimal arithmetic. At six decimals the coordinates
 * are those decimals (what a GIS tool writes: on the line in decimal, not in binary); at full
 * precision the lattice is scaled by a factor with no short decimal form (on the line in real
 * arithmetic, off it by a rounding in binary).
 *
 * Beside the plots, the pairs whose relation is known by construction: `touch` (no shared
 * area) and `inside` (the shared area is the whole of `a`).
 */
import type { MultiPolygon, Polygon, Position } from '../../nodes/shared/geometry';

export type Precision = 'full' | 'six';

export interface CorpusPlot {
	id: string;
	geometry: Polygon | MultiPolygon;
}

export interface KnownPair {
	/** `inside`: a lies inside b (the shared area is a's own area); `touch`: no shared area. */
	relation: 'inside' | 'touch';
	a: string;
	b: string;
}

export interface Corpus {
	lat: number;
	precision: Precision;
	plots: CorpusPlot[];
	known: KnownPair[];
}

type P = [number, number];

/** mulberry32: the same numbers for the same seed. */
export function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const cross = (o: P, a: P, b: P) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
/** The point at j/60 of the edge from a to b (a lattice point: a and b are multiples of 60). */
const at = (a: P, b: P, j: number): P => [
	a[0] + ((b[0] - a[0]) / 60) * j,
	a[1] + ((b[1] - a[1]) / 60) * j,
];
const gcd = (x: number, y: number): number => (y === 0 ? Math.abs(x) : gcd(y, x % y));

/** A convex hexagon (counter-clockwise) with corners on the 60-unit lattice, interior angles ≤ 150°. */
function hexagon(rnd: () => number, cx: number, cy: number, radius: number): P[] {
	for (;;) {
		const ring: P[] = [];
		for (let i = 0; i < 6; i++) {
			const angle = (i * Math.PI) / 3 + (rnd() - 0.5) * 0.3;
			const r = radius * (0.9 + rnd() * 0.2);
			ring.push([
				Math.round((cx + r * Math.cos(angle)) / 60) * 60,
				Math.round((cy + r * Math.sin(angle)) / 60) * 60,
			]);
		}
		let ok = true;
		for (let i = 0; i < 6; i++) {
			const a = ring[(i + 5) % 6];
			const b = ring[i];
			const c = ring[(i + 1) % 6];
			const turn = cross(a, b, c);
			const cos =
				((a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1])) /
				(Math.hypot(a[0] - b[0], a[1] - b[1]) * Math.hypot(c[0] - b[0], c[1] - b[1]));
			if (turn <= 0 || cos < Math.cos((150 * Math.PI) / 180)) ok = false;
		}
		if (ok) return ring;
	}
}

/** The unit outward normal of the edge a → b of a counter-clockwise ring. */
function outward(a: P, b: P): P {
	const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
	return [(b[1] - a[1]) / len, -(b[0] - a[0]) / len];
}

/** A quadrilateral outside the edge a → b of a counter-clockwise ring, sharing the stretch from s to t. */
function outside(a: P, b: P, s: P, t: P, depth: number, skew: number): P[] {
	const [nx, ny] = outward(a, b);
	const d1 = Math.round(depth);
	const d2 = Math.round(depth * (0.7 + skew));
	return [
		t,
		s,
		[s[0] + Math.round(nx * d1), s[1] + Math.round(ny * d1)],
		[t[0] + Math.round(nx * d2), t[1] + Math.round(ny * d2)],
	];
}

const closed = (ring: P[]): P[] => [...ring, ring[0]];

/** The corpus at one latitude and precision: `families` subdivided parents, each with its neighbours. */
export function gisCorpus(lat: number, precision: Precision, seed: number, families = 3): Corpus {
	const rnd = seeded(seed);
	const lon0 = Number((((seed * 37.13) % 340) - 170).toFixed(3));
	const lat0 = lat;
	const scale = precision === 'six' ? 1e-6 : 1e-6 * 1.000000037137;
	const toLonLat = ([x, y]: P): Position =>
		precision === 'six'
			? [Number((lon0 + x * 1e-6).toFixed(6)), Number((lat0 + y * 1e-6).toFixed(6))]
			: [lon0 + x * scale, lat0 + y * scale];
	const ring = (points: P[]): Position[] => closed(points).map(toLonLat);
	const plots: CorpusPlot[] = [];
	const known: KnownPair[] = [];
	const add = (id: string, geometry: Polygon | MultiPolygon) => plots.push({ id, geometry });
	const polygon = (...rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });

	for (let f = 0; f < families; f++) {
		const cx = f * 12_000;
		const cy = Math.round(((rnd() - 0.5) * 2_000) / 60) * 60;
		const v = hexagon(rnd, cx, cy, 1_500);
		const id = (name: string) => `f${f}:${name}`;
		add(id('parent'), polygon(ring(v)));

		// Subdivided: a chord from edge 0 to edge 3 (corners at j/60, multiples of 4 units), then
		// child 1 split again from a point on the chord (a T-junction on child 2's edge) to edge 1.
		const s1 = at(v[0], v[1], 4 * (4 + Math.floor(rnd() * 7)));
		const s2 = at(v[3], v[4], 4 * (4 + Math.floor(rnd() * 7)));
		const child2 = [s2, v[4], v[5], v[0], s1];
		const d: P = [s1[0] - s2[0], s1[1] - s2[1]];
		const g = gcd(d[0], d[1]);
		const k = Math.max(1, Math.min(g - 1, Math.round(g * (0.3 + rnd() * 0.4))));
		const s3: P = [s2[0] + (d[0] / g) * k, s2[1] + (d[1] / g) * k];
		const s4 = at(v[1], v[2], 20 + Math.floor(rnd() * 20));
		const g1a = [s1, v[1], s4, s3];
		const g1b = [s4, v[2], v[3], s2, s3];
		add(id('child2'), polygon(ring(child2)));
		add(id('grandchild1a'), polygon(ring(g1a)));
		add(id('grandchild1b'), polygon(ring(g1b)));
		// copies: child 2 starting at another vertex, grandchild 1b the other way round
		add(id('child2-rotated'), polygon(ring([...child2.slice(2), ...child2.slice(0, 2)])));
		add(id('grandchild1b-reversed'), polygon(ring([...g1b].reverse())));

		// A neighbour snapped onto part of edge 2 (both its corners there, at fractions).
		const ja = 5 + Math.floor(rnd() * 20);
		const jb = ja + 10 + Math.floor(rnd() * 20);
		add(
			id('neighbour'),
			polygon(ring(outside(v[2], v[3], at(v[2], v[3], ja), at(v[2], v[3], jb), 500, rnd()))),
		);
		// A neighbour sharing only corner 5 (inside the corner's outward angle).
		const n4 = outward(v[4], v[5]);
		const n5 = outward(v[5], v[0]);
		const mid: P = [n4[0] + n5[0], n4[1] + n5[1]];
		const turn = (p: P, angle: number): P => [
			Math.round(600 * (p[0] * Math.cos(angle) - p[1] * Math.sin(angle))),
			Math.round(600 * (p[0] * Math.sin(angle) + p[1] * Math.cos(angle))),
		];
		const len = Math.hypot(mid[0], mid[1]);
		const unit: P = [mid[0] / len, mid[1] / len];
		const a1 = turn(unit, -0.15);
		const a2 = turn(unit, 0.15);
		add(
			id('corner'),
			polygon(ring([v[5], [v[5][0] + a1[0], v[5][1] + a1[1]], [v[5][0] + a2[0], v[5][1] + a2[1]]])),
		);
		// A MultiPolygon: a part snapped outside edge 5, and a copy of grandchild 1a.
		add(id('multi'), {
			type: 'MultiPolygon',
			coordinates: [
				[ring(outside(v[5], v[0], at(v[5], v[0], 30), at(v[5], v[0], 54), 400, rnd()))],
				[ring(g1a)],
			],
		});

		known.push(
			{ relation: 'inside', a: id('child2'), b: id('parent') },
			{ relation: 'inside', a: id('grandchild1a'), b: id('parent') },
			{ relation: 'inside', a: id('grandchild1b'), b: id('parent') },
			{ relation: 'inside', a: id('child2'), b: id('child2-rotated') },
			{ relation: 'inside', a: id('grandchild1b'), b: id('grandchild1b-reversed') },
			{ relation: 'inside', a: id('grandchild1a'), b: id('multi') },
			{ relation: 'touch', a: id('child2'), b: id('grandchild1a') },
			{ relation: 'touch', a: id('child2'), b: id('grandchild1b') },
			{ relation: 'touch', a: id('grandchild1a'), b: id('grandchild1b') },
			{ relation: 'touch', a: id('neighbour'), b: id('parent') },
			{ relation: 'touch', a: id('neighbour'), b: id('grandchild1b') },
			{ relation: 'touch', a: id('corner'), b: id('parent') },
			{ relation: 'touch', a: id('corner'), b: id('child2') },
		);

		if (precision === 'full') {
			// Near-coincident edges: quads along edge 4, one 1e-9° outside the parent's edge (a
			// gap), one 1e-9° inside it (a strip of about 0.01 m²: below any Minimum Overlap).
			const quad = outside(v[4], v[5], at(v[4], v[5], 12), at(v[4], v[5], 40), 450, 0.2);
			const [nx, ny] = outward(v[4], v[5]);
			const shifted = (by: number) =>
				closed(quad).map((p) => {
					const [x, y] = toLonLat(p);
					return [x + nx * by, y + ny * by];
				});
			add(id('near-outside'), polygon(shifted(1e-9)));
			add(id('near-inside'), polygon(shifted(-1e-9)));
			known.push({ relation: 'touch', a: id('near-outside'), b: id('parent') });
		}

		// An estate with a hole: a plot filling the hole, one snapped inside it (two corners on
		// the hole's edges), one across the hole's edge, one inside the hole touching nothing.
		const ex = cx + 4_980; // a multiple of 60, as every corner
		const outer: P[] = [
			[ex - 1_200, cy - 1_200],
			[ex + 1_200, cy - 1_200],
			[ex + 1_200, cy + 1_200],
			[ex - 1_200, cy + 1_200],
		];
		const hole: P[] = [
			[ex - 600, cy - 540],
			[ex + 480, cy - 600],
			[ex + 600, cy + 540],
			[ex - 480, cy + 600],
		];
		add(id('estate'), polygon(ring(outer), ring([...hole].reverse())));
		add(id('hole-filler'), polygon(ring(hole)));
		const h1 = at(hole[0], hole[1], 10 + Math.floor(rnd() * 10));
		const h2 = at(hole[1], hole[2], 30 + Math.floor(rnd() * 10));
		add(id('in-hole-snapped'), polygon(ring([h1, h2, [ex - 60, cy + 120]])));
		add(
			id('in-hole-apart'),
			polygon(
				ring([
					[ex - 300, cy + 180],
					[ex - 120, cy + 180],
					[ex - 180, cy + 360],
				]),
			),
		);
		add(
			id('across-hole-edge'),
			polygon(
				ring([
					[ex + 300, cy - 900],
					[ex + 900, cy - 900],
					[ex + 900, cy - 300],
					[ex + 300, cy - 300],
				]),
			),
		);
		known.push(
			{ relation: 'touch', a: id('hole-filler'), b: id('estate') },
			{ relation: 'touch', a: id('in-hole-snapped'), b: id('estate') },
			{ relation: 'touch', a: id('in-hole-apart'), b: id('estate') },
			{ relation: 'inside', a: id('in-hole-snapped'), b: id('hole-filler') },
			{ relation: 'inside', a: id('in-hole-apart'), b: id('hole-filler') },
		);
	}
	return { lat, precision, plots, known };
}

/** The three rows of issue 20 (Polygon, lon/lat): a parent, a neighbour touching it, a child inside it. */
export const ISSUE_20_ROWS = {
	parent: [
		[114.087446, -0.963122],
		[114.087266, -0.959392],
		[114.083878, -0.958743],
		[114.082359, -0.962238],
		[114.084276, -0.964142],
		[114.087446, -0.963122],
	],
	neighbour: [
		[114.085861, -0.963632],
		[114.08491, -0.963938],
		[114.084792, -0.965313],
		[114.086251, -0.964843],
		[114.085861, -0.963632],
	],
	child: [
		[114.08491, -0.963938],
		[114.085861, -0.963632],
		[114.085471, -0.962421],
		[114.085028, -0.962563],
		[114.08491, -0.963938],
	],
};

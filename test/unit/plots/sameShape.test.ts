/** The canonical form of a plot's boundary (nodes/shared/plots/sameShape.ts): one land, one form. */
import type { MultiPolygon, Polygon, Position } from '../../../nodes/shared/geometry';
import { canonicalRing, sameForm, shapeForm } from '../../../nodes/shared/plots/sameShape';

const square = (x: number, y: number, s: number): Position[] => [
	[x, y],
	[x + s, y],
	[x + s, y + s],
	[x, y + s],
	[x, y],
];
/** The closed ring started at its `k`-th vertex. */
const rotate = (ring: Position[], k: number): Position[] => {
	const open = ring.slice(0, -1);
	const r = [...open.slice(k), ...open.slice(0, k)];
	return [...r, r[0]];
};
const poly = (...rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });
const same = (a: Polygon | MultiPolygon, b: Polygon | MultiPolygon) =>
	sameForm(shapeForm(a), shapeForm(b));

describe('sameShape', () => {
	const outer = [
		[0, 0],
		[4, 0],
		[5, 3],
		[2, 5],
		[-1, 3],
		[0, 0],
	];
	const hole1 = [...square(1, 1, 1)].reverse();
	const hole2 = [...square(2.5, 1, 0.5)].reverse();

	it('a ring started at any vertex, walked either way, is one form', () => {
		const base = canonicalRing(outer);
		for (let k = 0; k < 5; k++) {
			expect(canonicalRing(rotate(outer, k))).toEqual(base);
			expect(canonicalRing([...rotate(outer, k)].reverse())).toEqual(base);
		}
		// started at the smallest vertex, closing position dropped
		expect(base.slice(0, 2)).toEqual([-1, 3]);
		expect(base).toHaveLength(10);
	});

	it('holes in another order, a polygon as a one-part MultiPolygon, parts in another order: the same shape', () => {
		const a = poly(outer, hole1, hole2);
		expect(same(a, poly(rotate(outer, 2), rotate(hole2, 1), [...hole1].reverse()))).toBe(true);
		expect(same(a, { type: 'MultiPolygon', coordinates: [[outer, hole1, hole2]] })).toBe(true);
		const far = square(10, 10, 1);
		const multi: MultiPolygon = { type: 'MultiPolygon', coordinates: [[outer], [far]] };
		expect(
			same(multi, { type: 'MultiPolygon', coordinates: [[rotate(far, 3)], [rotate(outer, 1)]] }),
		).toBe(true);
	});

	it('another shape is another form: a vertex moved, a hole left out, -0 and 0 the same', () => {
		const moved = outer.map((p, i) => (i === 2 || i === 0 ? p : [...p]));
		moved[2] = [5, 3.000000001];
		expect(same(poly(outer), poly(moved))).toBe(false);
		expect(same(poly(outer, hole1), poly(outer))).toBe(false);
		expect(same(poly(outer, hole1), poly(outer, hole2))).toBe(false);
		const negZero = outer.map(([x, y]) => [x === 0 ? -0 : x, y]);
		expect(same(poly(outer), poly(negZero))).toBe(true);
	});

	it('a ring that touches itself at its smallest vertex: every start there is tried', () => {
		// two lobes joined at (0, 0): the smallest vertex comes twice
		const lobes = [
			[0, 0],
			[2, 1],
			[2, 2],
			[0, 0],
			[-2, 1],
			[-2, -1],
			[0, 0],
		].map(([x, y]) => [x + 5, y]);
		const base = canonicalRing(lobes);
		for (let k = 0; k < 6; k++) {
			expect(canonicalRing(rotate(lobes, k))).toEqual(base);
			expect(canonicalRing([...rotate(lobes, k)].reverse())).toEqual(base);
		}
	});
});

/**
 * The crossing sweep (nodes/shared/geometry/crossings.ts) against the library it replaced,
 * sweepline-intersections: the same crossings for rings in general position, and never fewer on
 * integer grids (where it also finds the touches the library's event order skips). Speed is
 * measured in `npm run bench` (BENCHMARKS.md), not here.
 */
import fc from 'fast-check';
import sweeplineIntersections from 'sweepline-intersections';

import type { Position } from '../../../nodes/shared/geometry';
import { findCrossings } from '../../../nodes/shared/geometry/crossings';

/** Crossing points as sorted text, to 1e-9 (the two sweeps may compute a point from either edge). */
function points(list: number[][]): string[] {
	return list.map(([x, y]) => `${x.toFixed(9)},${y.toFixed(9)}`).sort();
}

/** What sweepline-intersections reports for one polygon's rings (self) or for several parts (between). */
function library(parts: Position[][][], between: boolean): number[][] {
	if (!between) {
		return sweeplineIntersections(
			{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: parts[0] } },
			false,
		);
	}
	return sweeplineIntersections(
		{
			type: 'FeatureCollection',
			features: parts.map((coordinates) => ({
				type: 'Feature',
				properties: {},
				geometry: { type: 'Polygon', coordinates },
			})),
		},
		true,
	);
}

/** A closed ring of 3–8 corners without repeated consecutive positions, as validation cleans it. */
function ringOf(corners: Position[]): Position[] | null {
	const ring: Position[] = [];
	for (const p of corners) {
		const last = ring[ring.length - 1];
		if (!last || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
	}
	const first = ring[0];
	const last = ring[ring.length - 1];
	if (ring.length > 1 && first[0] === last[0] && first[1] === last[1]) ring.pop();
	if (ring.length < 3) return null;
	return [...ring, [...ring[0]]];
}

/** Coordinates in general position: random longitudes/latitudes to nine decimals, unbiased. */
const degrees = fc.noBias(fc.integer({ min: -180e9, max: 180e9 })).map((v) => v / 1e9);
const floatCorner = fc.tuple(degrees, degrees);
const gridCorner = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }));

function partsOf(corner: fc.Arbitrary<[number, number]>): fc.Arbitrary<Position[][][]> {
	const ring = fc.array(corner, { minLength: 3, maxLength: 8 }).map(ringOf);
	const polygon = fc
		.array(ring, { minLength: 1, maxLength: 3 })
		.map((rings) => rings.filter((r): r is Position[] => r !== null));
	return fc
		.array(polygon, { minLength: 1, maxLength: 3 })
		.map((parts) => parts.filter((p) => p.length > 0))
		.filter((parts) => parts.length > 0);
}

describe('findCrossings against sweepline-intersections', () => {
	it('finds the same crossings in general position (random coordinates with nine decimals)', () => {
		fc.assert(
			fc.property(partsOf(floatCorner), (parts) => {
				for (const rings of parts) {
					expect(points(findCrossings([rings]))).toEqual(points(library([rings], false)));
				}
				if (parts.length > 1) {
					expect(points(findCrossings(parts, { betweenPartsOnly: true }))).toEqual(
						points(library(parts, true)),
					);
				}
			}),
			{ numRuns: 1000 },
		);
	});

	it('finds every crossing the library finds on an integer grid (touches, shared corners, collinear edges)', () => {
		const includes = (ours: string[], theirs: string[]) => {
			const left = [...ours];
			for (const p of theirs) {
				const i = left.indexOf(p);
				if (i < 0) return false;
				left.splice(i, 1);
			}
			return true;
		};
		fc.assert(
			fc.property(partsOf(gridCorner), (parts) => {
				for (const rings of parts) {
					expect(includes(points(findCrossings([rings])), points(library([rings], false)))).toBe(
						true,
					);
				}
				if (parts.length > 1) {
					const ours = points(findCrossings(parts, { betweenPartsOnly: true }));
					expect(includes(ours, points(library(parts, true)))).toBe(true);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});

describe('findCrossings cases', () => {
	const square: Position[] = [
		[0, 0],
		[4, 0],
		[4, 4],
		[0, 4],
		[0, 0],
	];

	it('a simple ring, and neighbouring edges sharing a corner, do not cross', () => {
		expect(findCrossings([[square]])).toEqual([]);
	});

	it('a bow tie crosses once, in the middle', () => {
		const bowTie: Position[] = [
			[0, 0],
			[1, 1],
			[1, 0],
			[0, 1],
			[0, 0],
		];
		expect(findCrossings([[bowTie]])).toEqual([[0.5, 0.5]]);
	});

	it('a hole crossing the exterior crosses it twice; a hole touching it at a corner crosses there', () => {
		const crossing: Position[] = [
			[1, 1],
			[5, 1],
			[5, 2],
			[1, 2],
			[1, 1],
		];
		expect(points(findCrossings([[square, crossing]]))).toEqual(
			points([
				[4, 1],
				[4, 2],
			]),
		);
		const touching: Position[] = [
			[4, 4],
			[2, 3],
			[3, 2],
			[4, 4],
		];
		expect(findCrossings([[square, touching]]).length).toBeGreaterThan(0);
		expect(points(findCrossings([[square, touching]]))).toContain(points([[4, 4]])[0]);
	});

	it('a corner lying on a vertical edge of its own ring is a crossing (sweepline-intersections misses it)', () => {
		const ring: Position[] = [
			[3, 0],
			[2, 3],
			[3, 2],
			[3, 3],
			[3, 0],
		];
		expect(findCrossings([[ring]])).toEqual([[3, 2]]);
		expect(library([[ring]], false)).toEqual([]);
	});

	it('between parts: overlapping polygons cross, separate ones do not, a part never crosses itself', () => {
		const shifted = square.map(([x, y]) => [x + 2, y + 1]);
		const far = square.map(([x, y]) => [x + 10, y]);
		expect(points(findCrossings([[square], [shifted]], { betweenPartsOnly: true }))).toEqual(
			points([
				[2, 4],
				[4, 1],
			]),
		);
		expect(findCrossings([[square], [far]], { betweenPartsOnly: true })).toEqual([]);
		const bowTie: Position[] = [
			[20, 0],
			[21, 1],
			[21, 0],
			[20, 1],
			[20, 0],
		];
		expect(findCrossings([[square], [bowTie]], { betweenPartsOnly: true })).toEqual([]);
	});

	it('reads only the first two numbers of a position', () => {
		const withZ = square.map(([x, y]) => [x, y, 7]);
		expect(findCrossings([[withZ]])).toEqual([]);
	});
});

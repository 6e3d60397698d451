/**
 * Duplicates and overlaps across plots (nodes/shared/plots/plotOverlaps.ts): crafted cases, and
 * the shares-area test that spares Turf the pairs that only touch checked against Turf itself.
 */
import { area } from '@turf/area';
import { intersect } from '@turf/intersect';
import fc from 'fast-check';

import type { MultiPolygon, Polygon, Position } from '../../../nodes/shared/geometry';
import { crossCheckPlots } from '../../../nodes/shared/plots/plotOverlaps';
import { sharedArea, sharesArea } from '../../../nodes/shared/plots/sharedArea';

/** Coordinates as they come from a file: decimal numbers (0.1 + 0.2 would not be 0.3). */
const dec = (n: number) => Number(n.toFixed(9));
const square = (x: number, y: number, s: number): Position[] => [
	[dec(x), dec(y)],
	[dec(x + s), dec(y)],
	[dec(x + s), dec(y + s)],
	[dec(x), dec(y + s)],
	[dec(x), dec(y)],
];
const poly = (...rings: Position[][]): Polygon => ({ type: 'Polygon', coordinates: rings });
const shape = (row: number, geometry: Polygon | MultiPolygon, feature = 0) => ({
	row,
	feature,
	geometry,
});

/** Turf's exact shared area in m² (0 when none). */
function turfOverlap(a: Polygon | MultiPolygon, b: Polygon | MultiPolygon): number {
	const shared = intersect({
		type: 'FeatureCollection',
		features: [
			{ type: 'Feature', properties: {}, geometry: a },
			{ type: 'Feature', properties: {}, geometry: b },
		],
	});
	return shared ? area(shared) : 0;
}

describe('sharesArea', () => {
	const A = poly(square(0, 0, 0.01));
	it.each([
		['apart', 'apart', poly(square(0.02, 0, 0.01))],
		['sharing an edge', 'apart', poly(square(0.01, 0, 0.01))],
		['sharing part of an edge', 'apart', poly(square(0.01, 0.005, 0.01))],
		['touching at a corner', 'apart', poly(square(0.01, 0.01, 0.01))],
		[
			'a corner on the other edge (T)',
			'apart',
			poly([
				[0.01, 0.005],
				[0.02, 0],
				[0.02, 0.01],
				[0.01, 0.005],
			]),
		],
		['crossing', 'overlap', poly(square(0.005, 0.005, 0.01))],
		['inside, no contact', 'overlap', poly(square(0.002, 0.002, 0.002))],
		['inside, sharing an edge', 'overlap', poly(square(0, 0, 0.005))],
		['containing', 'overlap', poly(square(-0.01, -0.01, 0.03))],
		[
			'the same ring from another vertex',
			'overlap',
			poly([...square(0, 0, 0.01).slice(2, 5), ...square(0, 0, 0.01).slice(1, 3)]),
		],
		['the same ring, other winding', 'overlap', poly([...square(0, 0, 0.01)].reverse())],
	] as const)('%s: %s', (_name, verdict, other) => {
		expect(sharesArea(A, other)).toBe(verdict);
		expect(sharesArea(other, A)).toBe(verdict);
		expect(turfOverlap(A, other) > 0).toBe(verdict === 'overlap');
	});

	it('a plot in the hole of another shares no area; one across the hole does', () => {
		const holed = poly(square(0, 0, 0.01), [...square(0.002, 0.002, 0.006)].reverse());
		expect(sharesArea(holed, poly(square(0.003, 0.003, 0.004)))).toBe('apart');
		expect(sharesArea(holed, poly(square(0.002, 0.002, 0.006)))).toBe('apart');
		expect(sharesArea(holed, poly(square(0.001, 0.003, 0.004)))).toBe('overlap');
	});

	it('agrees with Turf on random quadrilaterals and snapped shared edges (never "apart" where Turf finds area)', () => {
		const coordinate = fc.integer({ min: 0, max: 20 }).map((n) => n / 1000);
		const quad = fc
			.tuple(
				coordinate,
				coordinate,
				coordinate,
				coordinate,
				coordinate,
				coordinate,
				coordinate,
				coordinate,
			)
			.map(([a, b, c, d, e, f, g, h]) => [
				[a, b],
				[c, d],
				[e, f],
				[g, h],
				[a, b],
			])
			.filter((ring) => {
				// simple, non-degenerate rings only (the validator refuses the others)
				const p = poly(ring);
				if (Math.abs(area(p)) < 1) return false;
				const [a, b, c, d] = ring;
				const crosses = (p1: number[], p2: number[], p3: number[], p4: number[]) => {
					const o = (x: number[], y: number[], z: number[]) =>
						Math.sign((y[0] - x[0]) * (z[1] - x[1]) - (y[1] - x[1]) * (z[0] - x[0]));
					return o(p1, p2, p3) * o(p1, p2, p4) < 0 && o(p3, p4, p1) * o(p3, p4, p2) < 0;
				};
				return !crosses(a, b, c, d) && !crosses(b, c, d, a);
			});
		let computed = 0;
		fc.assert(
			fc.property(quad, quad, (r1, r2) => {
				const a = poly(r1);
				const b = poly(r2);
				const turf = turfOverlap(a, b);
				const sharing = sharedArea(a, b);
				if (turf > 0.01) expect(sharesArea(a, b)).toBe('overlap');
				if (sharesArea(a, b) === 'apart') expect(turf).toBeLessThan(0.01);
				// the area (clipped, or from the boundaries by the shortcut) is Turf's figure
				if (sharesArea(a, b) === 'overlap') {
					computed++;
					expect(Math.abs(sharing.m2 - turf)).toBeLessThanOrEqual(1e-6 * turf + 1e-3);
				}
			}),
			{ numRuns: 400, seed: 16 },
		);
		expect(computed).toBeGreaterThan(50);
	});
});

describe('sharedArea against @turf/intersect + @turf/area', () => {
	/** A wavy outline of `n` vertices around (x, y), like a walked plot boundary. */
	const outline = (x: number, y: number, r: number, n: number, phase: number): Position[] => {
		const ring: Position[] = [];
		for (let i = 0; i < n; i++) {
			const a = (2 * Math.PI * i) / n;
			const k = r * (1 + 0.2 * Math.sin(3 * a + phase));
			ring.push([dec(x + k * Math.cos(a)), dec(y + k * Math.sin(a))]);
		}
		return [...ring, ring[0]];
	};

	it.each([
		[
			'two walked outlines crossing',
			poly(outline(0, 0, 0.01, 37, 0)),
			poly(outline(0.012, 0.003, 0.009, 23, 1)),
		],
		[
			'clockwise rings',
			poly(outline(0, 0, 0.01, 31, 2).reverse()),
			poly(outline(0.008, 0, 0.01, 29, 3).reverse()),
		],
		[
			'one inside the other',
			poly(outline(0, 0, 0.01, 40, 0)),
			poly(outline(0.001, 0.001, 0.003, 17, 1)),
		],
		[
			'a polygon with a hole across another',
			poly(square(0, 0, 0.02), [...square(0.005, 0.005, 0.01)].reverse()),
			poly(outline(0.01, 0.01, 0.008, 33, 0.5)),
		],
		[
			'a MultiPolygon over two plots',
			{
				type: 'MultiPolygon',
				coordinates: [[outline(0, 0, 0.01, 25, 0)], [outline(0.05, 0, 0.01, 25, 1)]],
			} as MultiPolygon,
			poly(outline(0.03, 0, 0.025, 41, 2)),
		],
		[
			'at 60° north',
			poly(outline(10, 60, 0.01, 37, 0)),
			poly(outline(10.012, 60.003, 0.009, 23, 1)),
		],
	] as const)('%s', (_name, a, b) => {
		const sharing = sharedArea(a, b);
		expect(sharesArea(a, b)).toBe('overlap');
		expect(sharing.m2).toBeDefined();
		const turf = turfOverlap(a, b);
		expect(turf).toBeGreaterThan(1000);
		expect(Math.abs(sharing.m2 - turf) / turf).toBeLessThan(1e-9);
		const reverse = sharedArea(b, a);
		expect(sharesArea(b, a) === 'overlap' && Math.abs(reverse.m2 - turf) / turf).toBeLessThan(1e-9);
	});

	it('leaves shared stretches of boundary to the clipper and gets them right through crossCheckPlots', () => {
		const a = poly(square(0, 0, 0.01));
		const inside = poly(square(0, 0, 0.005));
		expect(sharedArea(a, inside).by).toBe('clipped');
		const r = crossCheckPlots([shape(0, a), shape(1, inside)]);
		expect(r.clippedPairs).toBe(1);
		expect(r.overlaps[0].overlapM2).toBeCloseTo(turfOverlap(a, inside), 6);
		expect(r.overlaps[0].percentOfB).toBeCloseTo(100, 6);
	});
});

describe('crossCheckPlots', () => {
	it('finds duplicates in input order and does not report them as overlaps', () => {
		const r = crossCheckPlots([
			shape(0, poly(square(0, 0, 0.01))),
			shape(1, poly(square(0, 0, 0.01))),
			shape(2, poly(square(0.005, 0, 0.01))),
		]);
		expect(r.duplicates).toEqual([
			{ first: { row: 0, feature: 0 }, duplicate: { row: 1, feature: 0 } },
		]);
		expect(r.overlaps.map((o) => [o.a.row, o.b.row])).toEqual([
			[0, 2],
			[1, 2],
		]);
		const o = r.overlaps[0];
		expect(o.percentOfA).toBeCloseTo(50, 6);
		expect(o.percentOfB).toBeCloseTo(50, 6);
		expect(o.overlapM2).toBeCloseTo(
			turfOverlap(poly(square(0, 0, 0.01)), poly(square(0.005, 0, 0.01))),
			6,
		);
	});

	it('compares features of one row too, and MultiPolygon parts', () => {
		const multi: MultiPolygon = {
			type: 'MultiPolygon',
			coordinates: [[square(1, 1, 0.01)], [square(0.005, 0.005, 0.01)]],
		};
		const r = crossCheckPlots([shape(0, poly(square(0, 0, 0.01)), 0), shape(0, multi, 1)]);
		expect(r.overlaps).toHaveLength(1);
		expect(r.overlaps[0]).toMatchObject({ a: { row: 0, feature: 0 }, b: { row: 0, feature: 1 } });
		expect(r.overlaps[0].percentOfA).toBeCloseTo(25, 4);
		// (the far part lies at 1° N, where a square degree is a little smaller)
		expect(r.overlaps[0].percentOfB).toBeCloseTo(12.5, 2);
	});

	it('leaves out overlaps below the minimum, and everything when overlaps are off', () => {
		const shapes = [shape(0, poly(square(0, 0, 0.01))), shape(1, poly(square(0.00999, 0, 0.01)))];
		const strip = turfOverlap(shapes[0].geometry, shapes[1].geometry);
		expect(strip).toBeGreaterThan(1_000);
		expect(crossCheckPlots(shapes, { minOverlapM2: strip * 2 }).overlaps).toEqual([]);
		expect(crossCheckPlots(shapes, { minOverlapM2: strip / 2 }).overlaps).toHaveLength(1);
		expect(crossCheckPlots(shapes, { overlaps: false })).toMatchObject({
			overlaps: [],
			candidatePairs: 0,
		});
	});

	it('clips only candidate pairs that share area (the index drops the rest)', () => {
		// a 100 × 100 grid of touching squares: every square's box meets its 8 neighbours'
		const shapes = Array.from({ length: 10_000 }, (_, i) =>
			shape(i, poly(square((i % 100) * 0.001, Math.floor(i / 100) * 0.001, 0.001))),
		);
		const r = crossCheckPlots(shapes);
		expect(r.overlaps).toEqual([]);
		expect(r.clippedPairs).toBe(0);
		// boxes that only touch are not even candidates
		expect(r.candidatePairs).toBe(0);
	});

	it('measures each plot against at most `maxMeasuredPerPlot` others (the most box overlap first) and counts the rest', () => {
		// 30 copies of one square, each shifted 1e-7° further east: every pair overlaps
		const shapes = Array.from({ length: 30 }, (_, i) =>
			shape(i, poly(square(Number((i * 1e-7).toFixed(7)), 0, 0.01))),
		);
		const r = crossCheckPlots(shapes, { maxMeasuredPerPlot: 5 });
		expect(r.candidatePairs).toBe((30 * 29) / 2);
		expect(r.measuredPairs + r.unmeasuredPairs).toBe(r.candidatePairs);
		expect(r.overlaps).toHaveLength(r.measuredPairs);
		expect(r.unmeasured.reduce((n, u) => n + u.count, 0)).toBe(2 * r.unmeasuredPairs);
		// the nearest 5 on each side of a plot in the middle are its first: measured
		const partners = (row: number) =>
			r.overlaps.flatMap((o) => (o.a.row === row ? [o.b.row] : o.b.row === row ? [o.a.row] : []));
		expect(partners(15).sort((x, y) => x - y)).toEqual([12, 13, 14, 16, 17, 18]);
		// a plot measured against fewer than all has its count; with no cap every pair is measured
		expect(r.unmeasured.find((u) => u.plot.row === 15)?.count).toBe(29 - 6);
		const all = crossCheckPlots(shapes, { maxMeasuredPerPlot: 1000 });
		expect([all.overlaps.length, all.unmeasuredPairs, all.unmeasured]).toEqual([435, 0, []]);
		// the same areas either way, pair by pair
		const m2 = new Map(all.overlaps.map((o) => [`${o.a.row}|${o.b.row}`, o.overlapM2]));
		for (const o of r.overlaps) expect(o.overlapM2).toBe(m2.get(`${o.a.row}|${o.b.row}`));
	});

	it("stops looking for a plot's candidates after `maxCandidatesPerPlot` and marks its counts as minimums", () => {
		const shapes = Array.from({ length: 30 }, (_, i) =>
			shape(i, poly(square(Number((i * 1e-7).toFixed(7)), 0, 0.01))),
		);
		const r = crossCheckPlots(shapes, { maxMeasuredPerPlot: 5, maxCandidatesPerPlot: 12 });
		expect(r.cappedPlots).toBe(30);
		expect(r.unmeasured).toHaveLength(30);
		expect(r.unmeasured.every((u) => u.atLeast)).toBe(true);
		// what was measured is measured exactly, and no pair twice
		const all = crossCheckPlots(shapes, { maxMeasuredPerPlot: 1000 });
		const m2 = new Map(all.overlaps.map((o) => [`${o.a.row}|${o.b.row}`, o.overlapM2]));
		const keys = r.overlaps.map((o) => `${o.a.row}|${o.b.row}`);
		expect(new Set(keys).size).toBe(keys.length);
		for (const o of r.overlaps) expect(o.overlapM2).toBe(m2.get(`${o.a.row}|${o.b.row}`));
		expect(r.measuredPairs).toBeGreaterThanOrEqual(5 * 15);
		expect(r.candidatePairs).toBeGreaterThanOrEqual(r.measuredPairs);
		expect(r.candidatePairs).toBeLessThan((30 * 29) / 2);
		expect(all.cappedPlots).toBe(0);
	});

	it('points take part in the duplicate check only', () => {
		const point = { type: 'Point' as const, coordinates: [1, 2] };
		const r = crossCheckPlots([
			{ row: 0, feature: 0, geometry: point },
			{ row: 1, feature: 0, geometry: { ...point } },
			shape(2, poly(square(0.5, 1.5, 1))),
		]);
		expect(r.duplicates).toHaveLength(1);
		expect(r.overlaps).toEqual([]);
	});
});

/**
 * Overlaps on plots built the way GIS data is (issue 20): the seeded corpus of
 * test/helpers/gisCorpus.ts (subdivided parents, snapped neighbours, T-junctions, shared
 * vertices, near-coincident edges 1e-9° apart, rotated and reversed copies, MultiPolygon
 * parts, holes) at 0°, ±45° and ±62°, at full precision and at six decimals, compared with an
 * all-pairs reference (@turf/intersect + @turf/area on every pair): precision and recall 1,
 * every shared area within 0.5 m² or 1e-6 of it; and the relations known by construction.
 */
import { area } from '@turf/area';
import { intersect } from '@turf/intersect';

import type { MultiPolygon, Polygon } from '../../../nodes/shared/geometry';
import { crossCheckPlots, DEFAULT_MIN_OVERLAP_M2 } from '../../../nodes/shared/plots/plotOverlaps';
import { sharedArea } from '../../../nodes/shared/plots/sharedArea';
import type { Corpus } from '../../helpers/gisCorpus';
import { gisCorpus, ISSUE_20_ROWS } from '../../helpers/gisCorpus';

type Area = Polygon | MultiPolygon;

/** The reference: @turf/intersect + @turf/area (0 when nothing is shared). */
function reference(a: Area, b: Area): number {
	const shared = intersect({
		type: 'FeatureCollection',
		features: [
			{ type: 'Feature', properties: {}, geometry: a },
			{ type: 'Feature', properties: {}, geometry: b },
		],
	});
	return shared ? area(shared) : 0;
}

const close = (m2: number, expected: number) =>
	Math.abs(m2 - expected) <= Math.max(0.5, 1e-6 * expected);

/** Every pair through the reference: the pairs sharing at least Minimum Overlap, with their areas. */
function allPairs(corpus: Corpus): Map<string, number> {
	const found = new Map<string, number>();
	const { plots } = corpus;
	for (let i = 0; i < plots.length; i++)
		for (let j = i + 1; j < plots.length; j++) {
			const m2 = reference(plots[i].geometry, plots[j].geometry);
			if (m2 >= DEFAULT_MIN_OVERLAP_M2) found.set(`${plots[i].id}|${plots[j].id}`, m2);
		}
	return found;
}

const cases: Array<[number, 'full' | 'six']> = [];
for (const lat of [0, 45, -45, 62, -62])
	for (const p of ['full', 'six'] as const) cases.push([lat, p]);

describe('overlaps on the GIS corpus against the all-pairs reference', () => {
	it.each(cases)(
		'at %p°, %s precision: precision and recall 1, areas within 0.5 m²',
		(lat, precision) => {
			const corpus = gisCorpus(lat, precision, 1000 + lat * 7 + (precision === 'six' ? 1 : 0));
			const byId = new Map(corpus.plots.map((p) => [p.id, p]));
			const result = crossCheckPlots(
				corpus.plots.map((p, i) => ({ row: i, feature: 0, geometry: p.geometry })),
			);
			expect(result.failures).toEqual([]);
			expect(result.unmeasuredPairs).toBe(0);
			expect(result.duplicates).toEqual([]);
			const ours = new Map(
				result.overlaps.map((o) => [
					`${corpus.plots[o.a.row].id}|${corpus.plots[o.b.row].id}`,
					o.overlapM2,
				]),
			);
			const truth = allPairs(corpus);
			const truePositives = [...ours.keys()].filter((k) => truth.has(k)).length;
			const precisionRate = truePositives / ours.size;
			const recall = truePositives / truth.size;
			expect([precisionRate, recall]).toEqual([1, 1]);
			expect(truth.size).toBeGreaterThanOrEqual(corpus.plots.length / 2);
			for (const [pair, m2] of ours) {
				const expected = truth.get(pair)!;
				if (!close(m2, expected)) throw new Error(`${pair}: ${m2} m², reference ${expected} m²`);
			}
			// the relations known by construction hold in both
			for (const { relation, a, b } of corpus.known) {
				const [first, second] =
					corpus.plots.indexOf(byId.get(a)!) < corpus.plots.indexOf(byId.get(b)!) ? [a, b] : [b, a];
				const key = `${first}|${second}`;
				if (relation === 'touch') {
					expect([key, ours.has(key), truth.has(key)]).toEqual([key, false, false]);
				} else {
					const own = area(byId.get(a)!.geometry);
					expect([key, close(ours.get(key) ?? 0, own), close(truth.get(key) ?? 0, own)]).toEqual([
						key,
						true,
						true,
					]);
					const o = result.overlaps.find(
						(x) => `${corpus.plots[x.a.row].id}|${corpus.plots[x.b.row].id}` === key,
					)!;
					expect(first === a ? o.percentOfA : o.percentOfB).toBeCloseTo(100, 4);
				}
			}
		},
	);

	it('the exact shortcut (no boundaries meeting) agrees with the clipper on every corpus pair it takes', () => {
		let taken = 0;
		for (const [lat, precision] of cases) {
			const { plots } = gisCorpus(lat, precision, 1000 + lat * 7 + (precision === 'six' ? 1 : 0));
			for (let i = 0; i < plots.length; i++)
				for (let j = i + 1; j < plots.length; j++) {
					const shared = sharedArea(plots[i].geometry, plots[j].geometry);
					if (shared.by !== 'shortcut') continue;
					taken++;
					const expected = reference(plots[i].geometry, plots[j].geometry);
					if (!close(shared.m2, expected))
						throw new Error(
							`${plots[i].id}|${plots[j].id}: ${shared.m2} m², reference ${expected}`,
						);
				}
		}
		expect(taken).toBeGreaterThan(20);
	});

	it('the three rows of issue 20: the neighbour only touches the parent; the child lies inside it', () => {
		const rows = ISSUE_20_ROWS;
		const poly = (ring: number[][]): Polygon => ({ type: 'Polygon', coordinates: [ring] });
		const result = crossCheckPlots(
			[rows.parent, rows.neighbour, rows.child].map((ring, row) => ({
				row,
				feature: 0,
				geometry: poly(ring),
			})),
		);
		expect(result.overlaps.map((o) => [o.a.row, o.b.row])).toEqual([[0, 2]]);
		const [o] = result.overlaps;
		expect(o.overlapM2 / 10_000).toBeCloseTo(1.15, 2);
		expect(Math.abs(o.overlapM2 - area(poly(rows.child)))).toBeLessThan(0.5);
		expect(o.percentOfB).toBeCloseTo(100, 4);
		// touching, even with Minimum Overlap 0: what clipping leaves there is a sliver
		expect(
			crossCheckPlots(
				[rows.parent, rows.neighbour].map((ring, row) => ({
					row,
					feature: 0,
					geometry: poly(ring),
				})),
				{ minOverlapM2: 0 },
			).overlaps,
		).toEqual([]);
	});
});

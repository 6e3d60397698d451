/**
 * Validate measures the big pair (issue 35): the shared area of large pairs comes from
 * `overlayArea` (nodes/shared/plots/overlayArea.ts), checked against GEOS — the reference in
 * test/fixtures/overlaps/geos-reference.json, made by GEOS 3.11 through Shapely from the cases
 * of test/helpers/overlapCases.ts (how: the fixture's README):
 * - degenerate pairs written by hand (snapped edges, T-junctions, corners on edges, shared
 *   vertices, near-coincident lines, holes, parts), each both ways round;
 * - every pair of the snapped GIS corpora whose boxes share area (892 pairs in 6 corpora, among
 *   them the pairs polygon-clipping cannot finish), both ways round;
 * - the two re-digitised 300,000-vertex outlines: measured through Validate, not refused, within
 *   0.5 m² of GEOS.
 * Also 400 seeded pairs of rings on an integer lattice against polyclip-ts (what
 * @turf/intersect runs, in arbitrary precision). And the bounds: a pair beyond them is named as not computed, never read as "no overlap".
 * No figure here depends on time; the speed is measured in `npm run bench` (section 6d).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { area } from '@turf/area';
import * as polyclip from 'polyclip-ts';

import type { MultiPolygon, Polygon, Position } from '../../../nodes/shared/geometry';
import { checkItemGeometry } from '../../../nodes/shared/plots/geometrySource';
import {
	MAX_TESTS_PER_EDGE,
	overlayArea,
	OverlayTooLarge,
} from '../../../nodes/shared/plots/overlayArea';
import { crossCheckPlots, MAX_CLIP_EDGES_PER_PAIR } from '../../../nodes/shared/plots/plotOverlaps';
import { validateRows } from '../../../nodes/shared/plots/plotValidation';
import { OVERLAY_MIN_EDGES, sharedArea } from '../../../nodes/shared/plots/sharedArea';
import type { OverlapCase } from '../../helpers/overlapCases';
import { seeded } from '../../helpers/gisCorpus';
import {
	BIG_PAIR_VERTICES,
	bigPair,
	checksum,
	CORPORA,
	corpusCases,
	degenerateCases,
} from '../../helpers/overlapCases';

interface Reference {
	reference: string;
	cases: Array<{ name: string; checksum: [number, number]; m2: number }>;
}

const fixture = JSON.parse(
	readFileSync(path.join(__dirname, '../../fixtures/overlaps/geos-reference.json'), 'utf8'),
) as Reference;
const geos = new Map(fixture.cases.map((c) => [c.name, c]));

/** GEOS's shared area for the case, after checking that GEOS was given these very coordinates. */
function reference(c: OverlapCase): number {
	const r = geos.get(c.name);
	if (!r) throw new Error(`no GEOS reference for "${c.name}": run the fixture's geos.py`);
	expect(r.checksum).toEqual([checksum(c.a), checksum(c.b)]);
	return r.m2;
}

it('the reference is GEOS', () => {
	expect(fixture.reference).toMatch(/^GEOS 3\.\d+/);
});

describe('degenerate pairs, against GEOS', () => {
	const cases = degenerateCases();

	it.each(cases.map((c) => [c.name, c] as const))('%s: both ways round', (_name, c) => {
		const expected = reference(c);
		expect(Math.abs(overlayArea(c.a, c.b) - expected)).toBeLessThan(1e-3);
		expect(Math.abs(overlayArea(c.b, c.a) - expected)).toBeLessThan(1e-3);
	});

	it('the cases say what they are: plots side by side share nothing, one inside another shares all of it', () => {
		const byName = (name: string) => reference(cases.find((c) => c.name === name)!);
		expect(byName('snapped: a whole edge shared, plots side by side')).toBe(0);
		expect(byName('snapped: a zigzag boundary shared, side by side')).toBe(0);
		expect(byName('T-junction: a corner in the middle of an edge, outside')).toBe(0);
		expect(byName('shared vertex: touching there only')).toBe(0);
		expect(byName('a hole filled by the other plot')).toBe(0);
		expect(byName('near-coincident lines 1e-12° apart, overlapping')).toBeGreaterThan(3_000);
	});
});

describe('the snapped GIS corpora, every pair whose boxes share area, against GEOS', () => {
	const all = corpusCases();

	it('892 pairs in 6 corpora', () => {
		expect(all).toHaveLength(892);
		expect(CORPORA).toHaveLength(6);
	});

	it.each(CORPORA.map(([lat, precision, seed]) => [lat, precision, seed] as const))(
		'%p°, %s, seed %p: within 1e-3 m² of GEOS, both ways round',
		(lat, precision, seed) => {
			const prefix = `corpus ${lat}° ${precision} seed ${seed}: `;
			const cases = all.filter((c) => c.name.startsWith(prefix));
			expect(cases.length).toBeGreaterThan(50);
			const off: string[] = [];
			for (const c of cases) {
				const expected = reference(c);
				for (const m2 of [overlayArea(c.a, c.b), overlayArea(c.b, c.a)])
					if (!(Math.abs(m2 - expected) < 1e-3)) off.push(`${c.name}: ${m2} m², GEOS ${expected}`);
			}
			expect(off).toEqual([]);
		},
	);
});

describe('lattice pairs (every contact degenerate or exact), against polyclip-ts (arbitrary precision)', () => {
	const orient = (a: Position, b: Position, c: Position) =>
		Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
	/** No two edges meet but neighbours at their shared end, and no neighbour folds back (integers: exact). */
	function simple(r: Position[]): boolean {
		const n = r.length - 1;
		for (let i = 0; i < n; i++) {
			const [p, q, t] = [r[i], r[i + 1], r[(i + 2) % n]];
			if (
				orient(p, q, t) === 0 &&
				(q[0] - p[0]) * (t[0] - q[0]) + (q[1] - p[1]) * (t[1] - q[1]) < 0
			)
				return false;
			for (let j = i + 2; j < n; j++) {
				if (i === 0 && j === n - 1) continue;
				const [c, d] = [r[j], r[j + 1]];
				const [o1, o2, o3, o4] = [
					orient(p, q, c),
					orient(p, q, d),
					orient(c, d, p),
					orient(c, d, q),
				];
				const apart = (k: 0 | 1) =>
					Math.max(p[k], q[k]) < Math.min(c[k], d[k]) ||
					Math.max(c[k], d[k]) < Math.min(p[k], q[k]);
				if (o1 * o2 <= 0 && o3 * o4 <= 0 && !(o1 === 0 && o2 === 0 && (apart(0) || apart(1))))
					return false;
			}
		}
		return true;
	}
	/** A star-shaped ring of `n` vertices on an integer lattice around (cx, cy): radii 2–7. */
	function latticeRing(rnd: () => number, cx: number, cy: number, n: number): Position[] {
		const angles = Array.from({ length: n }, () => rnd() * 2 * Math.PI).sort((a, b) => a - b);
		const ring: Position[] = [];
		for (const a of angles) {
			const r = 2 + Math.floor(rnd() * 6);
			const p = [Math.round(cx + r * Math.cos(a)), Math.round(cy + r * Math.sin(a))];
			const last = ring[ring.length - 1];
			if (!last || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
		}
		return [...ring, ring[0]];
	}

	it('400 pairs of simple lattice rings (shared vertices, collinear edges, T-junctions everywhere): within 1e-3 m², both ways round', () => {
		const rnd = seeded(35);
		const degrees = (ring: Position[]): Polygon => ({
			type: 'Polygon',
			coordinates: [ring.map(([x, y]) => [10 + x * 1e-5, 5 + y * 1e-5])],
		});
		const off: string[] = [];
		let compared = 0;
		while (compared < 400) {
			const a = latticeRing(rnd, 0, 0, 4 + Math.floor(rnd() * 8));
			const b = latticeRing(
				rnd,
				Math.floor(rnd() * 6) - 3,
				Math.floor(rnd() * 6) - 3,
				4 + Math.floor(rnd() * 8),
			);
			if (a.length < 4 || b.length < 4 || !simple(a) || !simple(b)) continue;
			const [pa, pb] = [degrees(a), degrees(b)];
			const shared = polyclip.intersection(pa.coordinates as never, pb.coordinates as never);
			const expected = shared.length ? area({ type: 'MultiPolygon', coordinates: shared }) : 0;
			for (const m2 of [overlayArea(pa, pb), overlayArea(pb, pa)])
				if (!(Math.abs(m2 - expected) < 1e-3))
					off.push(`${JSON.stringify([a, b])}: ${m2}, ${expected}`);
			compared++;
		}
		expect(off).toEqual([]);
	});
});

describe(`two overlapping re-digitised outlines of ${BIG_PAIR_VERTICES.toLocaleString('en-US')} vertices`, () => {
	const [a, b] = bigPair(BIG_PAIR_VERTICES);
	const poly = (ring: Position[]): Polygon => ({ type: 'Polygon', coordinates: [ring] });
	const name = `two re-digitised outlines of ${BIG_PAIR_VERTICES} vertices`;

	it('the cross-row check measures them by overlay, within 0.5 m² of GEOS, within the budget', () => {
		const expected = reference({ name, a: poly(a), b: poly(b) });
		expect(expected).toBeGreaterThan(600_000);
		const cross = crossCheckPlots([
			{ row: 0, feature: 0, geometry: poly(a) },
			{ row: 1, feature: 0, geometry: poly(b) },
		]);
		expect(cross.refused).toEqual([]);
		expect(cross.failures).toEqual([]);
		expect(cross.clippedEdges).toBe(2 * BIG_PAIR_VERTICES);
		expect(cross.clippedEdges).toBeLessThanOrEqual(MAX_CLIP_EDGES_PER_PAIR);
		expect(cross.overlaps).toHaveLength(1);
		expect(Math.abs(cross.overlaps[0].overlapM2 - expected)).toBeLessThan(0.5);
	}, 300_000); // no figure depends on time; the limit only allows for a loaded machine

	it('Validate: measured, not refused — both rows name the overlap, none says "not measured"', () => {
		const rows = [a, b].map((ring, row) => ({
			row,
			geometry: checkItemGeometry('geoJson', { geoJson: poly(ring) }),
			fieldProblems: [],
		}));
		const { reports, summary } = validateRows(rows, { repair: false, overlaps: true });
		expect(summary).toMatchObject({
			overlapping_pairs: 1,
			overlap_pairs_over_budget: 0,
			overlap_pairs_not_computed: 0,
			pairs_not_measured: [],
			clipped_edges: 2 * BIG_PAIR_VERTICES,
		});
		for (const r of reports) {
			expect(r.warnings.map((w) => w.code)).toEqual(['overlapping_plots']);
			expect([r.overlap_count, r.overlaps_measured, r.overlaps_not_measured]).toEqual([1, 1, 0]);
		}
		const overlap = (summary.overlaps as Array<{ overlap_ha: number }>)[0];
		const expected = reference({ name, a: poly(a), b: poly(b) });
		expect(Math.abs(overlap.overlap_ha - expected / 10_000)).toBeLessThan(0.0001);
	}, 300_000);
});

describe('which path a pair takes', () => {
	it(`pairs of more than ${OVERLAY_MIN_EDGES} edges go to the overlay; smaller pairs stay with polygon-clipping`, () => {
		const [a, b] = bigPair(OVERLAY_MIN_EDGES / 2);
		const poly = (ring: Position[]): Polygon => ({ type: 'Polygon', coordinates: [ring] });
		expect(sharedArea(poly(a), poly(b)).by).toBe('clipped'); // exactly OVERLAY_MIN_EDGES
		const [c, d] = bigPair(OVERLAY_MIN_EDGES / 2 + 1);
		const shared = sharedArea(poly(c), poly(d));
		expect(shared.by).toBe('overlay');
		// the two paths agree on the same pair
		expect(Math.abs(overlayArea(poly(a), poly(b)) - sharedArea(poly(a), poly(b)).m2)).toBeLessThan(
			1e-3,
		);
	});
});

describe('bounds: a pair beyond them is not computed, and says so', () => {
	/** A comb of `teeth` long thin teeth (vertical, or horizontal when `across`), about 1 km. */
	function comb(teeth: number, across: boolean): Polygon {
		const w = 0.01 / teeth;
		const ring: Position[] = [[0, -0.001]];
		for (let i = 0; i < teeth; i++)
			ring.push([i * w, 0.01], [i * w + w / 2, 0.01], [i * w + w / 2, 0], [(i + 1) * w, 0]);
		ring.push([0.01, -0.001], [0, -0.001]);
		const at = ([x, y]: Position): Position => (across ? [10 + y, 5 + x] : [10 + x, 5 + y]);
		return { type: 'Polygon', coordinates: [ring.map(at)] };
	}
	it('two combs across each other (every long edge over every other): OverlayTooLarge, before the work grows with their product', () => {
		let thrown: unknown;
		try {
			overlayArea(comb(600, false), comb(600, true));
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(OverlayTooLarge);
		expect((thrown as Error).message).toBe(
			`the edges' boxes overlap too often (more than ${MAX_TESTS_PER_EDGE} tests an edge)`,
		);
	});

	it('through the cross-row check (12,000 edges: the overlay path): a failure naming the reason, never an overlap of 0', () => {
		const a = comb(1_500, false);
		const b: MultiPolygon = { type: 'MultiPolygon', coordinates: [comb(1_500, true).coordinates] };
		const cross = crossCheckPlots([
			{ row: 0, feature: 0, geometry: a },
			{ row: 1, feature: 0, geometry: b },
		]);
		expect(cross.overlaps).toEqual([]);
		expect(cross.failures).toHaveLength(1);
		expect(cross.failures[0].reason).toMatch(/^overlay: the edges' boxes overlap too often/);
	});
});

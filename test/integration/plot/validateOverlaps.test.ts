/**
 * Plot → Validate's overlaps through n8n's engine (issue 20): the three rows of the issue
 * (a neighbour snapped onto the parent's edge touches it; a child inside it overlaps by its
 * whole area), and the bounds: each row lists at most 5 duplicates and overlaps (largest
 * first) with their full counts, each plot is measured against at most 10 others (the rest
 * counted and named), the summary lists at most 100 and keeps the totals. Times and sizes of
 * the worst cases are in the bench (BENCHMARKS.md, section 6).
 */
import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { ISSUE_20_ROWS } from '../../helpers/gisCorpus';
import { fake, usePlotService } from './helpers';

interface Listed {
	feature: number;
	other_item: number;
	other_feature: number;
	overlap_ha?: number;
	overlap_percent_of_this?: number;
	overlap_percent_of_other?: number;
}

interface Validation {
	valid: boolean;
	warnings: Array<{ code: string; message: string }>;
	area_ha: number | null;
	duplicates: Listed[];
	duplicate_count: number;
	overlaps: Listed[];
	overlap_count: number;
	overlaps_not_measured: number;
	overlap_candidates: number;
	overlaps_measured: number;
}

const validationOf = (json: IDataObject) => json.validation as unknown as Validation;
const polygon = (ring: number[][]) => ({ type: 'Polygon', coordinates: [ring] });

/** A walked outline of 24 vertices (about 3 ha at 5° N), six decimals. */
const outline = (lon: number, lat: number): number[][] => {
	const ring: number[][] = [];
	for (let i = 0; i < 24; i++) {
		const a = (2 * Math.PI * i) / 24;
		const r = 0.001 * (1 + 0.15 * Math.sin(3 * a));
		ring.push([
			Number((lon + r * Math.cos(a)).toFixed(7)),
			Number((lat + r * Math.sin(a)).toFixed(7)),
		]);
	}
	return [...ring, ring[0]];
};

describe('Plot → Validate: overlaps on snapped data, bounded output (through the n8n engine)', () => {
	usePlotService();

	const validate = async (input: IDataObject[], extra: IDataObject = {}) =>
		await runNode({
			parameters: {
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				...extra,
			},
			input,
			store: new CredentialStore(),
			withCredential: false,
		});

	it('the three rows of issue 20: neighbour and parent do not overlap; the child overlaps the parent by 1.15 ha, 100 % of the child', async () => {
		const rows = [
			{ name: 'parent', geojson: polygon(ISSUE_20_ROWS.parent) },
			{ name: 'neighbour', geojson: polygon(ISSUE_20_ROWS.neighbour) },
			{ name: 'child', geojson: polygon(ISSUE_20_ROWS.child) },
		];
		for (const options of [{}, { minOverlapM2: 0 }]) {
			const { items, error } = await validate(rows, { options });
			expect(error).toBeUndefined();
			const [parent, neighbour, child] = items.map((i) => validationOf(i.json));
			expect(neighbour.overlaps).toEqual([]);
			expect(neighbour.overlap_count).toBe(0);
			expect(parent.overlaps.map((o) => o.other_item)).toEqual([2]);
			expect(child.overlaps).toEqual([
				{
					feature: 0,
					other_item: 0,
					other_feature: 0,
					overlap_ha: child.area_ha,
					overlap_percent_of_this: 100,
					overlap_percent_of_other: expect.any(Number),
				},
			]);
			expect(child.overlaps[0].overlap_ha).toBeCloseTo(1.15, 2);
			expect(child.overlaps[0].overlap_percent_of_other).toBeLessThan(20);
			expect(parent.overlaps[0].overlap_percent_of_other).toBe(100);
			expect(neighbour.warnings.map((w) => w.code)).not.toContain('overlapping_plots');
			expect(items.every((i) => validationOf(i.json).overlaps_not_measured === 0)).toBe(true);
		}
		expect(fake.log.count()).toBe(0);
	});

	it('60 near-identical plots (each shifted 1e-7°): 5 listed per row, largest first, with full counts; the cap on measured pairs named', async () => {
		const rows = Array.from({ length: 60 }, (_, i) => ({
			geojson: polygon(outline(Number((5 + i * 1e-7).toFixed(7)), 5)),
		}));
		const { items, error } = await validate(rows);
		expect(error).toBeUndefined();
		const v = items.map((i) => validationOf(i.json));
		let measured = 0;
		for (const row of v) {
			expect(row.overlaps).toHaveLength(5);
			const sizes = row.overlaps.map((o) => o.overlap_ha!);
			expect([...sizes].sort((x, y) => y - x)).toEqual(sizes);
			// every other plot is counted: measured and overlapping, or not measured
			expect(row.overlap_count + row.overlaps_not_measured).toBe(59);
			expect(row.overlap_count).toBeGreaterThanOrEqual(10);
			expect(row.overlaps_not_measured).toBeGreaterThan(0);
			// one warning for the many overlaps, naming the count and the largest
			const many = row.warnings.filter((w) => w.code === 'overlapping_plots');
			expect(many).toHaveLength(1);
			// counts stated as counts (issue 28): the true number of candidates, and how many were
			// measured — never "overlaps 10 other plots" where 59 may overlap it
			expect(row.overlap_candidates).toBe(59);
			expect(row.overlaps_measured + row.overlaps_not_measured).toBe(59);
			const counted = `at least ${row.overlap_count} of 59 plots it may overlap (${row.overlaps_measured} measured)`;
			expect(many[0].message).toContain(
				`the plot overlaps ${counted}; the 5 largest (in "overlaps"): item ${row.overlaps[0].other_item} by ${row.overlaps[0].overlap_ha} ha`,
			);
			// in the user's terms: a plain sentence first, then the technical message
			expect(many[0].message).toMatch(
				new RegExp(
					`^The plot overlaps ${counted.replace(/[()]/g, '\\$&')}\\. Detail: the plot overlaps `,
				),
			);
			const capped = row.warnings.find((w) => w.code === 'overlaps_not_measured')!;
			expect(capped.message).toMatch(
				/^Some other plots that lie over this one were not checked for overlap with it\. Detail: /,
			);
			expect(capped.message).toContain(`${row.overlaps_not_measured} more plots`);
			expect(capped.message).toContain('at most 10 others');
			measured += row.overlap_count;
		}
		const summary = await validate(rows, { output: 'summary' });
		const s = summary.items[0].json;
		expect(s).toMatchObject({
			overlapping_pairs: measured / 2,
			overlap_candidate_pairs: (60 * 59) / 2,
			overlap_pairs_not_measured: (60 * 59) / 2 - measured / 2,
			limits: {
				duplicates_and_overlaps_listed_per_item: 5,
				duplicates_and_overlaps_listed_in_summary: 100,
				overlaps_measured_per_plot: 10,
			},
		});
		const listed = s.overlaps as Array<{ overlap_ha: number }>;
		expect(listed).toHaveLength(100);
		expect([...listed].sort((x, y) => y.overlap_ha - x.overlap_ha)).toEqual(listed);
	});

	it('150 copies of one plot: the first lists 5 duplicates of 149, each copy its one; the summary lists 100 of 149', async () => {
		const rows = Array.from({ length: 150 }, () => ({ geojson: polygon(outline(7, -3)) }));
		const { items } = await validate(rows);
		const v = items.map((i) => validationOf(i.json));
		expect(v[0].duplicates).toHaveLength(5);
		expect(v[0].duplicate_count).toBe(149);
		expect(v[0].duplicates[4]).toEqual({ feature: 0, other_item: 5, other_feature: 0 });
		for (const row of v.slice(1)) {
			expect(row.duplicates).toEqual([{ feature: 0, other_item: 0, other_feature: 0 }]);
			expect(row.duplicate_count).toBe(1);
			expect(row.warnings.map((w) => w.code)).toEqual(['duplicate_geometry']);
			expect(row.overlap_count).toBe(0);
		}
		const { items: summary } = await validate(rows, { output: 'summary' });
		expect(summary[0].json).toMatchObject({ duplicate_pairs: 149, overlapping_pairs: 0 });
		expect(summary[0].json.duplicates).toHaveLength(100);
	});

	it('1,100 copies of one plot: the index stops looking after 1,000 per plot, and the output says so', async () => {
		const ring = outline(-60, -10);
		const rows = Array.from({ length: 1_100 }, () => ({ geojson: polygon(ring) }));
		const { items } = await validate(rows);
		const v = items.map((i) => validationOf(i.json));
		expect(v[0].duplicate_count).toBe(1_099);
		expect(v[0].duplicates).toHaveLength(5);
		for (const row of [v[0], v[550], v[1_099]]) {
			expect(row.overlap_count).toBe(0);
			const stopped = row.warnings.find((w) => w.code === 'overlaps_not_measured')!;
			expect(stopped.message).toContain(
				"More than 1000 plots (exact duplicates included) lie over this one's extent, where Validate stops looking",
			);
		}
		const { items: summary } = await validate(rows, { output: 'summary' });
		expect(summary[0].json).toMatchObject({
			duplicate_pairs: 1_099,
			overlapping_pairs: 0,
			plots_with_candidates_capped: 1_100,
			limits: { overlap_candidates_looked_at_per_plot: 1_000 },
		});
	});
});

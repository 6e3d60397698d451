/**
 * Plot → Validate's summary of all rows (`summary` in the output): counts per code, the
 * invalid rows, totals, and the duplicates and overlaps across rows, capped at
 * MAX_LISTED_IN_SUMMARY (largest overlaps first) with their full counts. Pure.
 */
import type { CrossCheck } from './plotOverlaps';
import {
	CLIP_EDGES_PER_RUN,
	MAX_CANDIDATES_PER_PLOT,
	MAX_CLIP_EDGES_PER_PAIR,
	MAX_MEASURED_PER_PLOT,
} from './plotOverlaps';
import type { ReportedProblem, RowInput, RowReport, ValidationSummary } from './plotReports';
import { MAX_LISTED_IN_SUMMARY, MAX_LISTED_PER_ROW } from './plotReports';

/** The rounding of the figures Validate reports (hectares to 4 places, percentages to 2). */
export const roundTo = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function countBy(list: ReportedProblem[], into: Record<string, number>): void {
	for (const p of list) into[p.code] = (into[p.code] ?? 0) + 1;
}

export function summarise(
	rows: readonly RowInput[],
	reports: RowReport[],
	cross: CrossCheck,
): ValidationSummary {
	const problems: Record<string, number> = {};
	const warnings: Record<string, number> = {};
	for (const r of reports) {
		countBy(r.problems, problems);
		countBy(r.warnings, warnings);
	}
	return {
		items: reports.length,
		valid_items: reports.filter((r) => r.valid).length,
		invalid_items: reports.filter((r) => !r.valid).length,
		items_with_warnings: reports.filter((r) => r.warnings.length > 0).length,
		features: reports.reduce((n, r) => n + r.feature_count, 0),
		total_area_ha: roundTo(
			reports.reduce((s, r) => s + (r.area_ha ?? 0), 0),
			4,
		),
		problems_by_code: problems,
		warnings_by_code: warnings,
		invalid_item_indexes: reports.flatMap((r, i) => (r.valid ? [] : [rows[i].row])),
		duplicate_pairs: cross.duplicates.length,
		overlapping_pairs: cross.overlaps.length,
		overlap_candidate_pairs: cross.candidatePairs,
		overlap_pairs_not_measured: cross.unmeasuredPairs,
		plots_with_candidates_capped: cross.cappedPlots,
		overlap_pairs_same_boundary: cross.samePairs,
		overlap_pairs_over_budget: cross.refused.length,
		overlap_pairs_not_computed: cross.failures.length,
		clipped_edges: cross.clippedEdges,
		limits: {
			duplicates_and_overlaps_listed_per_item: MAX_LISTED_PER_ROW,
			duplicates_and_overlaps_listed_in_summary: MAX_LISTED_IN_SUMMARY,
			overlaps_measured_per_plot: MAX_MEASURED_PER_PLOT,
			overlap_candidates_looked_at_per_plot: MAX_CANDIDATES_PER_PLOT,
			clip_edges_per_pair: MAX_CLIP_EDGES_PER_PAIR,
			clip_edges_per_run: CLIP_EDGES_PER_RUN,
		},
		pairs_not_measured: [
			...cross.refused.map((r) => ({
				item: r.a.row,
				feature: r.a.feature,
				other_item: r.b.row,
				other_feature: r.b.feature,
				reason:
					r.budget === 'pair'
						? `${r.edges} edges together, more than the ${MAX_CLIP_EDGES_PER_PAIR} clipped for one pair`
						: `the clipping budget of the run (${CLIP_EDGES_PER_RUN} edges) was spent`,
			})),
			...cross.failures.map((f) => ({
				item: f.a.row,
				feature: f.a.feature,
				other_item: f.b.row,
				other_feature: f.b.feature,
				reason: `could not be computed: ${f.reason}`,
			})),
		].slice(0, MAX_LISTED_IN_SUMMARY),
		duplicates: cross.duplicates.slice(0, MAX_LISTED_IN_SUMMARY).map((d) => ({
			item: d.duplicate.row,
			feature: d.duplicate.feature,
			duplicate_of_item: d.first.row,
			duplicate_of_feature: d.first.feature,
		})),
		overlaps: largestFirst(cross.overlaps, MAX_LISTED_IN_SUMMARY).map((o) => ({
			item: o.a.row,
			feature: o.a.feature,
			other_item: o.b.row,
			other_feature: o.b.feature,
			overlap_ha: roundTo(o.overlapM2 / 10_000, 4),
			overlap_percent_of_first: roundTo(o.percentOfA, 2),
			overlap_percent_of_second: roundTo(o.percentOfB, 2),
		})),
	};
}

/** The `limit` largest overlaps, largest first (ties: input order), without sorting them all. */
function largestFirst(overlaps: CrossCheck['overlaps'], limit: number): CrossCheck['overlaps'] {
	const order = overlaps.map((_o, k) => k);
	const by = (x: number, y: number) => overlaps[y].overlapM2 - overlaps[x].overlapM2 || x - y;
	if (order.length <= limit) return order.sort(by).map((k) => overlaps[k]);
	// a bounded selection: keep the best `limit` seen so far, sorted
	const best: number[] = [];
	for (const k of order) {
		if (best.length === limit && by(k, best[limit - 1]) >= 0) continue;
		let at = best.length;
		while (at > 0 && by(k, best[at - 1]) < 0) at--;
		best.splice(at, 0, k);
		if (best.length > limit) best.pop();
	}
	return best.map((k) => overlaps[k]);
}

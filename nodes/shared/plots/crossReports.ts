/**
 * Plot → Validate: the duplicates and overlaps across rows (plotOverlaps.ts's `CrossCheck`) as
 * each row's problems and warnings, with counts stated as counts: a row whose pairs were not
 * all measured says how many plots may overlap it and how many were measured ("overlaps at
 * least 10 of 999 plots it may overlap (10 measured)"), never "overlaps 10". A pair left
 * unmeasured by the clipping budget is named on both rows; a pair no clipping path could
 * measure is a problem (the row is not valid: its overlap is unknown, never "none"). Pure.
 */
import type { CrossCheck } from './plotOverlaps';
import {
	CLIP_EDGES_PER_RUN,
	MAX_CANDIDATES_PER_PLOT,
	MAX_CLIP_EDGES_PER_PAIR,
	MAX_MEASURED_PER_PLOT,
} from './plotOverlaps';
import type { DuplicateReport, OverlapReport, ReportedProblem } from './plotReports';
import { MAX_LISTED_PER_ROW } from './plotReports';
import { roundTo } from './validationSummary';

export interface RowCross {
	duplicates: DuplicateReport[];
	overlaps: OverlapReport[];
	/** Candidate pairs not measured (the per-plot cap, the budget, or no clipping path). */
	notMeasured: number;
	/** Of those, the pairs the per-plot cap left out. */
	notChosen: number;
	/** The index stopped looking for candidates of one of the row's plots: the counts are minimums. */
	atLeast: boolean;
	/** The plots over this row's plots (exact duplicates left out), and the pairs measured. */
	candidates: number;
	measured: number;
	refused: number;
	failures: number;
}

export const emptyRowCross = (): RowCross => ({
	duplicates: [],
	overlaps: [],
	notMeasured: 0,
	notChosen: 0,
	atLeast: false,
	candidates: 0,
	measured: 0,
	refused: 0,
	failures: 0,
});

/** Where a cross-row problem goes: the row's problems or warnings. */
type Report = (row: number, problem: ReportedProblem, as?: 'problem' | 'warning') => void;

const fmt = (n: number) => n.toLocaleString('en-US');

/** The duplicate and overlap problems of every row, reported through `report`; the counts by row. */
export function crossProblems(
	cross: CrossCheck,
	severity: 'warning' | 'error',
	put: (row: number, problem: ReportedProblem, as: 'problem' | 'warning') => void,
): Map<number, RowCross> {
	const byRow = new Map<number, RowCross>();
	const of = (row: number) => {
		let entry = byRow.get(row);
		if (!entry) byRow.set(row, (entry = emptyRowCross()));
		return entry;
	};
	const report: Report = (row, problem, as) =>
		put(row, problem, as ?? (severity === 'error' ? 'problem' : 'warning'));
	for (const { first, duplicate } of cross.duplicates) {
		of(first.row).duplicates.push({
			feature: first.feature,
			other_item: duplicate.row,
			other_feature: duplicate.feature,
		});
		of(duplicate.row).duplicates.push({
			feature: duplicate.feature,
			other_item: first.row,
			other_feature: first.feature,
		});
		// Only the later one is the duplicate to remove; the first one stays valid. (One
		// warning per duplicate feature: each has one first.)
		report(duplicate.row, {
			code: 'duplicate_geometry',
			message: `the geometry is exactly the same as item ${first.row}, feature ${first.feature}. Remove the duplicate so that the plot is not registered or declared twice.`,
			where: {
				feature: duplicate.feature,
				other_item: first.row,
				other_feature: first.feature,
			},
		});
	}
	for (const o of cross.overlaps) {
		const overlapHa = roundTo(o.overlapM2 / 10_000, 4);
		const pa = roundTo(o.percentOfA, 2);
		const pb = roundTo(o.percentOfB, 2);
		const sides: Array<[typeof o.a, typeof o.b, number, number]> = [
			[o.a, o.b, pa, pb],
			[o.b, o.a, pb, pa],
		];
		for (const [self, other, ofThis, ofOther] of sides) {
			of(self.row).overlaps.push({
				feature: self.feature,
				other_item: other.row,
				other_feature: other.feature,
				overlap_ha: overlapHa,
				overlap_percent_of_this: ofThis,
				overlap_percent_of_other: ofOther,
			});
		}
	}
	for (const p of cross.perPlot) {
		const entry = of(p.plot.row);
		entry.candidates += p.candidates;
		entry.measured += p.measured;
		entry.notMeasured += Math.max(0, p.candidates - p.measured);
		entry.atLeast ||= p.atLeast;
	}
	for (const u of cross.unmeasured) {
		const entry = of(u.plot.row);
		entry.notChosen += u.count;
		entry.atLeast ||= u.atLeast;
	}
	for (const [row, entry] of byRow) overlapWarnings(row, entry, report);
	pairsNotMeasured(cross, of, report);
	return byRow;
}

/** The overlaps of one row (each, or one line for many), and the pairs the per-plot cap left out. */
function overlapWarnings(row: number, entry: RowCross, report: Report): void {
	// the largest first (ties: input order, as the pairs came), then the cap
	const order = new Map(entry.overlaps.map((o, k) => [o, k]));
	entry.overlaps.sort((x, y) => y.overlap_ha - x.overlap_ha || order.get(x)! - order.get(y)!);
	const listed = entry.overlaps.slice(0, MAX_LISTED_PER_ROW);
	if (entry.overlaps.length <= MAX_LISTED_PER_ROW) {
		for (const o of listed) {
			report(row, {
				code: 'overlapping_plots',
				message: `the plot overlaps item ${o.other_item}, feature ${o.other_feature} by ${o.overlap_ha} ha (${o.overlap_percent_of_this} % of this plot, ${o.overlap_percent_of_other} % of the other). Two plots cannot cover the same land: check both boundaries, and merge or correct them.`,
				where: { feature: o.feature, other_item: o.other_item, other_feature: o.other_feature },
			});
		}
	} else {
		const largest = listed
			.map((o) => `item ${o.other_item} by ${o.overlap_ha} ha (${o.overlap_percent_of_this} %)`)
			.join(', ');
		report(row, {
			code: 'overlapping_plots',
			message: `the plot overlaps ${overlapCount(entry)}; the ${MAX_LISTED_PER_ROW} largest (in "overlaps"): ${largest}. Many overlaps usually mean copies of one plot: keep one and correct the others.`,
			where: { feature: null },
		});
	}
	if (entry.notChosen > 0 || entry.atLeast) {
		const found = entry.atLeast
			? `More than ${MAX_CANDIDATES_PER_PLOT} plots (exact duplicates included) lie over this one's extent, where Validate stops looking; ${entry.notChosen} of those it looked at were not measured`
			: `${entry.notChosen} more plots lie over this one's extent but were not measured`;
		report(row, {
			code: 'overlaps_not_measured',
			message: `${found}: Validate measures each plot against at most ${MAX_MEASURED_PER_PLOT} others (those covering most of its extent) so that a run stays bounded. Remove the copies and overlaps found and validate again.`,
			where: { feature: null },
		});
	}
}

/**
 * "N other plots" when every candidate was measured, else "at least N of M plots it may
 * overlap (K measured)": the true number of candidates, not the cap.
 */
export function overlapCount(entry: RowCross): string {
	const n = entry.overlaps.length;
	if (entry.notMeasured === 0 && !entry.atLeast) return `${fmt(n)} other plots`;
	const of = entry.atLeast ? `more than ${fmt(entry.candidates)}` : fmt(entry.candidates);
	return `at least ${fmt(n)} of ${of} plots it may overlap (${fmt(entry.measured)} measured)`;
}

/** The pairs the clipping budget left unmeasured, and those no clipping path could measure. */
function pairsNotMeasured(cross: CrossCheck, of: (row: number) => RowCross, report: Report): void {
	for (const r of cross.refused) {
		const why =
			r.budget === 'pair'
				? `the two boundaries have ${fmt(r.edges)} edges together, more than the ${fmt(MAX_CLIP_EDGES_PER_PAIR)} Validate clips for one pair (about 5 s and 500 MB). Simplify the boundaries (fewer vertices) or split the plots, and check this pair on a map`
				: `the clipping budget of this run (${fmt(CLIP_EDGES_PER_RUN)} edges of boundary) was spent on the pairs before it. Check this pair on a map`;
		for (const [self, other] of [
			[r.a, r.b],
			[r.b, r.a],
		]) {
			const entry = of(self.row);
			if (++entry.refused > MAX_LISTED_PER_ROW) continue;
			report(self.row, {
				code: 'overlap_not_measured',
				message: `the overlap with item ${other.row}, feature ${other.feature} was not measured: ${why}.`,
				where: { feature: self.feature, other_item: other.row, other_feature: other.feature },
				...(r.budget === 'run'
					? {
							hint: 'Validate fewer rows per run (e.g. split the input into batches) to measure this pair.',
						}
					: {}),
			});
		}
	}
	for (const f of cross.failures) {
		for (const [self, other] of [
			[f.a, f.b],
			[f.b, f.a],
		]) {
			const entry = of(self.row);
			if (++entry.failures > MAX_LISTED_PER_ROW) continue;
			// a problem whatever the severity: the overlap is unknown, so the row cannot read as clean
			report(
				self.row,
				{
					code: 'overlap_not_computed',
					message: `the overlap with item ${other.row}, feature ${other.feature} could not be computed (${f.reason}). The two boundaries meet in a way no clipping method could resolve (usually edges that nearly coincide near a corner or a hole): check both boundaries on a map where they meet, and correct or simplify them.`,
					where: { feature: self.feature, other_item: other.row, other_feature: other.feature },
				},
				'problem',
			);
		}
	}
	for (const f of [
		...new Set([...cross.refused, ...cross.failures].flatMap((p) => [p.a.row, p.b.row])),
	]) {
		const entry = of(f);
		if (entry.refused > MAX_LISTED_PER_ROW)
			report(f, {
				code: 'overlap_not_measured',
				message: `the overlap with ${entry.refused - MAX_LISTED_PER_ROW} more plots was not measured either (the clipping budget).`,
				where: { feature: null },
			});
		if (entry.failures > MAX_LISTED_PER_ROW)
			report(
				f,
				{
					code: 'overlap_not_computed',
					message: `the overlap with ${entry.failures - MAX_LISTED_PER_ROW} more plots could not be computed either. Check the boundaries on a map.`,
					where: { feature: null },
				},
				'problem',
			);
	}
}

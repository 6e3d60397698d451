/**
 * What Plot → Validate reports (the shapes `validateRows` in plotValidation.ts returns): per row its
 * problems, with where they are, its features, duplicates and overlaps; and the summary of
 * all rows, and the caps of its lists. Types and constants only; kept apart so that userTerms.ts can name a problem's place without
 * importing the validation itself.
 */
import type { Location } from '../geometry';
import type { Reading } from '../input';
import type { CheckedGeometry } from './geometrySource';

/**
 * Output caps (a count with a cap, never a list that grows with the square of the rows):
 * each row lists at most this many duplicates and overlaps (overlaps largest first) and
 * carries their full counts (`duplicate_count`, `overlap_count`). A row with at most this
 * many overlaps gets a warning for each; a row with more gets one warning naming the count
 * and the largest.
 */
export const MAX_LISTED_PER_ROW = 5;
/** The summary lists at most this many duplicates and overlaps (overlaps largest first); its counts are full. */
export const MAX_LISTED_IN_SUMMARY = 100;

/** A Plot Field that cannot be used (e.g. an unknown commodity). */
export interface FieldProblem {
	field: string;
	reason: string;
}

/** One input row as read by the node. */
export interface RowInput {
	/** Item index. */
	row: number;
	geometry: CheckedGeometry;
	fieldProblems: FieldProblem[];
	/** Point Area (Hectares) as read (`readHectares`); overrides a point feature's own `properties.point_ha`. */
	pointHa?: Reading<number>;
}

/** Where a problem is. `feature` is null when it concerns the whole row. */
export interface ProblemWhere extends Location {
	feature: number | null;
	/** The Plot Field, for a field problem. */
	field?: string;
	/** The other plot, for a duplicate or an overlap. */
	other_item?: number;
	other_feature?: number;
}

export interface ReportedProblem {
	code: string;
	/** What to fix, for whoever fixes the plot (a supplier): no advice about the workflow. */
	message: string;
	where: ProblemWhere;
	/** Advice for the workflow builder (a field to map, an option), kept out of `message`. */
	hint?: string;
}

export interface FeatureReport {
	feature: number;
	geometry_type: string | null;
	vertex_count: number;
	/** Geodesic area of a polygon, the declared area of a point; null when not known. */
	area_ha: number | null;
	/**
	 * Where `area_ha` comes from: the geometry, or for a point `point_ha` (Point Area (Hectares) or the
	 * feature's own point_ha: what Register sends as point_ha), `Area`, `area_ha` or `AREA`.
	 */
	area_from: 'geometry' | 'point_ha' | 'Area' | 'area_ha' | 'AREA' | null;
	/** EUDR: true for a polygon and a point of up to 4 ha, false for a point above 4 ha, null for a point without an area. */
	meets_4ha_rule: boolean | null;
}

export interface DuplicateReport {
	feature: number;
	other_item: number;
	other_feature: number;
}

export interface OverlapReport {
	feature: number;
	other_item: number;
	other_feature: number;
	overlap_ha: number;
	overlap_percent_of_this: number;
	overlap_percent_of_other: number;
}

export interface RowReport {
	valid: boolean;
	problems: ReportedProblem[];
	warnings: ReportedProblem[];
	/** Every problem as one line (`feature 0, ring 0: …`), joined by " | "; "" when none. */
	problem_summary: string;
	/** Point, Polygon or MultiPolygon; several types joined by ", "; null when unreadable. */
	geometry_type: string | null;
	is_point: boolean;
	feature_count: number;
	vertex_count: number;
	area_ha: number | null;
	meets_4ha_rule: boolean | null;
	features: FeatureReport[];
	/** At most MAX_LISTED_PER_ROW, in input order; `duplicate_count` is the full count. */
	duplicates: DuplicateReport[];
	duplicate_count: number;
	/** At most MAX_LISTED_PER_ROW, largest first; `overlap_count` is the full count of those measured. */
	overlaps: OverlapReport[];
	overlap_count: number;
	/**
	 * Plots whose boxes overlap this row's plots but whose shared area was not measured (the
	 * per-plot cap MAX_MEASURED_PER_PLOT, the clipping budget, or no clipping path could);
	 * 0 when every candidate was measured: `overlap_candidates` − `overlaps_measured`.
	 */
	overlaps_not_measured: number;
	/** The plots whose boxes overlap this row's plots (exact duplicates left out): the true number, not a cap. */
	overlap_candidates: number;
	/** Of those pairs, the ones whose shared area was measured. */
	overlaps_measured: number;
	/** The index stopped looking for this row's candidates (MAX_CANDIDATES_PER_PLOT): `overlap_candidates` is a minimum. */
	overlap_candidates_at_least: boolean;
	/** Advice for the workflow builder (a field to map, an option), each once; never in `problem_summary`. */
	workflow_hints: string[];
	/** With Repair Geometry: what was changed. */
	repairs?: Array<{ code: string; message: string; feature: number }>;
	/** With Repair Geometry: the repaired features (null when the row could not be read). */
	repaired_geojson?: { type: 'FeatureCollection'; features: unknown[] } | null;
}

export interface ValidationSummary {
	items: number;
	valid_items: number;
	invalid_items: number;
	items_with_warnings: number;
	features: number;
	total_area_ha: number;
	problems_by_code: Record<string, number>;
	warnings_by_code: Record<string, number>;
	invalid_item_indexes: number[];
	duplicate_pairs: number;
	overlapping_pairs: number;
	/** Pairs of plots whose bounding boxes share area (exact duplicates left out). */
	overlap_candidate_pairs: number;
	/** Candidate pairs left unmeasured by the per-plot cap (see `limits`). */
	overlap_pairs_not_measured: number;
	/**
	 * Plots for which the index stopped looking after `limits.overlap_candidates_looked_at_per_plot`
	 * plots over their extent: when not 0, the two counts above are minimums.
	 */
	plots_with_candidates_capped: number;
	/** Candidate pairs that are copies of one boundary (another start vertex or direction): measured without a clip. */
	overlap_pairs_same_boundary: number;
	/** Candidate pairs the clipping budget left unmeasured (listed in `pairs_not_measured`). */
	overlap_pairs_over_budget: number;
	/** Candidate pairs no clipping path could measure: problems on both rows (listed in `pairs_not_measured`). */
	overlap_pairs_not_computed: number;
	/** Edges of boundary given to the clipper in this run (at most `limits.clip_edges_per_run`). */
	clipped_edges: number;
	/** The caps on this output and on the overlap check, by name. */
	limits: {
		duplicates_and_overlaps_listed_per_item: number;
		duplicates_and_overlaps_listed_in_summary: number;
		overlaps_measured_per_plot: number;
		overlap_candidates_looked_at_per_plot: number;
		clip_edges_per_pair: number;
		clip_edges_per_run: number;
	};
	/** At most MAX_LISTED_IN_SUMMARY, in input order: the pairs over the budget, then those not computed. */
	pairs_not_measured: Array<{
		item: number;
		feature: number;
		other_item: number;
		other_feature: number;
		reason: string;
	}>;
	/** At most MAX_LISTED_IN_SUMMARY, in input order; `duplicate_pairs` is the full count. */
	duplicates: Array<{
		item: number;
		feature: number;
		duplicate_of_item: number;
		duplicate_of_feature: number;
	}>;
	overlaps: Array<{
		item: number;
		feature: number;
		other_item: number;
		other_feature: number;
		overlap_ha: number;
		overlap_percent_of_first: number;
		overlap_percent_of_second: number;
	}>;
}

/**
 * Plot → Validate: what each input row's geometry and plot fields are worth before anything
 * is sent (nothing is sent: Validate makes no request). Pure: no n8n imports.
 *
 * Per row: valid or not, every problem (code, message and where: feature, polygon, ring,
 * position, or the field), warnings, the geodesic area, the vertex count, point or polygon,
 * whether the EUDR 4 ha rule is met, and with Repair Geometry the repaired geometry and the
 * list of repairs. Across all rows (`overlaps.ts`): exact duplicate geometries and
 * overlapping plots.
 */
import { area } from '@turf/area';

import type { Location, PlotGeometry, ValidationResult } from '../geometry';
import { EUDR_POINT_MAX_HA, meets4haRule, readPointArea } from '../geometry';
import type { CheckedGeometry } from './geometrySource';
import type { CrossCheck, PlotShape } from './overlaps';
import {
	crossCheckPlots,
	DEFAULT_MIN_OVERLAP_M2,
	MAX_CANDIDATES_PER_PLOT,
	MAX_MEASURED_PER_PLOT,
} from './overlaps';
import type { UserTerms } from './userTerms';
import { inUserTerms } from './userTerms';

/**
 * Output caps (a count with a cap, never a list that grows with the square of the rows):
 * each row lists at most this many duplicates and overlaps (overlaps largest first) and
 * carries their full counts (`duplicate_count`, `overlap_count`). A row with at most this
 * many overlaps gets a warning for each; a row with more gets one warning naming the count
 * and the largest.
 */
const MAX_LISTED_PER_ROW = 5;
/** The summary lists at most this many duplicates and overlaps (overlaps largest first); its counts are full. */
const MAX_LISTED_IN_SUMMARY = 100;

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
	/** Point Area (Ha) as mapped in; overrides a point feature's own `properties.point_ha`. */
	pointHa?: unknown;
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

interface ReportedProblem {
	code: string;
	message: string;
	where: ProblemWhere;
}

interface FeatureReport {
	feature: number;
	geometry_type: string | null;
	vertex_count: number;
	/** Geodesic area of a polygon, the declared area of a point; null when not known. */
	area_ha: number | null;
	/**
	 * Where `area_ha` comes from: the geometry, or for a point `point_ha` (Point Area (Ha) or the
	 * feature's own point_ha: what Register sends as point_ha), `Area`, `area_ha` or `AREA`.
	 */
	area_from: 'geometry' | 'point_ha' | 'Area' | 'area_ha' | 'AREA' | null;
	/** EUDR: true for a polygon and a point of up to 4 ha, false for a point above 4 ha, null for a point without an area. */
	meets_4ha_rule: boolean | null;
}

interface DuplicateReport {
	feature: number;
	other_item: number;
	other_feature: number;
}

interface OverlapReport {
	feature: number;
	other_item: number;
	other_feature: number;
	overlap_ha: number;
	overlap_percent_of_this: number;
	overlap_percent_of_other: number;
}

interface RowReport {
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
	 * per-plot cap, MAX_MEASURED_PER_PLOT); 0 when every candidate was measured.
	 */
	overlaps_not_measured: number;
	/** With Repair Geometry: what was changed. */
	repairs?: Array<{ code: string; message: string; feature: number }>;
	/** With Repair Geometry: the repaired features (null when the row could not be read). */
	repaired_geojson?: { type: 'FeatureCollection'; features: unknown[] } | null;
}

interface ValidateRowsOptions {
	repair: boolean;
	/** Look for overlaps between plots (duplicates are always looked for). */
	overlaps: boolean;
	minOverlapM2?: number;
	/** Whether duplicates and overlaps across rows make a row invalid (default: warnings). */
	crossPlotSeverity?: 'warning' | 'error';
	/** The fields the user mapped, for messages in the user's terms (`userTerms.ts`). */
	terms?: UserTerms;
}

interface ValidationSummary {
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
	/** The caps on this output and on the overlap check, by name. */
	limits: {
		duplicates_and_overlaps_listed_per_item: number;
		duplicates_and_overlaps_listed_in_summary: number;
		overlaps_measured_per_plot: number;
		overlap_candidates_looked_at_per_plot: number;
	};
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

interface RowCross {
	duplicates: DuplicateReport[];
	overlaps: OverlapReport[];
	notMeasured: number;
	/** The index stopped looking for candidates of one of the row's plots: `notMeasured` is a minimum. */
	atLeast: boolean;
	failures: number;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

function where(feature: number | null, location?: Location): ProblemWhere {
	return { feature: feature !== null && feature >= 0 ? feature : null, ...(location ?? {}) };
}

/**
 * `feature 1, ring 2, position 5` (the words the technical detail uses), or '' for the whole
 * row. No feature number when the row has one feature; no field (the message names it).
 */
function placeOf(w: ProblemWhere, oneFeature: boolean): string {
	const parts: string[] = [];
	if (w.feature !== null && !oneFeature) parts.push(`feature ${w.feature}`);
	if (w.polygon !== undefined) parts.push(`polygon ${w.polygon}`);
	if (w.ring !== undefined) parts.push(`ring ${w.ring}`);
	if (w.position !== undefined) parts.push(`position ${w.position}`);
	return parts.join(', ');
}

/** One problem as a line of `problem_summary`: the message (plain sentence first), then where. */
function line(p: ReportedProblem, oneFeature: boolean, warning = false): string {
	const place = placeOf(p.where, oneFeature);
	return `${warning ? 'Warning: ' : ''}${p.message}${place ? ` (at ${place})` : ''}`;
}

/** The problems' messages in the user's terms (the codes and places stay). */
function sayInUserTerms(c: Checked, terms: UserTerms): void {
	for (const list of [c.problems, c.warnings]) {
		for (const p of list) {
			// the area the message is about: the mapped field, else the feature's own property
			const feature =
				p.where.feature === null ? undefined : c.validation?.features[p.where.feature];
			const pointHa = readPointArea(feature?.properties, c.input.pointHa);
			p.message = inUserTerms(
				{
					...p,
					pointHa: pointHa.kind === 'value' ? pointHa.value : undefined,
					pointHaFrom: pointHa.kind === 'missing' ? undefined : pointHa.from,
				},
				terms,
			);
		}
	}
}

function vertexCount(geometry: PlotGeometry): number {
	if (geometry.type === 'Point') return 1;
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	let count = 0;
	for (const rings of polygons) {
		for (const ring of rings) {
			const first = ring[0];
			const last = ring[ring.length - 1];
			const closed = ring.length > 1 && first[0] === last[0] && first[1] === last[1];
			count += ring.length - (closed ? 1 : 0);
		}
	}
	return count;
}

/** Problems about a point's area that leave the point and its area readable. */
const AREA_CODES = new Set(['point_requires_polygon', 'point_ha_not_below_4']);

interface Checked {
	input: RowInput;
	validation?: ValidationResult;
	problems: ReportedProblem[];
	warnings: ReportedProblem[];
	features: FeatureReport[];
	/** Features without errors, for the cross-row checks. */
	sound: Set<number>;
}

function checkRow(input: RowInput): Checked {
	const problems: ReportedProblem[] = input.fieldProblems.map((f) => ({
		code: 'invalid_field',
		message: f.reason,
		where: { feature: null, field: f.field },
	}));
	const warnings: ReportedProblem[] = [];
	const checked: Checked = { input, problems, warnings, features: [], sound: new Set() };
	if (input.geometry.kind === 'unreadable') {
		const { code, message, featureIndex, where: location } = input.geometry.failure;
		problems.push({ code, message, where: where(featureIndex ?? null, location) });
		return checked;
	}
	const validation = input.geometry.validation;
	checked.validation = validation;
	const withErrors = new Set<number>();
	/** Features whose only errors are about their point area (the area itself is known). */
	const otherErrors = new Set<number>();
	for (const p of validation.problems) {
		const reported = { code: p.code, message: p.message, where: where(p.featureIndex, p.where) };
		if (p.severity === 'error') {
			problems.push(reported);
			withErrors.add(p.featureIndex);
			if (!AREA_CODES.has(p.code)) otherErrors.add(p.featureIndex);
		} else warnings.push(reported);
	}
	const wholeRowError = withErrors.has(-1);
	validation.features.forEach((feature, index) => {
		const geometry = feature?.geometry as PlotGeometry | undefined;
		const usable = !wholeRowError && !withErrors.has(index) && geometry !== undefined;
		if (usable) checked.sound.add(index);
		const report: FeatureReport = {
			feature: index,
			geometry_type: usable ? geometry.type : null,
			vertex_count: usable ? vertexCount(geometry) : 0,
			area_ha: null,
			area_from: null,
			meets_4ha_rule: null,
		};
		const onlyAreaErrors = !wholeRowError && !otherErrors.has(index) && geometry !== undefined;
		if (geometry?.type === 'Point' && onlyAreaErrors) {
			// A point's area and the 4 ha rule are reported also when its area is the problem (e.g.
			// 4.5 ha: meets_4ha_rule false; 4 ha: true, but Register would be refused).
			const declared = readPointArea(feature.properties, input.pointHa);
			if (declared.kind === 'value') {
				report.area_ha = round(declared.value, 4);
				report.area_from = declared.from.kind === 'field' ? 'point_ha' : declared.from.name;
				report.meets_4ha_rule = meets4haRule('Point', declared.value);
			} else if (declared.kind === 'missing' && usable) {
				warnings.push({
					code: 'point_without_area',
					message: `the plot is a point without an area. EUDR allows a point only for a plot of ${EUDR_POINT_MAX_HA} ha or less (the service draws a circle of about 4 ha): give the area in Point Area (Ha) (or a point_ha, Area or area_ha property), or the plot boundary as a polygon.`,
					where: where(index),
				});
			}
		} else if (usable) {
			report.area_ha = round(area(geometry as never) / 10_000, 4);
			report.area_from = 'geometry';
			report.meets_4ha_rule = meets4haRule(geometry.type, undefined);
		}
		checked.features.push(report);
	});
	return checked;
}

function crossProblems(
	rows: Checked[],
	cross: CrossCheck,
	severity: 'warning' | 'error',
): Map<number, RowCross> {
	const byRow = new Map<number, RowCross>();
	const of = (row: number) => {
		let entry = byRow.get(row);
		if (!entry)
			byRow.set(
				row,
				(entry = { duplicates: [], overlaps: [], notMeasured: 0, atLeast: false, failures: 0 }),
			);
		return entry;
	};
	const checkedOf = new Map(rows.map((r) => [r.input.row, r]));
	const report = (row: number, problem: ReportedProblem) => {
		const checked = checkedOf.get(row);
		if (!checked) return;
		(severity === 'error' ? checked.problems : checked.warnings).push(problem);
	};
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
		const overlapHa = round(o.overlapM2 / 10_000, 4);
		const pa = round(o.percentOfA, 2);
		const pb = round(o.percentOfB, 2);
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
	for (const u of cross.unmeasured) {
		const entry = of(u.plot.row);
		entry.notMeasured += u.count;
		entry.atLeast ||= u.atLeast;
	}
	for (const [row, entry] of byRow) {
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
				message: `the plot overlaps ${entry.overlaps.length} other plots; the ${MAX_LISTED_PER_ROW} largest (in "overlaps"): ${largest}. Many overlaps usually mean copies of one plot: keep one and correct the others.`,
				where: { feature: null },
			});
		}
		if (entry.notMeasured > 0 || entry.atLeast) {
			const found = entry.atLeast
				? `More than ${MAX_CANDIDATES_PER_PLOT} plots (exact duplicates included) lie over this one's extent, where Validate stops looking; ${entry.notMeasured} of those it looked at were not measured`
				: `${entry.notMeasured} more plots lie over this one's extent but were not measured`;
			checkedOf.get(row)?.warnings.push({
				code: 'overlaps_not_measured',
				message: `${found}: Validate measures each plot against at most ${MAX_MEASURED_PER_PLOT} others (those covering most of its extent) so that a run stays bounded. Remove the copies and overlaps found and validate again.`,
				where: { feature: null },
			});
		}
	}
	for (const f of cross.failures) {
		for (const [self, other] of [
			[f.a, f.b],
			[f.b, f.a],
		]) {
			const checked = checkedOf.get(self.row);
			const entry = of(self.row);
			entry.failures++;
			if (entry.failures > MAX_LISTED_PER_ROW) continue;
			checked?.warnings.push({
				code: 'overlap_not_computed',
				message: `the overlap with item ${other.row}, feature ${other.feature} could not be computed (${f.reason}). Check both boundaries on a map.`,
				where: { feature: self.feature, other_item: other.row, other_feature: other.feature },
			});
		}
	}
	for (const [row, entry] of byRow) {
		if (entry.failures <= MAX_LISTED_PER_ROW) continue;
		checkedOf.get(row)?.warnings.push({
			code: 'overlap_not_computed',
			message: `the overlap with ${entry.failures - MAX_LISTED_PER_ROW} more plots could not be computed either. Check the boundaries on a map.`,
			where: { feature: null },
		});
	}
	return byRow;
}

/** Validates every row and compares the rows with each other. */
export function validateRows(
	rows: readonly RowInput[],
	options: ValidateRowsOptions,
): { reports: RowReport[]; summary: ValidationSummary; cross: CrossCheck } {
	const checked = rows.map(checkRow);
	const shapes: PlotShape[] = [];
	for (const c of checked) {
		for (const index of c.sound) {
			const geometry = c.validation?.features[index]?.geometry as PlotGeometry;
			shapes.push({ row: c.input.row, feature: index, geometry });
		}
	}
	const cross = crossCheckPlots(shapes, {
		overlaps: options.overlaps,
		minOverlapM2: options.minOverlapM2 ?? DEFAULT_MIN_OVERLAP_M2,
	});
	const byRow = crossProblems(checked, cross, options.crossPlotSeverity ?? 'warning');

	const reports = checked.map((c): RowReport => {
		sayInUserTerms(c, options.terms ?? {});
		// a row of one feature (always so for Latitude/Longitude) is not told "feature 0"
		const oneFeature = c.features.length === 1 || options.terms?.source === 'latLon';
		const types = [...new Set(c.features.map((f) => f.geometry_type).filter((t) => t !== null))];
		const areas = c.features.map((f) => f.area_ha);
		const rules = c.features.map((f) => f.meets_4ha_rule);
		const readable = c.features.length > 0 && c.features.every((f) => f.geometry_type !== null);
		const cross = byRow.get(c.input.row) ?? {
			duplicates: [],
			overlaps: [],
			notMeasured: 0,
			atLeast: false,
			failures: 0,
		};
		const report: RowReport = {
			valid: c.problems.length === 0,
			problems: c.problems,
			warnings: c.warnings,
			problem_summary: [
				...c.problems.map((p) => line(p, oneFeature)),
				...c.warnings.map((p) => line(p, oneFeature, true)),
			].join(' | '),
			geometry_type: types.length > 0 ? types.join(', ') : null,
			is_point: types.length === 1 && types[0] === 'Point',
			feature_count: c.features.length,
			vertex_count: c.features.reduce((n, f) => n + f.vertex_count, 0),
			area_ha:
				readable && areas.every((a) => a !== null)
					? round(
							areas.reduce((s: number, a) => s + (a ?? 0), 0),
							4,
						)
					: null,
			// false as soon as one feature breaks the rule, even when another cannot be read; a
			// feature with a problem still counts when its area is known (a point of 4 ha: true)
			meets_4ha_rule: rules.includes(false)
				? false
				: rules.length === 0 || rules.includes(null)
					? null
					: true,
			features: c.features,
			duplicates: cross.duplicates.slice(0, MAX_LISTED_PER_ROW),
			duplicate_count: cross.duplicates.length,
			overlaps: cross.overlaps.slice(0, MAX_LISTED_PER_ROW),
			overlap_count: cross.overlaps.length,
			overlaps_not_measured: cross.notMeasured,
		};
		if (options.repair) {
			report.repairs = (c.validation?.repairs ?? []).map((r) => ({
				code: r.code,
				message: r.message,
				feature: r.featureIndex,
			}));
			report.repaired_geojson = c.validation
				? { type: 'FeatureCollection', features: c.validation.features }
				: null;
		}
		return report;
	});
	return { reports, summary: summarise(rows, reports, cross), cross };
}

function countBy(list: ReportedProblem[], into: Record<string, number>): void {
	for (const p of list) into[p.code] = (into[p.code] ?? 0) + 1;
}

function summarise(
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
		total_area_ha: round(
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
		limits: {
			duplicates_and_overlaps_listed_per_item: MAX_LISTED_PER_ROW,
			duplicates_and_overlaps_listed_in_summary: MAX_LISTED_IN_SUMMARY,
			overlaps_measured_per_plot: MAX_MEASURED_PER_PLOT,
			overlap_candidates_looked_at_per_plot: MAX_CANDIDATES_PER_PLOT,
		},
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
			overlap_ha: round(o.overlapM2 / 10_000, 4),
			overlap_percent_of_first: round(o.percentOfA, 2),
			overlap_percent_of_second: round(o.percentOfB, 2),
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

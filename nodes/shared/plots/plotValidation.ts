/**
 * Plot → Validate: what each input row's geometry and plot fields are worth before anything
 * is sent (nothing is sent: Validate makes no request). Pure: no n8n imports.
 *
 * Per row: valid or not, every problem (code, message and where: feature, polygon, ring,
 * position, or the field), warnings, the geodesic area, the vertex count, point or polygon,
 * whether the EUDR 4 ha rule is met, and with Repair Geometry the repaired geometry and the
 * list of repairs. Across all rows (`plotOverlaps.ts`): exact duplicate geometries and
 * overlapping plots. The report shapes and their caps are in plotReports.ts, the summary of
 * all rows in validationSummary.ts.
 */
import { area } from '@turf/area';

import type { Location, PlotGeometry, ValidationResult } from '../geometry';
import { EUDR_POINT_MAX_HA, meets4haRule, readPointArea } from '../geometry';
import { crossProblems, emptyRowCross } from './crossReports';
import type { CrossCheck, CrossCheckOptions, PlotShape } from './plotOverlaps';
import { crossCheckPlots, DEFAULT_MIN_OVERLAP_M2 } from './plotOverlaps';
import type {
	RowInput,
	ProblemWhere,
	ReportedProblem,
	FeatureReport,
	RowReport,
	ValidationSummary,
} from './plotReports';
import { MAX_LISTED_PER_ROW } from './plotReports';
import type { UserTerms } from './userTerms';
import { forSupplier } from './userTerms';
import { roundTo, summarise } from './validationSummary';

interface ValidateRowsOptions {
	repair: boolean;
	/** Look for overlaps between plots (duplicates are always looked for). */
	overlaps: boolean;
	minOverlapM2?: number;
	/** Whether duplicates and overlaps across rows make a row invalid (default: warnings). */
	crossPlotSeverity?: 'warning' | 'error';
	/** The fields the user mapped, for messages in the user's terms (`userTerms.ts`). */
	terms?: UserTerms;
	/** The cross-row check's budget and clipping paths (tests give small or failing ones). */
	crossCheck?: Pick<CrossCheckOptions, 'maxClipEdgesPerPair' | 'clipEdgesPerRun' | 'clipPaths'>;
}

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
			const said = forSupplier(
				{
					...p,
					pointHa: pointHa.kind === 'value' ? pointHa.value : undefined,
					pointHaFrom: pointHa.kind === 'missing' ? undefined : pointHa.from,
				},
				terms,
			);
			p.message = said.message;
			const hint = [p.hint, said.hint].filter((h) => h !== undefined).join(' ');
			if (hint) p.hint = hint;
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
				report.area_ha = roundTo(declared.value, 4);
				report.area_from = declared.from.kind === 'field' ? 'point_ha' : declared.from.name;
				report.meets_4ha_rule = meets4haRule('Point', declared.value);
			} else if (declared.kind === 'missing' && usable) {
				warnings.push({
					code: 'point_without_area',
					message: `the plot is a point without an area. EUDR allows a point only for a plot of ${EUDR_POINT_MAX_HA} ha or less (the service draws a circle of about 4 ha): give the plot's area in hectares, or the plot boundary as a polygon.`,
					hint: 'Map the area to Point Area (Hectares), or give each point feature a point_ha, Area or area_ha property.',
					where: where(index),
				});
			}
		} else if (usable) {
			report.area_ha = roundTo(area(geometry as never) / 10_000, 4);
			report.area_from = 'geometry';
			report.meets_4ha_rule = meets4haRule(geometry.type, undefined);
		}
		checked.features.push(report);
	});
	return checked;
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
		...options.crossCheck,
	});
	const checkedOf = new Map(checked.map((c) => [c.input.row, c]));
	const byRow = crossProblems(cross, options.crossPlotSeverity ?? 'warning', (row, problem, as) => {
		const c = checkedOf.get(row);
		if (c) (as === 'problem' ? c.problems : c.warnings).push(problem);
	});

	const reports = checked.map((c): RowReport => {
		sayInUserTerms(c, options.terms ?? {});
		// a row of one feature (always so for Latitude/Longitude) is not told "feature 0"
		const oneFeature = c.features.length === 1 || options.terms?.source === 'latLon';
		const types = [...new Set(c.features.map((f) => f.geometry_type).filter((t) => t !== null))];
		const areas = c.features.map((f) => f.area_ha);
		const rules = c.features.map((f) => f.meets_4ha_rule);
		const readable = c.features.length > 0 && c.features.every((f) => f.geometry_type !== null);
		const cross = byRow.get(c.input.row) ?? emptyRowCross();
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
					? roundTo(
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
			overlap_candidates: cross.candidates,
			overlaps_measured: cross.measured,
			overlap_candidates_at_least: cross.atLeast,
			workflow_hints: [
				...new Set([...c.problems, ...c.warnings].flatMap((p) => (p.hint ? [p.hint] : []))),
			],
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

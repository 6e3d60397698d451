/**
 * Plot → Draw Map's domain (pure): the input items' plots as map plots (nodes/shared/map),
 * coloured by validity or by the EUDR analysis outcome, read from the fields the other
 * operations output, and the output item's counts. Validity: Validate's `valid` (with its
 * warnings) when the item has it, else the row's own check (validateRows, as Validate checks:
 * the same problems, duplicates and overlaps across the items). Risk: the flat per-plot row of
 * Job → Wait for Completion / Get Results (`risk_level`, `deforestation_free`,
 * `protected_area_overlap`, `indigenous_land_overlap`), or a plot with its `analysis` (Plot →
 * Get), read as those rows are. Unknown is never "negligible".
 */
import type { IDataObject } from 'n8n-workflow';

import type { MapDrawing, MapMark, MapOutcome, MapPicture, MapPlot } from '../map';
import { hasDrawablePosition, lonLat } from '../map/parts';
import { simplifyPlotResult } from '../results/flatten';
import { bool, isObject, str } from '../values/answerValues';
import type { CheckedGeometry, ItemGeometryOptions } from './geometrySource';
import { checkItemGeometry } from './geometrySource';
import type { RowInput, RowReport } from './plotReports';

export type ColorBy = 'validity' | 'risk' | 'none';

/** The words of the outcome a risk row reads as (the flagship example's rule, docs/map-picture.md). */
export function riskOutcome(json: Record<string, unknown>): { outcome: MapOutcome; note: string } {
	const row =
		isObject(json.analysis) && !('risk_level' in json)
			? simplifyPlotResult(json as IDataObject, {})
			: json;
	const level = str(row.risk_level)?.trim().toLowerCase() ?? null;
	const free = bool(row.deforestation_free);
	const pa = bool(row.protected_area_overlap);
	const il = bool(row.indigenous_land_overlap);
	const reasons = [
		level && level !== 'low' ? `risk level ${str(row.risk_level)}` : '',
		free === false ? 'deforestation after 31 Dec 2020' : '',
		pa === true ? 'overlaps a protected area' : '',
		il === true ? 'overlaps Indigenous land' : '',
	].filter(Boolean);
	if (reasons.length)
		return {
			outcome: 'risk',
			note: [...reasons, str(row.risk_reason) ?? ''].filter(Boolean).join('; '),
		};
	if (level === 'low' && free === true && pa === false && il === false)
		return {
			outcome: 'negligible',
			note: 'risk level Low, deforestation-free, no protected-area or Indigenous-land overlap',
		};
	const unknown = [
		level === null ? 'risk level' : '',
		free === null ? 'deforestation' : '',
		pa === null ? 'protected areas' : '',
		il === null ? 'Indigenous land' : '',
	].filter(Boolean);
	return { outcome: 'unknown', note: `not known: ${unknown.join(', ')}` };
}

/** Validate's output on the item (`valid`, its warnings and overlaps), when it has one. */
function validateOutput(
	json: Record<string, unknown>,
): { valid: boolean; warnings: number; overlaps: boolean } | null {
	if (typeof json.valid !== 'boolean') return null;
	const v = isObject(json.validation) ? json.validation : {};
	const details = isObject(v.details) ? v.details : v;
	const count = (x: unknown) => (Array.isArray(x) ? x.length : 0);
	const warnings = typeof v.warning_count === 'number' ? v.warning_count : count(v.warnings);
	return {
		valid: json.valid,
		warnings,
		overlaps: count(details.overlaps) + count(details.duplicates) > 0,
	};
}

/** The item's name on the map: the Label Field, else plot_name, name, properties' name, else "Item N". */
export function plotLabel(
	json: Record<string, unknown>,
	itemIndex: number,
	field?: string,
): string {
	const props = isObject(json.properties) ? json.properties : {};
	const candidates = field
		? [json[field], props[field]]
		: [json.plot_name, json.name, json.Name, props.name, props.Name, json.plot_id];
	for (const c of candidates) {
		const s = typeof c === 'number' ? String(c) : str(c);
		if (s && s.trim()) return s.trim();
	}
	return `Item ${itemIndex}`;
}

/**
 * The geometry to draw for an item whose Geometry Source "Found in the Item" found none: the
 * plot's centre (`lat` and `lon`) of Plot → Get's and Get Many's flat row, as a point; else the
 * check as it was.
 */
export function withCentreFallback(
	json: Record<string, unknown>,
	checked: CheckedGeometry,
	options: ItemGeometryOptions,
): { checked: CheckedGeometry; centreOnly: boolean } {
	const missing = checked.kind === 'unreadable' && checked.failure.code === 'missing_geometry';
	if (!missing || typeof json.lat !== 'number' || typeof json.lon !== 'number')
		return { checked, centreOnly: false };
	const centre = checkItemGeometry('latLon', { latitude: json.lat, longitude: json.lon }, options);
	return centre.kind === 'read'
		? { checked: centre, centreOnly: true }
		: { checked, centreOnly: false };
}

export interface MapItem {
	itemIndex: number;
	json: Record<string, unknown>;
	row: RowInput;
	/** Drawn at the plot's centre only (Get's flat row: lat, lon). */
	centreOnly?: boolean;
}

export interface MapPlan {
	plots: MapPlot[];
	/** The map plot's item (same order as `plots`). */
	items: number[];
	/** Items that have no geometry to draw, and why. */
	notDrawn: Array<{ item: number; reason: string }>;
}

/** The map plots of the items, with their reports (validateRows, in the same order). */
export function planMap(
	items: MapItem[],
	reports: RowReport[],
	colorBy: ColorBy,
	labelField?: string,
): MapPlan {
	const plan: MapPlan = { plots: [], items: [], notDrawn: [] };
	items.forEach((item, k) => {
		const report = reports[k];
		const checked = item.row.geometry;
		if (checked.kind === 'unreadable') {
			plan.notDrawn.push({ item: item.itemIndex, reason: checked.failure.message });
			return;
		}
		const geometry = { type: 'FeatureCollection', features: checked.validation.features };
		if (!hasDrawablePosition(geometry)) {
			plan.notDrawn.push({
				item: item.itemIndex,
				reason: report.problem_summary || 'no coordinates in longitude/latitude degrees',
			});
			return;
		}
		const label = plotLabel(item.json, item.itemIndex, labelField);
		const marks: MapMark[] = report.problems
			.filter((p) => lonLat(p.where.near))
			.map((p) => ({ at: p.where.near, kind: 'problem', text: p.message }));
		const given = validateOutput(item.json);
		const overlaps = report.overlap_count + report.duplicate_count > 0 || given?.overlaps === true;
		let outcome: MapOutcome = 'unknown';
		let note = report.problem_summary;
		if (colorBy === 'validity') {
			const valid = given ? given.valid : report.valid;
			const warnings = given ? given.warnings : report.warnings.length;
			outcome = !valid ? 'invalid' : warnings > 0 ? 'problem' : 'valid';
			if (given && typeof item.json.problem_summary === 'string' && item.json.problem_summary)
				note = item.json.problem_summary;
		} else if (colorBy === 'risk') {
			const risk = riskOutcome(item.json);
			outcome = risk.outcome;
			note = [risk.note, report.problem_summary].filter(Boolean).join(' | ');
		}
		if (item.centreOnly)
			note = ["the plot's center only (Plot → Get with Simplify off gives its outline)", note]
				.filter(Boolean)
				.join(' | ');
		plan.plots.push({
			geometry,
			label,
			outcome,
			overlaps,
			problem: report.problems.length > 0,
			marks,
			note,
		});
		plan.items.push(item.itemIndex);
	});
	return plan;
}

const MAX_LISTED = 50;

/** The output item's json: what was drawn, what not and why. */
export function mapSummary(
	drawing: Omit<MapDrawing, 'svg'> | Omit<MapPicture, 'png'>,
	plan: MapPlan,
	extra: { fileName: string; colorBy: ColorBy; format: 'png' | 'svg'; items: number },
): Record<string, unknown> {
	const more = plan.notDrawn.length - MAX_LISTED;
	return {
		file_name: extra.fileName,
		format: extra.format,
		color_by: extra.colorBy,
		items: extra.items,
		plots_drawn: drawing.plotsDrawn,
		plots_not_drawn: plan.notDrawn.length + drawing.plotsSkipped,
		plots_drawn_as_dots: drawing.plotsAsDots,
		outcomes: drawing.outcomes,
		not_drawn: [
			...plan.notDrawn.slice(0, MAX_LISTED).map((n) => ({ item: n.item, reason: n.reason })),
			...(more > 0 ? [{ item: null, reason: `… and ${more} more` }] : []),
		],
		notes: drawing.notes,
		bounds: drawing.bounds,
		meters_per_pixel:
			drawing.metresPerPixel === null ? null : Math.round(drawing.metresPerPixel * 100) / 100,
		width: drawing.width,
		height: drawing.height,
		vertices_in: drawing.verticesIn,
		vertices_drawn: drawing.verticesDrawn,
		bytes: drawing.bytes,
	};
}

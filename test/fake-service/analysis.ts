/** Deterministic per-plot results of each capability, derived from the plot geometry. */
import type { MultiPolygon, Polygon } from 'geojson';
import type { Capability } from './data';
import { hash01, indigenousLandOverlap, protectedAreaOverlap, round } from './geo';

export interface AnalysedPlot {
	plot_id: string;
	lat: string;
	lon: string;
	area_ha: number;
	additional_info: Record<string, unknown>;
	analysisGeometry: Polygon | MultiPolygon;
}

export interface AnalysisContext {
	commodity: string | null;
	harvestDate: string | null;
	nowDate: string; // YYYY-MM-DD (fake clock)
}

export const ANALYSIS_VERSION = '2025-06-01';

function years(from: number, to: number): number[] {
	const out: number[] = [];
	for (let y = from; y <= to; y++) out.push(y);
	return out;
}

function deforestationFigures(p: AnalysedPlot, ctx: AnalysisContext) {
	const key = `${p.lat},${p.lon}`;
	const forestPct = round(20 + 75 * hash01(key + '|forest'), 2);
	const r = hash01(key + '|defo');
	let defoPct = r < 0.6 ? 0 : round((r - 0.6) * 50, 2);
	const override = p.additional_info?.fake_deforestation_percentage;
	if (override !== undefined && Number.isFinite(Number(override))) defoPct = Number(override);
	defoPct = Math.min(defoPct, 100);
	const total = round((p.area_ha * defoPct) / 100);
	const endYear = Math.max(2021, Number(ctx.nowDate.slice(0, 4)) - 1);
	const ys = years(2021, endYear);
	const weights = ys.map((y) => 0.1 + hash01(`${key}|${y}`));
	const wsum = weights.reduce((a, b) => a + b, 0);
	const totalYearly: Record<string, number> = {};
	const totalYearlyJrc: Record<string, number> = {};
	ys.forEach((y, i) => {
		totalYearly[String(y)] = round((total * weights[i]) / wsum);
		totalYearlyJrc[String(y)] = round((0.9 * total * weights[i]) / wsum);
	});
	return {
		forestPct,
		defoPct,
		deforestation: {
			total_yearly: totalYearly,
			total_yearly_jrc: totalYearlyJrc,
			total,
			total_jrc: round(0.9 * total),
		},
	};
}

/** The EUDR bundle: legacy top-level fields plus eudr, protected_areas and indigenous_land. */
export function eudrBundle(
	p: AnalysedPlot,
	ctx: AnalysisContext,
	config: Record<string, unknown>,
): Record<string, unknown> {
	const { forestPct, defoPct, deforestation } = deforestationFigures(p, ctx);
	const pa = protectedAreaOverlap(p.analysisGeometry, p.area_ha);
	const il = indigenousLandOverlap(p.analysisGeometry, p.area_ha);
	const total = deforestation.total;
	const paOverlap = pa.protected_area_overlap_summary.protected_area_overlap;
	const ilOverlap = il.indigenous_land_overlap_summary.indigenous_land_overlap;
	let risk: 'Low' | 'Medium' | 'High' = 'Low';
	let reason =
		'No deforestation after 2020-12-31 and no overlap with protected areas or Indigenous lands.';
	if (defoPct > 15 || total > 1) {
		risk = 'High';
		reason = `Deforestation of ${total} ha (${defoPct} %) after 2020-12-31.`;
	} else if (defoPct > 0 || paOverlap || ilOverlap) {
		risk = 'Medium';
		const parts: string[] = [];
		if (defoPct > 0) parts.push(`deforestation of ${total} ha (${defoPct} %)`);
		if (paOverlap) parts.push('overlap with a protected area');
		if (ilOverlap) parts.push('overlap with Indigenous land');
		reason = `Found ${parts.join(', ')}.`;
	}
	const start = '2020-12-31';
	const end = ctx.harvestDate ?? ctx.nowDate;
	const forestArea = round((p.area_ha * forestPct) / 100);
	return {
		analysisEnd: end,
		analysis_end: end,
		analysis_start: start,
		risk_level: risk,
		risk_reason: reason,
		forest_percentage_2020: forestPct,
		forest_area_2020: forestArea,
		logging_area: round(total * 0.25),
		areaHa: round(p.area_ha),
		version: ANALYSIS_VERSION,
		deforestation,
		deforestation_percentage: defoPct,
		protectedAreas: pa.protected_area_details.map((d) => [
			String(d.area_name),
			Number(d.overlap_area_ha),
		]),
		indigenous_overlap: {
			total_overlap_area: il.indigenous_land_overlap_summary.total_overlap_area_ha,
			overlapping_territories: il.indigenous_land_details.map((d) => d.name),
			overlap_percentage: il.indigenous_land_overlap_summary.total_overlap_percentage,
		},
		eudr: {
			risk_level: risk,
			deforestation_free: total === 0,
			cutoff_date: config.cutoff_date ?? start,
			analysis_start: start,
			analysis_end: end,
			commodity: ctx.commodity,
			forest_percentage_2020: forestPct,
			deforestation_percentage: defoPct,
			deforestation_area_ha: total,
			dataset: config.deforestation_dataset ?? 'combined',
		},
		protected_areas: pa,
		indigenous_land: il,
	};
}

/**
 * Results of one check for one plot, as {analysis key → value}. The EUDR bundle
 * writes several keys; other capabilities write one key (their result_key).
 */
export function runCheck(
	cap: Capability,
	resultKey: string,
	p: AnalysedPlot,
	ctx: AnalysisContext,
	config: Record<string, unknown>,
	imageUrl: string,
): { writes: Record<string, unknown>; output: unknown } {
	if (cap.name === 'eudr') {
		const b = eudrBundle(p, ctx, config);
		return { writes: b, output: b };
	}
	let value: unknown;
	switch (cap.name) {
		case 'deforestation':
			value = {
				...deforestationFigures(p, ctx).deforestation,
				deforestation_percentage: deforestationFigures(p, ctx).defoPct,
			};
			break;
		case 'protected_area':
			value = protectedAreaOverlap(p.analysisGeometry, p.area_ha);
			break;
		case 'indigenous_land':
			value = indigenousLandOverlap(p.analysisGeometry, p.area_ha);
			break;
		case 'forest_loss_by_year': {
			const d = deforestationFigures(p, ctx).deforestation;
			value = { yearly_loss_ha: d.total_yearly, total_loss_ha: d.total, unit: 'ha' };
			break;
		}
		case 'visual_verification':
			value = {
				image_url: imageUrl,
				image_date: config.image_date ?? ctx.nowDate,
				resolution: config.resolution ?? 'medium',
				cloud_cover_percentage: round(30 * hash01(`${p.lat},${p.lon}|cloud`), 1),
			};
			break;
		default: {
			const r = hash01(`${p.lat},${p.lon}|${cap.name}`);
			const cls = r < 1 / 3 ? 'low' : r < 2 / 3 ? 'moderate' : 'high';
			value = {
				capability: cap.name,
				score: round(100 * r, 1),
				class: cls,
				summary: `${cap.label}: ${cls}`,
				period: { start: '2020-12-31', end: ctx.nowDate },
				version: ANALYSIS_VERSION,
			};
		}
	}
	return { writes: { [resultKey]: value }, output: value };
}

/**
 * The record's map: its plots drawn by the package's map drawing (shared/map/), each coloured by
 * its outcome in the record, the drawing simplified for the picture only (record.json keeps
 * every vertex). The record's outcomes map onto the drawing's colours, with the record's own
 * words in the legend. Pure: no n8n imports.
 */
import type { MapOutcome, MapPlot } from '../map';
import { drawPlotMap } from '../map';
import type { PlotGeometry } from '../geometry';
import type { DueDiligenceRecord } from './dueDiligenceRecord';
import { MAP_OUTCOME_OF } from './recordColours';
import type { RecordMap } from './recordHtml';
import { MAX_MAP_BYTES } from './recordHtml';

/** The legend's words (the record says what the service found, never the decision). */
const LEGEND: Partial<Record<MapOutcome, string>> = {
	invalid: 'Invalid (Validate)',
	risk: 'Risk level High',
	problem: 'Risk level Medium',
	negligible: 'Risk level Low',
	unknown: 'Analysis failed or not known',
};

/** The record's plots as a map drawing (`shapes[i]`: the shapes read from the record's plot i). */
export function recordMap(
	record: DueDiligenceRecord,
	shapes: ReadonlyArray<readonly PlotGeometry[]>,
): RecordMap {
	const plots: MapPlot[] = [];
	record.plots.forEach((p, i) => {
		const geometry = shapes[i] ?? [];
		if (geometry.length === 0) return;
		plots.push({
			geometry: { type: 'GeometryCollection', geometries: geometry },
			label: p.plot_name ?? p.plot_id ?? `Item ${p.item}`,
			outcome: MAP_OUTCOME_OF[p.outcome],
			problem: p.outcome === 'invalid' || p.outcome === 'analysis failed',
			note: p.validation?.problem_summary ?? p.analysis?.risk_level?.toString() ?? undefined,
		});
	});
	if (plots.length === 0)
		return { svg: null, reason: 'no plot of the record has a geometry that could be read' };
	const drawing = drawPlotMap(plots, {
		title: record.shipment === null ? 'Plots' : `Shipment ${record.shipment}`,
		legendLabels: LEGEND,
		maxBytes: MAX_MAP_BYTES,
		idPrefix: 'record',
	});
	const left = record.plots.length - drawing.plotsDrawn;
	return {
		svg: drawing.svg,
		width: drawing.width,
		height: drawing.height,
		caption: [
			`${drawing.plotsDrawn} of ${record.plots.length} plots drawn${drawing.plotsAsDots ? ` (${drawing.plotsAsDots} as dots)` : ''}, ${drawing.verticesDrawn.toLocaleString('en-US')} of ${drawing.verticesIn.toLocaleString('en-US')} vertices: the outlines are simplified for drawing; the geolocation as filed, every vertex, is in record.json.`,
			left > 0
				? `${left} plots are not on the map (no readable geometry, or past the drawing's limits).`
				: '',
			...drawing.notes,
		]
			.filter(Boolean)
			.join(' '),
	};
}

/*
 * The map drawing of plots (pure, no dependencies, no network): GeoJSON plots in WGS84 →
 * a self-contained SVG map with outlines coloured by outcome, overlaps and problems marked,
 * coordinates, a scale bar and a legend. Simplified for drawing only and bounded for any
 * input (see MapOptions: plots, vertices and bytes are capped before the work; what is left
 * out is counted and written on the picture). docs/map-picture.md shows it.
 *
 *   const map = drawPlotMap(
 *     [{ geometry: { type: 'Polygon', coordinates: [...] }, label: 'Plot 7', outcome: 'valid' }],
 *     { title: 'Shipment 12' },
 *   );
 *   map.svg; // '<svg xmlns=…'  (map.bytes ≤ options.maxBytes, default 4,000,000)
 *
 * drawPlotMapPng gives the same picture as PNG (what n8n's binary viewer shows), and
 * layoutPlotMap as shapes in pixels (MapScene), for other renderers.
 */
import { sceneToPng } from './png';
import { layoutPlotMap } from './scene';
import { DEFAULTS, option } from './style';
import { sceneToSvg } from './svg';
import type { MapDrawing, MapOptions, MapPlot, MapScene } from './types';

export { layoutPlotMap } from './scene';
export { OUTCOME_COLOURS, OUTCOME_LABELS, readOutcome } from './style';
export { escapeXml } from './svg';
export type {
	MapBounds,
	MapDrawing,
	MapMark,
	MapOptions,
	MapOutcome,
	MapPlot,
	MapScene,
	MapShape,
} from './types';
export { MAP_OUTCOMES } from './types';

/** What both pictures say of the scene (the counts that the byte cap of an SVG does not change). */
function countsOf(scene: MapScene) {
	const { width, height, plotsIn, plotsAsDots, verticesIn, verticesDrawn } = scene;
	const { positionsRejected, marksDrawn, bounds, metresPerPixel, outcomes } = scene;
	return {
		width,
		height,
		plotsIn,
		plotsAsDots,
		verticesIn,
		verticesDrawn,
		positionsRejected,
		marksDrawn,
		bounds,
		metresPerPixel,
		outcomes,
	};
}

/** The plots as an SVG map (never throws for any plots; see MapDrawing for what was drawn). */
export function drawPlotMap(plots: readonly MapPlot[], options: MapOptions = {}): MapDrawing {
	const scene = layoutPlotMap(plots, options);
	const maxBytes = option(options.maxBytes, DEFAULTS.maxBytes, 100_000, 100_000_000);
	const out = sceneToSvg(scene, maxBytes, options.idPrefix);
	return {
		...countsOf(scene),
		plotsDrawn: scene.plotsDrawn - out.plotsLeftOut,
		plotsSkipped: scene.plotsSkipped + out.plotsLeftOut,
		notes: out.plotsLeftOut
			? [
					...scene.notes,
					`${out.plotsLeftOut} plot(s) left out to keep the picture under ${maxBytes} bytes`,
				]
			: scene.notes,
		svg: out.svg,
		bytes: out.bytes,
		truncated: out.truncated,
	};
}

/** MapDrawing's counts with the picture as PNG instead of SVG. */
export interface MapPicture extends Omit<MapDrawing, 'svg' | 'truncated'> {
	png: Uint8Array;
}

/**
 * The plots as a PNG map (the same layout as drawPlotMap's; never throws for any plots). Its
 * size is bounded by the picture's: width × height × 3 bytes before compression.
 */
export function drawPlotMapPng(plots: readonly MapPlot[], options: MapOptions = {}): MapPicture {
	const scene = layoutPlotMap(plots, options);
	const png = sceneToPng(scene);
	return {
		...countsOf(scene),
		plotsDrawn: scene.plotsDrawn,
		plotsSkipped: scene.plotsSkipped,
		notes: scene.notes,
		png,
		bytes: png.length,
	};
}

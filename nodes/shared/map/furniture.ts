/*
 * What makes a drawing a map: the graticule with its coordinates, the scale bar, the legend
 * and the notes. Shapes in pixels, from the projection and the frame (scene.ts places them).
 */
import type { Frame, Projection } from './project';
import { GRID, INK, MARK_COLOUR, PAPER, TEXT_SIZE, textWidth } from './style';
import type { MapShape } from './types';

/** 1, 2 or 5 × 10^n: the largest such step not above `value`. */
export function niceStep(value: number): number {
	if (!(value > 0) || !Number.isFinite(value)) return 1;
	const p = Math.pow(10, Math.floor(Math.log10(value)));
	const m = value / p;
	return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

/** 1, 2 or 5 × 10^n: the smallest such step not below `value`. */
export function niceStepAtLeast(value: number): number {
	if (!(value > 0) || !Number.isFinite(value)) return 1;
	const p = Math.pow(10, Math.floor(Math.log10(value)));
	const m = value / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** A coordinate as people read it: 12.345°E, 0.5°S. */
export function formatDegrees(value: number, step: number, axis: 'lon' | 'lat'): string {
	const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
	const hemisphere =
		Math.abs(value) < step / 1e6
			? ''
			: axis === 'lon'
				? value < 0
					? 'W'
					: 'E'
				: value < 0
					? 'S'
					: 'N';
	return `${Math.abs(value).toFixed(decimals)}°${hemisphere}`;
}

/** A distance for the scale bar: 500 m, 2 km, 0.5 km never (metres under 1 km). */
export function formatMetres(metres: number): string {
	return metres >= 1000 ? `${metres / 1000} km` : `${metres} m`;
}

/** Lines of longitude and latitude at a round step (about 3 to 8 each), labelled outside the frame. */
export function graticule(
	projection: Projection,
	frame: Frame,
): { lines: MapShape[]; labels: MapShape[] } {
	const lines: MapShape[] = [];
	const labels: MapShape[] = [];
	const b = projection.bounds;
	const axis = (lo: number, hi: number, pixels: number, kind: 'lon' | 'lat') => {
		const count = Math.max(2, Math.min(7, Math.floor(pixels / 130)));
		const step = niceStepAtLeast((hi - lo) / count);
		for (let v = Math.ceil(lo / step) * step, i = 0; v <= hi && i < 50; v += step, i++) {
			const text = formatDegrees(v, step, kind);
			if (kind === 'lon') {
				const x = projection.x(v);
				lines.push({
					kind: 'line',
					x1: x,
					y1: frame.y,
					x2: x,
					y2: frame.y + frame.h,
					stroke: GRID,
					strokeWidth: 0.6,
					dash: 3,
				});
				labels.push({
					kind: 'text',
					x,
					y: frame.y + frame.h + 15,
					text,
					size: 10,
					anchor: 'middle',
					fill: INK,
				});
			} else {
				const y = projection.y(v);
				lines.push({
					kind: 'line',
					x1: frame.x,
					y1: y,
					x2: frame.x + frame.w,
					y2: y,
					stroke: GRID,
					strokeWidth: 0.6,
					dash: 3,
				});
				labels.push({
					kind: 'text',
					x: frame.x - 5,
					y: y + 3.5,
					text,
					size: 10,
					anchor: 'end',
					fill: INK,
				});
			}
		}
	};
	axis(b.west, b.east, frame.w, 'lon');
	axis(b.south, b.north, frame.h, 'lat');
	return { lines, labels };
}

/** A scale bar of a round length (at most a quarter of the frame), bottom left inside the frame. */
export function scaleBar(metresPerPixel: number, frame: Frame): MapShape[] {
	const metres = niceStep((frame.w / 4) * metresPerPixel);
	const px = metres / metresPerPixel;
	const x = frame.x + 12;
	const y = frame.y + frame.h - 14;
	const label = formatMetres(metres);
	const w = Math.max(px, textWidth(label, 10)) + 12;
	return [
		{ kind: 'rect', x: x - 6, y: y - 20, w, h: 28, fill: PAPER, stroke: null },
		{ kind: 'rect', x, y: y - 3, w: px / 2, h: 4, fill: INK, stroke: INK },
		{ kind: 'rect', x: x + px / 2, y: y - 3, w: px / 2, h: 4, fill: PAPER, stroke: INK },
		{ kind: 'text', x, y: y - 7, text: label, size: 10, anchor: 'start', fill: INK },
	];
}

export type Swatch = 'fill' | 'dashed' | 'thick' | 'cross' | 'dot';

export interface LegendEntry {
	swatch: Swatch;
	colour: string;
	text: string;
}

const ROW = 20;

/** The legend's rows for the width, as shapes starting at (x, y); its height. */
export function legend(
	entries: LegendEntry[],
	x: number,
	y: number,
	width: number,
): { shapes: MapShape[]; height: number } {
	const shapes: MapShape[] = [];
	let cx = x;
	let cy = y;
	for (const e of entries) {
		const w = 22 + textWidth(e.text, TEXT_SIZE) + 18;
		if (cx > x && cx + w > x + width) {
			cx = x;
			cy += ROW;
		}
		shapes.push(...swatch(e, cx, cy));
		shapes.push({
			kind: 'text',
			x: cx + 22,
			y: cy + 11,
			text: e.text,
			size: TEXT_SIZE,
			anchor: 'start',
			fill: INK,
		});
		cx += w;
	}
	return { shapes, height: entries.length ? cy - y + ROW : 0 };
}

function swatch(e: LegendEntry, x: number, y: number): MapShape[] {
	const box = [x, y, x + 16, y, x + 16, y + 12, x, y + 12];
	// the box filled and outlined in the entry's colour ('dashed' adds a dash and a hatch)
	const filled: Extract<MapShape, { kind: 'path' }> = {
		kind: 'path',
		rings: [box],
		stroke: e.colour,
		strokeWidth: 1.5,
		fill: e.colour,
		fillOpacity: 0.28,
	};
	switch (e.swatch) {
		case 'fill':
			return [filled];
		case 'dashed':
			return [{ ...filled, dash: 3, hatch: true }];
		case 'thick':
			return [
				{
					kind: 'path',
					rings: [box],
					stroke: e.colour,
					strokeWidth: 3,
					fill: null,
					fillOpacity: 0,
				},
			];
		case 'dot':
			return [
				{
					kind: 'circle',
					x: x + 8,
					y: y + 6,
					r: 5,
					fill: e.colour,
					stroke: PAPER,
					strokeWidth: 1.5,
				},
			];
		case 'cross':
			return cross(x + 8, y + 6, 5, MARK_COLOUR);
	}
}

/** An × of half-size r at (x, y). */
export function cross(x: number, y: number, r: number, colour: string): MapShape[] {
	return [
		{ kind: 'line', x1: x - r, y1: y - r, x2: x + r, y2: y + r, stroke: colour, strokeWidth: 2 },
		{ kind: 'line', x1: x - r, y1: y + r, x2: x + r, y2: y - r, stroke: colour, strokeWidth: 2 },
	];
}

/** Notes in a white box at the frame's top left (at most 4 lines). */
export function notesBox(notes: string[], frame: Frame): MapShape[] {
	const lines = notes.slice(0, 4);
	if (!lines.length) return [];
	const w = Math.min(frame.w - 16, Math.max(...lines.map((l) => textWidth(l, 11))) + 12);
	const shapes: MapShape[] = [
		{
			kind: 'rect',
			x: frame.x + 6,
			y: frame.y + 6,
			w,
			h: lines.length * 15 + 8,
			fill: PAPER,
			stroke: GRID,
		},
	];
	lines.forEach((text, i) =>
		shapes.push({
			kind: 'text',
			x: frame.x + 12,
			y: frame.y + 20 + i * 15,
			text,
			size: 11,
			anchor: 'start',
			fill: INK,
		}),
	);
	return shapes;
}

/*
 * The layout: plots → a MapScene (shapes in pixels and what was drawn). Two linear passes
 * over the positions (the extent, then the projected outlines, simplified for drawing only),
 * every count capped before the work (MapOptions); hostile input (not numbers, out of range,
 * no geometry, no plots) is counted and noted, never thrown.
 */
import type { LegendEntry } from './furniture';
import { cross, graticule, legend, scaleBar } from './furniture';
import type { PlotParts } from './parts';
import { lonLat, plotParts, positionCount } from './parts';
import type { Frame, Projection } from './project';
import { Extent, fitProjection } from './project';
import type { RingCounts } from './simplify';
import { simplifyRing } from './simplify';
import {
	cleanText,
	DEFAULTS,
	FILL_OPACITY,
	INK,
	LABEL_SIZE,
	MAP_BACKGROUND,
	MARK_COLOUR,
	option,
	OUTCOME_COLOURS,
	OUTCOME_LABELS,
	OUTCOME_ORDER,
	PAPER,
	readOutcome,
	TITLE_SIZE,
} from './style';
import type { MapOptions, MapOutcome, MapPlot, MapScene, MapShape } from './types';
import { MAP_OUTCOMES } from './types';

type Limits = typeof DEFAULTS & { minPixels: number };

function limits(o: MapOptions): Limits {
	return {
		width: Math.round(option(o.width, DEFAULTS.width, 300, 4000)),
		height: Math.round(option(o.height, DEFAULTS.height, 300, 4000)),
		maxPlots: option(o.maxPlots, DEFAULTS.maxPlots, 0, 1_000_000),
		maxVertices: option(o.maxVertices, DEFAULTS.maxVertices, 100, 10_000_000),
		maxVerticesPerPlot: option(o.maxVerticesPerPlot, DEFAULTS.maxVerticesPerPlot, 3, 10_000_000),
		maxInputVertices: option(o.maxInputVertices, DEFAULTS.maxInputVertices, 0, 100_000_000),
		maxLabels: option(o.maxLabels, DEFAULTS.maxLabels, 0, 10_000),
		maxMarks: option(o.maxMarks, DEFAULTS.maxMarks, 0, 100_000),
		maxBytes: option(o.maxBytes, DEFAULTS.maxBytes, 100_000, 100_000_000),
		minPixels: option(o.minPixels, DEFAULTS.minPixels, 0, 10),
	} as Limits;
}

interface ReadPlot {
	plot: MapPlot;
	parts: PlotParts;
	outcome: MapOutcome;
}

/** Pass 1: which plots are read (caps), their extent, the positions read and rejected. */
function readPlots(
	plots: readonly MapPlot[],
	l: Limits,
	scene: MapScene,
	extent: Extent,
): ReadPlot[] {
	const read: ReadPlot[] = [];
	let budget = l.maxInputVertices;
	let noGeometry = 0;
	let pastPlots = 0;
	let pastVertices = 0;
	for (let i = 0; i < plots.length; i++) {
		if (i >= l.maxPlots) {
			pastPlots = plots.length - i;
			break;
		}
		const plot: MapPlot =
			typeof plots[i] === 'object' && plots[i] !== null ? plots[i] : { geometry: null };
		const parts = plotParts(plot.geometry);
		const n = positionCount(parts);
		if (n > budget) {
			pastVertices++;
			continue;
		}
		budget -= n;
		scene.verticesIn += n;
		let good = 0;
		const visit = (p: unknown) => {
			const ll = lonLat(p);
			if (!ll) return void scene.positionsRejected++;
			good++;
			extent.add(ll[0], ll[1]);
		};
		parts.points.forEach(visit);
		for (const polygon of parts.polygons) for (const ring of polygon) ring.forEach(visit);
		if (good === 0) noGeometry++;
		else read.push({ plot, parts, outcome: readOutcome(plot.outcome) });
	}
	scene.plotsSkipped = noGeometry + pastPlots + pastVertices;
	if (noGeometry) scene.notes.push(`${noGeometry} plot(s) without a readable geometry not drawn`);
	if (pastPlots) scene.notes.push(`${pastPlots} plot(s) past the first ${l.maxPlots} not drawn`);
	if (pastVertices)
		scene.notes.push(
			`${pastVertices} plot(s) past ${l.maxInputVertices} vertices in all not drawn`,
		);
	if (scene.positionsRejected)
		scene.notes.push(
			`${scene.positionsRejected} coordinate(s) not numbers or outside ±180/±90 left out`,
		);
	return read;
}

/** Pass 2: one plot's shapes (outline, or a dot when it is under a pixel or the budget is spent). */
function drawPlot(
	r: ReadPlot,
	index: number,
	p: Projection,
	l: Limits,
	scene: MapScene,
	budget: { left: number },
): MapShape[] {
	const colour = OUTCOME_COLOURS[r.outcome];
	const label = cleanText(r.plot.label, 60);
	const note = cleanText(r.plot.note, 200);
	const title = [label, OUTCOME_LABELS[r.outcome], note].filter(Boolean).join(' — ');
	const counts: RingCounts = { read: 0, rejected: 0 };
	const rings: number[][] = [];
	let perPlot = Math.min(l.maxVerticesPerPlot, budget.left);
	let dotX = NaN;
	let dotY = NaN;
	for (const polygon of r.parts.polygons) {
		polygon.forEach((ring, i) => {
			if (perPlot < 3) return;
			const px = simplifyRing(ring, p, l.minPixels, perPlot, counts);
			if (px.length >= 6) {
				rings.push(px);
				perPlot -= px.length / 2;
			} else if (i === 0 && px.length >= 2 && Number.isNaN(dotX)) {
				dotX = px[0];
				dotY = px[1];
			}
		});
	}
	const shapes: MapShape[] = [];
	const drawn = rings.reduce((n, ring) => n + ring.length / 2, 0);
	budget.left -= drawn;
	scene.verticesDrawn += drawn;
	if (rings.length) {
		shapes.push({
			kind: 'path',
			rings,
			stroke: colour,
			strokeWidth: r.plot.problem ? 3 : 1.4,
			fill: colour,
			fillOpacity: FILL_OPACITY,
			dash: r.plot.overlaps ? 4 : undefined,
			hatch: r.plot.overlaps === true,
			title,
			plot: index,
		});
	} else if (r.parts.polygons.length) {
		if (Number.isNaN(dotX)) {
			const first = r.parts.polygons.flat(2).map(lonLat).find(Boolean);
			if (first) [dotX, dotY] = [p.x(first[0]), p.y(first[1])];
		}
		if (!Number.isNaN(dotX)) {
			scene.plotsAsDots++;
			scene.verticesDrawn++;
			shapes.push({
				kind: 'circle',
				x: dotX,
				y: dotY,
				r: 3,
				fill: colour,
				stroke: colour,
				strokeWidth: r.plot.problem ? 2 : 1,
				title,
				plot: index,
			});
		}
	}
	for (const point of r.parts.points) {
		const ll = lonLat(point);
		if (!ll) continue;
		scene.verticesDrawn++;
		shapes.push({
			kind: 'circle',
			x: p.x(ll[0]),
			y: p.y(ll[1]),
			r: 5,
			fill: colour,
			stroke: r.plot.problem ? INK : PAPER,
			strokeWidth: r.plot.problem ? 2.5 : 1.5,
			title,
			plot: index,
		});
	}
	return shapes;
}

/** The pixel box of shapes (for a label's place). */
function centreOf(shapes: MapShape[]): [number, number] | null {
	let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
	const add = (x: number, y: number) => {
		x0 = Math.min(x0, x);
		x1 = Math.max(x1, x);
		y0 = Math.min(y0, y);
		y1 = Math.max(y1, y);
	};
	for (const s of shapes) {
		if (s.kind === 'circle') add(s.x, s.y);
		else if (s.kind === 'path')
			for (const ring of s.rings)
				for (let i = 0; i < ring.length; i += 2) add(ring[i], ring[i + 1]);
	}
	return x0 <= x1 ? [(x0 + x1) / 2, (y0 + y1) / 2] : null;
}

function legendEntries(read: ReadPlot[], o: MapOptions, marks: boolean): LegendEntry[] {
	const present = new Set(read.map((r) => r.outcome));
	const entries: LegendEntry[] = MAP_OUTCOMES.filter((k) => present.has(k)).map((k) => ({
		swatch: 'fill',
		colour: OUTCOME_COLOURS[k],
		text: `${cleanText(o.legendLabels?.[k], 60) || OUTCOME_LABELS[k]} (${read.filter((r) => r.outcome === k).length})`,
	}));
	if (read.some((r) => r.plot.overlaps))
		entries.push({ swatch: 'dashed', colour: INK, text: 'Overlaps another plot' });
	if (read.some((r) => r.plot.problem))
		entries.push({ swatch: 'thick', colour: INK, text: 'Problem to check' });
	if (read.some((r) => r.parts.points.length))
		entries.push({ swatch: 'dot', colour: INK, text: 'Point' });
	if (marks) entries.push({ swatch: 'cross', colour: MARK_COLOUR, text: 'Where a problem is' });
	return entries;
}

/** The scene of the plots: shapes in pixels, counts, notes. */
export function layoutPlotMap(plots: readonly MapPlot[], options: MapOptions = {}): MapScene {
	const l = limits(options);
	const list = Array.isArray(plots) ? plots : [];
	const scene: MapScene = {
		width: l.width,
		height: l.height,
		shapes: [],
		overlay: [],
		frame: { x: 0, y: 0, w: 0, h: 0 },
		plotsIn: list.length,
		plotsDrawn: 0,
		plotsAsDots: 0,
		plotsSkipped: 0,
		verticesIn: 0,
		verticesDrawn: 0,
		positionsRejected: 0,
		marksDrawn: 0,
		bounds: null,
		metresPerPixel: null,
		outcomes: {},
		notes: [],
	};
	const extent = new Extent();
	const read = readPlots(list, l, scene, extent);
	const hasMarks =
		read.some((r) => Array.isArray(r.plot.marks) && r.plot.marks.length > 0) && l.maxMarks > 0;
	const entries = legendEntries(read, options, hasMarks);
	const title = cleanText(options.title, 120);
	const top = title ? 36 : 12;
	const legendWidth = l.width - 32;
	const legendHeight = legend(entries, 0, 0, legendWidth).height;
	const frame: Frame = {
		x: 64,
		y: top,
		w: l.width - 80,
		h: l.height - top - 30 - legendHeight - 8,
	};
	scene.shapes.push({
		kind: 'rect',
		x: 0,
		y: 0,
		w: l.width,
		h: l.height,
		fill: PAPER,
		stroke: null,
	});
	scene.shapes.push({
		kind: 'rect',
		x: frame.x,
		y: frame.y,
		w: frame.w,
		h: frame.h,
		fill: MAP_BACKGROUND,
		stroke: null,
	});
	if (title)
		scene.overlay.push({
			kind: 'text',
			x: frame.x,
			y: 24,
			text: title,
			size: TITLE_SIZE,
			anchor: 'start',
			fill: INK,
			bold: true,
		});
	scene.overlay.push(...legend(entries, 16, frame.y + frame.h + 30, legendWidth).shapes);
	if (extent.empty) {
		scene.notes.unshift(list.length ? 'No plot could be drawn' : 'No plots to draw');
	} else {
		const p = fitProjection(extent, frame);
		scene.bounds = p.bounds;
		scene.metresPerPixel = p.metresPerPixel;
		const grid = graticule(p, frame);
		scene.shapes.push(...grid.lines);
		scene.overlay.push(...grid.labels, ...scaleBar(p.metresPerPixel, frame));
		drawPlots(read, p, l, scene, frame);
	}
	scene.overlay.push({
		kind: 'rect',
		x: frame.x,
		y: frame.y,
		w: frame.w,
		h: frame.h,
		fill: null,
		stroke: INK,
	});
	scene.frame = frame;
	return scene;
}

function drawPlots(
	read: ReadPlot[],
	p: Projection,
	l: Limits,
	scene: MapScene,
	frame: Frame,
): void {
	const order = read
		.map((_r, i) => i)
		.sort((a, b) => OUTCOME_ORDER[read[a].outcome] - OUTCOME_ORDER[read[b].outcome] || a - b);
	const budget = { left: l.maxVertices };
	const labels: MapShape[] = [];
	const marks: MapShape[] = [];
	const labelled = read.length <= l.maxLabels;
	for (const i of order) {
		const r = read[i];
		const shapes = drawPlot(r, i, p, l, scene, budget);
		if (!shapes.length) continue;
		scene.plotsDrawn++;
		scene.outcomes[r.outcome] = (scene.outcomes[r.outcome] ?? 0) + 1;
		scene.shapes.push(...shapes);
		const label = cleanText(r.plot.label, 30);
		const at = labelled && label ? centreOf(shapes) : null;
		if (at)
			labels.push({
				kind: 'text',
				x: at[0],
				y: at[1] - 8,
				text: label,
				size: LABEL_SIZE,
				anchor: 'middle',
				fill: INK,
				halo: true,
			});
		for (const m of Array.isArray(r.plot.marks) ? r.plot.marks : []) {
			const ll = lonLat(m?.at);
			if (!ll || scene.marksDrawn >= l.maxMarks) continue;
			const x = p.x(ll[0]);
			const y = p.y(ll[1]);
			if (x < frame.x || x > frame.x + frame.w || y < frame.y || y > frame.y + frame.h) continue;
			scene.marksDrawn++;
			marks.push(...cross(x, y, 5, MARK_COLOUR));
		}
	}
	if (scene.plotsAsDots)
		scene.notes.push(
			`${scene.plotsAsDots} plot(s) drawn as a dot (smaller than a pixel, or past ${l.maxVertices} vertices)`,
		);
	scene.shapes.push(...marks, ...labels);
}

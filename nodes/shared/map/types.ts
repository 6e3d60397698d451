/*
 * The map drawing's types: what a caller gives (MapPlot, MapOptions) and what the layout
 * makes of it (MapScene, a list of shapes in pixels that svg.ts writes as SVG and png.ts
 * paints as PNG). Pure data: no imports.
 */

/**
 * What a plot's colour says. Validity: `valid`, `problem` (valid with warnings, or a plot
 * that needs a look), `invalid`. Risk: `negligible`, `risk` (not negligible: needs
 * mitigation). `unknown`: no outcome (never drawn as "no problem").
 */
export type MapOutcome = 'valid' | 'problem' | 'invalid' | 'negligible' | 'risk' | 'unknown';

export const MAP_OUTCOMES: readonly MapOutcome[] = [
	'valid',
	'negligible',
	'problem',
	'invalid',
	'risk',
	'unknown',
];

/** A place marked on the map (e.g. where edges cross, an overlap's point). */
export interface MapMark {
	/** [longitude, latitude] in WGS84. */
	at: unknown;
	kind?: 'problem' | 'overlap';
	/** Shown as the mark's tooltip. */
	text?: string;
}

/** One plot to draw. */
export interface MapPlot {
	/**
	 * GeoJSON in WGS84 (longitude, latitude): a Point, MultiPoint, Polygon or MultiPolygon
	 * geometry, a Feature of one, or a FeatureCollection / GeometryCollection of them (all
	 * parts drawn as this plot). Anything else is counted as not drawn, never thrown.
	 */
	geometry: unknown;
	/** The plot's name on the map and in its tooltip (at most 60 characters shown). */
	label?: string;
	/** Its colour; anything but a MapOutcome reads as `unknown`. */
	outcome?: MapOutcome | string;
	/** The plot overlaps another: drawn with a dashed outline and hatched. */
	overlaps?: boolean;
	/** The plot has a problem to look at: drawn with a thick outline. */
	problem?: boolean;
	/** Places to mark with a cross (at most MapOptions.maxMarks in all). */
	marks?: MapMark[];
	/** Extra tooltip text (e.g. the problem summary; at most 200 characters shown). */
	note?: string;
}

export interface MapOptions {
	/** The picture's size in pixels (defaults 960 × 720; 200–4000 each). */
	width?: number;
	height?: number;
	/** A title above the map (at most 120 characters shown). */
	title?: string;
	/** The legend's words per outcome (defaults in scene.ts, OUTCOME_LABELS). */
	legendLabels?: Partial<Record<MapOutcome, string>>;
	/** Plots drawn at most (default 10,000); the others are counted in plotsSkipped. */
	maxPlots?: number;
	/** Vertices drawn at most in all (default 200,000); past it, plots are drawn as dots. */
	maxVertices?: number;
	/** Vertices drawn at most per plot (default 20,000). */
	maxVerticesPerPlot?: number;
	/** Vertices read at most in all (default 5,000,000): past it, plots are not drawn. */
	maxInputVertices?: number;
	/** Plot names written on the map when there are at most this many plots (default 40). */
	maxLabels?: number;
	/** Crosses drawn at most (default 500). */
	maxMarks?: number;
	/** The SVG's size at most in bytes (default 4,000,000; at least 100,000). */
	maxBytes?: number;
	/** Prefix of the SVG's ids (letters, digits, '-'; default 'gm'): give each map of one HTML page its own. */
	idPrefix?: string;
	/** Vertices closer than this many pixels to the last one drawn are dropped (default 0.75). */
	minPixels?: number;
}

/** A shape of the picture, in pixels (y down). Colours are #rrggbb. */
export type MapShape =
	| {
			kind: 'path';
			/** Rings as flat [x0, y0, x1, y1, …], closed implicitly; filled even-odd. */
			rings: number[][];
			stroke: string;
			strokeWidth: number;
			fill: string | null;
			fillOpacity: number;
			dash?: number;
			hatch?: boolean;
			title?: string;
			/** The plot's index when the shape draws a plot (left out first when the bytes run out). */
			plot?: number;
	  }
	| {
			kind: 'circle';
			x: number;
			y: number;
			r: number;
			fill: string;
			stroke: string;
			strokeWidth: number;
			title?: string;
			plot?: number;
	  }
	| {
			kind: 'line';
			x1: number;
			y1: number;
			x2: number;
			y2: number;
			stroke: string;
			strokeWidth: number;
			dash?: number;
	  }
	| {
			kind: 'rect';
			x: number;
			y: number;
			w: number;
			h: number;
			fill: string | null;
			stroke: string | null;
	  }
	| {
			kind: 'text';
			x: number;
			y: number;
			text: string;
			size: number;
			anchor: 'start' | 'middle' | 'end';
			fill: string;
			bold?: boolean;
			/** A white outline behind the letters (labels over plots). */
			halo?: boolean;
	  };

/** The south-west and north-east corners drawn, in degrees. */
export interface MapBounds {
	west: number;
	south: number;
	east: number;
	north: number;
}

/** What was drawn and what not, with the picture's shapes. */
export interface MapScene {
	width: number;
	height: number;
	/** Background and frame, graticule, then plots (background first), then marks. */
	shapes: MapShape[];
	/** Legend, scale bar, coordinates and title: drawn last, always kept (then the notes box). */
	overlay: MapShape[];
	/** The map's frame in pixels (the notes box sits in its top left). */
	frame: { x: number; y: number; w: number; h: number };
	plotsIn: number;
	plotsDrawn: number;
	/** Plots drawn as a dot because they are smaller than a pixel or the budget was spent. */
	plotsAsDots: number;
	/** Plots not drawn: no readable geometry, past maxPlots or maxInputVertices. */
	plotsSkipped: number;
	verticesIn: number;
	verticesDrawn: number;
	/** Coordinates left out because they were not numbers or outside ±180 / ±90. */
	positionsRejected: number;
	marksDrawn: number;
	/** The plots' extent (null when nothing could be drawn). */
	bounds: MapBounds | null;
	/** Metres per pixel at the map's centre latitude (null when nothing drawn). */
	metresPerPixel: number | null;
	/** Count of plots per outcome drawn. */
	outcomes: Partial<Record<MapOutcome, number>>;
	/** Why something was left out (plain sentences, also written on the picture). */
	notes: string[];
}

/** drawPlotMap's result: the SVG and the scene's counts. */
export interface MapDrawing extends Omit<MapScene, 'shapes' | 'overlay' | 'frame'> {
	svg: string;
	/** The SVG's size in bytes (UTF-8). */
	bytes: number;
	/** True when plots were left out to keep the SVG under maxBytes. */
	truncated: boolean;
}

/*
 * Minimal GeoJSON (RFC 7946) types for the shapes this layer handles. Declared
 * here rather than imported from 'geojson' so that the node code imports no
 * package outside the bundle; they are structurally compatible with
 * @types/geojson.
 */
import type { Reading } from '../input';

/** [longitude, latitude] or [longitude, latitude, z]. */
export type Position = number[];

export interface Point {
	type: 'Point';
	coordinates: Position;
}

export interface Polygon {
	type: 'Polygon';
	coordinates: Position[][];
}

export interface MultiPolygon {
	type: 'MultiPolygon';
	coordinates: Position[][][];
}

export interface Feature<G = PlotGeometry> {
	type: 'Feature';
	geometry: G;
	properties: Record<string, unknown> | null;
	id?: string | number;
}

/** The geometry types the service accepts on registration. */
export type PlotGeometry = Point | Polygon | MultiPolygon;

export type PlotFeature = Feature<PlotGeometry>;

export interface ParsedFeatures {
	features: PlotFeature[];
	/** The top-level `crs` member of the input, when it had one (pass it to `validateFeatures` as `opts.crs`). */
	crs?: unknown;
}

/**
 * Where inside a feature a problem is, when it is narrower than the feature: the polygon of a
 * MultiPolygon, the ring (0 = the outer boundary) and the position inside the ring (all
 * 0-based, as in the GeoJSON arrays), and for crossings a point near them.
 */
export interface Location {
	polygon?: number;
	ring?: number;
	position?: number;
	/** [longitude, latitude] near the problem (e.g. where edges cross). */
	near?: Position;
}

export interface Problem {
	severity: 'error' | 'warning';
	/** Index into the validated feature list; -1 when the problem concerns the whole input (top-level `crs`, no features). */
	featureIndex: number;
	code: string;
	message: string;
	/** Where inside the feature, when known (see `Location`). */
	where?: Location;
}

export interface Repair {
	featureIndex: number;
	code: string;
	message: string;
}

export interface ValidateOptions {
	/** Country of the plot (name, ISO2 or ISO3 code); enables the swapped latitude/longitude check against its bounding box. */
	country?: string;
	/** Repair closable defects on copies of the features (off by default). */
	repair?: boolean;
	/**
	 * The point area mapped from the input, as the input layer read it (`readHectares`). When
	 * given (not missing), it takes precedence over a feature's own `point_ha`, `Area`,
	 * `area_ha` or `AREA` property (pointArea.ts). Applies to Point features only.
	 */
	pointHa?: Reading<number>;
	/** The label of the field `pointHa` comes from, for messages (default "Point Area (Hectares)"). */
	pointHaField?: string;
	/**
	 * Check the service's own limits too (default true: what Register would send); false where
	 * nothing is registered (Export), so that only EUDR's rules apply (e.g. a point of exactly
	 * 4 ha: EUDR allows it, the service's `point_ha` must be below 4.0).
	 */
	serviceLimits?: boolean;
	/** The top-level `crs` member of the input (`ParsedFeatures.crs`). */
	crs?: unknown;
}

export interface ValidationResult {
	/** Repaired copies when `repair` is on; the untouched inputs otherwise. */
	features: Feature[];
	problems: Problem[];
	repairs: Repair[];
	/** True when no problem has severity `error` (warnings do not count). */
	valid: boolean;
}

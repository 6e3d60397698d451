/*
 * The projection: equirectangular at the centre latitude (x scaled by cos(latitude)), true
 * in scale at the centre and close enough for plots and regions of a few hundred kilometres;
 * fitted to the map's frame with the plots' extent padded. Pure arithmetic.
 */
import type { MapBounds } from './types';

/** Metres per degree of latitude (the sphere of radius 6,371,008.8 m). */
export const METRES_PER_DEGREE = 111_195;

/** The smallest extent shown, in degrees (about 1 km): one point or one tiny plot. */
export const MIN_SPAN_DEGREES = 0.01;

export interface Frame {
	x: number;
	y: number;
	w: number;
	h: number;
}

export interface Projection {
	/** The extent drawn (the plots' extent, padded and widened to the frame's shape). */
	bounds: MapBounds;
	metresPerPixel: number;
	x(lon: number): number;
	y(lat: number): number;
}

/** An extent growing over positions; null while empty. */
export class Extent {
	west = Infinity;
	south = Infinity;
	east = -Infinity;
	north = -Infinity;
	add(lon: number, lat: number): void {
		if (lon < this.west) this.west = lon;
		if (lon > this.east) this.east = lon;
		if (lat < this.south) this.south = lat;
		if (lat > this.north) this.north = lat;
	}
	get empty(): boolean {
		return this.west > this.east;
	}
}

/** Padded by `pad` of the span on each side, at least MIN_SPAN_DEGREES, clamped to the globe. */
function padded(e: Extent, pad: number): MapBounds {
	const grow = (lo: number, hi: number, min: number, max: number): [number, number] => {
		const span = Math.max(hi - lo, MIN_SPAN_DEGREES);
		const mid = (lo + hi) / 2;
		const half = (span / 2) * (1 + 2 * pad);
		return [Math.max(min, mid - half), Math.min(max, mid + half)];
	};
	const [west, east] = grow(e.west, e.east, -180, 180);
	const [south, north] = grow(e.south, e.north, -90, 90);
	return { west, south, east, north };
}

/** The projection fitting the extent into the frame, centred, the same scale on both axes. */
export function fitProjection(extent: Extent, frame: Frame, pad = 0.06): Projection {
	const b = padded(extent, pad);
	const latMid = (b.south + b.north) / 2;
	const k = Math.max(Math.cos((latMid * Math.PI) / 180), 0.01);
	const dx = (b.east - b.west) * k;
	const dy = b.north - b.south;
	const s = Math.min(frame.w / dx, frame.h / dy);
	const x0 = frame.x + (frame.w - dx * s) / 2;
	const y0 = frame.y + (frame.h - dy * s) / 2;
	const x = (lon: number) => x0 + (lon - b.west) * k * s;
	const y = (lat: number) => y0 + (b.north - lat) * s;
	const lonAt = (px: number) => b.west + (px - x0) / (k * s);
	const latAt = (py: number) => b.north - (py - y0) / s;
	const bounds: MapBounds = {
		west: Math.max(-180, lonAt(frame.x)),
		east: Math.min(180, lonAt(frame.x + frame.w)),
		north: Math.min(90, latAt(frame.y)),
		south: Math.max(-90, latAt(frame.y + frame.h)),
	};
	return { bounds, metresPerPixel: METRES_PER_DEGREE / s, x, y };
}

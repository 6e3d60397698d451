/*
 * The drawable parts of a plot's GeoJSON, read tolerantly and without recursion past one
 * level of collections: polygons (their rings, unread arrays of positions) and points.
 * Nothing here throws: what is not GeoJSON has no parts.
 */

export interface PlotParts {
	/** Each polygon's rings (the first is the outline, the others holes). */
	polygons: unknown[][][];
	points: unknown[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function addGeometry(g: unknown, parts: PlotParts): void {
	if (!isObject(g)) return;
	const c = g.coordinates;
	switch (g.type) {
		case 'Point':
			parts.points.push(c);
			return;
		case 'MultiPoint':
			for (const p of arrayOf(c)) parts.points.push(p);
			return;
		case 'Polygon':
			parts.polygons.push(arrayOf(c).map(arrayOf));
			return;
		case 'MultiPolygon':
			for (const polygon of arrayOf(c)) parts.polygons.push(arrayOf(polygon).map(arrayOf));
			return;
		default:
			return;
	}
}

/** The geometry itself, a Feature's, or every member of a FeatureCollection / GeometryCollection. */
export function plotParts(value: unknown): PlotParts {
	const parts: PlotParts = { polygons: [], points: [] };
	if (!isObject(value)) return parts;
	const one = (v: unknown) =>
		addGeometry(isObject(v) && v.type === 'Feature' ? v.geometry : v, parts);
	if (value.type === 'FeatureCollection') for (const f of arrayOf(value.features)) one(f);
	else if (value.type === 'GeometryCollection') for (const g of arrayOf(value.geometries)) one(g);
	else one(value);
	return parts;
}

/** [lon, lat] of a GeoJSON position when both are numbers within ±180 / ±90, else null. */
export function lonLat(position: unknown): [number, number] | null {
	if (!Array.isArray(position)) return null;
	const lon = position[0];
	const lat = position[1];
	if (typeof lon !== 'number' || typeof lat !== 'number') return null;
	if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return null;
	return [lon, lat];
}

/** The number of positions in the parts (what reading them costs). */
export function positionCount(parts: PlotParts): number {
	let n = parts.points.length;
	for (const polygon of parts.polygons) for (const ring of polygon) n += ring.length;
	return n;
}

/** Whether any position of the GeoJSON can be drawn (a number pair within ±180 / ±90). */
export function hasDrawablePosition(value: unknown): boolean {
	const parts = plotParts(value);
	if (parts.points.some((p) => lonLat(p))) return true;
	return parts.polygons.some((polygon) => polygon.some((ring) => ring.some((p) => lonLat(p))));
}

/**
 * GPX through @tmcw/togeojson: tracks and routes as lines (a walked boundary is a track),
 * waypoints as points. With `closedLinesAsPolygons`, a track or route whose ends are within
 * `closingDistanceM` metres becomes a polygon. The per-point times and sensor readings
 * (togeojson's coordinateProperties) are left out: one plot, not one record per fix.
 */
import type { Document } from '@xmldom/xmldom';
import { gpx } from '@tmcw/togeojson';

import { flat2d, foldCollection, lineAsPolygon } from './fileGeometry';
import type { XmlFeature } from './kml';
import { checkNesting } from './kml';
import type { Geometry, Position } from './geoFileTypes';

const LAYER: Record<string, string> = { trk: 'tracks', rte: 'routes', wpt: 'waypoints' };

export function readGpxDocument(
	doc: Document,
	options: { closedLinesAsPolygons: boolean; closingDistanceM: number },
): { features: XmlFeature[]; warnings: string[] } {
	checkNesting(doc);
	const collection = gpx(doc as never);
	const counters = new Map<string, number>();
	const features: XmlFeature[] = [];
	for (const feature of collection.features) {
		const properties = { ...(feature.properties ?? {}) } as Record<string, unknown>;
		// togeojson marks tracks and routes; waypoints come without a mark.
		const kind = String(properties._gpxType ?? (feature.geometry?.type === 'Point' ? 'wpt' : ''));
		delete properties._gpxType;
		delete properties.coordinateProperties;
		const layer = LAYER[kind] ?? null;
		const index = counters.get(layer ?? '') ?? 0;
		counters.set(layer ?? '', index + 1);
		const warnings: string[] = [];
		let geometry = (feature.geometry as Geometry | null) ?? null;
		if (geometry) geometry = flat2d(foldCollection(geometry, warnings));
		if (geometry && (geometry.type === 'LineString' || geometry.type === 'MultiLineString')) {
			const lines: Position[][] =
				geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
			if (options.closedLinesAsPolygons) {
				const rings = lines.map((line) => lineAsPolygon(line, options.closingDistanceM));
				if (rings.every((r) => r !== undefined)) {
					const polygons = rings as Position[][][];
					geometry =
						polygons.length === 1
							? { type: 'Polygon', coordinates: polygons[0] }
							: { type: 'MultiPolygon', coordinates: polygons };
				} else {
					warnings.push(
						`The ${kind === 'rte' ? 'route' : 'track'} does not end within ${options.closingDistanceM} m of where it starts: kept as a line`,
					);
				}
			} else {
				warnings.push(
					`A ${kind === 'rte' ? 'route' : 'track'} is read as a line; turn on "Closed Tracks as Polygons" to read a walked boundary as a plot`,
				);
			}
		}
		if (!geometry) warnings.push('No position could be read');
		features.push({ layer, index, geometry, properties, warnings });
	}
	return { features, warnings: [] };
}

/**
 * A row's plot as filed in the EU Information System: its geometry read from the row (the
 * Geometry Source fields, "Found in the Item" by default, as Submit reads plot rows) and written
 * with Plot → Export's writer (six decimals, RFC 7946 winding; ProducerCountry, and Area for a
 * point), as one FeatureCollection per row. Features that already carry EU properties (a
 * FeatureCollection Plot → Export wrote) keep them. Only parsed, not validated again: the
 * record reports Validate's outcome, and the shapes are never simplified. Pure: no n8n imports.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Feature, PlotGeometry } from '../geometry';
import {
	GeometryInputError,
	featureFromLatLon,
	parseGeoJsonValue,
	parseWkt,
	readPointArea,
} from '../geometry';
import type { Reading } from '../input';
import type { EuProperties } from '../plots/euExport';
import { EU_POINT_MAX_HA, emptyNotes, holeCount, writeEuFeature } from '../plots/euExport';
import type { GeometrySource, GeometryValues } from '../plots/geometrySource';
import { findItemGeometry } from '../plots/geometrySource';
import { isObject, num, str } from '../values/answerValues';
import type { EuFeatureOutcome } from './dueDiligenceRecord';

/** Features one row may hold (as Submit's plot rows). */
export const MAX_FEATURES_PER_ROW = 10_000;

export interface RowGeometry {
	/** The row's plot as filed (a FeatureCollection), or why not. */
	eu: EuFeatureOutcome;
	/** The shapes read, for the map drawing (empty when none could be read). */
	shapes: PlotGeometry[];
}

export interface RowGeometryOptions {
	/** ProducerCountry (ISO alpha-2), when the row gives one. */
	country: string | undefined;
	/** Area of Points (Hectares) as mapped. */
	pointHa: Reading<number>;
	pointHaField: string;
}

function parse(source: GeometrySource, values: GeometryValues): Feature[] {
	if (source === 'item') {
		const found = findItemGeometry(values.item);
		if (found.source === undefined)
			throw new GeometryInputError('missing_geometry', found.failure.message);
		return parse(found.source, found.values);
	}
	if (source === 'wkt') return parseWkt(values.wkt) as Feature[];
	if (source === 'latLon') return [featureFromLatLon(values.latitude, values.longitude) as Feature];
	return parseGeoJsonValue(values.geoJson, { maxFeatures: MAX_FEATURES_PER_ROW })
		.features as Feature[];
}

/** The EU properties a feature of Plot → Export keeps (ProducerCountry is what marks one). */
function ownEuProperties(properties: unknown): EuProperties | undefined {
	if (!isObject(properties) || typeof properties.ProducerCountry !== 'string') return undefined;
	const out: EuProperties = { ProducerCountry: properties.ProducerCountry };
	const name = str(properties.ProducerName);
	const place = str(properties.ProductionPlace);
	const area = num(properties.Area);
	if (name !== null) out.ProducerName = name;
	if (place !== null) out.ProductionPlace = place;
	if (area !== null) out.Area = area;
	return out;
}

/** Reads and writes one row's plot; never throws for bad input (null with the reason instead). */
export function rowGeometry(
	source: GeometrySource,
	values: GeometryValues,
	options: RowGeometryOptions,
): RowGeometry {
	let features: Feature[];
	try {
		features = parse(source, values);
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { eu: { geojson: null, reason: `the geometry could not be read: ${why}` }, shapes: [] };
	}
	const shapes = features.map((f) => f.geometry).filter((g) => g !== null && g !== undefined);
	const none = (reason: string): RowGeometry => ({ eu: { geojson: null, reason }, shapes });
	if (features.length === 0) return none('the row holds no feature');
	const texts: string[] = [];
	for (const [f, feature] of features.entries()) {
		const shape = feature.geometry;
		const where = features.length > 1 ? `feature ${f}: ` : '';
		if (holeCount(shape) > 0)
			return none(
				`${where}the polygon has holes; the EU Information System reads only the outer boundary, so it was not filed as it is here`,
			);
		const own = ownEuProperties(feature.properties);
		const properties: EuProperties = own ?? { ProducerCountry: options.country ?? '' };
		if (!own && options.country === undefined)
			return none(
				'no Producer Country: map the field holding the country of production (a name or an ISO code)',
			);
		if (shape.type === 'Point' && !own) {
			const read = readPointArea(feature.properties, options.pointHa, options.pointHaField);
			const ha = read.kind === 'value' ? read.value : undefined;
			if (ha === undefined || ha <= 0 || ha > EU_POINT_MAX_HA)
				return none(
					`${where}a point ${ha === undefined ? 'without an area' : `of ${ha} ha`}: the EU Information System takes a point only with its Area, for a plot of up to ${EU_POINT_MAX_HA} ha (map ${options.pointHaField})`,
				);
			properties.Area = ha;
		}
		try {
			texts.push(writeEuFeature(shape, properties, 'refuse', emptyNotes()).text);
		} catch (error) {
			return none(
				`${where}the geometry could not be written (${error instanceof Error ? error.message : String(error)})`,
			);
		}
	}
	const text = `{"type":"FeatureCollection","features":[${texts.join(',')}]}`;
	return {
		eu: { geojson: JSON.parse(text) as IDataObject, bytes: Buffer.byteLength(text, 'utf8') },
		shapes,
	};
}

/**
 * GeoJSON files: a FeatureCollection, a Feature, a bare geometry, a list of these, or
 * newline-delimited GeoJSON (one of these per line). A `crs` member other than WGS84 is
 * refused naming it (GeoJSON is WGS84 longitude/latitude by definition, RFC 7946).
 */
import { crsName, isWgs84Crs } from '../geometry/crs';
import { flat2d, foldCollection } from './geometry';
import type { XmlFeature } from './kml';
import type { Geometry } from './types';
import { GeoFileError } from './types';

const GEOMETRY_TYPES = new Set([
	'Point',
	'MultiPoint',
	'LineString',
	'MultiLineString',
	'Polygon',
	'MultiPolygon',
	'GeometryCollection',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

function checkCrs(value: Record<string, unknown>, fileName: string) {
	if (value.crs !== undefined && !isWgs84Crs(value.crs)) {
		throw new GeoFileError(
			`"${fileName}" declares the coordinate system "${crsName(value.crs) ?? JSON.stringify(value.crs)}" (crs member), which is not WGS84 longitude/latitude: refused rather than read as degrees`,
			'Export the layer as GeoJSON in WGS84 (EPSG:4326): in QGIS, Export → Save Features As…, format GeoJSON, CRS EPSG:4326.',
		);
	}
}

function collect(
	value: unknown,
	fileName: string,
	where: string,
	out: XmlFeature[],
	warnings: string[],
) {
	if (Array.isArray(value)) {
		value.forEach((v, i) => collect(v, fileName, `${where}[${i}]`, out, warnings));
		return;
	}
	if (!isObject(value)) {
		warnings.push(`${where} is not a GeoJSON object and was skipped`);
		return;
	}
	checkCrs(value, fileName);
	if (value.type === 'FeatureCollection') {
		if (!Array.isArray(value.features)) {
			throw new GeoFileError(
				`"${fileName}": the FeatureCollection at ${where} has no "features" list`,
				'Export the file again; a FeatureCollection holds its features in a "features" array.',
			);
		}
		value.features.forEach((f, i) =>
			collect(f, fileName, `${where}.features[${i}]`, out, warnings),
		);
		return;
	}
	const index = out.length;
	const featureWarnings: string[] = [];
	let geometry: Geometry | null = null;
	let properties: Record<string, unknown> = {};
	if (value.type === 'Feature') {
		properties = isObject(value.properties) ? { ...value.properties } : {};
		if (isObject(value.geometry) && GEOMETRY_TYPES.has(String(value.geometry.type)))
			geometry = value.geometry as unknown as Geometry;
		else if (value.geometry !== null && value.geometry !== undefined)
			featureWarnings.push(`The geometry of ${where} is not GeoJSON and was left out`);
		else featureWarnings.push(`${where} has no geometry (null)`);
	} else if (GEOMETRY_TYPES.has(String(value.type))) {
		geometry = value as unknown as Geometry;
	} else {
		warnings.push(
			`${where} has the type ${JSON.stringify(value.type)}, which is not GeoJSON, and was skipped`,
		);
		return;
	}
	if (geometry) {
		try {
			geometry = flat2d(foldCollection(geometry, featureWarnings));
		} catch {
			featureWarnings.push(`The coordinates of ${where} are not GeoJSON positions`);
			geometry = null;
		}
	}
	out.push({ layer: null, index, geometry, properties, warnings: featureWarnings });
}

/** Reads GeoJSON or newline-delimited GeoJSON text. */
export function readGeoJsonText(
	text: string,
	fileName: string,
): { features: XmlFeature[]; warnings: string[]; ndjson: boolean } {
	const features: XmlFeature[] = [];
	const warnings: string[] = [];
	let whole: unknown;
	let wholeError: Error | undefined;
	try {
		whole = JSON.parse(text);
	} catch (error) {
		wholeError = error as Error;
	}
	if (!wholeError) {
		collect(whole, fileName, 'the file', features, warnings);
		return { features, warnings, ndjson: false };
	}
	const lines = text.split(/\r?\n/);
	const filled = lines.filter((l) => l.trim() !== '');
	if (filled.length < 2) {
		throw new GeoFileError(
			`"${fileName}" is not valid JSON: ${wholeError.message} (a file cut short gives this)`,
			'Send the file again as it was exported; open it in a text editor or geojson.io to check that it is complete.',
		);
	}
	lines.forEach((line, i) => {
		if (line.trim() === '') return;
		let value: unknown;
		let lineError: Error | undefined;
		try {
			value = JSON.parse(line);
		} catch (error) {
			lineError = error as Error;
		}
		if (lineError) {
			throw new GeoFileError(
				`"${fileName}" is neither one JSON document (${wholeError?.message}) nor newline-delimited GeoJSON: line ${i + 1} is not valid JSON (${lineError.message})`,
				'Send the file again as it was exported; a file cut short gives this.',
			);
		}
		collect(value, fileName, `line ${i + 1}`, features, warnings);
	});
	return { features, warnings, ndjson: true };
}

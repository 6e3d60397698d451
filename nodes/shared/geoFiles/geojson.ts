/**
 * GeoJSON files: a FeatureCollection, a Feature, a bare geometry, a list of these, or
 * newline-delimited GeoJSON (one of these per line). A `crs` member other than WGS84 is
 * refused naming it (GeoJSON is WGS84 longitude/latitude by definition, RFC 7946).
 *
 * JSON.parse reads a value nested tens of thousands of levels deep, but n8n's saving and deep
 * copy of the output would then overflow the call stack and end the run. So nothing deeper
 * than `MAX_JSON_DEPTH` (the limit Validate applies to a mapped value) reaches the output: a
 * property that deep is left out with a warning naming it (the feature and its other
 * properties are kept), a geometry that deep is left out (null) with a warning, and lists or
 * collections nested that deep around the features are skipped with a warning. Every walk
 * here is iterative (`pathDeeperThan`) or bounded by that depth.
 *
 * Bounded output: the positions of every geometry kept are counted in the read's
 * `OutputBudget` (refused past it), and members that are not features (or nest too deep)
 * are counted into one warning that says the first ("200,000 members … were skipped; the
 * first: …"), never one warning each. Property names are kept as own properties whatever
 * they are (`__proto__`, `constructor`, `toString`…).
 */
import { crsName, isWgs84Crs } from '../geometry/crs';
import { MAX_JSON_DEPTH, pathDeeperThan, showPath } from '../input/depth';
import { setOwn } from '../input/json';
import { isObject } from '../values/answerValues';
import { flat2d, foldCollection, positionCount } from './fileGeometry';
import { CountedSkips } from './fileWarnings';
import type { XmlFeature } from './kml';
import type { OutputBudget } from './outputBudget';
import type { Geometry } from './geoFileTypes';
import { GeoFileError, tooManyFeatures } from './geoFileTypes';

const GEOMETRY_TYPES = new Set([
	'Point',
	'MultiPoint',
	'LineString',
	'MultiLineString',
	'Polygon',
	'MultiPolygon',
	'GeometryCollection',
]);

/** A member's value in a message: JSON, unless nested too deep to print safely or long. */
function shown(value: unknown): string {
	if (pathDeeperThan(value, 8) !== undefined) return '(a deeply nested value)';
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function checkCrs(value: Record<string, unknown>, fileName: string) {
	if (value.crs !== undefined && !isWgs84Crs(value.crs)) {
		throw new GeoFileError(
			`"${fileName}" declares the coordinate system "${crsName(value.crs) ?? shown(value.crs)}" (crs member), which is not WGS84 longitude/latitude: refused rather than read as degrees`,
			'Export the layer as GeoJSON in WGS84 (EPSG:4326): in QGIS, Export → Save Features As…, format GeoJSON, CRS EPSG:4326.',
		);
	}
}

interface Reading {
	fileName: string;
	out: XmlFeature[];
	/** Reading stops (refused) once a file gives more features than this. */
	maxFeatures: number;
	/** Members skipped (not features, or nested too deep): one counted warning. */
	skips: CountedSkips;
	budget?: OutputBudget;
}

/** The properties without any value nested deeper than the output may hold, with a warning per property left out. */
function shallowProperties(
	properties: Record<string, unknown>,
	where: string,
	warnings: string[],
): Record<string, unknown> {
	// The output item nests a property value under json.properties: two levels of the limit.
	const kept: Record<string, unknown> = {};
	if (pathDeeperThan(properties, MAX_JSON_DEPTH) === undefined) {
		for (const [key, value] of Object.entries(properties)) setOwn(kept, key, value);
		return kept;
	}
	for (const [key, value] of Object.entries(properties)) {
		const deep = pathDeeperThan(value, MAX_JSON_DEPTH - 1);
		if (deep === undefined) setOwn(kept, key, value);
		else
			warnings.push(
				`The property ${JSON.stringify(key)} of ${where} nests more than ${MAX_JSON_DEPTH} levels deep (at ${showPath([key, ...deep])}) and was left out; the feature's other properties are kept`,
			);
	}
	return kept;
}

function collect(value: unknown, where: string, reading: Reading, depth: number) {
	const { fileName, out, skips } = reading;
	if (depth > MAX_JSON_DEPTH) {
		skips.add(
			`${where} nests lists or collections more than ${MAX_JSON_DEPTH} levels deep and was skipped`,
		);
		return;
	}
	if (Array.isArray(value)) {
		value.forEach((v, i) => collect(v, `${where}[${i}]`, reading, depth + 1));
		return;
	}
	if (!isObject(value)) {
		skips.add(`${where} is not a GeoJSON object and was skipped`);
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
		value.features.forEach((f, i) => collect(f, `${where}.features[${i}]`, reading, depth + 1));
		return;
	}
	const index = out.length;
	if (index >= reading.maxFeatures) throw tooManyFeatures(fileName, reading.maxFeatures);
	const featureWarnings: string[] = [];
	let geometry: Geometry | null = null;
	let properties: Record<string, unknown> = {};
	if (value.type === 'Feature') {
		properties = isObject(value.properties)
			? shallowProperties(value.properties, where, featureWarnings)
			: {};
		if (isObject(value.geometry) && GEOMETRY_TYPES.has(String(value.geometry.type)))
			geometry = value.geometry as unknown as Geometry;
		else if (value.geometry !== null && value.geometry !== undefined)
			featureWarnings.push(`The geometry of ${where} is not GeoJSON and was left out`);
		else featureWarnings.push(`${where} has no geometry (null)`);
	} else if (GEOMETRY_TYPES.has(String(value.type))) {
		geometry = value as unknown as Geometry;
	} else {
		skips.add(`${where} has the type ${shown(value.type)}, which is not GeoJSON, and was skipped`);
		return;
	}
	const deepGeometry = geometry ? pathDeeperThan(geometry, MAX_JSON_DEPTH - 1) : undefined;
	if (deepGeometry) {
		featureWarnings.push(
			`The geometry of ${where} nests more than ${MAX_JSON_DEPTH} levels deep (at ${showPath(['geometry', ...deepGeometry])}), which no plot needs, and was left out`,
		);
		geometry = null;
	}
	if (geometry) {
		// Counted before the positions are copied (a count, not a walk that builds).
		reading.budget?.takePositions(positionCount(geometry));
		try {
			geometry = flat2d(foldCollection(geometry, featureWarnings));
		} catch {
			featureWarnings.push(`The coordinates of ${where} are not GeoJSON positions`);
			geometry = null;
		}
	}
	out.push({ layer: null, index, geometry, properties, warnings: featureWarnings });
}

/** JSON.parse without throwing: the value, or the error it threw. */
function parseJson(text: string): { value: unknown } | { error: Error } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { error: error as Error };
	}
}

/** Reads GeoJSON or newline-delimited GeoJSON text. */
export function readGeoJsonText(
	text: string,
	fileName: string,
	maxFeatures = Number.POSITIVE_INFINITY,
	budget?: OutputBudget,
): { features: XmlFeature[]; warnings: string[]; ndjson: boolean } {
	const features: XmlFeature[] = [];
	const warnings: string[] = [];
	const skips = new CountedSkips('members were skipped as not GeoJSON features');
	const reading: Reading = { fileName, out: features, maxFeatures, skips, budget };
	const done = (ndjson: boolean) => {
		const skipped = skips.warning();
		if (skipped) warnings.push(skipped);
		return { features, warnings, ndjson };
	};
	const whole = parseJson(text);
	if (!('error' in whole)) {
		collect(whole.value, 'the file', reading, 0);
		return done(false);
	}
	const wholeError = whole.error;
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
		const parsed = parseJson(line);
		if ('error' in parsed) {
			throw new GeoFileError(
				`"${fileName}" is neither one JSON document (${wholeError?.message}) nor newline-delimited GeoJSON: line ${i + 1} is not valid JSON (${parsed.error.message})`,
				'Send the file again as it was exported; a file cut short gives this.',
			);
		}
		collect(parsed.value, `line ${i + 1}`, reading, 0);
	});
	return done(true);
}

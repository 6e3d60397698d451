/** What reading a geo file gives: features in WGS84 lon/lat with their attributes and where they came from. */

export type Position = number[];

export type Geometry =
	| { type: 'Point'; coordinates: Position }
	| { type: 'MultiPoint'; coordinates: Position[] }
	| { type: 'LineString'; coordinates: Position[] }
	| { type: 'MultiLineString'; coordinates: Position[][] }
	| { type: 'Polygon'; coordinates: Position[][] }
	| { type: 'MultiPolygon'; coordinates: Position[][][] }
	| { type: 'GeometryCollection'; geometries: Geometry[] };

export type GeoFormat = 'geojson' | 'ndjson' | 'kml' | 'kmz' | 'gpx' | 'shapefile';

export interface FeatureSource {
	fileName: string;
	format: GeoFormat;
	/** Shapefile layer name, or the KML folder path ("Farm A / Plots"); null when the file has none. */
	layer: string | null;
	/** Position of the feature in its layer (0-based; a Shapefile's record number minus one). */
	featureIndex: number;
}

export interface ReadFeature {
	/** GeoJSON geometry in WGS84 [longitude, latitude]; null when the feature has none. */
	geometry: Geometry | null;
	properties: Record<string, unknown>;
	source: FeatureSource;
	/**
	 * What was met while reading this feature. The file's and layers' warnings are said once,
	 * on the first feature of the file (before its own), never copied onto every feature.
	 */
	warnings: string[];
}

export interface GeoFile {
	format: GeoFormat;
	features: ReadFeature[];
	/**
	 * Warnings about the file or a layer, each said once (repeats counted into one), at most
	 * `MAX_FILE_WARNINGS` distinct ones and a last line saying how many more were met.
	 */
	warnings: string[];
}

export interface GeoFileOptions {
	/** Largest input file in bytes. */
	maxFileBytes: number;
	/** Largest total of uncompressed bytes read from a zip (KMZ, zipped Shapefile). */
	maxUncompressedBytes: number;
	/** Most features one file may hold. */
	maxFeatures: number;
	/** GPX: a track or route whose ends are within `closingDistanceM` becomes a polygon. */
	closedLinesAsPolygons: boolean;
	closingDistanceM: number;
	/** Shapefile attribute encoding when the layer has no `.cpg` and no language driver id. */
	defaultEncoding: string;
}

export const MB = 1_000_000;

export const DEFAULT_OPTIONS: GeoFileOptions = {
	maxFileBytes: 50 * MB,
	maxUncompressedBytes: 250 * MB,
	maxFeatures: 100_000,
	closedLinesAsPolygons: false,
	closingDistanceM: 10,
	defaultEncoding: 'ISO-8859-1',
};

/** A file that cannot be read: `message` says what is wrong, `description` what to do. */
export class GeoFileError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
		this.name = 'GeoFileError';
	}
}

/** A file giving more features than Maximum Features (said the same by every reader). */
export function tooManyFeatures(fileName: string, max: number): GeoFileError {
	return new GeoFileError(
		`"${fileName}" holds more than ${max} features, over the ${max} one file may give (Maximum Features)`,
		'Split the file, or raise Maximum Features in the options.',
	);
}

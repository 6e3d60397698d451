/**
 * Plot → Read File's domain: a supplier's file (GeoJSON, newline-delimited GeoJSON, KML,
 * KMZ, GPX, zipped Shapefile), detected from its content, read into features in WGS84
 * longitude/latitude with their attributes, where they came from and the warnings met.
 * Pure: bytes in, features out; every limit is an option with a stated default.
 */
import { outOfRange } from './fileGeometry';
import { readGeoJsonText } from './geojson';
import type { XmlFeature } from './kml';
import { readKml } from './kml';
import { readShapefileLayer } from './shapefile';
import type { GeoFile, GeoFileOptions, GeoFormat, ReadFeature } from './geoFileTypes';
import { DEFAULT_OPTIONS, GeoFileError, MB, tooManyFeatures } from './geoFileTypes';
import { FileWarnings, featureWarnings } from './fileWarnings';
import { OutputBudget } from './outputBudget';
import { xmlText } from './xml';
import { readXmlFile, xmlReadOptions } from './xmlFile';
import { isZip, readZip } from './zip';

export * from './geoFileTypes';
export { declaredBytes } from './statedSize';
export { OutputBudget, POSITIONS_PER_MB, positionLimit } from './outputBudget';
export { MAX_FEATURE_WARNINGS, MAX_FILE_WARNINGS } from './fileWarnings';

const FORMATS =
	'GeoJSON (.geojson, .json, newline-delimited), KML, KMZ, GPX or a zipped Shapefile (.zip with .shp, .dbf, .prj)';

function unknownFormat(fileName: string, what: string): GeoFileError {
	return new GeoFileError(
		`"${fileName}" is not a geo file this node reads: ${what}`,
		`Read File takes ${FORMATS}. Other formats (GeoPackage, CSV, Excel…): export them from QGIS as GeoJSON, or read CSV/Excel with n8n's Extract From File node.`,
	);
}

const extension = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
const baseName = (name: string) => name.replace(/^.*\//, '').replace(/\.[^.]+$/, '');

function fromXml(
	bytes: Uint8Array,
	fileName: string,
	options: GeoFileOptions,
	budget: OutputBudget,
) {
	// The root element decides (the extension may be wrong or missing).
	return readXmlFile(
		bytes,
		fileName,
		options,
		(root) =>
			unknownFormat(
				fileName,
				`an XML document whose root element is <${root}>, not <kml> or <gpx>`,
			),
		budget,
	);
}

/** At most `max` names, then how many more ("a.kml, b.kml, … and 3 more"). */
function someNames(names: string[], max = 8): string {
	if (names.length <= max) return names.join(', ');
	return `${names.slice(0, max).join(', ')}, … and ${(names.length - max).toLocaleString('en-US')} more`;
}

/** The zip's entries by stem ("export/fazendas") and lower-case extension (".shp"), indexed once. */
function byStem(files: Map<string, Uint8Array>): Map<string, Map<string, Uint8Array>> {
	const index = new Map<string, Map<string, Uint8Array>>();
	for (const [name, data] of files) {
		const stem = name.slice(0, -4);
		let parts = index.get(stem);
		if (!parts) index.set(stem, (parts = new Map()));
		parts.set(name.slice(-4).toLowerCase(), data);
	}
	return index;
}

function fromZip(
	bytes: Uint8Array,
	fileName: string,
	options: GeoFileOptions,
	budget: OutputBudget,
	layerWarnings: FileWarnings,
) {
	const wanted = (name: string) => /\.(shp|shx|dbf|prj|cpg|kml)$/i.test(name);
	const zip = readZip(bytes, fileName, wanted, options.maxUncompressedBytes);
	const shps = zip.names.filter((n) => /\.shp$/i.test(n));
	const kmls = zip.names.filter((n) => /\.kml$/i.test(n));
	const warnings: string[] = [];
	if (shps.length > 0) {
		if (kmls.length > 0)
			warnings.push(`The zip also holds KML (${someNames(kmls)}), which was not read`);
		// Said straight into the file's bounded warnings (a zip of thousands of layers never
		// holds a warning per layer beyond the cap).
		layerWarnings.addAll(warnings);
		const features: XmlFeature[] = [];
		const layerNames = new Set<string>();
		const stems = byStem(zip.files);
		for (const shp of shps) {
			const stem = shp.slice(0, -4);
			const parts = stems.get(stem);
			let name = baseName(shp);
			if (layerNames.has(name)) name = stem;
			layerNames.add(name);
			const layer = readShapefileLayer(
				name,
				{
					shp: parts?.get('.shp') as Uint8Array,
					shx: parts?.get('.shx'),
					dbf: parts?.get('.dbf'),
					prj: parts?.get('.prj'),
					cpg: parts?.get('.cpg'),
				},
				options.defaultEncoding,
				// Maximum Features across the layers: reading stops at the first record over it.
				{ budget, maxRecords: options.maxFeatures - features.length },
			);
			layerWarnings.addAll(layer.warnings);
			if (layer.features.length === 0) layerWarnings.add(`Layer "${name}" is empty (no features)`);
			for (const f of layer.features) {
				features.push({
					layer: name,
					index: f.index,
					geometry: f.geometry,
					properties: f.properties,
					warnings: f.warnings,
				});
			}
		}
		return { format: 'shapefile' as GeoFormat, features, warnings: [] };
	}
	if (kmls.length > 0) {
		// Google Earth's main file is doc.kml; otherwise the first .kml at the top level.
		const main =
			kmls.find((n) => n.toLowerCase() === 'doc.kml') ??
			[...kmls].sort((a, b) => a.split('/').length - b.split('/').length)[0];
		const others = kmls.filter((n) => n !== main);
		if (others.length > 0)
			warnings.push(`The KMZ holds other KML files (${someNames(others)}), which were not read`);
		const kmlName = `${fileName}/${main}`;
		const read = readKml(
			zip.files.get(main) as Uint8Array,
			kmlName,
			xmlReadOptions(kmlName, options, budget),
		);
		return {
			format: 'kmz' as GeoFormat,
			features: read.features,
			warnings: [...warnings, ...read.warnings],
		};
	}
	const shown = zip.names.slice(0, 8).join(', ') || 'nothing';
	throw unknownFormat(
		fileName,
		`a zip holding ${shown}${zip.names.length > 8 ? ', …' : ''} (no .shp layer and no .kml)`,
	);
}

/** Megabytes, exact to the byte without trailing zeros: "0.001", "12.5", "50". */
export const showMb = (bytes: number): string => String(Number((bytes / MB).toFixed(6)));

/** A file over Maximum File Size (`declared`: the size its binary data states, before reading it). */
export function tooLarge(
	fileName: string,
	bytes: number,
	maxBytes: number,
	declared = false,
): GeoFileError {
	return new GeoFileError(
		`"${fileName}" ${declared ? 'is declared as' : 'is'} ${showMb(bytes)} MB, over the ${showMb(maxBytes)} MB this node reads (Maximum File Size)${declared ? ': refused without reading it' : ''}`,
		'Split the file (e.g. by region or folder) or raise Maximum File Size (MB) in the options.',
	);
}

/** Reads one geo file. Throws `GeoFileError` (what is wrong, what to do) when it cannot. */
export function readGeoFile(
	bytes: Uint8Array,
	fileName: string,
	given: Partial<GeoFileOptions> = {},
): GeoFile {
	const options = { ...DEFAULT_OPTIONS, ...given };
	// What this one file may give (positions), counted by every reader.
	const budget = new OutputBudget(fileName, options);
	const fileWarnings = new FileWarnings();
	if (bytes.length > options.maxFileBytes)
		throw tooLarge(fileName, bytes.length, options.maxFileBytes);
	if (bytes.length === 0) throw unknownFormat(fileName, 'the file is empty');
	let read: { format: GeoFormat; features: XmlFeature[]; warnings: string[] };
	if (isZip(bytes)) read = fromZip(bytes, fileName, options, budget, fileWarnings);
	else if (
		bytes.length >= 4 &&
		bytes[0] === 0 &&
		bytes[1] === 0 &&
		bytes[2] === 0x27 &&
		bytes[3] === 0x0a
	)
		throw new GeoFileError(
			`"${fileName}" is a bare .shp file: without its .dbf (attributes) and .prj (coordinate system) it cannot be read safely`,
			"Zip the layer's files together (.shp, .shx, .dbf, .prj, .cpg) and read the zip.",
		);
	else if (bytes[0] === 0x1f && bytes[1] === 0x8b)
		throw unknownFormat(fileName, "a gzip archive; unpack it first (n8n's Compression node)");
	else {
		const utf16 =
			(bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
		const decode = (part: Uint8Array) =>
			utf16 ? xmlText(part) : new TextDecoder('utf-8').decode(part);
		const startOf = (text: string) => /\S/.exec(text.replace(/^\uFEFF/, ''))?.[0];
		// The first character decides: decoded from the first 64 KB (the XML readers decode
		// the file themselves, a megabyte at a time), the whole file only past 64 KB of blanks.
		let start = startOf(decode(bytes.subarray(0, 65_536)));
		if (start === undefined && bytes.length > 65_536) start = startOf(decode(bytes));
		if (start === '<') read = fromXml(bytes, fileName, options, budget);
		else if (start === '{' || start === '[') {
			const text = decode(bytes).replace(/^\uFEFF/, '');
			const r = readGeoJsonText(text, fileName, options.maxFeatures, budget);
			read = {
				format: r.ndjson ? 'ndjson' : 'geojson',
				features: r.features,
				warnings: r.warnings,
			};
		} else {
			const ext = extension(fileName);
			throw unknownFormat(
				fileName,
				ext === 'shp' || ext === 'dbf'
					? 'a part of a Shapefile; zip the .shp, .shx, .dbf, .prj and .cpg together'
					: 'it is neither JSON, XML (KML, GPX) nor a zip',
			);
		}
	}
	if (read.features.length > options.maxFeatures) {
		// Every reader stops at the first feature over the cap (this says it in one wording).
		throw tooManyFeatures(fileName, options.maxFeatures);
	}
	fileWarnings.addAll(read.warnings);
	const warnings = fileWarnings.list();
	if (read.features.length === 0) {
		const said = warnings.slice(0, 5).join('; ');
		throw new GeoFileError(
			`"${fileName}" (${read.format}) holds no features${said ? `: ${said}${warnings.length > 5 ? '; …' : ''}` : ''}`,
			'Check that the intended file was attached; an empty layer or folder gives nothing to read.',
		);
	}
	for (const f of read.features) {
		const bad = f.geometry ? outOfRange(f.geometry) : undefined;
		if (bad) {
			const where = `${f.layer ? `layer "${f.layer}", ` : ''}feature ${f.index + 1}`;
			throw new GeoFileError(
				`"${fileName}": ${where} has the position ${JSON.stringify(bad.slice(0, 2))}, which is not WGS84 longitude/latitude in degrees (meters of a projected system?): the file is refused rather than read as degrees`,
				'Export the file in WGS84 (EPSG:4326), longitude first; for a Shapefile, send its .prj with it.',
			);
		}
	}
	// The file's warnings once, on its first feature; each feature keeps its own.
	const features: ReadFeature[] = read.features.map((f, i) => ({
		geometry: f.geometry,
		properties: f.properties,
		source: { fileName, format: read.format, layer: f.layer, featureIndex: f.index },
		warnings: i === 0 ? [...warnings, ...featureWarnings(f.warnings)] : featureWarnings(f.warnings),
	}));
	return { format: read.format, features, warnings };
}

/**
 * Read File's XML path: a KML or GPX file (the root element decides; the extension may be
 * wrong or missing), and the options its readers take from Read File's (the OutputBudget
 * that counts every position, the text it may keep, Maximum Features).
 */
import type { GeoFileError, GeoFileOptions } from './geoFileTypes';
import { readGpx, GpxReader } from './gpx';
import type { XmlRead, XmlReadOptions } from './kml';
import { KmlReader } from './kml';
import { OutputBudget } from './outputBudget';
import { readXml } from './xml';

/** The XML readers' options from Read File's (a budget of its own unless one is given). */
export function xmlReadOptions(
	fileName: string,
	options: GeoFileOptions,
	budget: OutputBudget = new OutputBudget(fileName, options),
): XmlReadOptions {
	return { budget, maxKeptChars: options.maxFileBytes, maxFeatures: options.maxFeatures };
}

/** Reads a KML or GPX file; `unknownRoot` words the refusal of any other XML document. */
export function readXmlFile(
	bytes: Uint8Array,
	fileName: string,
	options: GeoFileOptions,
	unknownRoot: (root: string) => GeoFileError,
	budget?: OutputBudget,
): XmlRead & { format: 'kml' | 'gpx' } {
	const readOptions = { ...options, ...xmlReadOptions(fileName, options, budget) };
	let reader: KmlReader | GpxReader | undefined;
	readXml(bytes, fileName, (root) => {
		if (root === 'kml') reader = new KmlReader(fileName, readOptions);
		else if (root === 'gpx') reader = new GpxReader(fileName, readOptions);
		else throw unknownRoot(root);
		return reader;
	});
	if (!reader) throw unknownRoot('');
	return { format: reader instanceof KmlReader ? 'kml' : 'gpx', ...reader.finish() };
}

export { readGpx };

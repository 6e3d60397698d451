/**
 * Read File's XML path as it was before issue 28 (@xmldom/xmldom 0.9 + @tmcw/togeojson 7,
 * the code of nodes/shared/geoFiles/{xml,kml,gpx}.ts at that time, moved here unchanged but
 * for its imports), kept for test/unit/geoFiles/xmlPaths.test.ts: every KML, KMZ and GPX
 * fixture is read through both paths, and the outputs must be equal but for the
 * differences the issue asked for, which that test lists.
 */
import type { Document, Element as XmlElement, Node as XmlNode } from '@xmldom/xmldom';
import { DOMParser } from '@xmldom/xmldom';
import { gpx, kmlWithFolders } from '@tmcw/togeojson';
import type { Folder, F } from '@tmcw/togeojson';
import { unzipSync } from 'fflate';

import { flat2d, foldCollection, lineAsPolygon } from '../../nodes/shared/geoFiles/fileGeometry';
import type { Geometry, Position } from '../../nodes/shared/geoFiles/geoFileTypes';
import { GeoFileError } from '../../nodes/shared/geoFiles/geoFileTypes';
import type { XmlFeature } from '../../nodes/shared/geoFiles/kml';

/** Text of an XML file: its declared encoding (UTF-8 by default), byte-order mark removed. */
export function xmlText(bytes: Uint8Array): string {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
	const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
	let label = 'utf-8';
	if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
	else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
	else if (declared) label = declared;
	try {
		return new TextDecoder(label).decode(bytes);
	} catch {
		return new TextDecoder('utf-8').decode(bytes);
	}
}

export function parseXml(text: string, fileName: string): Document {
	if (/<!ENTITY/i.test(text) || /<!DOCTYPE[^>[]*\[/i.test(text)) {
		throw new GeoFileError(
			`"${fileName}" declares XML entities (a DOCTYPE with an internal subset): refused, nothing in it was expanded or fetched`,
			'KML and GPX files never need entity declarations; a file with them is damaged or crafted. Export it again from the app that made it.',
		);
	}
	let fatal: string | undefined;
	const parser = new DOMParser({
		onError: (level, message) => {
			if (level === 'fatalError') fatal ??= String(message);
		},
	});
	let doc: unknown;
	try {
		doc = parser.parseFromString(text, 'text/xml');
	} catch (error) {
		fatal ??= (error as Error).message;
	}
	if (fatal !== undefined || !doc) {
		throw new GeoFileError(
			`"${fileName}" is not well-formed XML: ${(fatal ?? 'no document').split('\n')[0]} (a file cut short gives this)`,
			'Send the file again as it was exported; open it in Google Earth or a text editor to check that it is complete.',
		);
	}
	return doc as Document;
}

/** The local name of the document's root element ("kml", "gpx"), lower-cased. */
export function rootName(doc: Document): string {
	const root = doc.documentElement;
	return (root?.localName ?? root?.nodeName ?? '').replace(/^.*:/, '').toLowerCase();
}

const GX = 'http://www.google.com/kml/ext/2.2';

/** Deepest XML element nesting read (Google Earth files nest a few folders; a crafted one, thousands). */
const MAX_FOLDER_DEPTH = 200;

const nestedTooDeep = () =>
	new GeoFileError(
		`The file nests its XML elements more than ${MAX_FOLDER_DEPTH} deep: refused (a damaged or crafted file)`,
		'Export the file again from Google Earth or QGIS; real files nest a few folders.',
	);

/** Refuses a document nested deeper than real files are (the readers after it recurse). */
export function checkNesting(doc: Document): void {
	if (depthOf(doc as unknown as XmlNode) > MAX_FOLDER_DEPTH) throw nestedTooDeep();
}

/** The deepest element nesting under `root`, counted without recursion. */
function depthOf(root: XmlNode): number {
	let deepest = 0;
	const stack: Array<[XmlNode, number]> = [[root, 0]];
	while (stack.length > 0) {
		const [node, depth] = stack.pop()!;
		if (depth > deepest) deepest = depth;
		if (deepest > MAX_FOLDER_DEPTH) return deepest;
		for (let child = node.firstChild; child; child = child.nextSibling)
			if (child.nodeType === 1) stack.push([child, depth + 1]);
	}
	return deepest;
}

/** Removes `gx:` elements; returns their names with counts. */
function stripGx(root: XmlNode): Map<string, number> {
	const found = new Map<string, number>();
	const visit = (node: XmlNode) => {
		let child = node.firstChild;
		while (child) {
			const next = child.nextSibling;
			if (child.nodeType === 1) {
				const el = child as XmlElement;
				if (el.namespaceURI === GX || el.prefix === 'gx') {
					found.set(el.nodeName, (found.get(el.nodeName) ?? 0) + 1);
					node.removeChild(child);
				} else visit(child);
			}
			child = next;
		}
	};
	visit(root);
	return found;
}

export function readKmlText(
	text: string,
	fileName: string,
): { features: XmlFeature[]; warnings: string[]; layers: string[] } {
	return readKmlDocument(parseXml(text, fileName));
}

/** A parsed KML document (its gx: elements are removed from it). */
export function readKmlDocument(doc: Document): {
	features: XmlFeature[];
	warnings: string[];
	layers: string[];
} {
	const warnings: string[] = [];
	checkNesting(doc);
	const gx = stripGx(doc as unknown as XmlNode);
	if (gx.size > 0) {
		const list = [...gx].map(([name, n]) => `${name} ×${n}`).join(', ');
		warnings.push(
			`Google Earth extensions (${list}) were ignored: only standard KML geometry is read (a gx:Track walked in Google Earth can be saved as a path or polygon there)`,
		);
	}
	const tree = kmlWithFolders(doc as never);
	const features: XmlFeature[] = [];
	const layers = new Set<string>();
	const networkLinks: string[] = [];
	const counters = new Map<string, number>();
	const walk = (children: Array<Folder | F>, path: string[]) => {
		for (const child of children) {
			if (child.type === 'folder') {
				const name = String(child.meta?.name ?? '').trim() || '(unnamed folder)';
				walk(child.children, [...path, name]);
				continue;
			}
			const properties = { ...(child.properties ?? {}) } as Record<string, unknown>;
			if (properties['@geometry-type'] === 'networklink') {
				networkLinks.push(String(properties.href ?? properties.name ?? '(no link)'));
				continue;
			}
			if (properties['@geometry-type'] === 'groundoverlay') continue;
			delete properties['@geometry-type'];
			const layer = path.length > 0 ? path.join(' / ') : null;
			if (layer) layers.add(layer);
			const key = layer ?? '';
			const index = counters.get(key) ?? 0;
			counters.set(key, index + 1);
			const featureWarnings: string[] = [];
			let geometry = (child.geometry as Geometry | null) ?? null;
			if (geometry) geometry = flat2d(foldCollection(geometry, featureWarnings));
			else
				featureWarnings.push(
					`Placemark "${String(properties.name ?? index + 1)}" has no geometry that could be read`,
				);
			features.push({ layer, index, geometry, properties, warnings: featureWarnings });
		}
	};
	walk(tree.children, []);
	if (networkLinks.length > 0) {
		const shown = networkLinks.slice(0, 3).join(', ');
		warnings.push(
			`${networkLinks.length} NetworkLink(s) not followed (${shown}${networkLinks.length > 3 ? ', …' : ''}): the node reads only what is in the file; save the linked places into the file in Google Earth`,
		);
	}
	return { features, warnings, layers: [...layers] };
}

const GPX_LAYER: Record<string, string> = { trk: 'tracks', rte: 'routes', wpt: 'waypoints' };

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
		const layer = GPX_LAYER[kind] ?? null;
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

/** A KML, KMZ (its doc.kml) or GPX file read the old way. */
export function readOldXml(
	bytes: Uint8Array,
	fileName: string,
	options: { closedLinesAsPolygons: boolean; closingDistanceM: number } = {
		closedLinesAsPolygons: false,
		closingDistanceM: 10,
	},
): { features: XmlFeature[]; warnings: string[] } {
	if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
		const files = unzipSync(bytes);
		return readKmlText(xmlText(files['doc.kml']), `${fileName}/doc.kml`);
	}
	const doc = parseXml(xmlText(bytes), fileName);
	return rootName(doc) === 'gpx' ? readGpxDocument(doc, options) : readKmlDocument(doc);
}

/**
 * KML (and the doc.kml of a KMZ) through @tmcw/togeojson on a safely parsed document:
 * Placemarks in nested Folders (the folder path becomes the layer), MultiGeometry folded
 * into Multi* types, name/description/ExtendedData/SchemaData as properties. Google Earth
 * `gx:` extensions are removed before conversion (with a warning); NetworkLinks are listed
 * in a warning and never followed.
 */
import type { Document, Element as XmlElement, Node as XmlNode } from '@xmldom/xmldom';
import { kmlWithFolders } from '@tmcw/togeojson';
import type { Folder, F } from '@tmcw/togeojson';

import { flat2d, foldCollection } from './fileGeometry';
import type { Geometry } from './geoFileTypes';
import { GeoFileError } from './geoFileTypes';
import { parseXml } from './xml';

export interface XmlFeature {
	layer: string | null;
	index: number;
	geometry: Geometry | null;
	properties: Record<string, unknown>;
	warnings: string[];
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

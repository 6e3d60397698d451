/**
 * KML (and the doc.kml of a KMZ), read as it streams (xml.ts): Placemarks in nested Folders
 * and Documents (the path of their names is the layer, as GDAL makes each Folder or nested
 * Document a layer; the outermost Document is the file, not a layer), MultiGeometry folded
 * into Multi* types, polygons wound as RFC 7946 says (outer rings counter-clockwise, holes
 * clockwise), name/description/ExtendedData/SchemaData and styles as properties
 * (kmlProperties.ts). Only one Placemark's elements are held at a time; coordinates are read
 * into positions as they stream, each counted in the file's OutputBudget.
 *
 * Google Earth `gx:` extensions are skipped (with a warning naming them); NetworkLinks are
 * listed in a warning and never followed; GroundOverlays (images) are skipped.
 */
import { rewind } from '@turf/rewind';

import { foldCollection } from './fileGeometry';
import type { Geometry, Position } from './geoFileTypes';
import { GeoFileError } from './geoFileTypes';
import type { Noted } from './kmlProperties';
import { KmlStyles, notePlacemark } from './kmlProperties';
import type { OutputBudget } from './outputBudget';
import { readXml, StopReading } from './xml';
import type { XmlHandler } from './xmlStream';
import type { XNode } from './xmlTree';
import { all, first, isNode, KeptBudget, textAt, textOf, TreeBuilder } from './xmlTree';

export interface XmlFeature {
	layer: string | null;
	index: number;
	geometry: Geometry | null;
	properties: Record<string, unknown>;
	warnings: string[];
}

export interface XmlReadOptions {
	/** Counts every position built. */
	budget: OutputBudget;
	/** Characters of text the file may keep (Maximum File Size). */
	maxKeptChars: number;
	/** The read stops once it has one feature more than this (the caller refuses the file). */
	maxFeatures: number;
}

export interface XmlRead {
	features: XmlFeature[];
	warnings: string[];
	layers: string[];
}

const GX = 'http://www.google.com/kml/ext/2.2';

/** Placemarks without geometry named one by one in their warnings; past this, counted. */
const NAMED_WITHOUT_GEOMETRY = 20;
/** Distinct gx: element names listed in the warning. */
const GX_NAMES = 20;

/** A Folder or Document that holds placemarks. */
interface Container {
	parent: Container | null;
	/** The outermost Document is the file itself, not a layer. */
	isLayer: boolean;
	document: boolean;
	name: string | undefined;
	path?: string | null;
}

const layerOf = (c: Container | null): string | null => {
	if (!c) return null;
	if (c.path !== undefined) return c.path;
	const parent = layerOf(c.parent);
	if (!c.isLayer) return (c.path = parent);
	const own = (c.name ?? '').trim() || (c.document ? '(unnamed document)' : '(unnamed folder)');
	return (c.path = parent ? `${parent} / ${own}` : own);
};

interface Pending {
	container: Container | null;
	noted: Noted;
	geometry: Geometry | null;
	warnings: string[];
	/** Without geometry: named in its warning (the first ones) or not. */
	missing?: 'named' | 'counted';
}

/** Namespace declarations in scope, to tell `gx:` elements by their namespace too. */
class Namespaces {
	private readonly declared: Array<{ depth: number; prefix: string; uri: string }> = [];

	open(depth: number, attributes: string[]): void {
		for (let i = 0; i < attributes.length; i += 2) {
			const a = attributes[i];
			if (a === 'xmlns') this.declared.push({ depth, prefix: '', uri: attributes[i + 1] });
			else if (a.startsWith('xmlns:'))
				this.declared.push({ depth, prefix: a.slice(6), uri: attributes[i + 1] });
		}
	}

	close(depth: number): void {
		while (this.declared.length && this.declared[this.declared.length - 1].depth >= depth)
			this.declared.pop();
	}

	isGx(name: string): boolean {
		const colon = name.indexOf(':');
		const prefix = colon === -1 ? '' : name.slice(0, colon);
		if (prefix === 'gx') return true;
		for (let i = this.declared.length - 1; i >= 0; i--)
			if (this.declared[i].prefix === prefix) return this.declared[i].uri === GX;
		return false;
	}
}

/** Geometry of a Placemark's direct geometry elements (togeojson's getGeometry). */
function geometriesOf(node: XNode, out: Geometry[], times: string[][]): void {
	for (const child of node.children) {
		if (!isNode(child)) continue;
		switch (child.name) {
			case 'MultiGeometry':
			case 'MultiTrack':
				geometriesOf(child, out, times);
				break;
			case 'Point': {
				const p = first(child, 'coordinates')?.positions?.[0];
				if (p) out.push({ type: 'Point', coordinates: p });
				break;
			}
			case 'LinearRing':
			case 'LineString': {
				const line = first(child, 'coordinates')?.positions ?? [];
				if (line.length >= 2) out.push({ type: 'LineString', coordinates: line });
				break;
			}
			case 'Polygon': {
				const rings: Position[][] = [];
				for (const ring of all(child, 'LinearRing')) {
					const r = closed(first(ring, 'coordinates')?.positions ?? []);
					if (r.length >= 4) rings.push(r);
				}
				if (rings.length) out.push({ type: 'Polygon', coordinates: rings });
				break;
			}
			case 'Track': {
				const coordinates = all(child, 'coord').map((c) =>
					textOf(c).split(' ').map(Number.parseFloat).slice(0, 2),
				);
				if (coordinates.length === 0) break;
				out.push(
					coordinates.length >= 2
						? { type: 'LineString', coordinates }
						: { type: 'Point', coordinates: coordinates[0] },
				);
				const when = all(child, 'when').map(textOf);
				if (when.length) times.push(when);
				break;
			}
		}
	}
}

/** A ring closed by repeating its first position when it does not end there. */
function closed(ring: Position[]): Position[] {
	if (ring.length === 0) return ring;
	const a = ring[0];
	const b = ring[ring.length - 1];
	return a[0] === b[0] && a[1] === b[1] ? ring : [...ring, a];
}

/** Polygons in RFC 7946 order: outer rings counter-clockwise, holes clockwise. */
export function rfc7946(geometry: Geometry): Geometry {
	if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon')
		rewind(geometry as Parameters<typeof rewind>[0], { mutate: true });
	return geometry;
}

/** The KML reader: the tokenizer's events in, features out (`finish`). */
class KmlReader implements XmlHandler {
	private depth = 0;
	private readonly ns = new Namespaces();
	private skipUntil = -1;
	private capture: TreeBuilder | null = null;
	private captureDepth = 0;
	private readonly containers: Array<{ depth: number; container: Container }> = [];
	/** The container whose direct `<name>` is being read. */
	private naming: { container: Container; text: string } | null = null;
	private readonly styles = new KmlStyles();
	private readonly pending: Pending[] = [];
	private readonly gx = new Map<string, number>();
	private gxOther = 0;
	private readonly networkLinks: string[] = [];
	private networkLinkCount = 0;
	private withoutGeometry = 0;
	private readonly kept: KeptBudget;

	constructor(
		fileName: string,
		private readonly options: XmlReadOptions,
	) {
		this.kept = new KeptBudget(fileName, options.maxKeptChars);
	}

	open(name: string, attributes: string[]): void {
		const depth = ++this.depth;
		if (this.skipUntil !== -1) return;
		if (attributes.length) this.ns.open(depth, attributes);
		if ((name.includes(':') || this.depth === 1 || attributes.length) && this.ns.isGx(name)) {
			if (this.gx.has(name) || this.gx.size < GX_NAMES)
				this.gx.set(name, (this.gx.get(name) ?? 0) + 1);
			else this.gxOther++;
			this.skipUntil = depth;
			return;
		}
		if (this.capture) {
			this.capture.open(name, attributes);
			return;
		}
		switch (name) {
			case 'Placemark':
			case 'NetworkLink':
			case 'GroundOverlay':
			case 'Style':
			case 'StyleMap':
			case 'Schema':
				this.capture = new TreeBuilder(name, attributes, this.kept, this.options.budget);
				this.captureDepth = depth;
				return;
			case 'Folder':
			case 'Document': {
				const parent = this.containers[this.containers.length - 1]?.container ?? null;
				const container: Container = {
					parent,
					isLayer: name === 'Folder' || parent !== null,
					document: name === 'Document',
					name: undefined,
				};
				this.containers.push({ depth, container });
				return;
			}
			case 'name': {
				const top = this.containers[this.containers.length - 1];
				if (top && top.depth === depth - 1) this.naming = { container: top.container, text: '' };
				return;
			}
		}
	}

	close(name: string): void {
		const depth = this.depth--;
		if (this.skipUntil !== -1) {
			if (depth === this.skipUntil) {
				this.skipUntil = -1;
				this.ns.close(depth);
			}
			return;
		}
		this.ns.close(depth);
		if (this.capture) {
			this.capture.close();
			if (depth === this.captureDepth) {
				const tree = this.capture.root;
				this.capture = null;
				this.captured(tree);
			}
			return;
		}
		const top = this.containers[this.containers.length - 1];
		if (this.naming && name === 'name') {
			this.naming.container.name = this.naming.text;
			this.naming = null;
		} else if (top && top.depth === depth) this.containers.pop();
	}

	text(text: string): void {
		if (this.skipUntil !== -1) return;
		if (this.capture) this.capture.text(text);
		else if (this.naming) {
			this.kept.take(text.length);
			this.naming.text += text;
		}
	}

	cdata(text: string): void {
		if (this.skipUntil !== -1) return;
		if (this.capture) this.capture.cdata(text);
		else if (this.naming) {
			this.kept.take(text.length);
			this.naming.text += text;
		}
	}

	private captured(tree: XNode): void {
		const container = this.containers[this.containers.length - 1]?.container ?? null;
		switch (tree.name) {
			case 'Style':
			case 'StyleMap':
			case 'Schema':
				this.styles.add(tree);
				return;
			case 'GroundOverlay':
				return;
			case 'NetworkLink':
				this.networkLinkCount++;
				if (this.networkLinks.length < 3) {
					const link = first(tree, 'Link');
					this.networkLinks.push(
						(link ? textAt(link, 'href') : '') || textAt(tree, 'name') || '(no link)',
					);
				}
				return;
		}
		this.styles.add(tree);
		const geometries: Geometry[] = [];
		const times: string[][] = [];
		geometriesOf(tree, geometries, times);
		const warnings: string[] = [];
		let geometry: Geometry | null =
			geometries.length === 0
				? null
				: geometries.length === 1
					? geometries[0]
					: { type: 'GeometryCollection', geometries };
		let missing: Pending['missing'];
		if (geometry) geometry = rfc7946(foldCollection(geometry, warnings));
		else missing = ++this.withoutGeometry <= NAMED_WITHOUT_GEOMETRY ? 'named' : 'counted';
		const noted = notePlacemark(tree, times);
		this.pending.push({ container, noted, geometry, warnings, missing });
		if (this.pending.length > this.options.maxFeatures) throw new StopReading();
	}

	finish(): XmlRead {
		const warnings: string[] = [];
		if (this.gx.size > 0) {
			const list = [...this.gx].map(([name, n]) => `${name} ×${n}`);
			if (this.gxOther) list.push(`${this.gxOther} other`);
			warnings.push(
				`Google Earth extensions (${list.join(', ')}) were ignored: only standard KML geometry is read (a gx:Track walked in Google Earth can be saved as a path or polygon there)`,
			);
		}
		if (this.networkLinkCount > 0) {
			const more = this.networkLinkCount > this.networkLinks.length ? ', …' : '';
			warnings.push(
				`${this.networkLinkCount} NetworkLink(s) not followed (${this.networkLinks.join(', ')}${more}): the node reads only what is in the file; save the linked places into the file in Google Earth`,
			);
		}
		if (this.withoutGeometry > NAMED_WITHOUT_GEOMETRY)
			warnings.push(
				`${this.withoutGeometry} placemarks have no geometry that could be read (the first ${NAMED_WITHOUT_GEOMETRY} are named in their warnings)`,
			);
		const features: XmlFeature[] = [];
		const layers = new Set<string>();
		const counters = new Map<string, number>();
		for (const p of this.pending) {
			const layer = layerOf(p.container);
			if (layer) layers.add(layer);
			const index = counters.get(layer ?? '') ?? 0;
			counters.set(layer ?? '', index + 1);
			const properties = this.styles.assemble(p.noted);
			if (p.missing)
				p.warnings.push(
					p.missing === 'named'
						? `Placemark "${String(properties.name ?? index + 1)}" has no geometry that could be read`
						: 'The placemark has no geometry that could be read',
				);
			features.push({ layer, index, geometry: p.geometry, properties, warnings: p.warnings });
		}
		return { features, warnings, layers: [...layers] };
	}
}

/** Reads a KML file (bytes in their declared encoding, or its text in pieces). */
export function readKml(
	bytes: Uint8Array | Iterable<string>,
	fileName: string,
	options: XmlReadOptions,
): XmlRead {
	const reader = new KmlReader(fileName, options);
	readXml(bytes, fileName, (root) => {
		if (root !== 'kml') throw notKml(fileName, root);
		return reader;
	});
	return reader.finish();
}

const notKml = (fileName: string, root: string) =>
	new GeoFileError(
		`"${fileName}" is not KML: its root element is <${root}>, not <kml>`,
		'Send the KML file (or the KMZ) as Google Earth or QGIS saved it.',
	);

export { KmlReader };

/**
 * GPX 1.1 (and 1.0), read as it streams (xml.ts) into the three layers GDAL's GPX driver
 * gives: tracks and routes as lines (a walked boundary is a track), waypoints as points.
 * Each feature's fields are its own, as the GPX schema defines them for its element (its
 * direct children: a waypoint's `type` is its own `<type>`, not its link's; a route has no
 * `time`, and none is taken from its first point), plus its `links` and the elements of its
 * own `<extensions>` (`prefix_name`). Track and route points are read into positions as
 * they stream (their children — times, sensor readings — are not kept: one plot, not one
 * record per fix), each counted in the file's OutputBudget.
 *
 * A route or track without usable points (none, only one, or none with a finite lat/lon) is
 * kept without geometry and says so, naming the points left out (GDAL keeps it too, with an
 * empty line); a track segment of fewer than two points is left out with a warning.
 *
 * A waypoint's `ele` is a property, its Point two coordinates: as GDAL's GPX driver reads it
 * (ogrgpxlayer.cpp: `ele` is always a field; only with the open option ELE_AS_25D, off by
 * default, does it also become the point's Z, the field kept) and as every reader here keeps
 * positions (longitude, latitude; a KML height is dropped too).
 * docs/notes/i35-cred.md.
 * With `closedLinesAsPolygons`, a track or route whose ends are within `closingDistanceM`
 * metres becomes a polygon (RFC 7946 winding).
 */
import { setOwn } from '../input/json';
import { lineAsPolygon } from './fileGeometry';
import type { Geometry, Position } from './geoFileTypes';
import { GeoFileError } from './geoFileTypes';
import type { XmlFeature, XmlRead, XmlReadOptions } from './kml';
import { rfc7946 } from './kml';
import { readXml, StopReading } from './xml';
import type { XmlHandler } from './xmlStream';
import type { XNode } from './xmlTree';
import { attribute, isNode, KeptBudget, textAt, textOf, TreeBuilder } from './xmlTree';

export interface GpxOptions {
	closedLinesAsPolygons: boolean;
	closingDistanceM: number;
}

type Kind = 'wpt' | 'rte' | 'trk';
const LAYER: Record<Kind, string> = { trk: 'tracks', rte: 'routes', wpt: 'waypoints' };
const NOUN: Record<Kind, string> = { trk: 'track', rte: 'route', wpt: 'waypoint' };

/** 'n' a number, 'i' an integer, 's' text, 'l' the links. */
type Field = 'n' | 'i' | 's' | 'l';

/** The simple fields of each element, as GDAL's GPX driver and the GPX 1.1 (and 1.0) schema name them, in its order. */
const DESCRIBED: Array<[string, Field]> = [
	['name', 's'],
	['cmt', 's'],
	['desc', 's'],
	['src', 's'],
	['url', 's'],
	['urlname', 's'],
	['link', 'l'],
];
const WPT_FIELDS: Array<[string, Field]> = [
	['ele', 'n'],
	['time', 's'],
	['magvar', 'n'],
	['geoidheight', 'n'],
	...DESCRIBED,
	['sym', 's'],
	['type', 's'],
	['fix', 's'],
	['sat', 'i'],
	['hdop', 'n'],
	['vdop', 'n'],
	['pdop', 'n'],
	['ageofdgpsdata', 'n'],
	['dgpsid', 'i'],
	['course', 'n'],
	['speed', 'n'],
	['keywords', 's'],
];
const LINE_FIELDS: Array<[string, Field]> = [
	...DESCRIBED,
	['number', 'i'],
	['type', 's'],
	['keywords', 's'],
];

function typed(text: string, kind: Field): unknown {
	if (kind === 's') return text;
	const n = Number(text.trim());
	return text.trim() !== '' && Number.isFinite(n) && (kind === 'n' || Number.isInteger(n))
		? n
		: text;
}

/** A feature's own fields: its direct children, its links, its extensions. */
function propertiesOf(node: XNode, kind: Kind): Record<string, unknown> {
	const props: Record<string, unknown> = {};
	const fields = kind === 'wpt' ? WPT_FIELDS : LINE_FIELDS;
	const own = new Map<string, XNode>();
	const links: XNode[] = [];
	let extensions: XNode | undefined;
	for (const child of node.children) {
		if (!isNode(child)) continue;
		if (child.name === 'link') links.push(child);
		else if (child.name === 'extensions') extensions ??= child;
		else if (!own.has(child.name)) own.set(child.name, child);
	}
	for (const [name, type] of fields) {
		if (type === 'l') {
			if (links.length) props.links = links.map(linkOf);
			continue;
		}
		const text = textOf(own.get(name));
		if (text) setOwn(props, name, typed(text, type));
	}
	if (extensions) {
		const visit = (n: XNode) => {
			for (const c of n.children) {
				if (!isNode(c)) continue;
				if (c.name.includes(':')) setOwn(props, c.name.replace(':', '_'), textOf(c).trim());
				visit(c);
			}
		};
		visit(extensions);
		if (kind !== 'wpt') lineStyle(extensions, props);
	}
	return props;
}

function linkOf(link: XNode): Record<string, unknown> {
	const out: Record<string, unknown> = { href: attribute(link, 'href') };
	for (const key of ['text', 'type']) {
		const v = textAt(link, key);
		if (v) out[key] = v;
	}
	return out;
}

/** The gpx_style line of a track or route (togeojson's stroke, stroke-opacity, stroke-width). */
function lineStyle(extensions: XNode, props: Record<string, unknown>): void {
	const find = (n: XNode): XNode | undefined => {
		for (const c of n.children)
			if (isNode(c)) {
				if (c.name === 'line') return c;
				const found = find(c);
				if (found) return found;
			}
		return undefined;
	};
	const line = find(extensions);
	if (!line) return;
	const color = textAt(line, 'color');
	if (color) props.stroke = `#${color}`;
	const opacity = Number.parseFloat(textAt(line, 'opacity'));
	if (opacity) props['stroke-opacity'] = opacity;
	const width = Number.parseFloat(textAt(line, 'width'));
	if (width) props['stroke-width'] = (width * 96) / 25.4;
}

/**
 * A point's position from its lat/lon attributes; undefined when either is not a finite
 * number (absent, text, or past what a double holds, e.g. lat="1e999": GDAL reads that as
 * infinity, which no output can carry, JSON writes it as null).
 */
function pointOf(attributes: string[]): Position | undefined {
	let lat = NaN;
	let lon = NaN;
	for (let i = 0; i < attributes.length; i += 2) {
		if (attributes[i] === 'lat') lat = Number.parseFloat(attributes[i + 1]);
		else if (attributes[i] === 'lon') lon = Number.parseFloat(attributes[i + 1]);
	}
	return Number.isFinite(lat) && Number.isFinite(lon) ? [lon, lat] : undefined;
}

interface Open {
	kind: Kind;
	tree: TreeBuilder;
	/** Where this feature's element opened. */
	depth: number;
	/** Lines (segments) read so far; a route has one. */
	segments: Position[][];
	position?: Position;
	/** Points without a valid lat/lon. */
	badPoints: number;
}

class GpxReader implements XmlHandler {
	private depth = 0;
	private skipUntil = -1;
	private open_: Open | null = null;
	private readonly features: Record<Kind, XmlFeature[]> = { trk: [], rte: [], wpt: [] };
	private count = 0;
	private readonly kept: KeptBudget;

	open(name: string, attributes: string[]): void {
		const depth = ++this.depth;
		const f = this.open_;
		if (this.skipUntil !== -1) return;
		if (f) {
			const local = name.replace(/^.*:/, '');
			if (
				(f.kind === 'rte' && local === 'rtept' && depth === f.depth + 1) ||
				(f.kind === 'trk' && local === 'trkpt' && depth === f.depth + 2)
			) {
				const p = pointOf(attributes);
				if (p) {
					this.options.budget.takePositions(1);
					f.segments[f.segments.length - 1].push(p);
				} else f.badPoints++;
				this.skipUntil = depth;
				return;
			}
			if (f.kind === 'trk' && local === 'trkseg' && depth === f.depth + 1) f.segments.push([]);
			f.tree.open(name, attributes);
			return;
		}
		const local = name.replace(/^.*:/, '');
		if (depth === 2 && (local === 'wpt' || local === 'rte' || local === 'trk')) {
			const tree = new TreeBuilder(local, attributes, this.kept, this.options.budget);
			this.open_ = {
				kind: local,
				tree,
				depth,
				segments: local === 'rte' ? [[]] : [],
				position: local === 'wpt' ? pointOf(attributes) : undefined,
				badPoints: 0,
			};
			if (local === 'wpt' && this.open_.position) this.options.budget.takePositions(1);
			return;
		}
		// metadata, the file's extensions: not features
		if (depth > 1) this.skipUntil = depth;
	}

	close(): void {
		const depth = this.depth--;
		if (this.skipUntil !== -1) {
			if (depth === this.skipUntil) this.skipUntil = -1;
			return;
		}
		const f = this.open_;
		if (!f) return;
		if (depth > f.depth) {
			f.tree.close();
			return;
		}
		this.open_ = null;
		this.features[f.kind].push(this.feature(f));
		if (++this.count > this.options.maxFeatures) throw new StopReading();
	}

	constructor(
		fileName: string,
		private readonly options: XmlReadOptions & GpxOptions,
	) {
		this.kept = new KeptBudget(fileName, options.maxKeptChars);
	}

	text(text: string): void {
		if (this.skipUntil === -1 && this.open_) this.open_.tree.text(text);
	}

	cdata(text: string): void {
		if (this.skipUntil === -1 && this.open_) this.open_.tree.cdata(text);
	}

	private feature(f: Open): XmlFeature {
		const properties = propertiesOf(f.tree.root, f.kind);
		const layer = LAYER[f.kind];
		const index = this.features[f.kind].length;
		const warnings: string[] = [];
		const noun = NOUN[f.kind];
		if (f.badPoints > 0)
			warnings.push(
				`${f.badPoints} point(s) of the ${noun} have no valid lat/lon attributes and were left out`,
			);
		if (f.kind === 'wpt') {
			if (!f.position)
				warnings.push('The waypoint has no valid lat/lon attributes: kept without geometry');
			const geometry: Geometry | null = f.position
				? { type: 'Point', coordinates: f.position }
				: null;
			return { layer, index, geometry, properties, warnings };
		}
		const all = f.segments.reduce((n, s) => n + s.length, 0);
		const lines = f.segments.filter((s) => s.length >= 2);
		const short = f.segments.length - lines.length;
		let geometry: Geometry | null = null;
		if (lines.length === 0) {
			const named = typeof properties.name === 'string' ? ` "${properties.name}"` : '';
			warnings.push(
				all === 0 && f.badPoints > 0
					? `The ${noun}${named} has no usable points (${f.badPoints} without a valid lat/lon): kept without geometry`
					: all === 0
						? `The ${noun} has no points: kept without geometry`
						: `The ${noun} has ${all === 1 ? 'only 1 point' : `no segment of 2 or more points (${all} points)`}: a line needs 2 or more, so it is kept without geometry`,
			);
		} else {
			if (short > 0)
				warnings.push(
					`${short} segment(s) of the track with fewer than 2 points left out (a line needs 2 or more)`,
				);
			geometry =
				lines.length === 1
					? { type: 'LineString', coordinates: lines[0] }
					: { type: 'MultiLineString', coordinates: lines };
			geometry = this.asPolygon(geometry, lines, noun, warnings);
		}
		return { layer, index, geometry, properties, warnings };
	}

	private asPolygon(
		line: Geometry,
		lines: Position[][],
		noun: string,
		warnings: string[],
	): Geometry {
		const { closedLinesAsPolygons, closingDistanceM } = this.options;
		if (!closedLinesAsPolygons) {
			warnings.push(
				`A ${noun} is read as a line; turn on "Closed Tracks as Polygons" to read a walked boundary as a plot`,
			);
			return line;
		}
		const rings = lines.map((l) => lineAsPolygon(l, closingDistanceM));
		if (!rings.every((r) => r !== undefined)) {
			warnings.push(
				`The ${noun} does not end within ${closingDistanceM} m of where it starts: kept as a line`,
			);
			return line;
		}
		const polygons = rings as Position[][][];
		return rfc7946(
			polygons.length === 1
				? { type: 'Polygon', coordinates: polygons[0] }
				: { type: 'MultiPolygon', coordinates: polygons },
		);
	}

	finish(): XmlRead {
		const features = [...this.features.trk, ...this.features.rte, ...this.features.wpt];
		return { features, warnings: [], layers: [] };
	}
}

/** Reads a GPX file (bytes in their declared encoding, or its text in pieces). */
export function readGpx(
	bytes: Uint8Array | Iterable<string>,
	fileName: string,
	options: XmlReadOptions & GpxOptions,
): XmlRead {
	const reader = new GpxReader(fileName, options);
	readXml(bytes, fileName, (root) => {
		if (root !== 'gpx')
			throw new GeoFileError(
				`"${fileName}" is not GPX: its root element is <${root}>, not <gpx>`,
				'Send the GPX file as the GPS app exported it.',
			);
		return reader;
	});
	return reader.finish();
}

export { GpxReader };

/**
 * Shapefile layers (`.shp` geometry, `.dbf` attributes, `.prj` coordinate system, `.cpg`
 * attribute encoding) read into WGS84 GeoJSON. Pure.
 *
 * Our own reader of the two binary formats, measured against shpjs 6 (the maintained
 * JavaScript reader; BENCHMARKS.md "Read File"), which it is cross-checked against on the
 * fixtures (test/unit/geoFiles/geoFiles.test.ts). shpjs was not used because on the cases
 * this node must get right it is wrong: a record cut short at the end of a `.shp` is dropped
 * without a word (plots lost); a `.prj` it cannot read is swallowed and the layer read as
 * degrees; its `.dbf` reader (parsedbf) falls back to UTF-8 for an unknown or absent `.cpg`
 * (Latin-1 names garbled), returns dates in the machine's time zone and keeps deleted
 * records; and its entry module reaches for `fetch` and `globalThis`, which n8n Cloud's
 * scanner refuses in the bundle.
 *
 * Rings: a `.shp` polygon is a list of rings, outer ones clockwise, holes counter-clockwise
 * (ESRI's white paper); each hole goes to the smallest outer ring that contains it, and the
 * GeoJSON is written in RFC 7946 order (outer counter-clockwise, holes clockwise). The outer
 * rings' boxes are indexed (flatbush) so that a hole is tested only against the outer rings
 * whose box holds it, smallest first (20,000 outer rings and 20,000 holes: near-linear).
 *
 * Records: at the `.shx` offsets when the zip has a `.shx` (GDAL does the same: a `.shp`
 * padded after its last record reads), each checked to lie inside the `.shp`; in order
 * without one. Bounded: the positions of each record are counted in the read's
 * `OutputBudget` before they are built, the records stop at Maximum Features, and the `.dbf`
 * rows built are at most the shapes read.
 */
import Flatbush from 'flatbush';

import { flat2d } from './fileGeometry';
import type { OutputBudget } from './outputBudget';
import type { DbfTable } from './shapefileDbf';
import { damaged, readDbf } from './shapefileDbf';
import { layerCrs } from './prj';
import type { LayerCrs } from './prj';
import type { Geometry, Position } from './geoFileTypes';
import { GeoFileError, tooManyFeatures } from './geoFileTypes';

export interface ShapefileParts {
	shp: Uint8Array;
	shx?: Uint8Array;
	dbf?: Uint8Array;
	prj?: Uint8Array;
	cpg?: Uint8Array;
}

interface ShapefileFeature {
	/** Record number minus one. */
	index: number;
	geometry: Geometry | null;
	properties: Record<string, unknown>;
	warnings: string[];
}

interface ShapefileLayer {
	name: string;
	crs: string | null;
	encoding: string | null;
	features: ShapefileFeature[];
	warnings: string[];
}

// ----- .shp -------------------------------------------------------------------------

/** Signed area ×2 of a ring (positive when counter-clockwise). */
function ringArea2(ring: Position[]): number {
	let sum = 0;
	for (let i = 0, n = ring.length - 1; i < n; i++) {
		sum += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
	}
	return sum;
}

function ringContains(ring: Position[], p: Position): boolean {
	let inside = false;
	for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
		const [xi, yi] = ring[i];
		const [xj, yj] = ring[j];
		if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi)
			inside = !inside;
	}
	return inside;
}

interface Outer {
	ring: Position[];
	area: number;
	holes: Position[][];
}

/** The box of a ring: [minX, minY, maxX, maxY]. */
function ringBox(ring: Position[]): [number, number, number, number] {
	const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
	for (const p of ring) {
		box[0] = Math.min(box[0], p[0]);
		box[1] = Math.min(box[1], p[1]);
		box[2] = Math.max(box[2], p[0]);
		box[3] = Math.max(box[3], p[1]);
	}
	return box;
}

/** Rings of a `.shp` polygon as GeoJSON polygons (RFC 7946 winding). */
export function assembleRings(rings: Position[][]): Position[][][] {
	const outers: Outer[] = [];
	const holes: Position[][] = [];
	for (const ring of rings) {
		if (ring.length < 4) continue;
		const a = ringArea2(ring);
		if (a < 0) outers.push({ ring: ring.slice().reverse(), area: -a, holes: [] });
		else if (a > 0) holes.push(ring);
	}
	const lone: Outer[] = [];
	if (holes.length > 0 && outers.length > 0) {
		// Indexed smallest first: the first candidate that contains the hole is the smallest.
		const bySize = outers
			.map((o, i) => ({ o, i }))
			.sort((a, b) => a.o.area - b.o.area || a.i - b.i);
		// A few outer rings (most records) are tested directly; more go through the index.
		const everyOne = bySize.map((_, k) => k);
		let index: Flatbush | undefined;
		if (bySize.length > 4) {
			index = new Flatbush(bySize.length);
			for (const { o } of bySize) index.add(...ringBox(o.ring));
			index.finish();
		}
		for (const hole of holes) {
			const [x, y] = hole[0];
			const candidates = index ? index.search(x, y, x, y).sort((a, b) => a - b) : everyOne;
			const best = candidates.map((k) => bySize[k].o).find((o) => ringContains(o.ring, hole[0]));
			if (best) best.holes.push(hole.slice().reverse());
			else lone.push({ ring: hole, area: ringArea2(hole), holes: [] });
		}
	} else {
		for (const hole of holes) lone.push({ ring: hole, area: ringArea2(hole), holes: [] });
	}
	// A "hole" outside every outer ring was written counter-clockwise by mistake: an outer ring.
	return [...outers, ...lone].map((o) => [o.ring, ...o.holes]);
}

const SHP_NULL = 0;
const KIND: Record<number, 'point' | 'line' | 'polygon' | 'multipoint' | 'multipatch'> = {
	1: 'point',
	11: 'point',
	21: 'point',
	3: 'line',
	13: 'line',
	23: 'line',
	5: 'polygon',
	15: 'polygon',
	25: 'polygon',
	8: 'multipoint',
	18: 'multipoint',
	28: 'multipoint',
	31: 'multipatch',
};

interface RawRecord {
	geometry: Geometry | null;
	warning?: string;
}

/** What bounds the reading of one `.shp`. */
export interface ShpLimits {
	/** Counts the positions of every record before they are built. */
	budget?: OutputBudget;
	/** Records read at most (Maximum Features left for this layer); refused past it. */
	maxRecords?: number;
	/** The `.shx`: records are read at its offsets when it is a Shapefile index. */
	shx?: Uint8Array;
	/** Where a `.shx` that is not an index is said (the records are then read in order). */
	warnings?: string[];
}

function readRecord(
	view: DataView,
	at: number,
	length: number,
	layer: string,
	n: number,
	budget: OutputBudget | undefined,
): RawRecord {
	if (length < 4) throw damaged(layer, `record ${n} is shorter than its shape type`);
	const type = view.getInt32(at, true);
	if (type === SHP_NULL) return { geometry: null };
	const kind = KIND[type];
	if (!kind) throw damaged(layer, `record ${n} has the unknown shape type ${type}`);
	const end = at + length;
	const need = (bytes: number, from: number) => {
		if (from + bytes > end) throw damaged(layer, `record ${n} is cut short`);
	};
	const xy = (o: number): Position => [view.getFloat64(o, true), view.getFloat64(o + 8, true)];
	if (kind === 'point') {
		need(16, at + 4);
		budget?.takePositions(1);
		return { geometry: { type: 'Point', coordinates: xy(at + 4) } };
	}
	if (kind === 'multipoint') {
		need(36, at + 4);
		const count = view.getInt32(at + 36, true);
		need(16 * count, at + 40);
		budget?.takePositions(count);
		const coordinates: Position[] = [];
		for (let i = 0; i < count; i++) coordinates.push(xy(at + 40 + 16 * i));
		return {
			geometry:
				count === 1
					? { type: 'Point', coordinates: coordinates[0] }
					: { type: 'MultiPoint', coordinates },
		};
	}
	if (kind === 'multipatch')
		return { geometry: null, warning: 'a MultiPatch (3D surface) shape, which is not read' };
	// polyline / polygon: box (32), numParts, numPoints, parts[], points[]
	need(40, at + 4);
	const numParts = view.getInt32(at + 36, true);
	const numPoints = view.getInt32(at + 40, true);
	if (numParts < 0 || numPoints < 0) throw damaged(layer, `record ${n} has a negative count`);
	const partsAt = at + 44;
	const pointsAt = partsAt + 4 * numParts;
	need(4 * numParts + 16 * numPoints, partsAt);
	budget?.takePositions(numPoints);
	const parts: Position[][] = [];
	for (let p = 0; p < numParts; p++) {
		const from = view.getInt32(partsAt + 4 * p, true);
		const to = p + 1 < numParts ? view.getInt32(partsAt + 4 * (p + 1), true) : numPoints;
		if (from < 0 || to > numPoints || from > to)
			throw damaged(layer, `record ${n} has a part outside its points`);
		const part: Position[] = [];
		for (let i = from; i < to; i++) part.push(xy(pointsAt + 16 * i));
		parts.push(part);
	}
	if (kind === 'line') {
		const lines = parts.filter((part) => part.length >= 2);
		if (lines.length === 0) return { geometry: null, warning: 'a line without points' };
		return {
			geometry:
				lines.length === 1
					? { type: 'LineString', coordinates: lines[0] }
					: { type: 'MultiLineString', coordinates: lines },
		};
	}
	return { geometry: ringsGeometry(parts) };
}

function ringsGeometry(rings: Position[][]): Geometry | null {
	const polygons = assembleRings(rings);
	if (polygons.length === 0) return null;
	return polygons.length === 1
		? { type: 'Polygon', coordinates: polygons[0] }
		: { type: 'MultiPolygon', coordinates: polygons };
}

/** Where each record lies by the `.shx` ([offset, content length] in bytes), or undefined when it is not an index. */
function shxRecords(
	shx: Uint8Array,
	shpEnd: number,
	layer: string,
): Array<[number, number]> | undefined {
	const view = new DataView(shx.buffer, shx.byteOffset, shx.byteLength);
	if (shx.length < 100 || view.getInt32(0, false) !== 9994 || (shx.length - 100) % 8 !== 0)
		return undefined;
	const records: Array<[number, number]> = [];
	for (let at = 100; at + 8 <= shx.length; at += 8) {
		const offset = view.getInt32(at, false) * 2;
		const length = view.getInt32(at + 4, false) * 2;
		if (offset < 100 || length < 0 || offset + 8 + length > shpEnd)
			throw damaged(
				layer,
				`the .shx places record ${records.length + 1} at bytes ${offset} to ${offset + 8 + length}, outside the ${shpEnd} bytes of the .shp`,
			);
		records.push([offset, length]);
	}
	return records;
}

/** The records of a `.shp` (null for null shapes), in the file's own coordinates. */
export function readShp(bytes: Uint8Array, layer: string, limits: ShpLimits = {}): RawRecord[] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (bytes.length < 100 || view.getInt32(0, false) !== 9994)
		throw damaged(layer, 'the .shp does not start with a Shapefile header');
	const declared = view.getInt32(24, false) * 2;
	const records: RawRecord[] = [];
	const end = Math.min(bytes.length, declared > 100 ? declared : bytes.length);
	if (declared > bytes.length)
		throw damaged(
			layer,
			`the .shp is cut short (${bytes.length} of the ${declared} bytes its header declares)`,
		);
	const { budget, maxRecords = Number.POSITIVE_INFINITY } = limits;
	const take = (at: number, length: number, n: number) => {
		if (records.length >= maxRecords)
			throw tooManyFeatures(budget?.fileName ?? layer, limits.maxRecords as number);
		records.push(readRecord(view, at, length, layer, n, budget));
	};
	const indexed = limits.shx ? shxRecords(limits.shx, end, layer) : undefined;
	if (limits.shx && !indexed)
		limits.warnings?.push(
			`Layer "${layer}": the .shx is not a Shapefile index, so it was not used (the records were read in order)`,
		);
	if (indexed) {
		indexed.forEach(([offset, length], i) => take(offset + 8, length, i + 1));
		return records;
	}
	let at = 100;
	while (at + 8 <= end) {
		const n = view.getInt32(at, false);
		const length = view.getInt32(at + 4, false) * 2;
		if (length < 0 || at + 8 + length > end)
			throw damaged(layer, `record ${n} is cut short (the .shp ends inside it)`);
		take(at + 8, length, n);
		at += 8 + length;
	}
	if (at !== end) throw damaged(layer, `the .shp ends inside a record header`);
	return records;
}

// ----- a layer ----------------------------------------------------------------------

function convert(geometry: Geometry, to: (p: Position) => Position): Geometry {
	const ring = (r: Position[]) => r.map(to);
	switch (geometry.type) {
		case 'Point':
			return { type: 'Point', coordinates: to(geometry.coordinates) };
		case 'MultiPoint':
		case 'LineString':
			return { type: geometry.type, coordinates: ring(geometry.coordinates) } as Geometry;
		case 'MultiLineString':
		case 'Polygon':
			return { type: geometry.type, coordinates: geometry.coordinates.map(ring) } as Geometry;
		case 'MultiPolygon':
			return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map(ring)) };
		default:
			return geometry;
	}
}

function bounds(records: RawRecord[]): [number, number, number, number] | undefined {
	let b: [number, number, number, number] | undefined;
	const visit = (p: Position) => {
		if (!b) b = [p[0], p[1], p[0], p[1]];
		else {
			if (p[0] < b[0]) b[0] = p[0];
			if (p[1] < b[1]) b[1] = p[1];
			if (p[0] > b[2]) b[2] = p[0];
			if (p[1] > b[3]) b[3] = p[1];
		}
	};
	for (const r of records) {
		const g = r.geometry;
		if (!g) continue;
		if (g.type === 'Point') visit(g.coordinates);
		else if (g.type === 'MultiPoint' || g.type === 'LineString') g.coordinates.forEach(visit);
		else if (g.type === 'MultiLineString' || g.type === 'Polygon')
			g.coordinates.forEach((r2) => r2.forEach(visit));
		else if (g.type === 'MultiPolygon')
			g.coordinates.forEach((p) => p.forEach((r2) => r2.forEach(visit)));
	}
	return b;
}

const isDegrees = (b: [number, number, number, number] | undefined) =>
	!b || (b[0] >= -180 && b[2] <= 180 && b[1] >= -90 && b[3] <= 90);

const showBounds = (b: [number, number, number, number]) =>
	`x ${b[0].toFixed(1)} to ${b[2].toFixed(1)}, y ${b[1].toFixed(1)} to ${b[3].toFixed(1)}`;

/**
 * One Shapefile layer. Without a `.prj`: read as WGS84 degrees when every coordinate fits
 * them (with a warning), refused otherwise. Without a `.dbf`: features without attributes
 * (with a warning). Records deleted in the `.dbf` are left out (as QGIS and GDAL do).
 */
export function readShapefileLayer(
	name: string,
	parts: ShapefileParts,
	defaultEncoding: string,
	limits: Pick<ShpLimits, 'budget' | 'maxRecords'> = {},
): ShapefileLayer {
	const warnings: string[] = [];
	const records = readShp(parts.shp, name, { ...limits, shx: parts.shx, warnings });
	const box = bounds(records);
	let crs: LayerCrs | undefined;
	const prjText = parts.prj ? new TextDecoder('utf-8').decode(parts.prj).trim() : '';
	if (prjText) {
		crs = layerCrs(prjText, name);
		warnings.push(...crs.warnings);
		if (crs.geographic && !isDegrees(box)) {
			throw new GeoFileError(
				`The Shapefile layer "${name}" has coordinates that cannot be degrees (${showBounds(box!)}), but its .prj says "${crs.name}", a geographic system in degrees: the .prj does not belong to this data (meters under a geographic .prj)`,
				'Give the layer its real coordinate system in QGIS (Layer Properties → Source → Assigned Coordinate Reference System), export it to WGS84 (EPSG:4326) and send the zip again.',
			);
		}
		if (!crs.geographic && box && isDegrees(box)) {
			throw new GeoFileError(
				`The Shapefile layer "${name}" has coordinates that look like degrees (${showBounds(box)}), but its .prj says "${crs.name}", a projected system in meters: the .prj does not belong to this data`,
				'Give the layer its real coordinate system in QGIS (Layer Properties → Source → Assigned Coordinate Reference System), export it to WGS84 (EPSG:4326) and send the zip again.',
			);
		}
	} else if (!isDegrees(box)) {
		throw new GeoFileError(
			`The Shapefile layer "${name}" has no .prj and its coordinates are not degrees (${showBounds(box!)}): its coordinate system is unknown, so it is refused`,
			'Send the zip with the layer\'s .prj file (it names the coordinate system, e.g. "SIRGAS 2000 / UTM zone 22S"), or export the layer to WGS84 (EPSG:4326).',
		);
	} else {
		warnings.push(
			`Layer "${name}" has no .prj: its coordinates were read as WGS84 longitude/latitude (they all fit degrees)`,
		);
	}
	let table: DbfTable | undefined;
	if (parts.dbf) {
		const cpg = parts.cpg ? new TextDecoder('utf-8').decode(parts.cpg) : undefined;
		// Rows are built for the shapes only (a .dbf claiming millions of rows beside one point builds one).
		table = readDbf(parts.dbf, name, cpg, defaultEncoding, records.length);
		warnings.push(...table.warnings);
		if (table.rowCount !== records.length && table.complete)
			warnings.push(
				`Layer "${name}": the .dbf has ${table.rowCount.toLocaleString('en-US')} rows for ${records.length.toLocaleString('en-US')} shapes; rows were paired with shapes in order`,
			);
	} else {
		warnings.push(`Layer "${name}" has no .dbf: its features have no attributes`);
	}
	const features: ShapefileFeature[] = [];
	let deleted = 0;
	records.forEach((record, index) => {
		const row = table ? table.rows[index] : undefined;
		if (table && row === null) {
			deleted++;
			return;
		}
		const featureWarnings: string[] = [];
		if (record.warning) featureWarnings.push(`Record ${index + 1}: ${record.warning}`);
		else if (!record.geometry)
			featureWarnings.push(`Record ${index + 1} has no geometry (a null shape)`);
		let geometry = record.geometry;
		if (geometry && crs?.toWgs84) geometry = convert(geometry, crs.toWgs84);
		if (geometry) geometry = flat2d(geometry);
		features.push({ index, geometry, properties: row ?? {}, warnings: featureWarnings });
	});
	if (deleted > 0)
		warnings.push(
			`Layer "${name}": ${deleted} record(s) marked deleted in the .dbf were left out (as QGIS does)`,
		);
	return {
		name,
		crs: crs?.name ?? null,
		encoding: table?.encoding ?? null,
		features,
		warnings,
	};
}

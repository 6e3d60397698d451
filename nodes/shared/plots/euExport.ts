/**
 * Plot → Export for EU Information System: the GeoJSON the EU Information System (TRACES)
 * accepts for the geolocation of a due-diligence statement (see the field notes, "EU
 * Information System GeoJSON"), split into files under a size limit. Pure: no n8n imports.
 *
 * - A FeatureCollection (RFC 7946): WGS84 [longitude, latitude], no `crs` member.
 * - Point, Polygon and MultiPolygon geometries, already validated (the same checks as
 *   Plot → Validate). The Information System reads only the outer boundary of a polygon,
 *   so holes are refused, or dropped when the user says so (and counted).
 * - Properties `ProducerName`, `ProducerCountry` (ISO 3166-1 alpha-2), `ProductionPlace`, and
 *   `Area` (ha) for a Point, which stands for a plot of up to 4 ha.
 * - At least six decimals per coordinate: coordinates are written as given (never rounded);
 *   one with fewer decimals is written with trailing zeros up to six, and counted. The
 *   Information System rounds to six decimals and flags vertices that become one position
 *   there: such neighbours are a warning, and Repair Geometry drops them (`mergeAtSixDecimals`).
 * - Rings in RFC 7946 order (§3.1.6): outer rings counter-clockwise, holes clockwise, rewound
 *   with Turf's `rewind` where they come the other way round (counted).
 * - Files under `maxBytes` (default 25 MB, the size of one statement's geolocation); a plot
 *   (an input item: all its features) is never split across files.
 */
import { booleanClockwise } from '@turf/boolean-clockwise';
import { rewind } from '@turf/rewind';

import type { Location, PlotGeometry, Position } from '../geometry';
import { MIN_DECIMALS } from '../geometry';
import { decimalPlaces } from '../geometry/looseNumbers';

/** One statement holds at most about 25 MB of geolocation data (bytes, decimal megabytes). */
export const EU_MAX_FILE_BYTES = 25_000_000;

/** A Point stands for a plot of up to 4 ha (EUDR); larger plots need a polygon. */
export const EU_POINT_MAX_HA = 4;

export interface EuProperties {
	ProducerName?: string;
	ProducerCountry: string;
	ProductionPlace?: string;
	/** Hectares; for a Point only. */
	Area?: number;
}

/** What writing a feature changed, counted for the file summary. */
interface WriteNotes {
	/** Coordinates written with trailing zeros up to six decimals. */
	paddedCoordinates: number;
	/** Positions whose z value (third number) was left out. */
	droppedZ: number;
	/** Holes left out (only with "outer boundary only"). */
	droppedHoles: number;
	/** Rings written in the other direction (outer counter-clockwise, holes clockwise). */
	rewoundRings: number;
	/** Vertices left out because they became one position with the one before at six decimals (Repair Geometry). */
	mergedVertices: number;
}

interface EuFeatureText {
	/** The Feature as JSON text. */
	text: string;
	/** UTF-8 bytes of `text`. */
	bytes: number;
	country: string;
}

/** One input item's features, kept together in one file. */
export interface EuPlot {
	item: number;
	features: EuFeatureText[];
	notes: WriteNotes;
}

export interface EuFile {
	/** 1-based. */
	number: number;
	items: number[];
	/** The FeatureCollection as JSON text. */
	text: string;
	bytes: number;
	features: number;
	/** Features per ProducerCountry. */
	perCountry: Record<string, number>;
	notes: WriteNotes;
}

const HEAD = '{"type":"FeatureCollection","features":[';
const TAIL = ']}';
const FRAME_BYTES = HEAD.length + TAIL.length;

/** A coordinate as JSON text with at least six decimals, never rounded. */
export function formatCoordinate(n: number, notes?: WriteNotes): string {
	const places = decimalPlaces(n);
	if (places >= MIN_DECIMALS) {
		const text = String(n);
		// Shortest round-trip text, unless it uses an exponent (1e-7): then plain decimals.
		return text.includes('e') ? n.toFixed(Math.min(100, places)) : text;
	}
	if (notes) notes.paddedCoordinates++;
	return n.toFixed(MIN_DECIMALS);
}

function writePosition(p: Position, notes: WriteNotes): string {
	if (p.length > 2) notes.droppedZ++;
	return `[${formatCoordinate(p[0], notes)},${formatCoordinate(p[1], notes)}]`;
}

function writeRings(rings: Position[][], holes: 'refuse' | 'drop', notes: WriteNotes): string {
	const kept = holes === 'drop' ? rings.slice(0, 1) : rings;
	notes.droppedHoles += rings.length - kept.length;
	return `[${kept.map((ring) => `[${ring.map((p) => writePosition(p, notes)).join(',')}]`).join(',')}]`;
}

/** The number of holes of a Polygon or MultiPolygon (0 for a Point). */
export function holeCount(geometry: PlotGeometry): number {
	if (geometry.type === 'Point') return 0;
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	return polygons.reduce((n, rings) => n + Math.max(0, rings.length - 1), 0);
}

export function emptyNotes(): WriteNotes {
	return { paddedCoordinates: 0, droppedZ: 0, droppedHoles: 0, rewoundRings: 0, mergedVertices: 0 };
}

/**
 * The geometry with outer rings counter-clockwise and holes clockwise (RFC 7946 §3.1.6), by
 * Turf's `rewind` on a copy when a ring comes the other way round; `rewound` counts those rings.
 */
export function rewindForEu(geometry: PlotGeometry): { geometry: PlotGeometry; rewound: number } {
	if (geometry.type === 'Point') return { geometry, rewound: 0 };
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	let rewound = 0;
	for (const rings of polygons)
		rings.forEach((ring, r) => {
			if (booleanClockwise(ring) !== r > 0) rewound++;
		});
	if (rewound === 0) return { geometry, rewound };
	return { geometry: rewind(geometry as never, { mutate: false }) as PlotGeometry, rewound };
}

/** The position at six decimals, as the Information System pads and rounds it. */
function at6(p: Position): string {
	return `${p[0].toFixed(MIN_DECIMALS)},${p[1].toFixed(MIN_DECIMALS)}`;
}

/** Vertices that become one position with the vertex before them at six decimals. */
interface SixDecimalMerges {
	count: number;
	/** The first of them: where, and the two positions as given. */
	first?: { where: Location; position: Position; previous: Position };
}

/**
 * Consecutive vertices of a ring that differ as given but are one position at six decimals
 * (e.g. 4 cm apart): the Information System rounds to six decimals and flags them as duplicates.
 */
export function findSixDecimalMerges(geometry: PlotGeometry): SixDecimalMerges {
	const found: SixDecimalMerges = { count: 0 };
	if (geometry.type === 'Point') return found;
	const multi = geometry.type === 'MultiPolygon';
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	polygons.forEach((rings, p) =>
		rings.forEach((ring, r) => {
			let before = ring.length > 0 ? at6(ring[0]) : '';
			for (let i = 1; i < ring.length; i++) {
				const here = at6(ring[i]);
				const same = ring[i][0] === ring[i - 1][0] && ring[i][1] === ring[i - 1][1];
				if (here === before && !same) {
					found.count++;
					found.first ??= {
						where: multi ? { polygon: p, ring: r, position: i } : { ring: r, position: i },
						position: ring[i],
						previous: ring[i - 1],
					};
				}
				before = here;
			}
		}),
	);
	return found;
}

/**
 * A copy without the vertices that become one position with the vertex kept before them at six
 * decimals (the first of each run is kept, and the ring stays closed on its first position);
 * `removed` counts them. Rings that keep fewer than four positions are returned as they are, for
 * validation to refuse.
 */
export function mergeAtSixDecimals(geometry: PlotGeometry): {
	geometry: PlotGeometry;
	removed: number;
} {
	if (geometry.type === 'Point') return { geometry, removed: 0 };
	let removed = 0;
	const ringOf = (ring: Position[]): Position[] => {
		if (ring.length < 4) return ring;
		const kept: Position[] = [ring[0]];
		let last = at6(ring[0]);
		for (let i = 1; i < ring.length - 1; i++) {
			const here = at6(ring[i]);
			if (here === last) continue;
			kept.push(ring[i]);
			last = here;
		}
		// the last vertex kept may become one with the closing position (the first)
		if (kept.length > 1 && last === at6(ring[0])) kept.pop();
		kept.push(ring[ring.length - 1]);
		removed += ring.length - kept.length;
		return kept;
	};
	const coordinates =
		geometry.type === 'Polygon'
			? geometry.coordinates.map(ringOf)
			: geometry.coordinates.map((rings) => rings.map(ringOf));
	return removed === 0
		? { geometry, removed }
		: { geometry: { ...geometry, coordinates } as PlotGeometry, removed };
}

/**
 * One Feature of the EU file as JSON text: the geometry (2D, at least six decimals, rings in
 * RFC 7946 order: `rewindForEu`) and the
 * EU properties, in that order of keys: ProducerName, ProducerCountry, ProductionPlace, Area.
 * `holes: 'drop'` leaves out the holes (the Information System reads the outer boundary only);
 * with `'refuse'` the caller must have refused polygons with holes already.
 */
export function writeEuFeature(
	geometry: PlotGeometry,
	properties: EuProperties,
	holes: 'refuse' | 'drop',
	notes: WriteNotes,
): EuFeatureText {
	const wound = rewindForEu(geometry);
	notes.rewoundRings += wound.rewound;
	geometry = wound.geometry;
	let coordinates: string;
	if (geometry.type === 'Point') coordinates = writePosition(geometry.coordinates, notes);
	else if (geometry.type === 'Polygon')
		coordinates = writeRings(geometry.coordinates, holes, notes);
	else
		coordinates = `[${geometry.coordinates.map((rings) => writeRings(rings, holes, notes)).join(',')}]`;
	const props: Record<string, unknown> = {};
	if (properties.ProducerName !== undefined) props.ProducerName = properties.ProducerName;
	props.ProducerCountry = properties.ProducerCountry;
	if (properties.ProductionPlace !== undefined) props.ProductionPlace = properties.ProductionPlace;
	if (geometry.type === 'Point' && properties.Area !== undefined) props.Area = properties.Area;
	const text = `{"type":"Feature","properties":${JSON.stringify(props)},"geometry":{"type":"${geometry.type}","coordinates":${coordinates}}}`;
	return { text, bytes: Buffer.byteLength(text, 'utf8'), country: properties.ProducerCountry };
}

/** Bytes of one plot alone in a file (to refuse a plot larger than a file may be). */
export function plotFileBytes(plot: Pick<EuPlot, 'features'>): number {
	return FRAME_BYTES + plot.features.reduce((n, f) => n + f.bytes, 0) + plot.features.length - 1;
}

/**
 * Packs plots into files of at most `maxBytes`, in input order: a file is closed when the next
 * plot would not fit. Every plot lands in exactly one file; no file is empty. A plot larger
 * than `maxBytes` on its own throws (refuse it before: `plotFileBytes`).
 */
export function packEuFiles(plots: readonly EuPlot[], maxBytes = EU_MAX_FILE_BYTES): EuFile[] {
	const files: EuFile[] = [];
	let open: { plots: EuPlot[]; bytes: number; features: number } | undefined;
	const close = () => {
		if (!open || open.plots.length === 0) return;
		const texts = open.plots.flatMap((p) => p.features.map((f) => f.text));
		const perCountry: Record<string, number> = {};
		const notes = emptyNotes();
		for (const p of open.plots) {
			for (const f of p.features) perCountry[f.country] = (perCountry[f.country] ?? 0) + 1;
			notes.paddedCoordinates += p.notes.paddedCoordinates;
			notes.droppedZ += p.notes.droppedZ;
			notes.droppedHoles += p.notes.droppedHoles;
			notes.rewoundRings += p.notes.rewoundRings;
			notes.mergedVertices += p.notes.mergedVertices;
		}
		const text = `${HEAD}${texts.join(',')}${TAIL}`;
		files.push({
			number: files.length + 1,
			items: open.plots.map((p) => p.item),
			text,
			bytes: open.bytes,
			features: open.features,
			perCountry,
			notes,
		});
		open = undefined;
	};
	for (const plot of plots) {
		if (plot.features.length === 0) continue;
		const alone = plotFileBytes(plot);
		if (alone > maxBytes)
			throw new RangeError(
				`Item ${plot.item} needs ${alone} bytes, more than a file may hold (${maxBytes}).`,
			);
		// Joined to an open file: its features' bytes plus one comma before each.
		const added = alone - FRAME_BYTES + 1;
		if (open && open.bytes + added > maxBytes) close();
		if (!open) open = { plots: [plot], bytes: alone, features: plot.features.length };
		else {
			open.plots.push(plot);
			open.bytes += added;
			open.features += plot.features.length;
		}
	}
	close();
	return files;
}

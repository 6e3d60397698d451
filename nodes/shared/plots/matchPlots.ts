/**
 * Which listed plots are the rows of a `make_plot` request whose answer was lost (pure; no
 * n8n imports). Used by `registerOnce.ts` after an ambiguous failure.
 *
 * A plot may come back with the service's own normalisation: coordinates rounded, rings
 * closed or rewound, z dropped, a point stored as a buffered circle, lat/lon written with
 * fewer decimals. So each (row, plot) pair is judged on three levels:
 * - `same`: the geometry and every field sent agree (within the rounding the service showed);
 * - `possible`: close, but something the node cannot explain differs or is missing;
 * - `different`: certainly another plot.
 * Then rows are paired with plots one to one, and only where that is certain: a plot is
 * never given to two rows, and any doubt makes the row `unsure` (never `missing`, which
 * would send it again).
 */
import type { Feature, Position } from '../geometry';
import { isObject, num } from '../values/answerValues';
import type { RequestFields } from './batching';

/** Degrees within which two coordinates are the same point (about 1 m). */
const SAME_POINT_DEGREES = 1e-5;
/** Degrees within which two shapes are too close to call different (about 100 m). */
const NEAR_DEGREES = 1e-3;

type Level = 'same' | 'possible' | 'different';

/** One feature of a make_plot request, with where it came from. */
export interface SentRow {
	itemIndex: number;
	/** Index of the feature within its item. */
	featureIndex: number;
	/** How many features the item holds (all are sent in the same request). */
	itemFeatureCount: number;
	feature: Feature;
}

/** What was sent in one make_plot request: its rows in order and its request-level fields. */
export interface SentRequest {
	rows: SentRow[];
	fields: RequestFields;
}

export type Plot = Record<string, unknown>;

export type RowFinding =
	| { kind: 'found'; plot: Plot }
	| { kind: 'missing' }
	| { kind: 'unsure'; plotIds: string[] };

const LEVELS: Level[] = ['different', 'possible', 'same'];

function lower(a: Level, b: Level): Level {
	return LEVELS[Math.min(LEVELS.indexOf(a), LEVELS.indexOf(b))];
}

/** The id of a listed plot, as text ('' when it has none). */
export function plotIdOf(plot: Plot): string {
	const id = plot.plot_id ?? plot.id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

// ---------------------------------------------------------------- geometry

function isPosition(p: unknown): p is Position {
	return Array.isArray(p) && p.length >= 2 && typeof p[0] === 'number' && typeof p[1] === 'number';
}

/** Every [lon, lat] of a geometry (z dropped), whatever its nesting. */
function positionsOf(geometry: unknown): Array<[number, number]> {
	const out: Array<[number, number]> = [];
	const walk = (c: unknown) => {
		if (isPosition(c)) out.push([c[0], c[1]]);
		else if (Array.isArray(c)) c.forEach(walk);
	};
	if (isObject(geometry)) {
		if (Array.isArray(geometry.geometries))
			geometry.geometries.forEach((g) => walk(positionsOf(g)));
		else walk(geometry.coordinates);
	}
	return out;
}

interface Box {
	minLon: number;
	minLat: number;
	maxLon: number;
	maxLat: number;
}

function boxOf(positions: ReadonlyArray<[number, number]>): Box | undefined {
	if (positions.length === 0) return undefined;
	const box = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
	for (const [lon, lat] of positions) {
		box.minLon = Math.min(box.minLon, lon);
		box.minLat = Math.min(box.minLat, lat);
		box.maxLon = Math.max(box.maxLon, lon);
		box.maxLat = Math.max(box.maxLat, lat);
	}
	return box;
}

function boxDistance(a: Box, b: Box): number {
	return Math.max(
		Math.abs(a.minLon - b.minLon),
		Math.abs(a.minLat - b.minLat),
		Math.abs(a.maxLon - b.maxLon),
		Math.abs(a.maxLat - b.maxLat),
	);
}

/** Whether every position of `a` lies within `tolerance` of some position of `b` (grid lookup). */
function covers(
	a: ReadonlyArray<[number, number]>,
	b: ReadonlyArray<[number, number]>,
	tolerance: number,
): boolean {
	const cell = (v: number) => Math.floor(v / tolerance);
	const grid = new Map<string, Array<[number, number]>>();
	for (const p of b) {
		const key = `${cell(p[0])}:${cell(p[1])}`;
		const list = grid.get(key);
		if (list) list.push(p);
		else grid.set(key, [p]);
	}
	return a.every(([lon, lat]) => {
		const x = cell(lon);
		const y = cell(lat);
		for (let dx = -1; dx <= 1; dx++) {
			for (let dy = -1; dy <= 1; dy++) {
				const near = grid.get(`${x + dx}:${y + dy}`) ?? [];
				if (
					near.some((q) => Math.abs(q[0] - lon) <= tolerance && Math.abs(q[1] - lat) <= tolerance)
				)
					return true;
			}
		}
		return false;
	});
}

/** The decimals a number was written with ("-10.1235" → 4); undefined for a number value. */
function decimalsOf(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const m = /\.(\d+)\s*$/.exec(value);
	return m ? m[1].length : /^\s*-?\d+\s*$/.test(value) ? 0 : undefined;
}

/** The geometries a listed plot carries (its `geojson_features`, tolerant of other shapes). */
function plotGeometries(plot: Plot): unknown[] {
	const features = Array.isArray(plot.geojson_features)
		? plot.geojson_features
		: isObject(plot.geojson) && Array.isArray(plot.geojson.features)
			? plot.geojson.features
			: [];
	const geometries = features.flatMap((f) => (isObject(f) && f.geometry ? [f.geometry] : []));
	if (geometries.length === 0 && isObject(plot.geometry)) geometries.push(plot.geometry);
	return geometries;
}

/** The plot's centre: its lat/lon fields (with the rounding they show), else its shape's box centre. */
function plotCentre(plot: Plot): { lon: number; lat: number; tolerance: number } | undefined {
	const lat = num(plot.lat);
	const lon = num(plot.lon);
	if (lat !== null && lon !== null) {
		const decimals = Math.min(decimalsOf(plot.lat) ?? 12, decimalsOf(plot.lon) ?? 12);
		return { lon, lat, tolerance: Math.max(SAME_POINT_DEGREES, 0.5 * 10 ** -decimals + 1e-12) };
	}
	const box = boxOf(plotGeometries(plot).flatMap(positionsOf));
	if (!box) return undefined;
	return {
		lon: (box.minLon + box.maxLon) / 2,
		lat: (box.minLat + box.maxLat) / 2,
		tolerance: SAME_POINT_DEGREES,
	};
}

/** The default circle area of a point (contract: about 4 ha when `point_ha` is absent). */
const DEFAULT_POINT_HA = 4;

function pointLevel(row: Feature, plot: Plot): Level {
	const [lon, lat] = (row.geometry as { coordinates: number[] }).coordinates;
	const stored = plotGeometries(plot);
	if (stored.length === 1 && isObject(stored[0]) && stored[0].type === 'Point') {
		const [p] = positionsOf(stored[0]);
		if (!p) return 'possible';
		const d = Math.max(Math.abs(p[0] - lon), Math.abs(p[1] - lat));
		return d <= SAME_POINT_DEGREES ? 'same' : d <= NEAR_DEGREES ? 'possible' : 'different';
	}
	const centre = plotCentre(plot);
	if (!centre) return 'possible';
	const d = Math.max(Math.abs(centre.lon - lon), Math.abs(centre.lat - lat));
	if (d > NEAR_DEGREES) return 'different';
	if (d > centre.tolerance) return 'possible';
	// A point becomes a circle of point_ha hectares: an area far from it is another plot.
	const area = num(plot.area_ha);
	const wanted = num(row.properties?.point_ha) ?? DEFAULT_POINT_HA;
	if (area !== null && Math.abs(area - wanted) > 0.25 * wanted) return 'possible';
	return 'same';
}

function shapeLevel(row: Feature, plot: Plot): Level {
	const mine = positionsOf(row.geometry);
	const myBox = boxOf(mine);
	if (!myBox) return 'possible';
	const theirs = plotGeometries(plot).flatMap(positionsOf);
	const theirBox = boxOf(theirs);
	if (!theirBox) {
		// Only a centre to go by: inside the shape's box is all that can be said.
		const centre = plotCentre(plot);
		if (!centre) return 'possible';
		const inside =
			centre.lon >= myBox.minLon - NEAR_DEGREES &&
			centre.lon <= myBox.maxLon + NEAR_DEGREES &&
			centre.lat >= myBox.minLat - NEAR_DEGREES &&
			centre.lat <= myBox.maxLat + NEAR_DEGREES;
		return inside ? 'possible' : 'different';
	}
	const d = boxDistance(myBox, theirBox);
	if (d > NEAR_DEGREES) return 'different';
	if (d > SAME_POINT_DEGREES) return 'possible';
	// Same box: the same vertices both ways (rounding, closing, rewinding and duplicates allowed).
	return covers(mine, theirs, SAME_POINT_DEGREES) && covers(theirs, mine, SAME_POINT_DEGREES)
		? 'same'
		: 'possible';
}

/** How well a plot's geometry matches a row's feature. */
export function geometryLevel(row: Feature, plot: Plot): Level {
	return row.geometry?.type === 'Point' ? pointLevel(row, plot) : shapeLevel(row, plot);
}

// ---------------------------------------------------------------- fields

function text(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return undefined;
}

const squash = (value: string) => value.trim().replace(/\s+/g, ' ');
const commodityKey = (value: string) =>
	value
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_');

/**
 * One field: what was sent (`sent`, undefined when nothing) against what the plot holds
 * (`held`, undefined when empty), compared with `same`. Missing on the plot although sent,
 * or present although not sent (and not in the feature's own properties), is `possible`.
 */
function fieldLevel(
	sent: string | undefined,
	held: string | undefined,
	same: (a: string, b: string) => boolean,
	fromProperties?: string,
): Level {
	if (sent === undefined) {
		if (held === undefined) return 'same';
		return fromProperties !== undefined && same(fromProperties, held) ? 'same' : 'possible';
	}
	if (held === undefined) return 'possible';
	return same(sent, held) ? 'same' : 'different';
}

function harvestLevel(sent: string | undefined, plot: Plot, fromProperties?: string): Level {
	const held = (
		Array.isArray(plot.harvest_dates) ? plot.harvest_dates : [plot.harvest_date]
	).flatMap((d) => (typeof d === 'string' && d.trim() !== '' ? [d.trim().slice(0, 10)] : []));
	const wanted = sent ?? fromProperties;
	if (wanted === undefined) return held.length === 0 ? 'same' : 'possible';
	if (held.length === 0) return 'possible';
	if (held.includes(wanted.slice(0, 10))) return 'same';
	return sent !== undefined ? 'different' : 'possible';
}

function infoLevel(sent: Record<string, string> | undefined, plot: Plot): Level {
	const held = isObject(plot.additional_info) ? plot.additional_info : {};
	const wanted = sent ?? {};
	let level: Level = 'same';
	for (const [key, value] of Object.entries(wanted)) {
		if (!Object.prototype.hasOwnProperty.call(held, key)) level = lower(level, 'possible');
		else if (text(held[key]) !== text(value)) return 'different';
	}
	for (const key of Object.keys(held))
		if (!Object.prototype.hasOwnProperty.call(wanted, key) && text(held[key]) !== undefined)
			level = lower(level, 'possible');
	return level;
}

/** The name a plot of this row gets: the request's name, numbered when it has several features. */
function nameLevel(fields: RequestFields, count: number, position: number, plot: Plot): Level {
	const name = text(fields.plot_name);
	if (name === undefined) return 'same';
	const held = text(plot.plot_name);
	if (held === undefined) return 'possible';
	const a = squash(held).toLowerCase();
	const b = squash(name).toLowerCase();
	if (count === 1) return a === b ? 'same' : 'different';
	if (a === `${b} ${position + 1}`) return 'same';
	return a.startsWith(b) ? 'possible' : 'different';
}

/** How well a listed plot matches the row at `position` of a request. */
export function rowLevel(request: SentRequest, position: number, plot: Plot): Level {
	const { fields, rows } = request;
	const row = rows[position];
	const props = row.feature.properties ?? {};
	let level = geometryLevel(row.feature, plot);
	if (level === 'different') return level;
	level = lower(level, nameLevel(fields, rows.length, position, plot));
	level = lower(
		level,
		fieldLevel(
			text(fields.commodity),
			text(plot.commodity),
			(a, b) => commodityKey(a) === commodityKey(b),
			text(props.commodity),
		),
	);
	level = lower(level, harvestLevel(text(fields.harvest_date), plot, text(props.harvest_date)));
	level = lower(
		level,
		fieldLevel(text(fields.notes), text(plot.notes), (a, b) => squash(a) === squash(b)),
	);
	return lower(level, infoLevel(fields.additional_info, plot));
}

// ---------------------------------------------------------------- pairing

function byPlotId(a: Plot, b: Plot): number {
	const x = plotIdOf(a);
	const y = plotIdOf(b);
	if (/^\d+$/.test(x) && /^\d+$/.test(y) && x.length !== y.length) return x.length - y.length;
	return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Pairs the rows of a request with listed plots (plots already claimed by this run left
 * out beforehand). A row is `found` only when the rows that match the same plots are
 * exactly as many as those plots, and nothing else resembles them; then they are paired in
 * the order of the plot ids (the order of creation). `missing` only when no plot even
 * resembles the row.
 */
export function pairRows(request: SentRequest, plots: readonly Plot[]): RowFinding[] {
	const levels = request.rows.map((_row, position) =>
		plots.map((plot) => rowLevel(request, position, plot)),
	);
	const same = levels.map((row) => row.flatMap((l, c) => (l === 'same' ? [c] : [])));
	const possible = levels.map((row) => row.flatMap((l, c) => (l === 'possible' ? [c] : [])));
	const ids = (cs: number[]) =>
		cs
			.map((c) => plots[c])
			.sort(byPlotId)
			.map(plotIdOf);
	const findings: RowFinding[] = request.rows.map(() => ({ kind: 'missing' }));
	const groups = new Map<string, number[]>();
	same.forEach((cs, r) => {
		if (cs.length === 0) {
			if (possible[r].length > 0) findings[r] = { kind: 'unsure', plotIds: ids(possible[r]) };
			return;
		}
		const key = cs.join(',');
		groups.set(key, [...(groups.get(key) ?? []), r]);
	});
	for (const [key, rows] of groups) {
		const cs = key.split(',').map(Number);
		const inGroup = new Set(rows);
		const touchedElsewhere = request.rows.some(
			(_row, r) => !inGroup.has(r) && [...same[r], ...possible[r]].some((c) => cs.includes(c)),
		);
		const doubt = rows.some((r) => possible[r].length > 0);
		if (cs.length !== rows.length || touchedElsewhere || doubt) {
			for (const r of rows)
				findings[r] = { kind: 'unsure', plotIds: ids([...same[r], ...possible[r]]) };
			continue;
		}
		const ordered = cs.map((c) => plots[c]).sort(byPlotId);
		rows.forEach((r, k) => (findings[r] = { kind: 'found', plot: ordered[k] }));
	}
	return findings;
}

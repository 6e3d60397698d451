/**
 * One input item's geometry → validated features, for Plot → Register and Protected
 * Area → Check (pure; no n8n imports). Wraps the geometry layer: parses the chosen
 * source, validates (and repairs, when asked) and returns every problem as a line
 * naming the item and feature and saying what to do.
 */
import type { Feature, Location, ValidationResult } from '../geometry';
import type { Reading } from '../input';
import {
	GeometryInputError,
	describeInputError,
	describeProblem,
	describeRepair,
	featureFromLatLon,
	parseGeoJsonValue,
	parseWkt,
	validateFeatures,
} from '../geometry';

/**
 * Where an item's geometry comes from: a mapped GeoJSON, latitude/longitude or WKT field, or
 * (`item`, version 3's default) the field of the item that holds one (`findItemGeometry`).
 */
export type GeometrySource = 'geoJson' | 'latLon' | 'wkt' | 'item';

export interface GeometryValues {
	geoJson?: unknown;
	latitude?: unknown;
	longitude?: unknown;
	wkt?: unknown;
	/** The item's JSON, for the source `item`. */
	item?: unknown;
}

/**
 * The fields the source `item` looks for, in this order: the first one present (not empty)
 * is read. `geometry` is Read File's output (a GeoJSON geometry), `geojson_features` a plot
 * of the service (Register's, Get's output); `geojson`, `wkt` and `latitude` + `longitude`
 * are the names the mapped fields default to.
 */
export const ITEM_GEOMETRY_FIELDS = [
	'geometry',
	'geojson',
	'geojson_features',
	'wkt',
	'latitude',
	'longitude',
] as const;

/** What the source `item` looks for, as the field's description and the errors say it. */
export const ITEM_GEOMETRY_LOOKED_FOR =
	'"geometry" (as Read File outputs it), "geojson" (GeoJSON), "geojson_features" (a registered plot), "wkt" (Well-Known Text), or "latitude" and "longitude" (decimal degrees), in any letter case';

const isEmpty = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The item's own field of this name (never one inherited from Object.prototype): the exact
 * name, else the one field whose name differs only in letter case ("Latitude", "WKT"); none
 * when several do.
 */
function fieldOf(item: Record<string, unknown>, name: string): string | undefined {
	if (Object.prototype.hasOwnProperty.call(item, name)) return name;
	const matches = Object.keys(item).filter((key) => key.toLowerCase() === name);
	return matches.length === 1 ? matches[0] : undefined;
}

/** Well-Known Text, as a text field named "geometry" often holds (e.g. a GIS export as CSV). */
const LOOKS_LIKE_WKT =
	/^\s*(?:SRID=\d+\s*;\s*)?(?:POINT|POLYGON|MULTIPOLYGON|MULTIPOINT|LINESTRING|MULTILINESTRING|GEOMETRYCOLLECTION)\b/i;

/** Where the source `item` found the geometry: the source it reads as, the field, the values. */
export type FoundGeometry =
	| { source: 'geoJson' | 'wkt' | 'latLon'; field: string; values: GeometryValues }
	| { source: undefined; failure: InputFailure };

/**
 * The geometry field of an item (the source `item`): the first of ITEM_GEOMETRY_FIELDS that is
 * present and not empty (its name in any letter case) — `geometry` and `geojson` read as
 * GeoJSON (or as WKT when they hold WKT text), `geojson_features` as the plot's features (a
 * FeatureCollection, as Export reads a plot), `wkt` as WKT, `latitude` and `longitude` as a
 * point. Only that field is read (not the item's `properties`): what is sent is what the user
 * would map. Pure.
 */
export function findItemGeometry(item: unknown): FoundGeometry {
	const json =
		typeof item === 'object' && item !== null && !Array.isArray(item)
			? (item as Record<string, unknown>)
			: {};
	const found: Partial<Record<(typeof ITEM_GEOMETRY_FIELDS)[number], string>> = {};
	for (const name of ITEM_GEOMETRY_FIELDS) found[name] = fieldOf(json, name);
	const value = (name: (typeof ITEM_GEOMETRY_FIELDS)[number]) => {
		const field = found[name];
		return field === undefined ? undefined : json[field];
	};
	for (const name of ['geometry', 'geojson'] as const) {
		const field = found[name];
		const geoJson = value(name);
		if (field === undefined || isEmpty(geoJson)) continue;
		if (typeof geoJson === 'string' && LOOKS_LIKE_WKT.test(geoJson))
			return { source: 'wkt', field, values: { wkt: geoJson } };
		return { source: 'geoJson', field, values: { geoJson } };
	}
	const features = value('geojson_features');
	if (found.geojson_features !== undefined && !isEmpty(features)) {
		const geoJson = Array.isArray(features) ? { type: 'FeatureCollection', features } : features;
		return { source: 'geoJson', field: found.geojson_features, values: { geoJson } };
	}
	if (found.wkt !== undefined && !isEmpty(value('wkt')))
		return { source: 'wkt', field: found.wkt, values: { wkt: value('wkt') } };
	const latitude = value('latitude');
	const longitude = value('longitude');
	if (!isEmpty(latitude) || !isEmpty(longitude))
		return {
			source: 'latLon',
			field: found.latitude ?? found.longitude ?? 'latitude',
			values: { latitude, longitude },
		};
	const present = ITEM_GEOMETRY_FIELDS.flatMap((name) => found[name] ?? []);
	const empty =
		present.length === 0
			? 'the item has none of them'
			: `${present.map((f) => `"${f}"`).join(', ')} ${present.length === 1 ? 'is' : 'are'} empty`;
	return {
		source: undefined,
		failure: {
			code: 'missing_geometry',
			message: `the item has no geometry: Geometry Source "Found in the Item" looks for the field ${ITEM_GEOMETRY_LOOKED_FOR}, and ${empty}. Give the item one of these fields, or choose another Geometry Source and map the field that holds the geometry.`,
		},
	};
}

export interface ItemGeometryOptions {
	repair?: boolean;
	/** Country of the plot, for the swapped latitude/longitude check. */
	country?: string;
	/** The point area mapped from the input, as read (`readHectares`); overrides a feature's own `point_ha` / `Area` / `area_ha` / `AREA`. */
	pointHa?: Reading<number>;
	/** The label of the field the point area is mapped in (default "Point Area (Hectares)"). */
	pointHaField?: string;
	/** Check the service's own limits as well as EUDR's (default true; false for Export). */
	serviceLimits?: boolean;
	/** Most features one item may hold (default 20, the `make_plot` limit). */
	maxFeatures?: number;
}

export interface ItemGeometry {
	/** Features to send (repaired copies when repair is on). Empty when there are errors. */
	features: Feature[];
	/** Error lines, e.g. `Item 3, feature 0: the polygon ring is not closed ...`. */
	errors: string[];
	/** Warning lines (sent anyway), e.g. fewer than six decimals. */
	warnings: string[];
	/** What repair changed, one line each. */
	repairs: string[];
	/** Number of features read, even when invalid. */
	featureCount: number;
}

/** A value that could not be read as features at all (before validation). */
interface InputFailure {
	code: string;
	/** What is wrong and what to do, starting in lower case. */
	message: string;
	featureIndex?: number;
	where?: Location;
}

/**
 * One item's geometry, structured: the parse failure, or the validation of its features.
 * `source` is where it was read from (for the source `item`, the one found in the item).
 */
export type CheckedGeometry =
	| { kind: 'unreadable'; failure: InputFailure; source?: GeometrySource }
	| { kind: 'read'; validation: ValidationResult; source?: GeometrySource };

/**
 * Parses the chosen source and validates (and repairs, when asked) the features; never
 * throws for bad input. `readItemGeometry` turns this into lines; Plot → Validate reports
 * it as it is.
 */
export function checkItemGeometry(
	source: GeometrySource,
	values: GeometryValues,
	options: ItemGeometryOptions = {},
): CheckedGeometry {
	if (source === 'item') {
		const found = findItemGeometry(values.item);
		if (found.source === undefined) return { kind: 'unreadable', failure: found.failure };
		return { ...checkItemGeometry(found.source, found.values, options), source: found.source };
	}
	let parsed: { features: unknown[]; crs?: unknown };
	try {
		if (source === 'geoJson') {
			parsed = parseGeoJsonValue(values.geoJson, { maxFeatures: options.maxFeatures });
		} else if (source === 'wkt') {
			parsed = { features: parseWkt(values.wkt) };
		} else if (source === 'latLon') {
			parsed = { features: [featureFromLatLon(values.latitude, values.longitude)] };
		} else {
			return {
				kind: 'unreadable',
				failure: {
					code: 'unknown_geometry_source',
					message: `the geometry source "${String(source)}" is unknown. Choose GeoJSON, Latitude/Longitude or WKT.`,
				},
			};
		}
	} catch (error) {
		if (error instanceof GeometryInputError) {
			const failure: InputFailure = { code: error.code, message: error.message };
			if (error.featureIndex !== undefined) failure.featureIndex = error.featureIndex;
			if (error.where !== undefined) failure.where = error.where;
			return { kind: 'unreadable', failure };
		}
		return {
			kind: 'unreadable',
			failure: {
				code: 'unreadable_geometry',
				message: `the geometry could not be read (${error instanceof Error ? error.message : String(error)}). Check the value of the geometry field.`,
			},
		};
	}
	const validation = validateFeatures(parsed.features, {
		crs: parsed.crs,
		country: options.country,
		repair: options.repair === true,
		pointHa: options.pointHa,
		pointHaField: options.pointHaField,
		serviceLimits: options.serviceLimits,
	});
	return { kind: 'read', validation };
}

/** Reads, validates and (optionally) repairs one item's geometry. Never throws for bad input. */
export function readItemGeometry(
	itemIndex: number,
	source: GeometrySource,
	values: GeometryValues,
	options: ItemGeometryOptions = {},
): ItemGeometry {
	return describeItemGeometry(itemIndex, checkItemGeometry(source, values, options));
}

/** A checked geometry as lines naming the item and feature (errors, warnings, repairs). */
export function describeItemGeometry(itemIndex: number, checked: CheckedGeometry): ItemGeometry {
	if (checked.kind === 'unreadable') {
		const { code, message, featureIndex } = checked.failure;
		const line = describeInputError(itemIndex, new GeometryInputError(code, message, featureIndex));
		return { features: [], errors: [line], warnings: [], repairs: [], featureCount: 0 };
	}
	const result = checked.validation;
	const errors = result.problems
		.filter((p) => p.severity === 'error')
		.map((p) => describeProblem(itemIndex, p));
	const warnings = result.problems
		.filter((p) => p.severity === 'warning')
		.map((p) => describeProblem(itemIndex, p));
	return {
		features: errors.length === 0 ? result.features : [],
		errors,
		warnings,
		repairs: result.repairs.map((r) => describeRepair(itemIndex, r)),
		featureCount: result.features.length,
	};
}

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

export type GeometrySource = 'geoJson' | 'latLon' | 'wkt';

export interface GeometryValues {
	geoJson?: unknown;
	latitude?: unknown;
	longitude?: unknown;
	wkt?: unknown;
}

export interface ItemGeometryOptions {
	repair?: boolean;
	/** Country of the plot, for the swapped latitude/longitude check. */
	country?: string;
	/** The point area mapped from the input, as read (`readHectares`); overrides a feature's own `point_ha` / `Area` / `area_ha` / `AREA`. */
	pointHa?: Reading<number>;
	/** The label of the field the point area is mapped in (default "Point Area (Ha)"). */
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

/** One item's geometry, structured: the parse failure, or the validation of its features. */
export type CheckedGeometry =
	| { kind: 'unreadable'; failure: InputFailure }
	| { kind: 'read'; validation: ValidationResult };

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

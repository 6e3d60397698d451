/**
 * One input item's geometry → validated features, for Plot → Register and Protected
 * Area → Check (pure; no n8n imports). Wraps the geometry layer: parses the chosen
 * source, validates (and repairs, when asked) and returns every problem as a line
 * naming the item and feature and saying what to do.
 */
import type { Feature } from '../geometry';
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
	/** `point_ha` mapped from the input; overrides a feature's own `properties.point_ha`. */
	pointHa?: unknown;
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

/** Reads, validates and (optionally) repairs one item's geometry. Never throws for bad input. */
export function readItemGeometry(
	itemIndex: number,
	source: GeometrySource,
	values: GeometryValues,
	options: ItemGeometryOptions = {},
): ItemGeometry {
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
				features: [],
				errors: [
					`Item ${itemIndex}: the geometry source "${String(source)}" is unknown. Choose GeoJSON, Latitude/Longitude or WKT.`,
				],
				warnings: [],
				repairs: [],
				featureCount: 0,
			};
		}
	} catch (error) {
		const line =
			error instanceof GeometryInputError
				? describeInputError(itemIndex, error)
				: `Item ${itemIndex}: the geometry could not be read (${error instanceof Error ? error.message : String(error)}). Check the value of the geometry field.`;
		return { features: [], errors: [line], warnings: [], repairs: [], featureCount: 0 };
	}
	const result = validateFeatures(parsed.features, {
		crs: parsed.crs,
		country: options.country,
		repair: options.repair === true,
		pointHa: options.pointHa,
	});
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
		featureCount: parsed.features.length,
	};
}

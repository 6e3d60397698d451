/**
 * Pure geometry layer for Plot → Register: parse inputs (GeoJSON, latitude /
 * longitude, WKT), validate them against the service's and EUDR's rules, and
 * optionally repair what can be repaired. Imports nothing from n8n.
 *
 * Typical use per input item:
 *   const parsed = parseGeoJsonValue(value);            // or parseWkt / featureFromLatLon
 *   const result = validateFeatures(parsed.features, { crs: parsed.crs, country, repair, pointHa });
 *   errors: result.problems.filter((p) => p.severity === 'error').map((p) => describeProblem(i, p))
 *   send result.features (repaired copies when repair is on); list result.repairs on the output.
 * Parse functions throw GeometryInputError (see describeInputError).
 */
export { GeometryInputError } from './geometryError';
export { featureFromLatLon, parseGeoJsonValue, parseWkt } from './parse';
export { MIN_DECIMALS, validateFeatures } from './checkFeatures';
export { EUDR_POINT_MAX_HA, meets4haRule, readPointArea } from './pointArea';
export { describeInputError, describeProblem, describeRepair } from './describe';
export { COUNTRY_BOXES, findCountry } from './countries';
export { isWgs84Crs } from './crs';
export { readLooseNumber } from './looseNumbers';
export type {
	Feature,
	Location,
	MultiPolygon,
	Polygon,
	Position,
	PlotGeometry,
	Problem,
	ValidateOptions,
	ValidationResult,
} from './geoJsonTypes';

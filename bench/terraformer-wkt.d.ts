// @terraformer/wkt ships no type declarations; this is the part of its API the bench and the
// WKT tests use (it is the reference the WKT reader, nodes/shared/geometry/wkt.ts, replaced).
declare module '@terraformer/wkt' {
	/** Parses WKT into a GeoJSON geometry. Throws on text it cannot parse. */
	export function wktToGeoJSON(wkt: string): unknown;
}

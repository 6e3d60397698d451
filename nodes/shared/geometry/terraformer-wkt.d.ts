// @terraformer/wkt ships no type declarations; this is the part of its API we use.
declare module '@terraformer/wkt' {
	/** Parses WKT into a GeoJSON geometry. Throws on text it cannot parse. */
	export function wktToGeoJSON(wkt: string): unknown;
}

/**
 * Malformed inputs for Plot → Register's pre-flight validation (register.test.ts): each case
 * gives the node's parameters, the malformed item, and the message that must name it.
 */
import type { IDataObject } from 'n8n-workflow';

const P = (lon: number, lat: number) => [lon, lat];
/** A valid ring with six-decimal positions in Brazil (counter-clockwise). */
const RING = [
	P(-47.882778, -15.793889),
	P(-47.872778, -15.793889),
	P(-47.872778, -15.783889),
	P(-47.882778, -15.783889),
	P(-47.882778, -15.793889),
];
const polygon = (ring: unknown[] = RING) => ({ type: 'Polygon', coordinates: [ring] });
const feature = (geometry: unknown, properties: IDataObject = {}) => ({
	type: 'Feature',
	geometry,
	properties,
});
const collection = (features: unknown[], extra: IDataObject = {}) => ({
	type: 'FeatureCollection',
	features,
	...extra,
});
const point = P(-47.882778, -15.793889);

export interface Case {
	name: string;
	params?: IDataObject;
	json: IDataObject;
	message: RegExp;
}

const geo = (value: unknown, extra: IDataObject = {}): Pick<Case, 'params' | 'json'> => ({
	params: { geometrySource: 'geoJson', ...extra },
	json: { geojson: value } as IDataObject,
});
const latlon = (
	latitude: unknown,
	longitude: unknown,
	extra: IDataObject = {},
): Pick<Case, 'params' | 'json'> => ({
	params: { geometrySource: 'latLon', ...extra },
	json: { latitude, longitude } as IDataObject,
});
const wkt = (text: unknown): Pick<Case, 'params' | 'json'> => ({
	params: { geometrySource: 'wkt' },
	json: { wkt: text } as IDataObject,
});
const withField = (field: string, value: unknown): Pick<Case, 'params' | 'json'> => ({
	params: { geometrySource: 'latLon', plotFields: { [field]: '={{ $json.value }}' } },
	json: { latitude: -15.793889, longitude: -47.882778, value } as IDataObject,
});

const bowTie = [
	P(-47.882778, -15.793889),
	P(-47.872778, -15.783889),
	P(-47.872778, -15.793889),
	P(-47.882778, -15.783889),
	P(-47.882778, -15.793889),
];
const unclosed = RING.slice(0, 4);
const dupes = [RING[0], RING[1], RING[1], RING[2], RING[3], RING[4]];
const metres = [
	P(500000.123456, 8250000.123456),
	P(501000.123456, 8250000.123456),
	P(501000.123456, 8251000.123456),
	P(500000.123456, 8250000.123456),
];
const swapped = RING.map(([x, y]) => [y, x]);
const swappedBig = [
	P(-15.793889, -147.882778),
	P(-15.783889, -147.882778),
	P(-15.783889, -147.872778),
	P(-15.793889, -147.882778),
];
const outOfRange = [
	P(-190.882778, -15.793889),
	P(-47.872778, -15.793889),
	P(-47.872778, -15.783889),
	P(-190.882778, -15.793889),
];
const fourPlus = Array.from({ length: 21 }, (_, i) =>
	feature({ type: 'Point', coordinates: P(-47.882778 + i * 0.01, -15.793889) }),
);

/** A valid item for every geometry source (item 0 of each run). */
export const GOOD: IDataObject = {
	geojson: polygon(),
	wkt: 'POLYGON ((-47.882778 -15.793889, -47.872778 -15.793889, -47.872778 -15.783889, -47.882778 -15.793889))',
	latitude: -15.793889,
	longitude: -47.882778,
};

export const CASES: Case[] = [
	// structure and JSON
	{
		name: 'text that is not JSON',
		...geo('{"type": "Point", coordinates: [1, 2]'),
		message: /^Item 0: the value is not valid JSON/,
	},
	{
		name: 'plain words',
		...geo('my farm'),
		message: /^Item 0: the value is not valid JSON: it starts with "my farm"/,
	},
	{
		name: 'empty string',
		...geo(''),
		message: /^Item 0: no GeoJSON was given \(the value is an empty string\)/,
	},
	{
		name: 'null',
		...geo(null),
		message: /^Item 0: no GeoJSON was given \(the value is (null|undefined)\)/,
	},
	{
		name: 'a missing field',
		params: { geometrySource: 'geoJson' },
		json: { other: 1 },
		message: /^Item 0: no GeoJSON was given/,
	},
	{
		name: 'NaN in JSON text',
		...geo('{"type": "Point", "coordinates": [NaN, -15.793889]}'),
		message: /^Item 0: the GeoJSON text contains NaN or Infinity/,
	},
	{
		name: 'Infinity in JSON text',
		...geo('{"type": "Point", "coordinates": [Infinity, -15.793889]}'),
		message: /NaN or Infinity/,
	},
	{ name: 'empty object', ...geo({}), message: /^Item 0: the value is an empty object/ },
	{ name: 'a number', ...geo(42), message: /^Item 0: the value is a number \(42\), not GeoJSON/ },
	{
		name: 'a list of numbers',
		...geo([-47.88, -15.79]),
		message: /bare coordinate pair .* Use the Latitude\/Longitude geometry source/,
	},
	{
		name: 'object without type',
		...geo({ coordinates: point }),
		message: /has no "type" member.*add "type": "Point", "Polygon" or "MultiPolygon"/,
	},
	{
		name: 'unknown type',
		...geo({ type: 'Circle', coordinates: point }),
		message: /"type" is "Circle", which is not a GeoJSON type/,
	},
	{
		name: 'LineString',
		...geo({ type: 'LineString', coordinates: [point, P(-47.87, -15.79)] }),
		message: /LineString; only Point, Polygon and MultiPolygon are accepted/,
	},
	{
		name: 'GeometryCollection',
		...geo({ type: 'GeometryCollection', geometries: [] }),
		message: /GeometryCollection; only Point, Polygon and MultiPolygon/,
	},
	{
		name: 'feature without geometry',
		...geo(feature(null)),
		message: /^Item 0: the Feature has no geometry \(it is null or missing\)/,
	},
	{
		name: 'empty polygon',
		...geo(polygon([])),
		message: /ring 0 is empty|empty geometry|no coordinates/,
	},
	{
		name: 'empty coordinates',
		...geo({ type: 'Point', coordinates: [] }),
		message: /has no coordinates \(empty geometry\)/,
	},
	{
		name: 'empty FeatureCollection',
		...geo(collection([])),
		message: /^Item 0: the FeatureCollection has no features/,
	},
	{
		name: 'nested FeatureCollection',
		...geo(collection([collection([feature(polygon())])])),
		message:
			/^Item 0, feature 0: feature 0 is itself a FeatureCollection; FeatureCollections cannot be nested/,
	},
	{
		name: '21 features in one item',
		...geo(collection(fourPlus)),
		message:
			/holds 21 features; one item may hold at most 20.*Split the features across several items/,
	},
	{
		name: 'a bare geometry in features',
		...geo(collection([polygon()])),
		message: /^Item 0, feature 0: feature 0 is a bare Polygon, not a Feature/,
	},
	{
		name: 'string coordinate',
		...geo({ type: 'Point', coordinates: ['-47.882778', -15.793889] }),
		message: /instead of a number/,
	},
	{
		name: 'NaN coordinate (object)',
		...geo({ type: 'Point', coordinates: [NaN, -15.793889] }),
		message: /NaN|not a finite|instead of a number/,
	},
	{
		name: 'position with one number',
		...geo({ type: 'Point', coordinates: [-47.882778] }),
		message: /has 1 number .* a position is \[longitude, latitude\]/,
	},
	{
		name: 'polygon nested too shallow',
		...geo({ type: 'Polygon', coordinates: RING }),
		message: /ring 0 is a single position|should be a list of \[longitude, latitude\] positions/,
	},
	// rings
	{
		name: 'unclosed ring',
		...geo(polygon(unclosed)),
		message: /^Item 0, feature 0: the polygon ring is not closed .*turn on "Repair Geometry"/,
	},
	{
		name: 'ring with three positions',
		...geo(polygon([RING[0], RING[1], RING[0]])),
		message: /has only 3 positions; a polygon ring needs at least four/,
	},
	{
		name: 'self-intersecting ring (bow tie)',
		...geo(polygon(bowTie)),
		message: /the polygon boundary crosses itself .*"Repair Geometry" cannot fix this/,
	},
	{
		name: 'duplicate consecutive vertices',
		...geo(polygon(dupes)),
		message: /1 duplicate consecutive vertex .*turn on "Repair Geometry"/,
	},
	{
		name: 'zero-area ring',
		...geo(polygon([RING[0], RING[1], P(-47.862778, -15.793889), RING[0]])),
		message: /zero area/,
	},
	// coordinates and CRS
	{
		name: 'projected metres',
		...geo(polygon(metres)),
		message: /look like projected metres, not WGS84 degrees/,
	},
	{
		name: 'coordinates out of range',
		...geo(polygon(outOfRange)),
		message: /outside the WGS84 range/,
	},
	{
		name: 'swapped lat/lon (latitude beyond 90)',
		...geo(polygon(swappedBig)),
		message: /latitude and longitude look swapped/,
	},
	{
		name: 'swapped lat/lon (country given)',
		...geo(polygon(swapped), { plotFields: { country: 'BR' } }),
		message: /latitude and longitude look swapped: the plot's centre .* lies outside Brazil/,
	},
	{
		name: 'crs other than WGS84',
		...geo(
			collection([feature(polygon())], {
				crs: { type: 'name', properties: { name: 'EPSG:3857' } },
			}),
		),
		message: /EPSG:3857/,
	},
	{
		name: 'lat/lon swapped (columns)',
		...latlon('-147.882778', '-15.793889'),
		message: /latitude and longitude look swapped: the latitude is -147.882778/,
	},
	{
		name: 'latitude out of range',
		...latlon('-95.123456', '-147.123456'),
		message: /the latitude -95.123456 is outside -90..90/,
	},
	{
		name: 'longitude out of range',
		...latlon('-15.793889', '-190.123456'),
		message: /the longitude -190.123456 is outside -180..180/,
	},
	{
		name: 'projected lat/lon',
		...latlon('8250000.5', '500000.5'),
		message: /look like projected metres, not degrees/,
	},
	{
		name: 'empty latitude and longitude',
		...latlon('', ''),
		message: /the latitude and the longitude are both empty/,
	},
	{
		name: 'text latitude',
		...latlon('abc', '-47.882778'),
		message: /the latitude is not a number: "abc" is not a number/,
	},
	{
		name: 'degrees-minutes-seconds',
		...latlon('15°47\'38"S', '-47.882778'),
		message: /looks like degrees\/minutes\/seconds/,
	},
	// points and point_ha
	{
		name: 'point_ha not a number',
		params: { geometrySource: 'latLon', plotFields: { pointHa: '={{ $json.pointHa }}' } },
		json: { latitude: '-15.793889', longitude: '-47.882778', pointHa: 'big' },
		message: /point_ha "big" is not a number/,
	},
	{
		name: 'point_ha above 4 ha (point must be polygon)',
		params: { geometrySource: 'latLon', plotFields: { pointHa: '={{ $json.pointHa }}' } },
		json: { latitude: '-15.793889', longitude: '-47.882778', pointHa: '4,5' },
		message: /a plot of more than 4 ha must be given as a polygon \(EUDR/,
	},
	{
		name: 'point_ha of exactly 4 ha (EUDR allows it, the service takes point_ha only below 4.0)',
		params: { geometrySource: 'latLon', plotFields: { pointHa: '={{ $json.pointHa }}' } },
		json: { latitude: '-15.793889', longitude: '-47.882778', pointHa: '4' },
		message:
			/meets the EUDR 4 ha rule .*the service takes point_ha only below 4\.0, so Plot → Register would be refused/,
	},
	{
		name: 'negative point_ha',
		...geo(feature({ type: 'Point', coordinates: point }, { point_ha: -1 })),
		message: /point_ha is -1; it must be a positive number/,
	},
	{
		name: 'point_ha as text in properties',
		...geo(feature({ type: 'Point', coordinates: point }, { point_ha: '2.5' })),
		message: /properties.point_ha "2.5" is not a number. It must be a JSON number/,
	},
	// WKT
	{
		name: 'WKT given as GeoJSON',
		...geo('POLYGON ((1 2, 3 4, 5 6, 1 2))'),
		message: /looks like WKT .* Set the geometry source to WKT/,
	},
	{ name: 'broken WKT', ...wkt('POLYGON ((1 2, 3 4'), message: /could not be read as WKT/ },
	{
		name: 'WKT LINESTRING',
		...wkt('LINESTRING (-47.882778 -15.793889, -47.872778 -15.793889)'),
		message: /the WKT is a LINESTRING; only POINT, POLYGON and MULTIPOLYGON/,
	},
	{
		name: 'WKT with another SRID',
		...wkt('SRID=3857;POINT (500000 8250000)'),
		message: /declares SRID=3857/,
	},
	{ name: 'empty WKT', ...wkt(''), message: /no WKT was given/ },
	// per-plot fields
	{
		name: 'unknown commodity',
		...withField('commodity', 'cacao'),
		message:
			/^Item 0, field "Commodity": "cacao" is not a commodity the service knows. Use one of: wood, soy, cocoa/,
	},
	{
		name: 'ambiguous harvest date',
		...withField('harvestDate', '03/04/2024'),
		message: /^Item 0, field "Harvest Date": "03\/04\/2024" is ambiguous/,
	},
	{
		name: 'impossible harvest date',
		...withField('harvestDate', '2024-02-30'),
		message: /^Item 0, field "Harvest Date": "2024-02-30" has the day 30, which does not exist/,
	},
	{
		name: 'unreadable harvest date',
		...withField('harvestDate', 'last spring'),
		message: /"last spring" is not a date this node can read. Write it as YYYY-MM-DD/,
	},
	{
		name: 'additional info pair without a key',
		params: {
			geometrySource: 'latLon',
			plotFields: {
				additionalInfo: { pairs: [{ key: '={{ $json.infoKey ?? "supplier" }}', value: 'x' }] },
			},
		},
		json: { latitude: -15.793889, longitude: -47.882778, infoKey: '' },
		message: /^Item 0, field "Additional Info": pair 1 has no key/,
	},
];

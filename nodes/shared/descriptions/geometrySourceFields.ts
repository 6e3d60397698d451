/**
 * The "Geometry Source" fields shared by Plot → Register and Protected Area → Check,
 * and the glue that reads them for one item. The work itself (parse, validate, repair)
 * is pure and lives in `plots/geometrySource.ts` on top of the geometry layer.
 */
import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import type {
	CheckedGeometry,
	GeometrySource,
	GeometryValues,
	ItemGeometry,
	ItemGeometryOptions,
} from '../plots/geometrySource';
import {
	ITEM_GEOMETRY_LOOKED_FOR,
	checkItemGeometry,
	readItemGeometry,
} from '../plots/geometrySource';

/**
 * The Geometry Source of version 3 on (its default): the item's own geometry field, found by
 * name (`findItemGeometry`), so that Read File → Validate, Register, Export and Protected
 * Area → Check connect without a field edited, and so does a sheet of latitude/longitude rows.
 */
export const ITEM_GEOMETRY_SOURCE: INodePropertyOptions = {
	name: 'Found in the Item',
	value: 'item',
	description: `The first of these fields the item has: ${ITEM_GEOMETRY_LOOKED_FOR}. Choose another source to map a field of another name.`,
};

/** Version 3's Geometry Source: Found in the Item first, and the default. */
export function withItemGeometrySource(property: INodeProperties): INodeProperties {
	return {
		...property,
		options: [ITEM_GEOMETRY_SOURCE, ...((property.options ?? []) as INodePropertyOptions[])],
		default: ITEM_GEOMETRY_SOURCE.value,
	};
}

/** The fields (the operation file sets where they show, with `updateDisplayOptions`). */
export function geometrySourceFields(): INodeProperties[] {
	const when = (source: GeometrySource): IDisplayOptions => ({
		show: { geometrySource: [source] },
	});
	return [
		{
			displayName: 'Geometry Source',
			name: 'geometrySource',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'GeoJSON',
					value: 'geoJson',
					description:
						'A field holding a GeoJSON Feature, FeatureCollection, bare Point/Polygon/MultiPolygon geometry, or a JSON string of any of these',
				},
				{
					name: 'Latitude/Longitude',
					value: 'latLon',
					description:
						'Two fields with the plot center in decimal degrees (numbers or numeric text; a comma decimal separator is fine). The service turns the point into a circle of about 4 ha, or of Point Area (Hectares).',
				},
				{
					name: 'WKT',
					value: 'wkt',
					description:
						'A field holding POINT, POLYGON or MULTIPOLYGON Well-Known Text in longitude latitude order',
				},
			],
			default: 'latLon',
			description:
				"Where each input item's geometry comes from. Every item is checked before anything is sent.",
		},
		{
			displayName: 'GeoJSON',
			name: 'geoJson',
			type: 'json',
			displayOptions: when('geoJson'),
			default: '={{ $json.geojson }}',
			required: true,
			description:
				'The GeoJSON of the item: a Feature, a FeatureCollection (at most 20 features per item for registration), a Point/Polygon/MultiPolygon geometry, or a JSON string of one of these. Coordinates are WGS84 [longitude, latitude].',
		},
		{
			displayName: 'Latitude',
			name: 'latitude',
			type: 'string',
			displayOptions: when('latLon'),
			default: '={{ $json.latitude }}',
			required: true,
			placeholder: '-15.793889',
			description:
				'Latitude of the plot in WGS84 decimal degrees (-90 to 90); "-15,793889" is read as -15.793889',
		},
		{
			displayName: 'Longitude',
			name: 'longitude',
			type: 'string',
			displayOptions: when('latLon'),
			default: '={{ $json.longitude }}',
			required: true,
			placeholder: '-47.882778',
			description: 'Longitude of the plot in WGS84 decimal degrees (-180 to 180)',
		},
		{
			displayName: 'WKT',
			name: 'wkt',
			type: 'string',
			displayOptions: when('wkt'),
			default: '={{ $json.wkt }}',
			required: true,
			placeholder: 'POLYGON ((-47.1 -15.1, -47.0 -15.1, -47.0 -15.0, -47.1 -15.1))',
			description:
				'POINT, POLYGON or MULTIPOLYGON Well-Known Text with "longitude latitude" pairs (an SRID=4326; prefix is accepted)',
		},
	];
}

/** `={{ $json.field }}` or `={{ $json["field"] }}`: a plain reference to a field of the item. */
const FIELD_REFERENCE =
	/^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(['"])([^'"]+)\2\s*\])\s*\}\}$/;

/**
 * The value as the expression produced it (objects, numbers and strings alike). A plain
 * field reference, the default of these fields, is read straight from the item: it is the
 * value n8n's expression engine would return, without the engine's per-call set-up, which
 * dominates the pre-flight check of thousands of spreadsheet rows (see BENCHMARKS.md).
 */
function parameter(ctx: IExecuteFunctions, name: string, itemIndex: number): unknown {
	const raw = ctx.getNodeParameter(name, itemIndex, undefined, { rawExpressions: true });
	const reference = typeof raw === 'string' ? FIELD_REFERENCE.exec(raw) : null;
	const json = reference ? ctx.getInputData()[itemIndex]?.json : undefined;
	if (reference && json) return json[reference[1] ?? reference[3]];
	return ctx.getNodeParameter(name, itemIndex, undefined);
}

/** The Geometry Source fields of one item: the source chosen and the values mapped in. */
export function geometryValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
): { source: GeometrySource; values: GeometryValues } {
	// the default of the node's version (n8n fills it in; the fallback is for a bare call)
	const fallback = ctx.getNode().typeVersion >= 3 ? 'item' : 'latLon';
	const source = ctx.getNodeParameter('geometrySource', itemIndex, fallback) as GeometrySource;
	const values: GeometryValues = {};
	if (source === 'item') values.item = ctx.getInputData()[itemIndex]?.json;
	if (source === 'geoJson') values.geoJson = parameter(ctx, 'geoJson', itemIndex);
	if (source === 'wkt') values.wkt = parameter(ctx, 'wkt', itemIndex);
	if (source === 'latLon') {
		values.latitude = parameter(ctx, 'latitude', itemIndex);
		values.longitude = parameter(ctx, 'longitude', itemIndex);
	}
	return { source, values };
}

/** Reads the Geometry Source fields of one item and validates its geometry (no request is made). */
export function readGeometryOfItem(
	this: IExecuteFunctions,
	itemIndex: number,
	options: ItemGeometryOptions,
): ItemGeometry {
	const { source, values } = geometryValues(this, itemIndex);
	return readItemGeometry(itemIndex, source, values, options);
}

/** The same, structured (codes and locations rather than lines), for Plot → Validate and the EU export. */
export function checkGeometryOfItem(
	this: IExecuteFunctions,
	itemIndex: number,
	options: ItemGeometryOptions,
): CheckedGeometry {
	const { source, values } = geometryValues(this, itemIndex);
	return checkItemGeometry(source, values, options);
}

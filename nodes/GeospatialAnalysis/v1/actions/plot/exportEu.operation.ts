import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { PlotGeometry, Position } from '../../../../shared/geometry';
import { readPointArea, validateFeatures } from '../../../../shared/geometry';
import type { Reading } from '../../../../shared/input';
import { readCountry, readHectares, readNumber, readText } from '../../../../shared/input';
import type { EuFile, EuPlot, EuProperties } from '../../../../shared/plots/euExport';
import {
	EU_MAX_FILE_BYTES,
	EU_POINT_MAX_HA,
	emptyNotes,
	findSixDecimalMerges,
	holeCount,
	mergeAtSixDecimals,
	packEuFiles,
	plotFileBytes,
	writeEuFeature,
} from '../../../../shared/plots/euExport';
import type { CheckedGeometry } from '../../../../shared/plots/geometrySource';
import { checkItemGeometry, describeItemGeometry } from '../../../../shared/plots/geometrySource';
import type { BatchOutput, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import {
	checkGeometryOfItem,
	geometrySourceFields,
} from '../../../../shared/descriptions/geometrySourceFields';
import { repairGeometryOption } from './plotFields';

const displayOptions = { show: { resource: ['plot'], operation: ['exportEu'] } };

/**
 * The media type of the exported file: JSON, which n8n's binary viewer shows (not RFC 7946's
 * application/geo+json, which n8n only offers to download); the name keeps `.geojson`.
 */
export const VIEWABLE_MIME_TYPE = 'application/json';

/** Features one item may hold here (a plot from the service holds one; a file may hold many). */
const MAX_FEATURES_PER_ITEM = 100_000;

export const description = updateDisplayOptions(displayOptions, [
	noticeField(
		'exportNotice',
		'Writes GeoJSON files for the EU Information System without sending anything: no request, no credential, no tokens',
	),
	{
		displayName: 'Input',
		name: 'exportInput',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Plots (Output of Register, Get or Get Many)',
				value: 'plots',
				description:
					'Items holding a plot of the service, with its "geojson_features" (Simplify off)',
			},
			{
				name: 'Geometry Fields',
				value: 'geometry',
				description: 'GeoJSON, latitude/longitude or WKT mapped from the input, as in Register',
			},
		],
		default: 'plots',
	},
	...updateDisplayOptions({ show: { exportInput: ['geometry'] } }, geometrySourceFields()),
	{
		displayName: 'Producer Country',
		name: 'producerCountry',
		type: 'string',
		default: '={{ $json.country }}',
		required: true,
		description:
			'Country of production, written as ProducerCountry in ISO 3166-1 alpha-2 (CI, BR). Accepts alpha-2 and alpha-3 codes and country names ("Ivory Coast", "Brasil"); an item whose country cannot be mapped is refused.',
	},
	{
		displayName: 'Production Place',
		name: 'productionPlace',
		type: 'string',
		default: '={{ $json.plot_name }}',
		description:
			'Name of the place of production, written as ProductionPlace (by default the plot name). Left out when empty.',
	},
	{
		displayName: 'Producer Name',
		name: 'producerName',
		type: 'string',
		default: '',
		placeholder: 'Kouassi Yao',
		description: 'Name of the producer, written as ProducerName. Left out when empty.',
	},
	{
		displayName: 'Area of Points (Hectares)',
		name: 'pointArea',
		type: 'string',
		default: '',
		placeholder: '2.5',
		description: `For a plot given as a point: its area in hectares, written as Area (a point stands for a plot of up to ${EU_POINT_MAX_HA} ha). When empty, the point's own point_ha, Area, area_ha or AREA property is used (as in Validate); a point without an area is refused.`,
	},
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: 'eudr-geolocation',
			description:
				'Name of the file, without extension; several files are named "eudr-geolocation-1-of-3.geojson" and so on',
		},
		{
			displayName: 'Maximum File Size (MB)',
			name: 'maxFileMb',
			type: 'number',
			// EU_MAX_FILE_BYTES in MB (a literal, as n8n's lint wants; the export unit test keeps them equal).
			default: 25,
			typeOptions: { minValue: 0.001 },
			description:
				'Largest file, in megabytes of 1,000,000 bytes (25: the geolocation of one due-diligence statement). Larger sets are split across files; a plot is never split. Must be a positive number (at least 0.001); anything else refuses every item.',
		},
		{
			displayName: 'Polygons With Holes',
			name: 'holes',
			type: 'options',
			default: 'refuse',
			options: [
				{
					name: 'Refuse the Plot',
					value: 'refuse',
					description:
						'The Information System reads only the outer boundary, so a hole would count as part of the plot',
				},
				{
					name: 'Export the Outer Boundary Only',
					value: 'drop',
					description: 'Leave the holes out (counted on the summary item)',
				},
			],
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'The name of the output binary field to put the file in',
		},
		repairGeometryOption('before exporting'),
	]),
]);

interface ExportOptions {
	repair: boolean;
	holes: 'refuse' | 'drop';
	/** Maximum File Size in bytes, or why the field cannot be used (then every item is refused). */
	maxBytes: Reading<number>;
	/** File Name and Put Output File in Field, as read (empty: their defaults). */
	fileName: Reading<string>;
	binaryField: Reading<string>;
}

const AREA_FIELD = 'Area of Points (Hectares)';
const MAX_SIZE_FIELD = 'Maximum File Size (MB)';

/** Maximum File Size (MB): a positive number (text such as "1 MB" or NaN is refused, never "no limit"). */
function readMaxBytes(value: unknown): Reading<number> {
	const read = readNumber(value, { min: 0.001, label: 'the largest file in megabytes (e.g. 25)' });
	if (read.kind === 'missing') return { kind: 'value', value: EU_MAX_FILE_BYTES };
	if (read.kind === 'invalid') return read;
	return { kind: 'value', value: Math.floor(read.value * 1e6) };
}

const showPosition = (p: Position) => `[${p[0]}, ${p[1]}]`;

interface Prepared extends EuPlot {
	warnings: string[];
}

/** The item's geometry: the plot's `geojson_features`, or the Geometry Source fields. */
function geometryOf(
	ctx: IExecuteFunctions,
	json: IDataObject,
	itemIndex: number,
	country: string | undefined,
	repair: boolean,
	pointHa: Reading<number>,
): CheckedGeometry {
	// EUDR's rules only: nothing is registered here, so the service's own limits do not apply
	const options = {
		repair,
		country,
		pointHa,
		pointHaField: AREA_FIELD,
		serviceLimits: false,
		maxFeatures: MAX_FEATURES_PER_ITEM,
	};
	if (ctx.getNodeParameter('exportInput', itemIndex, 'plots') === 'geometry')
		return checkGeometryOfItem.call(ctx, itemIndex, options);
	if (!Array.isArray(json.geojson_features)) {
		return {
			kind: 'unreadable',
			failure: {
				code: 'not_a_plot',
				message:
					'the item holds no plot (no "geojson_features" list). Connect the output of Plot → Register, Get or Get Many (with Simplify off), or set Input to "Geometry Fields".',
			},
		};
	}
	const geoJson = { type: 'FeatureCollection', features: json.geojson_features };
	return checkItemGeometry('geoJson', { geoJson }, options);
}

function prepareItem(
	ctx: IExecuteFunctions,
	json: IDataObject,
	itemIndex: number,
	opts: ExportOptions,
	problems: Problems,
): Prepared {
	const param = (name: string) => ctx.getNodeParameter(name, itemIndex, '');
	const country = problems.take(
		'Producer Country',
		readCountry(param('producerCountry')),
		'the plot has no country. Map the field holding the country of production (a name or an ISO code).',
	);
	const place = problems.take('Production Place', readText(param('productionPlace')));
	const producer = problems.take('Producer Name', readText(param('producerName')));
	const areaRead = readHectares(param('pointArea'), { min: 0, max: EU_POINT_MAX_HA });
	problems.take(AREA_FIELD, areaRead);
	// refused above when it cannot be used; the points then fall back to their own properties
	const area: Reading<number> = areaRead.kind === 'invalid' ? { kind: 'missing' } : areaRead;
	const maxBytes = problems.take(MAX_SIZE_FIELD, opts.maxBytes) ?? EU_MAX_FILE_BYTES;
	problems.take('File Name', opts.fileName);
	problems.take('Put Output File in Field', opts.binaryField);
	const geometry = describeItemGeometry(
		itemIndex,
		geometryOf(ctx, json, itemIndex, country, opts.repair, area),
	);
	problems.add(...geometry.errors);
	const plot: Prepared = { item: itemIndex, features: [], notes: emptyNotes(), warnings: [] };
	plot.warnings.push(...geometry.warnings, ...geometry.repairs);
	if (problems.lines.length > 0 || country === undefined) return plot;
	geometry.features.forEach((feature, f) => {
		let shape = feature.geometry as PlotGeometry;
		const holes = holeCount(shape);
		if (holes > 0 && opts.holes === 'refuse') {
			problems.add(
				`Item ${itemIndex}, feature ${f}: the polygon has ${holes} hole${holes === 1 ? '' : 's'}; the EU Information System reads only the outer boundary, so the hole would count as part of the plot. Describe the plot as separate polygons without holes, or set the option "Polygons With Holes" to "Export the Outer Boundary Only".`,
			);
			return;
		}
		const merges = findSixDecimalMerges(shape);
		if (merges.first && !opts.repair) {
			const { where, position, previous } = merges.first;
			const at = `${where.polygon === undefined ? '' : `polygon ${where.polygon}, `}ring ${where.ring}, position ${where.position}`;
			plot.warnings.push(
				`Item ${itemIndex}, feature ${f} (warning): ${merges.count} vert${merges.count === 1 ? 'ex becomes' : 'ices become'} one position with the vertex before at six decimals (first at ${at}: ${showPosition(previous)} and ${showPosition(position)}); the EU Information System rounds to six decimals and flags such duplicates. Remove the extra vertices, or turn on "Repair Geometry" to leave them out.`,
			);
		} else if (merges.first) {
			const merged = mergeAtSixDecimals(shape);
			// what is left must still be a valid plot (four positions, no crossing)
			const recheck = validateFeatures(
				[{ type: 'Feature', properties: {}, geometry: merged.geometry }],
				{ serviceLimits: false },
			).problems.filter((p) => p.severity === 'error');
			if (recheck.length > 0) {
				problems.add(
					`Item ${itemIndex}, feature ${f}: leaving out the ${merged.removed} vertices that become one position with their neighbour at six decimals leaves an invalid polygon (${recheck[0].message}) Correct the boundary by hand.`,
				);
				return;
			}
			shape = merged.geometry;
			plot.notes.mergedVertices += merged.removed;
			plot.warnings.push(
				`Item ${itemIndex}, feature ${f}: left out ${merged.removed} vert${merged.removed === 1 ? 'ex' : 'ices'} that became one position with the vertex before at six decimals`,
			);
		}
		const properties: EuProperties = { ProducerCountry: country };
		if (producer !== undefined) properties.ProducerName = producer;
		if (place !== undefined) properties.ProductionPlace = place;
		if (shape.type === 'Point') {
			// the same reading as Validate's (pointArea.ts); above 4 ha is refused by the geometry check
			const read = readPointArea(feature.properties, area, AREA_FIELD);
			const pointHa = read.kind === 'value' ? read.value : undefined;
			if (pointHa === undefined || pointHa <= 0 || pointHa > EU_POINT_MAX_HA) {
				problems.field(
					AREA_FIELD,
					`feature ${f} is a point ${pointHa === undefined ? 'without an area' : `of ${pointHa} ha`}: the EU Information System takes a point only with its Area, for a plot of up to ${EU_POINT_MAX_HA} ha. Map the plot area in hectares (or give the point a point_ha, Area or area_ha property), or give a larger plot as a polygon.`,
				);
				return;
			}
			properties.Area = pointHa;
		}
		plot.features.push(writeEuFeature(shape, properties, opts.holes, plot.notes));
	});
	const bytes = plotFileBytes(plot);
	if (plot.features.length > 0 && bytes > maxBytes)
		problems.add(
			`Item ${itemIndex}: its GeoJSON takes ${bytes.toLocaleString('en-US')} bytes, more than the Maximum File Size (${maxBytes.toLocaleString('en-US')} bytes). Simplify the boundary (fewer vertices), or raise the limit if the Information System takes it.`,
		);
	return plot;
}

function fileNameOf(base: Reading<string>, number: number, count: number): string {
	const name =
		(base.kind === 'value' ? base.value : '').replace(/\.geojson$/i, '') || 'eudr-geolocation';
	return count === 1 ? `${name}.geojson` : `${name}-${number}-of-${count}.geojson`;
}

const MAX_WARNINGS_LISTED = 50;

/** The summary item of one file, with the file as binary data. */
async function fileOutput(
	ctx: IExecuteFunctions,
	file: EuFile,
	count: number,
	opts: ExportOptions,
	maxBytes: number,
	warnings: string[],
): Promise<BatchOutput> {
	const fileName = fileNameOf(opts.fileName, file.number, count);
	const binaryField = opts.binaryField.kind === 'value' ? opts.binaryField.value : 'data';
	// Viewable in n8n (1.x and 2.x): the editor offers View only for a media type on its list
	// (ViewableMimeTypes of @n8n/api-types: application/json is, application/geo+json is not),
	// read from the item, and n8n's server serves a stored file for viewing only for such a type,
	// read from what was stored; the viewer shows fileType "json" as JSON. So the file is
	// application/json on the item and in the store (a GeoJSON text is a JSON text), and
	// its name says what it is: `.geojson`, the extension the EU Information System asks for.
	const binary = await ctx.helpers.prepareBinaryData(
		Buffer.from(file.text, 'utf8'),
		fileName,
		VIEWABLE_MIME_TYPE,
	);
	binary.fileType = 'json';
	binary.fileExtension = 'geojson';
	const more = warnings.length - MAX_WARNINGS_LISTED;
	const json: IDataObject = {
		file_name: fileName,
		file_number: file.number,
		file_count: count,
		features: file.features,
		bytes: file.bytes,
		max_bytes: maxBytes,
		plots_per_country: file.perCountry,
		items: file.items,
		coordinates_padded_to_6_decimals: file.notes.paddedCoordinates,
		z_values_left_out: file.notes.droppedZ,
		holes_left_out: file.notes.droppedHoles,
		rings_rewound: file.notes.rewoundRings,
		vertices_merged_at_6_decimals: file.notes.mergedVertices,
		warnings: [
			...warnings.slice(0, MAX_WARNINGS_LISTED),
			...(more > 0 ? [`… and ${more} more`] : []),
		],
	};
	return { item: file.items, json, binary: { [binaryField]: binary } };
}

export const execute: OperationModule['execute'] = async function (items) {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const opts: ExportOptions = {
		repair: options.repairGeometry === true,
		holes: options.holes === 'drop' ? 'drop' : 'refuse',
		maxBytes: readMaxBytes(options.maxFileMb),
		fileName: readText(options.fileName),
		binaryField: readText(options.binaryPropertyName),
	};
	const maxBytes = opts.maxBytes.kind === 'value' ? opts.maxBytes.value : EU_MAX_FILE_BYTES;
	return await runItems<Prepared>(this, items, {
		prepare: (i, problems) => prepareItem(this, items[i].json, i, opts, problems),
		// One batch per file: files of at most Maximum File Size, a plot never split (euExport.ts).
		plan: (ready) => {
			const warnings = new Map(ready.map((r) => [r.itemIndex, r.value.warnings]));
			const files = packEuFiles(
				ready.map((r) => r.value),
				maxBytes,
			);
			return files.map((file) => ({
				items: file.items,
				send: async () => [
					await fileOutput(this, file, files.length, opts, maxBytes, [
						...file.items.flatMap((i) => warnings.get(i) ?? []),
					]),
				],
			}));
		},
	});
};

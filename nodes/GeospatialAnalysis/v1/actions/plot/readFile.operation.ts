import type { IBinaryData, IDataObject } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { GeoFileOptions } from '../../../../shared/geoFiles';
import {
	DEFAULT_OPTIONS,
	GeoFileError,
	MB,
	declaredBytes,
	readGeoFile,
	showMb,
} from '../../../../shared/geoFiles';
import { readNumber, readText } from '../../../../shared/input';
import { runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['plot'], operation: ['readFile'] } };

export const description = updateDisplayOptions(displayOptions, [
	noticeField(
		'readFileNotice',
		'Reads a geo file (GeoJSON, KML, KMZ, GPX, zipped Shapefile) into one item per feature, in WGS84 longitude/latitude, ready for Validate and Register. Sends nothing: no request, no credential, no tokens.',
	),
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data',
		hint: 'The name of the input binary field holding the file (Read/Write Files, Gmail, Google Drive and HTTP Request put it in "data", Gmail attachments in "attachment_0")',
		description:
			'The format is detected from the content: GeoJSON (also newline-delimited), KML, KMZ, GPX, or a zip with one or more Shapefile layers (.shp, .dbf, .prj, .cpg)',
	},
	optionsCollection([
		{
			displayName: 'Attribute Encoding (Shapefiles)',
			name: 'attributeEncoding',
			type: 'options',
			default: 'ISO-8859-1',
			description:
				'How to read the text of a Shapefile\'s .dbf when the layer has no .cpg file and its .dbf names no code page. Latin-1 is what GDAL and QGIS assume then; QGIS writes a .cpg saying "UTF-8" on export.',
			options: [
				{ name: 'Latin-1 (ISO-8859-1)', value: 'ISO-8859-1' },
				{ name: 'UTF-8', value: 'utf-8' },
				{ name: 'Windows-1250 (Central European)', value: 'windows-1250' },
				{ name: 'Windows-1251 (Cyrillic)', value: 'windows-1251' },
				{ name: 'Windows-1252', value: 'windows-1252' },
			],
		},
		{
			displayName: 'Closed Tracks as Polygons (GPX)',
			name: 'closedLinesAsPolygons',
			type: 'boolean',
			default: false,
			description:
				'Whether a GPX track or route that ends where it started (within Closing Distance) becomes a polygon: a boundary walked with a GPS app. Off: tracks stay lines, which Validate reports as not a plot.',
		},
		{
			displayName: 'Closing Distance (Meters)',
			name: 'closingDistanceM',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 0 },
			description:
				'With Closed Tracks as Polygons: how close, in meters, the end of a track must be to its start for it to count as closed',
		},
		{
			displayName: 'Maximum Features',
			name: 'maxFeatures',
			type: 'number',
			default: 100000,
			typeOptions: { minValue: 1 },
			description: 'A file with more features than this is refused (one output item per feature)',
		},
		{
			displayName: 'Maximum File Size (MB)',
			name: 'maxFileMb',
			type: 'number',
			default: 50,
			typeOptions: { minValue: 0.001, numberPrecision: 3 },
			description: 'A larger file is refused before it is read (megabytes of 1,000,000 bytes)',
		},
		{
			displayName: 'Maximum Uncompressed Size (MB)',
			name: 'maxUncompressedMb',
			type: 'number',
			default: 250,
			typeOptions: { minValue: 0.001, numberPrecision: 3 },
			description:
				'Most a KMZ or zipped Shapefile may unpack to, checked before unpacking (guards against zip bombs)',
		},
	]),
]);

interface Prepared {
	binary: IBinaryData;
	field: string;
	options: GeoFileOptions;
}

export const execute: OperationModule['execute'] = async function (items) {
	return await runItems<Prepared>(this, items, {
		prepare: (i, problems) => {
			const field = problems.take(
				'Input Binary Field',
				readText(this.getNodeParameter('binaryPropertyName', i, 'data')),
				'it is empty. Give the name of the binary field holding the file, e.g. "data".',
			);
			const raw = this.getNodeParameter('options', i, {}) as IDataObject;
			// Each numeric option through the input layer: a value below its minimum (or not a
			// number) refuses the item naming the option, as the editor's own minimum would.
			const number = (
				label: string,
				value: unknown,
				fallback: number,
				rule: { min: number; integer?: boolean; label: string },
			) => problems.take(label, readNumber(value, rule)) ?? fallback;
			const options: GeoFileOptions = {
				...DEFAULT_OPTIONS,
				defaultEncoding:
					problems.take('Attribute Encoding (Shapefiles)', readText(raw.attributeEncoding)) ??
					DEFAULT_OPTIONS.defaultEncoding,
				closedLinesAsPolygons: raw.closedLinesAsPolygons === true,
				closingDistanceM: number('Closing Distance (Meters)', raw.closingDistanceM, 10, {
					min: 0,
					label: 'the distance in meters (e.g. 10)',
				}),
				maxFeatures: number('Maximum Features', raw.maxFeatures, DEFAULT_OPTIONS.maxFeatures, {
					min: 1,
					integer: true,
					label: 'the most features one file may give (e.g. 100000)',
				}),
				maxFileBytes: Math.floor(
					number('Maximum File Size (MB)', raw.maxFileMb, 50, {
						min: 0.001,
						label: 'the largest file in megabytes (e.g. 50)',
					}) * MB,
				),
				maxUncompressedBytes: Math.floor(
					number('Maximum Uncompressed Size (MB)', raw.maxUncompressedMb, 250, {
						min: 0.001,
						label: 'the most a zip may unpack to in megabytes (e.g. 250)',
					}) * MB,
				),
			};
			if (field === undefined) return undefined as unknown as Prepared;
			const binary = items[i].binary?.[field];
			if (!binary) {
				const present = Object.keys(items[i].binary ?? {});
				problems.field(
					'Input Binary Field',
					`the item has no binary field "${field}"${present.length ? ` (it has ${present.map((k) => `"${k}"`).join(', ')})` : ' (it has no file at all)'}. Put the name of the field holding the file.`,
				);
			} else {
				// Maximum File Size from the size the binary data states, before it is loaded;
				// when it states none (or is within rounding of the limit) the loaded bytes are checked.
				const declared = declaredBytes(binary);
				if (declared !== undefined && declared > options.maxFileBytes)
					problems.field(
						'Input Binary Field',
						`the file "${binary.fileName ?? field}" in binary field "${field}" is declared as ${showMb(declared)} MB, over the ${showMb(options.maxFileBytes)} MB this node reads (Maximum File Size): refused without reading it. Split the file or raise Maximum File Size (MB) in the options.`,
					);
			}
			return { binary: binary as IBinaryData, field, options };
		},
		run: async (i, { binary, field, options }) => {
			const bytes = await this.helpers.getBinaryDataBuffer(i, field);
			const fileName =
				binary.fileName ?? `${field}${binary.fileExtension ? `.${binary.fileExtension}` : ''}`;
			let failure: GeoFileError | undefined;
			try {
				const file = readGeoFile(
					new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
					fileName,
					options,
				);
				return file.features as unknown as IDataObject[];
			} catch (error) {
				if (!(error instanceof GeoFileError))
					failure = new GeoFileError(
						`"${fileName}" could not be read: ${(error as Error)?.message ?? String(error)}`,
						'',
					);
				else failure = error;
			}
			throw new NodeOperationError(this.getNode(), `Item ${i}: ${failure.message}`, {
				itemIndex: i,
				description: failure.description || undefined,
			});
		},
	});
};

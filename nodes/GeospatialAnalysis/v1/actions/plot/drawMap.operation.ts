import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	checkGeometryOfItem,
	geometrySourceFields,
} from '../../../../shared/descriptions/geometrySourceFields';
import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { Reading } from '../../../../shared/input';
import { readNumber, readText } from '../../../../shared/input';
import { drawPlotMap, drawPlotMapPng } from '../../../../shared/map';
import type { ColorBy, MapItem } from '../../../../shared/plots/plotMap';
import { mapSummary, planMap, withCentreFallback } from '../../../../shared/plots/plotMap';
import { validateRows } from '../../../../shared/plots/plotValidation';
import type { BatchOutput } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['plot'], operation: ['drawMap'] } };

/** Features one item may hold for the map (a FeatureCollection of a whole farm's plots). */
const MAX_FEATURES_PER_ITEM = 10_000;

export const description = updateDisplayOptions(displayOptions, [
	noticeField(
		'drawMapNotice',
		'Draws the plots of all input items as one picture, outlines colored by validity or by risk, with coordinates, a scale bar and a legend. Sends nothing: no request, no credential, no tokens.',
	),
	...geometrySourceFields(),
	{
		displayName: 'Color By',
		name: 'colorBy',
		type: 'options',
		noDataExpression: true,
		default: 'validity',
		options: [
			{
				name: 'Validity',
				value: 'validity',
				description:
					'Green valid, amber valid with warnings, red invalid: Validate\'s "valid" when the item has it, else the checks Validate runs (duplicates and overlaps across the items too)',
			},
			{
				name: 'Risk',
				value: 'risk',
				description:
					'Green negligible (risk level Low, deforestation-free, no protected-area or Indigenous-land overlap), red not negligible, grey not known: the per-plot results of Wait for Completion or Get Results, or a plot from Get',
			},
			{
				name: 'None',
				value: 'none',
				description: 'All plots grey: only where they are',
			},
		],
	},
	optionsCollection([
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'plots-map.png',
			description: 'The name of the picture file (default plots-map.png, or .svg)',
		},
		{
			displayName: 'Format',
			name: 'format',
			type: 'options',
			default: 'png',
			options: [
				{
					name: 'PNG',
					value: 'png',
					description: "A picture n8n's binary viewer shows",
				},
				{
					name: 'SVG',
					value: 'svg',
					description:
						'A drawing for web pages and print (with plot names as tooltips); n8n offers it as a download, not in its viewer',
				},
			],
		},
		{
			displayName: 'Height (Pixels)',
			name: 'height',
			type: 'number',
			default: 720,
			typeOptions: { minValue: 300, maxValue: 4000 },
			description: 'The height of the picture',
		},
		{
			displayName: 'Label Field',
			name: 'labelField',
			type: 'string',
			default: '',
			placeholder: 'plot_name',
			description:
				'The field of each item (or of its "properties") holding the name to write on its plot. Empty: plot_name, name, properties.name or plot_ID, else "Item N". Names are written when there are at most 40 plots.',
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			description: 'The name of the output binary field to put the picture in',
		},
		{
			displayName: 'Title',
			name: 'title',
			type: 'string',
			default: '',
			placeholder: 'Shipment 2026-014',
			description: 'A title above the map',
		},
		{
			displayName: 'Width (Pixels)',
			name: 'width',
			type: 'number',
			default: 960,
			typeOptions: { minValue: 300, maxValue: 4000 },
			description: 'The width of the picture',
		},
	]),
]);

interface MapOptionsRead {
	colorBy: ColorBy;
	format: 'png' | 'svg';
	width: Reading<number>;
	height: Reading<number>;
	title: Reading<string>;
	labelField: Reading<string>;
	fileName: Reading<string>;
	binaryField: Reading<string>;
}

const valueOr = <T>(r: Reading<T>, fallback: T): T => (r.kind === 'value' ? r.value : fallback);

/** The picture of the items (one output item paired with all of them). */
async function drawItems(
	ctx: IExecuteFunctions,
	ready: Array<{ itemIndex: number; value: MapItem }>,
	opts: MapOptionsRead,
	itemCount: number,
): Promise<BatchOutput> {
	const mapItems = ready.map((r) => r.value);
	// Validate's checks across the items (overlaps unless the colors say nothing)
	const { reports } = validateRows(
		mapItems.map((m) => m.row),
		{ repair: false, overlaps: opts.colorBy !== 'none', crossPlotSeverity: 'warning' },
	);
	const plan = planMap(mapItems, reports, opts.colorBy, valueOr(opts.labelField, ''));
	const mapOptions = {
		width: valueOr(opts.width, 960),
		height: valueOr(opts.height, 720),
		title: valueOr(opts.title, ''),
	};
	const fileName = valueOr(opts.fileName, '') || `plots-map.${opts.format}`;
	const drawn =
		opts.format === 'svg'
			? (({ svg, ...rest }) => ({ rest, bytes: Buffer.from(svg, 'utf8'), mime: 'image/svg+xml' }))(
					drawPlotMap(plan.plots, mapOptions),
				)
			: (({ png, ...rest }) => ({ rest, bytes: Buffer.from(png), mime: 'image/png' }))(
					drawPlotMapPng(plan.plots, mapOptions),
				);
	const binary = await ctx.helpers.prepareBinaryData(drawn.bytes, fileName, drawn.mime);
	const json = mapSummary(drawn.rest, plan, {
		fileName,
		colorBy: opts.colorBy,
		format: opts.format,
		items: itemCount,
	});
	return {
		item: ready.map((r) => r.itemIndex),
		json: json as IDataObject,
		binary: { [valueOr(opts.binaryField, 'data')]: binary },
	};
}

export const execute: OperationModule['execute'] = async function (items) {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const colorBy = this.getNodeParameter('colorBy', 0, 'validity') as string;
	const size = (label: string) => ({ min: 300, max: 4000, integer: true, label });
	const opts: MapOptionsRead = {
		colorBy: colorBy === 'risk' || colorBy === 'none' ? colorBy : 'validity',
		format: options.format === 'svg' ? 'svg' : 'png',
		width: readNumber(options.width, size('the width in pixels')),
		height: readNumber(options.height, size('the height in pixels')),
		title: readText(options.title),
		labelField: readText(options.labelField),
		fileName: readText(options.fileName),
		binaryField: readText(options.binaryPropertyName),
	};
	return await runItems<MapItem>(this, items, {
		prepare: (i, problems) => {
			problems.take('Width (Pixels)', opts.width);
			problems.take('Height (Pixels)', opts.height);
			problems.take('Title', opts.title);
			problems.take('Label Field', opts.labelField);
			problems.take('File Name', opts.fileName);
			problems.take('Put Output File in Field', opts.binaryField);
			const geometryOptions = { maxFeatures: MAX_FEATURES_PER_ITEM, serviceLimits: false };
			const json = items[i].json;
			const { checked, centreOnly } = withCentreFallback(
				json,
				checkGeometryOfItem.call(this, i, geometryOptions),
				geometryOptions,
			);
			return {
				itemIndex: i,
				json,
				row: { row: i, geometry: checked, fieldProblems: [] },
				centreOnly,
			};
		},
		// One picture of all items: nothing is sent.
		plan: (ready) =>
			ready.length === 0
				? []
				: [
						{
							items: ready.map((r) => r.itemIndex),
							send: async () => [await drawItems(this, ready, opts, items.length)],
						},
					],
	});
};

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { MAX_FEATURES_PER_REQUEST } from '../../../../shared/plots/batching';
import type { DateOrder } from '../../../../shared/input';
import { readDateOrder } from '../../../../shared/input';
import { DEFAULT_MIN_OVERLAP_M2 } from '../../../../shared/plots/overlaps';
import type { FieldProblem, RowInput } from '../../../../shared/plots/validation';
import { validateRows } from '../../../../shared/plots/validation';
import type { BatchOutput } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import { checkGeometryOfItem, geometrySourceFields } from '../shared/geometryInput';
import {
	dateOrderOption,
	plotFieldsProperty,
	readPlotFields,
	repairGeometryOption,
} from './plotFields';

const show = { resource: ['plot'], operation: ['validate'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Checks each row as Register would, without sending anything: no request, no credential, no tokens',
		name: 'validateNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	...geometrySourceFields(show),
	plotFieldsProperty(show),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'One Item per Row',
				value: 'allRows',
				description:
					'Each input item with a "validation" object added: valid, problems, warnings, area, vertices, duplicates, overlaps',
			},
			{
				name: 'Only Invalid Rows',
				value: 'invalidRows',
				description: 'Only the items with at least one problem (for a fix list)',
			},
			{
				name: 'One Summary Item',
				value: 'summary',
				description:
					'One item for the whole input: counts, problems by code, invalid rows, duplicates and overlaps',
			},
		],
		default: 'allRows',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Check Overlaps',
				name: 'checkOverlaps',
				type: 'boolean',
				default: true,
				description:
					'Whether to look for plots that overlap each other across all rows (polygons only; exact duplicate geometries are always reported)',
			},
			dateOrderOption,
			{
				displayName: 'Duplicates and Overlaps Are',
				name: 'crossPlotSeverity',
				type: 'options',
				default: 'warning',
				options: [
					{
						name: 'Warnings',
						value: 'warning',
						description: 'Listed under warnings; the rows stay valid (the service accepts them)',
					},
					{
						name: 'Problems',
						value: 'error',
						description:
							'Listed under problems: the later duplicate and both overlapping rows become invalid',
					},
				],
			},
			{
				displayName: 'Minimum Overlap (M²)',
				name: 'minOverlapM2',
				type: 'number',
				default: DEFAULT_MIN_OVERLAP_M2,
				typeOptions: { minValue: 0 },
				description:
					'Overlaps smaller than this many square meters are not reported (plots that only touch never are)',
			},
			repairGeometryOption('in the output (the input is never changed)'),
		],
	},
];

/** Reads one row's fields and geometry; problems go on the row's output, never stop the run. */
function readRow(
	ctx: IExecuteFunctions,
	itemIndex: number,
	repair: boolean,
	dateOrder: DateOrder,
): RowInput {
	const fieldProblems: FieldProblem[] = [];
	const fields = readPlotFields(ctx, itemIndex, dateOrder, {
		field: (field, reason) => fieldProblems.push({ field, reason }),
	});
	const geometry = checkGeometryOfItem.call(ctx, itemIndex, {
		repair,
		country: fields.country,
		pointHa: fields.pointHa,
		maxFeatures: MAX_FEATURES_PER_REQUEST,
	});
	return { row: itemIndex, geometry, fieldProblems, pointHa: fields.pointHa };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const output = this.getNodeParameter('output', 0, 'allRows') as string;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true;
	const dateOrder = readDateOrder(options.dateOrder);
	return await runItems<RowInput>(this, items, {
		prepare: (i) => readRow(this, i, repair, dateOrder),
		// One batch for all rows: duplicates and overlaps are found across them. Nothing is sent.
		plan: (ready) => {
			if (ready.length === 0) return [];
			const itemIndexes = ready.map((r) => r.itemIndex);
			const send = async (): Promise<BatchOutput[]> => {
				const { reports, summary } = validateRows(
					ready.map((r) => r.value),
					{
						repair,
						overlaps: options.checkOverlaps !== false,
						minOverlapM2: Number(options.minOverlapM2 ?? DEFAULT_MIN_OVERLAP_M2),
						crossPlotSeverity: options.crossPlotSeverity === 'error' ? 'error' : 'warning',
					},
				);
				if (output === 'summary') return [{ item: itemIndexes, json: { ...summary } }];
				return reports.flatMap((validation, k) =>
					output === 'invalidRows' && validation.valid
						? []
						: [{ item: itemIndexes[k], json: { ...items[itemIndexes[k]].json, validation } }],
				);
			};
			return [{ items: itemIndexes, send }];
		},
	});
}

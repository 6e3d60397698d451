import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { noticeField } from '../../../../shared/descriptions/noticeField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { MAX_FEATURES_PER_REQUEST } from '../../../../shared/plots/batching';
import type { DateOrder, Reading } from '../../../../shared/input';
import { readDateOrder, readNumber } from '../../../../shared/input';
import { DEFAULT_MIN_OVERLAP_M2 } from '../../../../shared/plots/plotOverlaps';
import type { UserTerms } from '../../../../shared/plots/userTerms';
import { columnOfExpression } from '../../../../shared/plots/userTerms';
import type { FieldProblem, RowInput } from '../../../../shared/plots/plotReports';
import { validateRows } from '../../../../shared/plots/plotValidation';
import { validationItem } from '../../../../shared/plots/validationOutput';
import type { BatchOutput, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';
import {
	checkGeometryOfItem,
	geometrySourceFields,
} from '../../../../shared/descriptions/geometrySourceFields';
import {
	dateOrderOption,
	plotFieldsProperty,
	readPlotFields,
	repairGeometryOption,
} from './plotFields';

const displayOptions = { show: { resource: ['plot'], operation: ['validate'] } };

const MIN_OVERLAP_FIELD = 'Minimum Overlap (Square Meters)';

export const description = updateDisplayOptions(displayOptions, [
	noticeField(
		'validateNotice',
		'Checks each row as Register would, without sending anything: no request, no credential, no tokens',
	),
	...geometrySourceFields(),
	plotFieldsProperty,
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'One Item per Row',
				value: 'allRows',
				description:
					'Each input item with valid, problem_count and problem_summary first, and a "validation" object: problems, warnings, area, vertices, duplicates, overlaps',
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
	optionsCollection([
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
			displayName: 'Minimum Overlap (Square Meters)',
			name: 'minOverlapM2',
			type: 'number',
			default: DEFAULT_MIN_OVERLAP_M2,
			typeOptions: { minValue: 0 },
			description:
				'Overlaps smaller than this many square meters are not reported (plots that only touch never are)',
		},
		repairGeometryOption('in the output (the input is never changed)'),
	]),
]);

/**
 * The fields the user mapped, for messages in the user's terms: each field's label as the panel
 * shows it, and the input column it is mapped from (a plain `{{ $json.column }}` expression).
 */
function userTerms(ctx: IExecuteFunctions): UserTerms {
	const parameters = ctx.getNode().parameters;
	const source = String(parameters.geometrySource ?? '');
	const plotFields = (parameters.plotFields ?? {}) as IDataObject;
	const columns: Record<string, string> = {};
	const labels: Record<string, string> = {};
	for (const property of description) {
		const fields =
			property.name === 'plotFields'
				? ((property.options ?? []) as INodeProperties[]).map((o) => ({
						name: o.name,
						label: o.displayName,
						value: plotFields[o.name],
					}))
				: [{ name: property.name, label: property.displayName, value: parameters[property.name] }];
		for (const { name, label, value } of fields) {
			labels[name] = label;
			const column = columnOfExpression(value);
			if (column !== undefined) columns[label] = column;
		}
	}
	return {
		source,
		columns,
		labels: {
			latitude: labels.latitude,
			longitude: labels.longitude,
			pointHa: labels.pointHa,
			country: labels.country,
		},
	};
}

/**
 * Reads one row's fields and geometry; problems of the row go on its output, never stop the
 * run. Only a node option that cannot be used (Minimum Overlap) refuses the item.
 */
function readRow(
	ctx: IExecuteFunctions,
	itemIndex: number,
	repair: boolean,
	dateOrder: DateOrder,
	minOverlap: Reading<number>,
	problems: Problems,
): RowInput {
	problems.take(MIN_OVERLAP_FIELD, minOverlap);
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

export const execute: OperationModule['execute'] = async function (items) {
	const output = this.getNodeParameter('output', 0, 'allRows') as string;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true;
	const dateOrder = readDateOrder(options.dateOrder);
	const minOverlap = readNumber(options.minOverlapM2, {
		min: 0,
		label: 'the smallest overlap to report in square meters',
	});
	const minOverlapM2 = minOverlap.kind === 'value' ? minOverlap.value : DEFAULT_MIN_OVERLAP_M2;
	const terms = userTerms(this);
	// Version 3 changes the shape of `validation` (validationOutput.ts): saved workflows of
	// versions 1 and 2 read its fields where they were.
	const compact = this.getNode().typeVersion >= 3;
	return await runItems<RowInput>(this, items, {
		prepare: (i, problems) => readRow(this, i, repair, dateOrder, minOverlap, problems),
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
						minOverlapM2,
						crossPlotSeverity: options.crossPlotSeverity === 'error' ? 'error' : 'warning',
						terms,
					},
				);
				if (output === 'summary') return [{ item: itemIndexes, json: { ...summary } }];
				// the decision first, then the input's columns, then the detail (compact from version 3)
				return reports.flatMap((validation, k) =>
					output === 'invalidRows' && validation.valid
						? []
						: [
								{
									item: itemIndexes[k],
									json: validationItem(items[itemIndexes[k]].json, validation, {
										compact,
									}) as IDataObject,
								},
							],
				);
			};
			return [{ items: itemIndexes, send }];
		},
	});
};

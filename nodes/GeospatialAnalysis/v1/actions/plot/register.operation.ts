import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Feature } from '../../../../shared/geometry';
import { readLooseNumber } from '../../../../shared/geometry';
import type { RegistrationUnit, RequestFields } from '../../../../shared/plots/batching';
import {
	MAX_FEATURES_PER_REQUEST,
	planRegistrationRequests,
	plotsOfResponse,
} from '../../../../shared/plots/batching';
import type { DateOrder } from '../../../../shared/plots/dates';
import { apiRequest } from '../../../../shared/transport/request';
import { geometrySourceFields, readGeometryOfItem } from '../shared/geometryInput';
import {
	dateOrderOption,
	plotFieldsProperty,
	readPlotFields,
	repairGeometryOption,
} from './plotFields';
import type { Batch, BatchOutput, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';

const show = { resource: ['plot'], operation: ['register'] };

export const MAX_PARALLEL_REQUESTS = 10;

export const description: INodeProperties[] = [
	...geometrySourceFields(show),
	plotFieldsProperty(show),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			dateOrderOption,
			{
				displayName: 'Parallel Requests',
				name: 'parallelRequests',
				type: 'number',
				default: 2,
				typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
				description: `How many registration requests (of up to ${MAX_FEATURES_PER_REQUEST} plots each) to send at the same time, 1 to ${MAX_PARALLEL_REQUESTS}`,
			},
			repairGeometryOption('before sending'),
		],
	},
];

interface PreparedItem extends RegistrationUnit {
	features: Feature[];
	repairs: string[];
	warnings: string[];
}

/** Sets `properties.point_ha` on point features when a Point Area was mapped. */
function withPointHa(features: Feature[], pointHa: unknown): Feature[] {
	const read = readLooseNumber(pointHa);
	if (read.kind !== 'number') return features;
	return features.map((f) =>
		f.geometry?.type === 'Point'
			? { ...f, properties: { ...(f.properties ?? {}), point_ha: read.value } }
			: f,
	);
}

function prepareItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	repair: boolean,
	dateOrder: DateOrder,
	problems: Problems,
): PreparedItem {
	const { request, country, pointHa } = readPlotFields(ctx, itemIndex, dateOrder, problems);
	const geometry = readGeometryOfItem.call(ctx, itemIndex, {
		repair,
		country,
		pointHa,
		maxFeatures: MAX_FEATURES_PER_REQUEST,
	});
	problems.add(...geometry.errors);
	return {
		itemIndex,
		featureCount: geometry.features.length,
		features: withPointHa(geometry.features, pointHa),
		fields: request,
		repairs: geometry.repairs,
		warnings: geometry.warnings,
	};
}

/** What exists after a failure, so that nothing is registered twice. */
function registeredNote(succeeded: Batch[]): string {
	const items = succeeded.flatMap((b) => b.items).sort((a, b) => a - b);
	return items.length > 0
		? `Items ${items.join(', ')} were registered before the failure (their plots exist now); remove them from the input before running again, or they will be registered twice.`
		: 'No plot was registered.';
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true;
	const dateOrder = (options.dateOrder as DateOrder | undefined) ?? 'reject';
	const parallel = Math.min(
		MAX_PARALLEL_REQUESTS,
		Math.max(1, Math.floor(Number(options.parallelRequests ?? 2)) || 1),
	);
	return await runItems<PreparedItem>(this, items, {
		prepare: (i, problems) => prepareItem(this, i, repair, dateOrder, problems),
		// Batches of at most 20 features; see plots/batching.ts for the rule.
		plan: (ready) =>
			planRegistrationRequests(ready.map((r) => r.value)).map((request) => {
				const units = request.units.map((u) => ready[u].value);
				return {
					items: units.map((u) => u.itemIndex),
					send: async () => await sendRegistration(this, units, request.fields, repair),
				};
			}),
		concurrency: parallel,
		alreadyDone: registeredNote,
	});
}

/** One make_plot request; one output per plot, paired with its item, with its feature index. */
async function sendRegistration(
	ctx: IExecuteFunctions,
	units: PreparedItem[],
	fields: RequestFields,
	repair: boolean,
): Promise<BatchOutput[]> {
	const features = units.flatMap((u) => u.features);
	const body = { geojson: { type: 'FeatureCollection', features }, ...fields };
	const itemIndex = units[0].itemIndex;
	// POST /plots/make_plot creates plots: never retried (apiRequest does not retry non-idempotent calls).
	const plots = plotsOfResponse(
		await apiRequest.call(ctx, 'POST', '/plots/make_plot', { body, itemIndex }),
	);
	if (plots.length !== features.length) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The service returned ${plots.length} plots for ${features.length} features, so the plots cannot be matched to items ${units.map((u) => u.itemIndex).join(', ')}`,
			{
				itemIndex,
				description:
					'Check the registered plots with "Plot → Get Many" before running again, so that nothing is registered twice.',
			},
		);
	}
	let offset = 0;
	return units.flatMap((unit) => {
		const outputs = unit.features.map((_f, featureIndex): BatchOutput => {
			const json: IDataObject = {
				...(plots[offset + featureIndex] as IDataObject),
				input_feature_index: featureIndex,
			};
			if (repair) json.repairs = unit.repairs;
			if (unit.warnings.length > 0) json.warnings = unit.warnings;
			return { item: unit.itemIndex, json };
		});
		offset += unit.features.length;
		return outputs;
	});
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { Feature } from '../../../../shared/geometry';
import { readPointArea } from '../../../../shared/geometry';
import type { RegistrationUnit, RequestFields } from '../../../../shared/plots/batching';
import {
	MAX_FEATURES_PER_REQUEST,
	planRegistrationRequests,
} from '../../../../shared/plots/batching';
import { RegistrationLedger, registerExactlyOnce } from '../../../../shared/plots/registerOnce';
import type { DateOrder, Reading } from '../../../../shared/input';
import { readDateOrder, readNumber } from '../../../../shared/input';
import {
	geometrySourceFields,
	readGeometryOfItem,
} from '../../../../shared/descriptions/geometrySourceFields';
import {
	dateOrderOption,
	plotFieldsProperty,
	readPlotFields,
	repairGeometryOption,
} from './plotFields';
import type { BatchOutput, Problems } from '../../../../shared/runner';
import { runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['plot'], operation: ['register'] } };

export const MAX_PARALLEL_REQUESTS = 10;
const DEFAULT_PARALLEL_REQUESTS = 2;

export const description = updateDisplayOptions(displayOptions, [
	...geometrySourceFields(),
	plotFieldsProperty,
	optionsCollection([
		dateOrderOption,
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			// DEFAULT_PARALLEL_REQUESTS (a literal, as n8n's lint wants)
			default: 2,
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			description: `How many registration requests (of up to ${MAX_FEATURES_PER_REQUEST} plots each) to send at the same time, 1 to ${MAX_PARALLEL_REQUESTS}`,
		},
		repairGeometryOption('before sending'),
	]),
]);

interface PreparedItem extends RegistrationUnit {
	features: Feature[];
	repairs: string[];
	warnings: string[];
}

/**
 * Sets `properties.point_ha` on point features from the area validation read (Point Area (Hectares),
 * or the feature's own `Area`, `area_ha` or `AREA`): the service reads only `point_ha`.
 */
function withPointHa(features: Feature[], pointHa: Reading<number>): Feature[] {
	return features.map((f) => {
		if (f.geometry?.type !== 'Point') return f;
		const read = readPointArea(f.properties, pointHa);
		if (read.kind !== 'value' || (read.from.kind === 'property' && read.from.name === 'point_ha'))
			return f;
		return { ...f, properties: { ...(f.properties ?? {}), point_ha: read.value } };
	});
}

/** The options of the node (read once, from the first item), each field as read. */
interface RegisterOptions {
	repair: boolean;
	dateOrder: DateOrder;
	parallel: Reading<number>;
}

function readOptions(ctx: IExecuteFunctions): RegisterOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	return {
		repair: options.repairGeometry === true,
		dateOrder: readDateOrder(options.dateOrder),
		parallel: readNumber(options.parallelRequests, {
			min: 1,
			max: MAX_PARALLEL_REQUESTS,
			integer: true,
			label: 'how many requests to send at the same time',
		}),
	};
}

function prepareItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ repair, dateOrder, parallel }: RegisterOptions,
	problems: Problems,
): PreparedItem {
	problems.take('Parallel Requests', parallel);
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

export const execute: OperationModule['execute'] = async function (items) {
	const options = readOptions(this);
	const { repair, parallel } = options;
	// What this run has registered: no plot is registered twice or paired with two rows.
	const ledger = new RegistrationLedger();
	return await runItems<PreparedItem>(this, items, {
		// A bad option refuses every item (naming the option) before anything is sent.
		prepare: (i, problems) => prepareItem(this, i, options, problems),
		// Batches of at most 20 features; see plots/batching.ts for the rule.
		plan: (ready) =>
			planRegistrationRequests(ready.map((r) => r.value)).map((request) => {
				const units = request.units.map((u) => ready[u].value);
				return {
					items: units.map((u) => u.itemIndex),
					send: async () => await sendRegistration(this, units, request.fields, repair, ledger),
				};
			}),
		concurrency: parallel.kind === 'value' ? parallel.value : DEFAULT_PARALLEL_REQUESTS,
		// What exists when the run stops (registered, or may have been), so nothing is sent twice.
		alreadyDone: (_succeeded, error) => ledger.report(error),
	});
};

/**
 * One make_plot request, exactly once (plots/registerOnce.ts); one output per plot, paired with
 * its item, with its feature index (and `recovered_after_connection_error` when its answer
 * was lost and the plot was found afterwards).
 */
async function sendRegistration(
	ctx: IExecuteFunctions,
	units: PreparedItem[],
	fields: RequestFields,
	repair: boolean,
	ledger: RegistrationLedger,
): Promise<BatchOutput[]> {
	const rows = units.flatMap((unit) =>
		unit.features.map((feature, featureIndex) => ({
			itemIndex: unit.itemIndex,
			featureIndex,
			itemFeatureCount: unit.features.length,
			feature,
		})),
	);
	const outcomes = await registerExactlyOnce(ctx, { rows, fields }, ledger);
	const unitOf = new Map(units.map((u) => [u.itemIndex, u]));
	const failed = new Set<number>();
	return outcomes.flatMap((outcome): BatchOutput[] => {
		const item = outcome.row.itemIndex;
		if ('error' in outcome) {
			if (failed.has(item)) return [];
			failed.add(item);
			return [{ item, error: outcome.error }];
		}
		const unit = unitOf.get(item) as PreparedItem;
		const json: IDataObject = { ...outcome.plot, input_feature_index: outcome.row.featureIndex };
		if (repair) json.repairs = unit.repairs;
		if (unit.warnings.length > 0) json.warnings = unit.warnings;
		if (outcome.recovered) json.recovered_after_connection_error = true;
		return [{ item, json }];
	});
}

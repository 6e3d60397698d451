import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import type { CheckEntry, PaidChunk } from '../../../../shared/protectedAreas/areaChecks';
import {
	CHECK_BATCH_LIMIT,
	checkRequestBody,
	mergeCheckAnswers,
	missingCheckRow,
	packCheckEntries,
	pairCheckResults,
	paidBeforeFailure,
	summariseCheck,
	tokensOfCheckAnswer,
	unrequestedWarning,
} from '../../../../shared/protectedAreas/areaChecks';
import { lostAnswerReason } from '../../../../shared/transport/lostAnswer';
import { serviceErrorOf } from '../../../../shared/transport/serviceFailure';
import { apiRequest } from '../../../../shared/transport/request';
import {
	geometrySourceFields,
	readGeometryOfItem,
} from '../../../../shared/descriptions/geometrySourceFields';
import type { Reading } from '../../../../shared/input';
import { readNumber } from '../../../../shared/input';
import { takeIdList } from '../../../../shared/descriptions/takeId';
import type { AlreadyDone, BatchOutput, Problems } from '../../../../shared/runner';
import { asNodeError, runItems } from '../../../../shared/runner';

const displayOptions = { show: { resource: ['protectedArea'], operation: ['check'] } };

export const description = updateDisplayOptions(displayOptions, [
	{
		displayName: 'Check By',
		name: 'checkBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Plot IDs', value: 'plotIds', description: 'Check registered plots by their ID' },
			{
				name: 'Geometry',
				value: 'geometry',
				description: 'Check raw geometries from the input items without registering them',
			},
			{
				name: 'Plot IDs and Geometry',
				value: 'both',
				description: 'Check both the plot IDs and the geometry of each item',
			},
		],
		default: 'plotIds',
		description: 'What to check against protected-area boundaries',
	},
	{
		displayName: 'Plot IDs',
		name: 'plotIds',
		type: 'string',
		default: '={{ $json.plot_id }}',
		required: true,
		displayOptions: { show: { checkBy: ['plotIds', 'both'] } },
		placeholder: '100001, 100002',
		description:
			'Plot IDs to check, evaluated per input item: one ID (the default reads plot_id of each item: one plot per item), a comma-separated list, or an expression returning a list. Only plots of your own account can be checked.',
	},
	...updateDisplayOptions({ show: { checkBy: ['geometry', 'both'] } }, geometrySourceFields()),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'One Item per Checked Plot or Geometry',
				value: 'perCheck',
				description:
					'Each paired with its input item: overlap yes/no, total overlap percentage and hectares, the strictest extractive-activity legality, and the overlapping areas',
			},
			{
				name: 'Raw FeatureCollection',
				value: 'raw',
				description:
					"The service's answer as one item (merged when the check took several requests)",
			},
		],
		default: 'perCheck',
		description: 'How to return the results',
	},
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			default: CHECK_BATCH_LIMIT,
			typeOptions: { minValue: 1, maxValue: CHECK_BATCH_LIMIT },
			description: `Most plot IDs and geometries sent in one request (the service takes at most ${CHECK_BATCH_LIMIT})`,
		},
		{
			displayName: 'Repair Geometry',
			name: 'repairGeometry',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/checkBy': ['geometry', 'both'] } },
			description:
				'Whether to close unclosed rings, remove duplicate consecutive vertices, rewind rings and drop z values before sending; changes are listed under "repairs". When off, such defects fail validation.',
		},
	]),
]);

interface PreparedItem {
	entries: CheckEntry[];
	repairs: string[];
	warnings: string[];
}

function prepareItem(
	ctx: IExecuteFunctions,
	i: number,
	checkBy: string,
	repair: boolean,
	batchSize: Reading<number>,
	problems: Problems,
): PreparedItem {
	problems.take('Batch Size', batchSize);
	const entries: CheckEntry[] = [];
	let repairs: string[] = [];
	let warnings: string[] = [];
	if (checkBy === 'plotIds' || checkBy === 'both') {
		const ids = takeIdList(ctx, i, problems, {
			name: 'plotIds',
			label: 'Plot IDs',
			noun: 'plot',
			// with geometries as well, the item may have no plot ids
			required: checkBy === 'plotIds',
		});
		ids.forEach((plotId, k) =>
			entries.push({ itemIndex: i, kind: 'plot', plotId, indexInItem: k }),
		);
	}
	if (checkBy === 'geometry' || checkBy === 'both') {
		const geometry = readGeometryOfItem.call(ctx, i, { repair, maxFeatures: CHECK_BATCH_LIMIT });
		problems.add(...geometry.errors);
		repairs = geometry.repairs;
		warnings = geometry.warnings;
		geometry.features.forEach((feature, k) =>
			entries.push({
				itemIndex: i,
				kind: 'geojson',
				feature: feature as unknown as Record<string, unknown>,
				indexInItem: k,
			}),
		);
	}
	return { entries, repairs, warnings };
}

export const execute: OperationModule['execute'] = async function (items) {
	const checkBy = this.getNodeParameter('checkBy', 0, 'plotIds') as string;
	const raw = this.getNodeParameter('output', 0, 'perCheck') === 'raw';
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true && checkBy !== 'plotIds';
	const batchSize = readNumber(options.batchSize, {
		min: 1,
		max: CHECK_BATCH_LIMIT,
		integer: true,
		label: 'the most plot IDs and geometries in one request',
	});
	const run: CheckRun = { byItem: new Map(), all: [], paid: [], lost: [], raw, repair };
	return await runItems<PreparedItem>(this, items, {
		// A bad Batch Size refuses every item (naming the option) before anything is sent.
		prepare: (i, problems) => prepareItem(this, i, checkBy, repair, batchSize, problems),
		// One request at a time: each check costs tokens and is retried only on 429.
		plan: (ready) => {
			for (const r of ready) run.byItem.set(r.itemIndex, r.value);
			run.all.push(...ready.flatMap((r) => r.value.entries));
			const size = batchSize.kind === 'value' ? batchSize.value : CHECK_BATCH_LIMIT;
			return packCheckEntries(run.all, size).map((chunk) => ({
				items: [...new Set(chunk.map((e) => e.itemIndex))],
				send: async () => await checkChunk(this, chunk, run),
			}));
		},
		// Raw output: the answers of all requests merged into one FeatureCollection.
		combine: raw
			? (outputs) => [
					{
						item: [...new Set(outputs.flatMap((o) => o.item))].sort((a, b) => a - b),
						json: mergeCheckAnswers(outputs.map((o) => o.json)) as IDataObject,
					},
				]
			: undefined,
		// Results already paid for are never lost: named in the error and kept on it.
		alreadyDone: () => paidBeforeFailure(run.paid, run.all, run.lost[0]) as AlreadyDone,
	});
};

/** What a check run has sent and been answered, for its outputs and for its error. */
interface CheckRun {
	byItem: Map<number, PreparedItem>;
	all: CheckEntry[];
	paid: PaidChunk[];
	/** Requests that failed after they may have been carried out (and charged). */
	lost: Array<{ entries: CheckEntry[]; what: string }>;
	raw: boolean;
	repair: boolean;
}

/** One POST /protected-areas/checks; its answer is recorded as paid before anything else. */
async function checkChunk(
	ctx: IExecuteFunctions,
	chunk: CheckEntry[],
	run: CheckRun,
): Promise<BatchOutput[]> {
	const itemIndex = chunk[0].itemIndex;
	const chunkItems = [...new Set(chunk.map((e) => e.itemIndex))];
	let answer: IDataObject;
	try {
		answer = (await apiRequest.call(ctx, 'POST', '/protected-areas/checks', {
			body: checkRequestBody(chunk),
			itemIndex,
		})) as IDataObject;
	} catch (error) {
		const failure = serviceErrorOf(error);
		if (failure.mayHaveArrived) run.lost.push({ entries: chunk, what: lostAnswerReason(failure) });
		throw asNodeError(ctx, error, itemIndex);
	}
	const tokens = tokensOfCheckAnswer(answer);
	if (run.raw) {
		const outputs = [{ item: chunkItems, json: answer }];
		run.paid.push({ entries: chunk, outputs, tokens });
		return outputs;
	}
	let pairing: ReturnType<typeof pairCheckResults>;
	try {
		pairing = pairCheckResults(chunk, answer);
	} catch (error) {
		// Paid for but not pairable: the answer is output as it is, beside the error.
		const outputs = [{ item: chunkItems, json: { unpaired_check_answer: true, ...answer } }];
		run.paid.push({ entries: chunk, outputs, tokens });
		const unpaired = new NodeOperationError(ctx.getNode(), (error as Error).message, {
			itemIndex,
			description:
				'The check was made and paid for: its answer is kept as it is (unpaired_check_answer). Set Output to "Raw FeatureCollection" to get such answers without pairing.',
		});
		return [...outputs, ...chunkItems.map((item) => ({ item, error: unpaired }))];
	}
	// Results for plots or geometries nobody asked for are paired with no one: a warning says so.
	const warning = unrequestedWarning(pairing.unrequested);
	const outputs = chunk.map((entry, k) => {
		const json = rowOf(
			pairing.results[k],
			entry,
			run.byItem.get(entry.itemIndex) as PreparedItem,
			run.repair,
		);
		if (warning !== undefined)
			json.warnings = [...((json.warnings as string[] | undefined) ?? []), warning];
		return { item: entry.itemIndex, json };
	});
	run.paid.push({ entries: chunk, outputs, tokens });
	return outputs;
}

function rowOf(
	feature: Record<string, unknown> | null,
	entry: CheckEntry,
	item: PreparedItem,
	repair: boolean,
): IDataObject {
	const json = (
		feature === null ? missingCheckRow(entry) : summariseCheck(feature, entry)
	) as IDataObject;
	if (entry.kind === 'geojson' && repair) json.repairs = item.repairs;
	if (entry.kind === 'geojson' && item.warnings.length > 0) json.warnings = item.warnings;
	return json;
}

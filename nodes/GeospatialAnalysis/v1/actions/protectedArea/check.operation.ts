import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { runPool } from '../../../../shared/plots/batching';
import type { CheckEntry } from '../../../../shared/protectedAreas/check';
import {
	CHECK_BATCH_LIMIT,
	checkRequestBody,
	matchCheckResults,
	mergeCheckAnswers,
	packCheckEntries,
	readPlotIds,
	summariseCheck,
} from '../../../../shared/protectedAreas/check';
import { apiRequest } from '../../../../shared/transport/request';
import { geometrySourceFields, readGeometryOfItem } from '../shared/geometryInput';
import type { ItemProblems } from '../shared/preflight';
import { preflightError, problemItem } from '../shared/preflight';

const show = { resource: ['protectedArea'], operation: ['check'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Check By',
		name: 'checkBy',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
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
		displayOptions: { show: { ...show, checkBy: ['plotIds', 'both'] } },
		placeholder: '100001, 100002',
		description:
			'Plot IDs to check, evaluated per input item: one ID (the default reads plot_id of each item: one plot per item), a comma-separated list, or an expression returning a list. Only plots of your own account can be checked.',
	},
	...geometrySourceFields({ ...show, checkBy: ['geometry', 'both'] }),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		displayOptions: { show },
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
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
		],
	},
];

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
): { prepared?: PreparedItem; problems: string[] } {
	const problems: string[] = [];
	const entries: CheckEntry[] = [];
	let repairs: string[] = [];
	let warnings: string[] = [];
	if (checkBy === 'plotIds' || checkBy === 'both') {
		const read = readPlotIds(ctx.getNodeParameter('plotIds', i, ''));
		if (read.problem) {
			problems.push(
				`Item ${i}, field "Plot IDs": ${read.problem}. Give plot IDs such as 100001, separated by commas.`,
			);
		} else if (read.ids.length === 0 && checkBy === 'plotIds') {
			problems.push(
				`Item ${i}, field "Plot IDs": no plot ID was given. Map the plot_id of a registered plot (e.g. {{ $json.plot_id }}), or check by geometry.`,
			);
		}
		read.ids.forEach((plotId, k) =>
			entries.push({ itemIndex: i, kind: 'plot', plotId, indexInItem: k }),
		);
	}
	if (checkBy === 'geometry' || checkBy === 'both') {
		const geometry = readGeometryOfItem.call(ctx, i, { repair, maxFeatures: CHECK_BATCH_LIMIT });
		problems.push(...geometry.errors);
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
	return problems.length > 0
		? { problems }
		: { problems, prepared: { entries, repairs, warnings } };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const checkBy = this.getNodeParameter('checkBy', 0, 'plotIds') as string;
	const output = this.getNodeParameter('output', 0, 'perCheck') as string;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const repair = options.repairGeometry === true && checkBy !== 'plotIds';
	const batchSize = Number(options.batchSize ?? CHECK_BATCH_LIMIT);
	const continueOnFail = this.continueOnFail();

	const problems: ItemProblems = new Map();
	const prepared = new Map<number, PreparedItem>();
	for (let i = 0; i < items.length; i++) {
		const result = prepareItem(this, i, checkBy, repair);
		if (result.prepared) prepared.set(i, result.prepared);
		else problems.set(i, result.problems);
	}
	if (problems.size > 0 && !continueOnFail) throw preflightError(this, problems);

	const entries = [...prepared.values()].flatMap((p) => p.entries);
	const chunks = packCheckEntries(entries, batchSize);
	// One request at a time: each check costs tokens and is never retried (a POST).
	const outcome = await runPool(
		chunks,
		1,
		async (chunk) => {
			const answer = await apiRequest.call(this, 'POST', '/protected-areas/checks', {
				body: checkRequestBody(chunk),
				itemIndex: chunk[0].itemIndex,
			});
			let matched: Array<Record<string, unknown>>;
			try {
				matched = matchCheckResults(chunk, answer);
			} catch (error) {
				throw new NodeOperationError(this.getNode(), (error as Error).message, {
					itemIndex: chunk[0].itemIndex,
					description:
						'Try again with Output set to "Raw FeatureCollection" to see the answer as it is.',
				});
			}
			return { answer, matched };
		},
		!continueOnFail,
	);

	const failed = outcome.results.find((r) => r.status === 'rejected');
	if (failed && failed.status === 'rejected' && !continueOnFail) {
		const error = failed.reason;
		if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
		throw new NodeOperationError(this.getNode(), error as Error);
	}

	if (output === 'raw') {
		const answers = outcome.results.flatMap((r) =>
			r.status === 'fulfilled' ? [r.value.answer] : [],
		);
		const out: INodeExecutionData[] = [];
		const checked = [...prepared.keys()];
		if (answers.length > 0) {
			out.push({
				json: mergeCheckAnswers(answers) as IDataObject,
				pairedItem: checked.map((item) => ({ item })),
			});
		}
		outcome.results.forEach((r, c) => {
			if (r.status !== 'rejected') return;
			for (const itemIndex of new Set(chunks[c].map((e) => e.itemIndex)))
				out.push(errorJson(r.reason, itemIndex));
		});
		for (const [i, lines] of problems) out.push(problemItem(i, lines));
		return out;
	}

	const perItem = new Map<number, INodeExecutionData[]>();
	const push = (i: number, item: INodeExecutionData) =>
		perItem.set(i, [...(perItem.get(i) ?? []), item]);
	outcome.results.forEach((r, c) => {
		const chunk = chunks[c];
		if (r.status === 'fulfilled') {
			chunk.forEach((entry, k) => {
				const json = summariseCheck(r.value.matched[k], entry) as IDataObject;
				const item = prepared.get(entry.itemIndex) as PreparedItem;
				if (entry.kind === 'geojson' && repair) json.repairs = item.repairs;
				if (entry.kind === 'geojson' && item.warnings.length > 0) json.warnings = item.warnings;
				push(entry.itemIndex, { json, pairedItem: { item: entry.itemIndex } });
			});
		} else if (r.status === 'rejected') {
			for (const itemIndex of new Set(chunk.map((e) => e.itemIndex)))
				push(itemIndex, errorJson(r.reason, itemIndex));
		}
	});
	for (const [i, lines] of problems) perItem.set(i, [problemItem(i, lines)]);
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) out.push(...(perItem.get(i) ?? []));
	return out;
}

function errorJson(reason: unknown, itemIndex: number): INodeExecutionData {
	const e = reason as { message?: string; description?: string | null };
	const json: IDataObject = { error: e.message ?? String(reason) };
	if (e.description) json.description = e.description;
	return { json, pairedItem: { item: itemIndex } };
}

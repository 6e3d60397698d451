import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPairedItemData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { perPlotResults } from '../../../../shared/results/flatten';
import { getCatalog, resultKeysOf } from '../../../../shared/transport/catalog';
import { apiRequest, credentialInfo } from '../../../../shared/transport/request';

/** A list of ids from a parameter value: an array, a number, or a comma/space/newline-separated string. */
export function parseIdList(value: unknown): string[] {
	const raw: unknown[] = Array.isArray(value) ? value.flat(2) : [value];
	const out: string[] = [];
	for (const v of raw) {
		if (v === null || v === undefined) continue;
		if (typeof v === 'object') {
			const id = (v as IDataObject).plot_id ?? (v as IDataObject).job_id ?? (v as IDataObject).id;
			if (id !== undefined && id !== null) out.push(String(id).trim());
			continue;
		}
		for (const part of String(v).split(/[\s,;]+/)) if (part.trim() !== '') out.push(part.trim());
	}
	return out.filter((id, i) => out.indexOf(id) === i);
}

/** The Output / Simplify / Download options shared by Wait for Completion and Get Results. */
export function outputFields(
	operation: string,
	defaultOutput: 'job' | 'perPlot',
): INodeProperties[] {
	const show = { resource: ['job'], operation: [operation] };
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			displayOptions: { show },
			options: [
				{
					name: 'Job',
					value: 'job',
					description: 'One item per job: the job as the service returns it, with its plots',
				},
				{
					name: 'Per-Plot Results',
					value: 'perPlot',
					description:
						'One item per plot with its analysis; failed plots are marked (failed, failure_reason), never dropped',
				},
			],
			default: defaultOutput,
			description: 'Whether to output one item per job or one item per plot of each job',
		},
		{
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			displayOptions: { show: { ...show, output: ['perPlot'] } },
			default: true,
			description:
				'Whether to return a flat row per plot (plot ID and name, job ID, status, risk level and reason, deforestation figures, protected-area and Indigenous-land overlap, image URL, the top-level result of each other check) fit for a spreadsheet, instead of the full plot with its nested analysis',
		},
		{
			displayName: 'Download Visualisations',
			name: 'downloadImages',
			type: 'boolean',
			displayOptions: { show },
			default: false,
			description:
				"Whether to download each plot's visualisation image (analysis_image / job_visualization_url) as binary data. Free of tokens; one extra request per image.",
		},
		{
			displayName: 'Put Image in Field',
			name: 'binaryPropertyName',
			type: 'string',
			displayOptions: { show: { ...show, downloadImages: [true] } },
			default: 'data',
			description:
				'Name of the binary field for the image. In Job output, images are numbered: data_0, data_1, and so on.',
		},
	];
}

export interface OutputOptions {
	output: 'job' | 'perPlot';
	simplify: boolean;
	downloadImages: boolean;
	binaryPropertyName: string;
}

export function readOutputOptions(ctx: IExecuteFunctions, itemIndex = 0): OutputOptions {
	const output = ctx.getNodeParameter('output', itemIndex, 'job') === 'perPlot' ? 'perPlot' : 'job';
	const binaryPropertyName = String(
		ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') || 'data',
	).trim();
	return {
		output,
		simplify:
			output === 'perPlot' ? (ctx.getNodeParameter('simplify', itemIndex, true) as boolean) : false,
		downloadImages: ctx.getNodeParameter('downloadImages', itemIndex, false) as boolean,
		binaryPropertyName: binaryPropertyName || 'data',
	};
}

/** Downloads one image; the credential is sent only to the service's own host. */
async function downloadImage(ctx: IExecuteFunctions, url: string, itemIndex: number) {
	const { type, baseUrl } = await credentialInfo.call(ctx);
	const sameHost = (() => {
		try {
			return new URL(url).origin === new URL(baseUrl).origin;
		} catch {
			return false;
		}
	})();
	const request = { method: 'GET' as const, url, encoding: 'arraybuffer' as const, json: false };
	let data: ArrayBuffer | Buffer;
	try {
		data = sameHost
			? ((await ctx.helpers.httpRequestWithAuthentication.call(ctx, type, request)) as ArrayBuffer)
			: ((await ctx.helpers.httpRequest(request)) as ArrayBuffer);
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), `Could not download the visualisation at ${url}`, {
			itemIndex,
			description: `The image could not be fetched (${(error as Error).message}). Turn off "Download Visualisations" or try again later.`,
		});
	}
	const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
	const fileName = url.split('?')[0].split('/').pop() || 'visualisation.png';
	return await ctx.helpers.prepareBinaryData(
		buffer,
		fileName,
		fileName.endsWith('.png') ? 'image/png' : undefined,
	);
}

/** The resultKey mapping from the live catalog; an unreachable catalog just means the defaults. */
export async function catalogResultKeys(ctx: IExecuteFunctions): Promise<Record<string, string>> {
	try {
		return resultKeysOf(await getCatalog.call(ctx));
	} catch {
		return {};
	}
}

/** Items for one job in the chosen output shape. */
export async function jobOutput(
	ctx: IExecuteFunctions,
	job: IDataObject,
	options: OutputOptions,
	pairedItem: IPairedItemData | IPairedItemData[],
	resultKeys: Record<string, string>,
	extra: IDataObject = {},
): Promise<INodeExecutionData[]> {
	const itemIndex = Array.isArray(pairedItem) ? (pairedItem[0]?.item ?? 0) : pairedItem.item;
	if (options.output === 'job') {
		const json = { ...job, ...extra };
		const item: INodeExecutionData = { json, pairedItem };
		if (options.downloadImages) {
			const urls = imageUrlsOfJob(job);
			const binary: IBinaryKeyData = {};
			for (let i = 0; i < urls.length; i++)
				binary[`${options.binaryPropertyName}_${i}`] = await downloadImage(ctx, urls[i], itemIndex);
			if (urls.length) item.binary = binary;
		}
		return [item];
	}
	const rows = perPlotResults(job, { simplify: options.simplify, resultKeys });
	const plots = Array.isArray(job.plots) ? (job.plots as IDataObject[]) : [];
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < rows.length; i++) {
		const item: INodeExecutionData = { json: { ...rows[i], ...extra }, pairedItem };
		if (options.downloadImages && !rows[i].failed) {
			const url = imageUrlOfPlot(
				plots.find((p) => String(p.plot_id) === String(rows[i].plot_id)) ?? rows[i],
				job,
			);
			if (url)
				item.binary = { [options.binaryPropertyName]: await downloadImage(ctx, url, itemIndex) };
		}
		out.push(item);
	}
	return out;
}

function imageUrlOfPlot(plot: IDataObject, job: IDataObject): string | undefined {
	if (typeof plot.analysis_image === 'string' && plot.analysis_image) return plot.analysis_image;
	if (typeof plot.image_url === 'string' && plot.image_url) return plot.image_url;
	const urls = Array.isArray(job.job_visualization_url) ? job.job_visualization_url : [];
	return urls.find(
		(u): u is string => typeof u === 'string' && u.includes(`/${String(plot.plot_id)}.`),
	);
}

function imageUrlsOfJob(job: IDataObject): string[] {
	const urls = Array.isArray(job.job_visualization_url)
		? job.job_visualization_url.filter((u): u is string => typeof u === 'string' && u !== '')
		: [];
	if (urls.length) return urls;
	const plots = Array.isArray(job.plots) ? (job.plots as IDataObject[]) : [];
	return plots
		.map((p) => (typeof p.analysis_image === 'string' ? p.analysis_image : ''))
		.filter((u) => u !== '');
}

/** GET /jobs/job/{id}. */
export async function fetchJob(
	ctx: IExecuteFunctions,
	jobId: string,
	itemIndex: number,
	retryPolicy?: { maxAttempts: number },
): Promise<IDataObject> {
	return (await apiRequest.call(ctx, 'GET', `/jobs/job/${encodeURIComponent(jobId)}`, {
		itemIndex,
		...(retryPolicy ? { retryPolicy } : {}),
	})) as IDataObject;
}

/** Rejects ids that cannot be job ids before any request. */
export function checkJobIds(
	ctx: IExecuteFunctions,
	ids: string[],
	itemIndex: number,
	field: string,
): void {
	if (ids.length === 0)
		throw new NodeOperationError(ctx.getNode(), `No job ID in "${field}" of item ${itemIndex}`, {
			itemIndex,
			description: `Give a job ID (or several, comma-separated) in "${field}", e.g. {{ $json.job_id }} from a Create step.`,
		});
	const bad = ids.find((id) => !/^[\w.-]+$/.test(id));
	if (bad !== undefined)
		throw new NodeOperationError(
			ctx.getNode(),
			`"${bad}" in "${field}" of item ${itemIndex} is not a job ID`,
			{
				itemIndex,
				description: 'Job IDs are numbers such as 7001. Check the expression in this field.',
			},
		);
}

/**
 * The items one job produces, in the shape the user chose: the job itself, or one item per
 * plot (the rows of results/flatten.ts), optionally with each visualisation image as binary
 * data. Shared by Job → Wait for Completion, Job → Get Results and the trigger, so that
 * the same job gives the same items in all three.
 */
import type {
	IBinaryData,
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { perPlotResults } from '../results/flatten';
import { jobVisualisationOf } from '../results/plotOutcome';
import { DownloadError, MAX_DOWNLOAD_BYTES, NotAnImage, downloadFile } from '../transport/download';
import { serviceErrorOf } from '../transport/serviceFailure';
import { runScopeOf } from '../transport/serviceContext';
import { lookUpPlotRuns } from './plotRunLookup';

/** The node contexts that output job items (they can download binary data). */
type OutputContext = IExecuteFunctions | IPollFunctions;

export interface OutputOptions {
	/** 'job': one item per job, as the service returns it, with its plots; 'perPlot': one item per plot. */
	output: 'job' | 'perPlot';
	/** Per-plot output only: flat spreadsheet rows instead of each plot with its nested analysis. */
	simplify: boolean;
	downloadImages: boolean;
	binaryPropertyName: string;
	/** Simplified per-plot rows with the decision columns first (version 2 of the action node). */
	decisionFirst?: boolean;
}

/** An address for a message: without its query (which may hold a signed token) or fragment. */
function shownUrl(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol}…`;
		return `${parsed.origin}${parsed.pathname}`.slice(0, 300);
	} catch {
		return `${url.split(/[?#]/)[0].slice(0, 80)}${url.length > 80 ? '…' : ''}`;
	}
}

const MB = 1024 * 1024;
/** The most image data one output item carries (all its visualisations together). */
export const MAX_ITEM_DOWNLOAD_BYTES = 50 * MB;
/** The most image data one run of the node (in an execution; one poll of the trigger) downloads in all. */
export const MAX_EXECUTION_DOWNLOAD_BYTES = 100 * MB;

/** Image bytes attached so far, per node run (runScopeOf: an execution, a poll). */
const attachedInRun = new WeakMap<object, { bytes: number }>();

function runBudget(ctx: OutputContext): { bytes: number } {
	const run = runScopeOf(ctx);
	let budget = attachedInRun.get(run);
	if (!budget) {
		budget = { bytes: 0 };
		attachedInRun.set(run, budget);
	}
	return budget;
}

/** Image bytes attached to one output item so far. */
interface ItemBudget {
	bytes: number;
}

/** An image attached, or why it was skipped (not an image, or a download cap reached). */
type ImageOutcome = { binary: IBinaryData } | { skipped: string };

function mb(bytes: number): string {
	return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/**
 * Downloads one image (transport/download.ts): the credential only to the service's own
 * origin, redirects by hand, http(s) only, at most MAX_DOWNLOAD_BYTES, within the deadline,
 * and only PNG, JPEG, GIF or WebP content. Within MAX_ITEM_DOWNLOAD_BYTES for the item and
 * MAX_EXECUTION_DOWNLOAD_BYTES for the execution: past either cap the image is skipped with a
 * reason naming it, and so is a file that is not an image. Any other failure is an error.
 */
async function downloadImage(
	ctx: OutputContext,
	url: string,
	itemIndex?: number,
	item: ItemBudget = { bytes: 0 },
): Promise<ImageOutcome> {
	const run = runBudget(ctx);
	const itemLeft = MAX_ITEM_DOWNLOAD_BYTES - item.bytes;
	const runLeft = MAX_EXECUTION_DOWNLOAD_BYTES - run.bytes;
	const cap =
		runLeft < itemLeft
			? `the download cap of ${mb(MAX_EXECUTION_DOWNLOAD_BYTES)} per run of this node (${mb(run.bytes)} attached in this run)`
			: `the download cap of ${mb(MAX_ITEM_DOWNLOAD_BYTES)} per item (${mb(item.bytes)} attached to this item)`;
	const left = Math.min(itemLeft, runLeft);
	if (left <= 0) return { skipped: `not downloaded: ${cap} was reached` };
	const limit = Math.min(MAX_DOWNLOAD_BYTES, left);
	const outcome = await downloadFile(ctx, url, limit).then(
		(file) => ({ file }),
		(error: unknown) => ({ error }),
	);
	if (!('file' in outcome)) {
		const { error } = outcome;
		if (error instanceof NotAnImage) return { skipped: error.reason };
		if (error instanceof DownloadError && error.tooLarge && limit < MAX_DOWNLOAD_BYTES)
			return { skipped: `not attached: it would pass ${cap}` };
		// The credential's own failure (unreadable, wrong key shape) says what to fix itself.
		if (!(error instanceof DownloadError) && serviceErrorOf(error).kind === 'credential')
			throw error;
		const reason =
			error instanceof DownloadError
				? error.reason
				: `it could not be fetched: ${(error as Error).message}`;
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not download the visualization at ${shownUrl(url)}: ${reason}`,
			{
				itemIndex,
				description: `Turn off "Download Visualizations", or try again later. Images larger than ${MAX_DOWNLOAD_BYTES / MB} MB are not downloaded.`,
			},
		);
	}
	const { file } = outcome;
	item.bytes += file.data.length;
	run.bytes += file.data.length;
	const fileName = shownUrl(url).split('/').pop() || 'visualisation.png';
	return { binary: await ctx.helpers.prepareBinaryData(file.data, fileName, file.contentType) };
}

/**
 * Items for one job in the chosen output shape (unpaired: the item runner pairs an action's
 * outputs with their input items; a trigger's have none). Failed plots
 * are kept as rows (`failed`, `failure_reason`), never dropped; a plot whose outcome the
 * job answer does not tell (job `done-with-errors`, no per-plot signal) is looked up in its
 * analysis runs of this job (jobs/plotRunLookup.ts), and stays `failed: null` with the
 * reason when they do not tell either.
 */
export async function jobOutput(
	ctx: OutputContext,
	job: IDataObject,
	options: OutputOptions,
	resultKeys: Record<string, string>,
	extra: IDataObject = {},
): Promise<INodeExecutionData[]> {
	if (options.output === 'job') {
		const json = { ...job, ...extra };
		const item: INodeExecutionData = { json };
		if (options.downloadImages) {
			const urls = imageUrlsOfJob(job);
			const binary: IBinaryKeyData = {};
			const skipped: IDataObject[] = [];
			const budget: ItemBudget = { bytes: 0 };
			for (let i = 0; i < urls.length; i++) {
				const image = await downloadImage(ctx, urls[i], undefined, budget);
				if ('binary' in image) binary[`${options.binaryPropertyName}_${i}`] = image.binary;
				else skipped.push({ url: shownUrl(urls[i]), reason: image.skipped });
			}
			if (Object.keys(binary).length) item.binary = binary;
			if (skipped.length) json.visualizations_skipped = skipped;
		}
		return [item];
	}
	// Plots whose outcome nothing else tells: ask their analysis runs of this job.
	const runs = await lookUpPlotRuns(ctx, job);
	const rows = perPlotResults(job, {
		simplify: options.simplify,
		resultKeys,
		runs,
		decisionFirst: options.decisionFirst,
	});
	const plots = Array.isArray(job.plots) ? (job.plots as IDataObject[]) : [];
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < rows.length; i++) {
		const item: INodeExecutionData = { json: { ...rows[i], ...extra } };
		// Only a visualisation of this job's results (not of a failed, unknown or other job's).
		if (options.downloadImages && rows[i].results_reason === null) {
			const url = imageUrlOfPlot(
				plots.find((p) => String(p.plot_id) === String(rows[i].plot_id)) ?? rows[i],
				job,
			);
			if (url) {
				const image = await downloadImage(ctx, url);
				if ('binary' in image) item.binary = { [options.binaryPropertyName]: image.binary };
				else item.json.visualization_skipped = image.skipped;
			}
		}
		out.push(item);
	}
	return out;
}

/** The visualisation of one plot: its analysis_image / image_url, or its file among the job's. */
function imageUrlOfPlot(plot: IDataObject, job: IDataObject): string | undefined {
	if (typeof plot.analysis_image === 'string' && plot.analysis_image) return plot.analysis_image;
	if (typeof plot.image_url === 'string' && plot.image_url) return plot.image_url;
	return jobVisualisationOf(plot.plot_id, job);
}

/** Every visualisation of a job: job_visualization_url, or else each plot's analysis_image. */
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

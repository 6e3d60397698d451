import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { takeIdList } from '../../../../shared/descriptions/takeId';
import type { OutputOptions } from '../../../../shared/jobs/jobOutput';
import { readText } from '../../../../shared/input';
import type { Problems } from '../../../../shared/runner';
import { simplifyField } from '../../../../shared/descriptions/simplifyField';

/** The Job IDs field (`jobId` in Get and Get Results, `jobIds` in Wait for Completion). */
export function jobIdsField(name: 'jobId' | 'jobIds', description: string): INodeProperties {
	return {
		displayName: 'Job IDs',
		name,
		type: 'string',
		required: true,
		default: '={{ $json.job_id }}',
		description,
	};
}

/** The Output / Simplify / Download options shared by Wait for Completion and Get Results. */
export function outputFields(defaultOutput: 'job' | 'perPlot'): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
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
			...simplifyField(
				true,
				'Whether to return a flat row per plot (plot ID and name, job ID, status, risk level and reason, deforestation figures, protected-area and Indigenous-land overlap, image URL, the top-level result of each other check) fit for a spreadsheet, instead of the full plot with its nested analysis',
			),
			displayOptions: { show: { output: ['perPlot'] } },
		},
		{
			displayName: 'Download Visualizations',
			name: 'downloadImages',
			type: 'boolean',
			default: false,
			description:
				"Whether to download each plot's visualization image (analysis_image / job_visualization_url) as binary data. Free of tokens; one extra request per image. Only PNG, JPEG, GIF or WebP images are attached, at most 50 MB per item and 100 MB per run of the node; a file skipped is listed with the reason.",
		},
		{
			displayName: 'Put Image in Field',
			name: 'binaryPropertyName',
			type: 'string',
			displayOptions: { show: { downloadImages: [true] } },
			default: 'data',
			description:
				'Name of the binary field for the image. In Job output, images are numbered: data_0, data_1, and so on.',
		},
	];
}

/**
 * The Output / Simplify / Download options of Wait for Completion and Get Results for an item,
 * read in its `prepare` (Put Image in Field through the input layer; empty means `data`).
 */
export function readOutputOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	problems: Problems,
): OutputOptions {
	const output = ctx.getNodeParameter('output', itemIndex, 'job') === 'perPlot' ? 'perPlot' : 'job';
	const downloadImages = ctx.getNodeParameter('downloadImages', itemIndex, false) as boolean;
	const field = downloadImages
		? problems.take(
				'Put Image in Field',
				readText(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')),
			)
		: undefined;
	return {
		output,
		simplify:
			output === 'perPlot' ? (ctx.getNodeParameter('simplify', itemIndex, true) as boolean) : false,
		downloadImages,
		binaryPropertyName: field ?? 'data',
		decisionFirst: ctx.getNode().typeVersion >= 2,
	};
}

/** The job ids of one item's "Job IDs" field (one or several), read by the input layer. */
export function readJobIds(
	ctx: IExecuteFunctions,
	itemIndex: number,
	name: string,
	problems: Problems,
): string[] {
	return takeIdList(ctx, itemIndex, problems, { name, label: 'Job IDs', noun: 'job' });
}

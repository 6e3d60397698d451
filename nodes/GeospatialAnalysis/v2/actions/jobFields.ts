import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/optionsCollection';
import {
	CHECK_CONFIGS_FIELD,
	COMMODITY_FIELD,
	HARVEST_DATE_FIELD,
	JOB_PER_FIELD,
	JOB_TEXT_FIELDS,
	MAX_TOKENS_DEFAULT_V2,
	PLOT_IDS_FIELD,
	RECOVERY_WINDOW_FIELD,
} from '../../v1/actions/job/jobRequest';

/**
 * Job → Create and Job → Get Quote in version 2 of the node: the same requests as version 1
 * (read by v1/actions/job, which knows where each version keeps a field), with a shorter
 * panel. At the top: Plot IDs, Checks (EUDR bundle by default, shown in the field) and, for
 * Create, Max Tokens with a limit by default. Everything else is in Options.
 *
 * Moved into Options (from the top level of version 1): Jobs (jobPer), Commodity, Harvest
 * Date, Check Configs; Per-Plot Values → Commodity / Harvest Date became the options
 * Per-Plot Commodity (perPlotCommodity) / Per-Plot Harvest Date (perPlotHarvestDate); Job
 * Name, Notes and Additional Info (Additional Fields in version 1) and Max Tokens (Create
 * only) left Options; "Choose Checks" (checkSource) is gone: Checks takes names from the
 * list or from an expression.
 */

/** Plot IDs and Checks, at the top of both operations. */
const requestFields: INodeProperties[] = [
	PLOT_IDS_FIELD,
	{
		displayName: 'Check Names or IDs',
		name: 'checks',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getChecks' },
		default: ['eudr'],
		description:
			'Analyses to run on every plot, from the live catalog. By default the EUDR bundle (deforestation, protected areas and Indigenous land); an empty list runs it too. Each check adds to the token cost: Get Quote shows it. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

const maxTokens: INodeProperties = {
	displayName: 'Max Tokens',
	name: 'maxTokens',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: MAX_TOKENS_DEFAULT_V2,
	description:
		'The most tokens this job may cost. The node first asks the service for a quote (free) and creates nothing if the job would cost more. 0: no limit.',
};

function sharedOptions(): INodeProperties[] {
	return [
		CHECK_CONFIGS_FIELD,
		COMMODITY_FIELD,
		HARVEST_DATE_FIELD,
		JOB_PER_FIELD,
		{
			displayName: 'Per-Plot Commodity',
			name: 'perPlotCommodity',
			type: 'string',
			default: '',
			placeholder: '={{ $json.commodity }}',
			description:
				"Commodity of the plots of each input item (sent as per_plot), overriding Commodity: map it from the item's field. One of wood, soy, cocoa, coffee, palm_oil, beef, rubber.",
		},
		{
			displayName: 'Per-Plot Harvest Date',
			name: 'perPlotHarvestDate',
			type: 'string',
			default: '',
			placeholder: '={{ $json.harvest_date }}',
			description:
				"Harvest date of the plots of each input item (YYYY-MM-DD, sent as per_plot), overriding Harvest Date: map it from the item's field",
		},
	];
}

const createOnlyOptions: INodeProperties[] = [...JOB_TEXT_FIELDS, RECOVERY_WINDOW_FIELD];

/** The Options collection, its options in alphabetical order. */
const sortedOptions = (options: INodeProperties[]): INodeProperties =>
	optionsCollection([...options].sort((a, b) => a.displayName.localeCompare(b.displayName)));

/** Job → Create (version 2). Request Timeout is added to Options with every operation's. */
export const createDescription = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['create'] } },
	[...requestFields, maxTokens, sortedOptions([...sharedOptions(), ...createOnlyOptions])],
);

/** Job → Get Quote (version 2). */
export const getQuoteDescription = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getQuote'] } },
	[...requestFields, sortedOptions(sharedOptions())],
);

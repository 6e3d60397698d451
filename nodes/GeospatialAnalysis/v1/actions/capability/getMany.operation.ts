import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forEachItem } from '../../helpers/items';
import { apiRequest } from '../../transport/request';
import { capabilitiesFromResponse, includeValue, simplifyCapability } from './simplify';

const show = { resource: ['capability'], operation: ['getMany'] };

export const description: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description:
			'Whether to return flat fields only (name, label, description, transport, result_key, cost_model, tokens_per_ha, tokens_per_plot, minimum_tokens_per_plot, config_fields, required_config_fields and methodology when included) instead of each catalog entry as the service sends it (with its full input_schema and cost_hint)',
		displayOptions: { show },
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
				displayName: 'Include Hidden Capabilities',
				name: 'includeHidden',
				type: 'boolean',
				default: false,
				description:
					'Whether to also list the capabilities the service omits from its default listing (older analyses such as precipitation or land_cover). They can still be used as check types in a job.',
			},
			{
				displayName: 'Include Methodology',
				name: 'includeMethodology',
				type: 'boolean',
				default: false,
				description:
					"Whether to add each capability's long-form methodology text (how the analysis is done). Makes the output much larger.",
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	// The catalog is the same for every item: read it once per distinct set of options
	// in this execution, and never keep it beyond the execution.
	const catalogs = new Map<string, Promise<unknown>>();
	return await forEachItem(this, items, async (i) => {
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const simplify = this.getNodeParameter('simplify', i, false) as boolean;
		const include = includeValue({
			methodology: options.includeMethodology === true,
			hidden: options.includeHidden === true,
		});
		const key = include ?? '';
		let catalog = catalogs.get(key);
		if (!catalog) {
			catalog = apiRequest.call(this, 'GET', '/v3/discovery/capabilities', {
				qs: include ? { include } : undefined,
				itemIndex: i,
			});
			catalogs.set(key, catalog);
			// A failed read is not reused: the next item asks again.
			catalog.catch(() => catalogs.delete(key));
		}
		const entries = capabilitiesFromResponse(await catalog);
		return entries.map((entry) => (simplify ? simplifyCapability(entry) : entry) as IDataObject);
	});
}

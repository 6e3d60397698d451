import type { IDataObject } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyField } from '../../../../shared/descriptions/simplifyField';
import type { OperationModule } from '../../../../shared/descriptions/operationModule';
import { optionsCollection } from '../../../../shared/descriptions/optionsCollection';
import { runItems } from '../../../../shared/runner';
import { getCatalogEntries } from '../../../../shared/capabilities/catalog';
import { simplifyCapability } from './simplifyCapability';

const displayOptions = { show: { resource: ['capability'], operation: ['getMany'] } };

export const description = updateDisplayOptions(displayOptions, [
	simplifyField(
		false,
		'Whether to return flat fields only (name, label, description, transport, result_key, cost_model, tokens_per_ha, tokens_per_plot, minimum_tokens_per_plot, config_fields, required_config_fields and methodology when included) instead of each catalog entry as the service sends it (with its full input_schema and cost_hint)',
	),
	optionsCollection([
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
	]),
]);

export const execute: OperationModule['execute'] = async function (items) {
	// The catalog is read once per distinct set of options in this node run.
	return await runItems(this, items, {
		prepare: (i) => ({
			options: this.getNodeParameter('options', i, {}) as IDataObject,
			simplify: this.getNodeParameter('simplify', i, false) as boolean,
		}),
		run: async (_i, { options, simplify }) => {
			const entries = await getCatalogEntries.call(this, {
				methodology: options.includeMethodology === true,
				hidden: options.includeHidden === true,
			});
			return entries.map((entry) => (simplify ? simplifyCapability(entry) : entry) as IDataObject);
		},
	});
};

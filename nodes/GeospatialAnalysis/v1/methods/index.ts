import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { getCatalog } from '../../../shared/transport/catalog';

/** The checks the service offers right now, from its live catalog (so new ones appear without a release). */
async function getChecks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const catalog = await getCatalog.call(this);
	return catalog
		.map((c) => {
			const cost = c.cost_hint as { tokens_per_ha?: number; tokens_per_plot?: number } | undefined;
			const costText =
				cost?.tokens_per_ha !== undefined
					? ` Indicative cost: ${cost.tokens_per_ha} token(s) per hectare of each plot (minimum per plot may apply).`
					: cost?.tokens_per_plot !== undefined
						? ` Indicative cost: ${cost.tokens_per_plot} token(s) per plot.`
						: '';
			return {
				name: typeof c.label === 'string' && c.label ? c.label : c.name,
				value: c.name,
				description: `${typeof c.description === 'string' ? c.description : c.name}${costText}`,
			};
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

export const loadOptions: Record<
	string,
	(this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>
> = {
	getChecks,
};

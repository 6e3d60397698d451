import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { getCatalog } from '../../../shared/capabilities/catalog';

/** "1 token", "2 tokens", "0.5 tokens". */
function tokens(n: number): string {
	return `${n} ${n === 1 ? 'token' : 'tokens'}`;
}

/** The indicative cost of a check, in a few words, or '' when the catalog does not say. */
function costText(costHint: unknown): string {
	const cost = costHint as { tokens_per_ha?: unknown; tokens_per_plot?: unknown } | undefined;
	if (typeof cost?.tokens_per_ha === 'number')
		return `About ${tokens(cost.tokens_per_ha)} per hectare of each plot.`;
	if (typeof cost?.tokens_per_plot === 'number')
		return `About ${tokens(cost.tokens_per_plot)} per plot.`;
	return '';
}

/** The first sentence of a catalog description (the list cuts long texts off). */
function firstSentence(text: string): string {
	const end = text.search(/[.!?](\s|$)/);
	return end === -1 ? text : text.slice(0, end + 1);
}

/** The check a job runs when none is chosen: listed first. */
const DEFAULT_CHECK = 'eudr';

/**
 * The checks the service offers right now, from its live catalog (so new ones appear without
 * a release): the EUDR bundle first (a job runs it when no check is chosen), then by name;
 * each with the cost first and the first sentence of its description, so the list does not
 * cut the cost off.
 */
async function getChecks(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const catalog = await getCatalog.call(this);
	return catalog
		.map((c) => {
			const about = typeof c.description === 'string' && c.description ? c.description : c.name;
			const defaultNote = c.name === DEFAULT_CHECK ? 'Runs when no check is chosen. ' : '';
			return {
				name: typeof c.label === 'string' && c.label ? c.label : c.name,
				value: c.name,
				description: `${defaultNote}${costText(c.cost_hint)} ${firstSentence(about)}`
					.replace(/\s+/g, ' ')
					.trim(),
			};
		})
		.sort(
			(a, b) =>
				Number(b.value === DEFAULT_CHECK) - Number(a.value === DEFAULT_CHECK) ||
				a.name.localeCompare(b.name),
		);
}

export const loadOptions: Record<
	string,
	(this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>
> = {
	getChecks,
};

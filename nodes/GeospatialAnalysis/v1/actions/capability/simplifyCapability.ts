/**
 * Flattening one capability catalog entry for the Simplify option (pure, no n8n
 * imports). Reading the catalog itself is `capabilities/catalog.ts`.
 */

import { isObject, num } from '../../../../shared/values/answerValues';

type Json = Record<string, unknown>;

/**
 * One catalog entry as flat fields: name (the value for a job check's type), label,
 * description, transport, result_key (where results are stored in a plot's analysis:
 * the entry's result_key or else its name), the cost hint's model and token rates,
 * the configuration fields the check accepts (and which are required), and the
 * methodology when it was asked for.
 */
export function simplifyCapability(cap: Json): Json {
	const costHint = isObject(cap.cost_hint) ? cap.cost_hint : {};
	const schema = isObject(cap.input_schema) ? cap.input_schema : {};
	const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
	const required = Array.isArray(schema.required)
		? schema.required.filter((r): r is string => typeof r === 'string')
		: [];
	const out: Json = {
		name: cap.name ?? null,
		label: cap.label ?? cap.name ?? null,
		description: cap.description ?? null,
		transport: cap.transport ?? null,
		result_key:
			typeof cap.result_key === 'string' && cap.result_key !== ''
				? cap.result_key
				: (cap.name ?? null),
		cost_model: typeof costHint.model === 'string' ? costHint.model : null,
		tokens_per_ha: num(costHint.tokens_per_ha),
		tokens_per_plot: num(costHint.tokens_per_plot),
		minimum_tokens_per_plot: num(costHint.minimum_per_plot),
		config_fields: properties,
		required_config_fields: required,
	};
	const methodology = cap.methodology ?? cap.doc;
	if (methodology !== undefined) out.methodology = methodology;
	return out;
}

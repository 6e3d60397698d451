import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The node's subtitle on the canvas, in the panel's words: "Submit: Due Diligence Statement",
 * "Get by Internal Reference: Simplified Declaration", "Verify: Declaration" (n8n's
 * "operation: resource" with the names the panel shows, not the values "submit" or
 * "getByInternalReference"). Built from the Resource list and each resource's Operation list,
 * so a new operation gets its words by itself; an unknown pair shows its operation as saved.
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const resource = properties.find((p) => p.name === 'resource');
	const words: Record<string, string> = {};
	for (const r of (resource?.options ?? []) as INodePropertyOptions[]) {
		const selector = properties.find(
			(p) =>
				p.name === 'operation' &&
				p.displayOptions?.show?.resource?.includes(r.value) &&
				// the node's own list (the tool's have '@tool': see toolGate.ts)
				!(p.displayOptions?.show?.['@tool'] ?? []).includes(true),
		);
		for (const o of (selector?.options ?? []) as INodePropertyOptions[])
			words[`${String(r.value)}.${String(o.value)}`] = `${o.name}: ${r.name}`;
	}
	return `={{ (${JSON.stringify(words)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
}

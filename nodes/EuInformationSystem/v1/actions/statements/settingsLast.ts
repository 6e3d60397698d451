import type { INodeProperties } from 'n8n-workflow';

/**
 * Submit's and Amend's (SD: Update's) Simplify, Options and Output come after the statement's fields,
 * as in n8n's own nodes (the fields first, the settings of the output last); order is display
 * only.
 */
export function settingsLast(properties: INodeProperties[], change: string): INodeProperties[] {
	const isSetting = (p: INodeProperties) =>
		(p.name === 'simplify' || p.name === 'options' || p.name === 'outputMode') &&
		(p.displayOptions?.show?.operation ?? []).some((o) => o === 'submit' || o === change);
	return [...properties.filter((p) => !isSetting(p)), ...properties.filter(isSetting)];
}

import type { INodeProperties } from 'n8n-workflow';

/** The Simplify switch of an operation: flat fields (`description` says which) or the answer as sent. */
export function simplifyField(defaultValue: boolean, description: string): INodeProperties {
	const field: INodeProperties = {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description,
	};
	return defaultValue ? { ...field, default: true } : field;
}

import type { INodeProperties } from 'n8n-workflow';

/** A required field holding the ID of one record (Plot ID, Run ID, Area ID), read with `readId`. */
export function idField(
	displayName: string,
	name: string,
	placeholder: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
	};
}

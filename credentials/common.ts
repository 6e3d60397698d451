import type { INodeProperties } from 'n8n-workflow';

/** The Base URL field of both credential types (checked by transport/credentialChecks.ts). */
export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example.com',
	description:
		'Address of the Geospatial Analysis Service, as given on the API page of your account. Must start with https:// (http:// is accepted only for localhost). A trailing slash is fine.',
};

import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from './request';

/** The two credential types, each shown for its Authentication choice (action node and trigger). */
export const credentialsDescription: INodeCredentialDescription[] = [
	{
		name: CREDENTIAL_TYPES.apiKey,
		required: true,
		displayOptions: { show: { authentication: ['apiKey'] } },
	},
	{
		name: CREDENTIAL_TYPES.login,
		required: true,
		displayOptions: { show: { authentication: ['login'] } },
	},
];

/** The Authentication parameter read by the transport to pick the credential. */
export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'Username and Password', value: 'login' },
	],
	default: 'apiKey',
	description: 'How to sign in to the service. An API key is recommended for automations.',
};

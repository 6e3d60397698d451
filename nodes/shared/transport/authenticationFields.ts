import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPES } from './nodeCredential';
import { MAX_REQUEST_TIMEOUT_MS, REQUEST_TIMEOUT_PARAMETER } from './deadline';

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

/**
 * "Request Timeout (Seconds)": the deadline of each request (transport/deadline.ts), read by
 * the transport when a node has it (requestTimeoutMs); without it the default applies.
 */
export const requestTimeoutProperty: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: REQUEST_TIMEOUT_PARAMETER,
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_REQUEST_TIMEOUT_MS / 1000 },
	// DEFAULT_REQUEST_TIMEOUT_MS in seconds (a literal, as n8n's lint wants; a unit test keeps them equal).
	default: 60,
	description:
		'How long one request to the service may take, from sending it to the last byte of the answer. A request that takes longer is abandoned (and not repeated), so the node never hangs on a slow or stalled connection.',
};

import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { checkEuCredential } from '../nodes/shared/transport/euCredentialCheck';
import { DEFAULT_ECHO_PATH, EU_BASE_URLS } from '../nodes/shared/transport/euCredential';

/**
 * The EU Information System (EUDR, TRACES) web-service credential: EU Login username and
 * Authentication Key, sent only as a WS-Security digest computed per call (the key itself
 * never leaves the machine) to the environment's own address.
 */
export class EuInformationSystemApi implements ICredentialType {
	name = 'euInformationSystemApi';

	displayName = 'EU Information System API';

	icon: Icon = {
		light: 'file:../icons/euInformationSystem.svg',
		dark: 'file:../icons/euInformationSystem.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-geospatial-analysis/n8n-nodes-geospatial-analysis/blob/main/docs/eu-information-system/credential.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			default: 'acceptance',
			options: [
				{
					name: 'Acceptance',
					value: 'acceptance',
					description:
						'The EU test environment (no legal value; data may be wiped). Use it to try your workflow.',
				},
				{
					name: 'Production',
					value: 'production',
					description:
						'Statements filed here have legal value. Use Acceptance for tests; Production keys differ from Acceptance keys.',
				},
				{
					name: 'Custom URL',
					value: 'custom',
					description: 'Another address (a proxy, or a local test service)',
				},
			],
		},
		{
			displayName: 'Custom URL',
			name: 'customUrl',
			type: 'string',
			default: '',
			placeholder: 'https://proxy.example.com/tracesnt/',
			description:
				'Base address of the service (the part before ws/…). Must start with https:// (http:// is accepted only for localhost).',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			displayName: 'EU Login Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Authentication Key',
			name: 'authKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The key shown in your EU Information System profile under "Web Services Access" (Acceptance and Production keys differ). Copy it whole: a value shorter than 8 characters is refused.',
		},
		// Named webServiceClientId, not clientId: n8n's editor relabels a credential field named
		// clientId with its OAuth wording ("Client ID"). A credential saved under the older name
		// keeps its value in the hidden clientId below (readEuCredential reads both).
		{
			displayName: 'Web Service Client ID',
			name: 'webServiceClientId',
			type: 'string',
			default: '',
			placeholder: 'eudr-test',
			description:
				'The value shown in your profile\'s "Web Services Access". Empty: eudr-test, the Acceptance value; for Production enter the value from your profile. (A credential saved before this field was renamed keeps its client id until you enter one here.)',
		},
		{
			// the Web Service Client ID of a credential saved before the rename: n8n keeps only
			// the values of declared fields, so the older name stays declared (hidden)
			displayName: 'Web Service Client ID (saved under its older name)',
			name: 'clientId',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Operator Access Identifier',
			name: 'operatorAccessIdentifier',
			type: 'string',
			default: '',
			description:
				'Optional. The identifier assigned when access was requested for one of several operators (sent as the BodyIdentity header).',
		},
		{
			displayName: 'Echo Path',
			name: 'echoPath',
			type: 'string',
			default: DEFAULT_ECHO_PATH,
			description:
				'Path of the echo service under the address, used to test the credential (the older path is ws/EudrEchoService)',
			displayOptions: { show: { environment: ['custom'] } },
		},
		{
			displayName: 'Calls per Second',
			name: 'callsPerSecond',
			type: 'number',
			default: 5,
			typeOptions: { minValue: 0.1, maxValue: 5, numberPrecision: 2 },
			description:
				'How many calls a second this n8n process may start. The EU Information System accepts 5 a second from one address. In queue mode every worker keeps its own count: set 5 divided by the number of processes that run these workflows from the same address (2 workers: 2.5). The node also slows down by itself when the EU refuses a call for its limit, and sends that call again.',
		},
		{
			displayName: 'Checked At',
			name: 'checkedAt',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
	];

	/**
	 * The credential test: a call that needs the key (echo on Acceptance and custom URLs, a
	 * lookup on Production), whose failure is said in plain words (wrong key, clock, client
	 * id, environment). Run by n8n before the test request and when the stored check is empty.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		await checkEuCredential(this, credentials);
		return { checkedAt: new Date().toISOString() };
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ $credentials.environment === "custom" ? String($credentials.customUrl).trim().replace(/\\/+$/, "") + "/" : $credentials.environment === "production" ? "${EU_BASE_URLS.production}" : "${EU_BASE_URLS.acceptance}" }}`,
			url: 'ws/EUDRDueDiligenceStatementServiceV3?wsdl',
			method: 'GET',
			disableFollowRedirect: true,
		},
	};
}

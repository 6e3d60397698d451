import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	checkApiKey,
	checkRequestOrigin,
	normaliseBaseUrl,
} from '../nodes/shared/transport/credentialChecks';
import { baseUrlProperty } from './common';

export class GeospatialAnalysisApi implements ICredentialType {
	name = 'geospatialAnalysisApi';

	displayName = 'Geospatial Analysis API';

	icon: Icon = {
		light: 'file:../icons/geospatialAnalysis.svg',
		dark: 'file:../icons/geospatialAnalysis.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-geospatial-analysis/n8n-nodes-geospatial-analysis/blob/main/docs/geospatial-analysis/credentials.md';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'service_live_…',
			description:
				'A long-lived API key from the API page of your account. It starts with service_live_.',
		},
	];

	/**
	 * A function rather than a generic header template, so that a key of the wrong kind
	 * fails with a message saying so, before any request leaves n8n (and in the credential test),
	 * and so that the key is attached only to requests addressed to the Base URL's origin.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const key = checkApiKey(credentials.apiKey);
		checkRequestOrigin(normaliseBaseUrl(credentials.baseUrl), requestOptions);
		requestOptions.headers = { ...(requestOptions.headers ?? {}), Authorization: `Bearer ${key}` };
		return requestOptions;
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/users/check_tokens',
			method: 'GET',
			headers: { 'X-API-Version': '3', Accept: 'application/json' },
			// The test request carries the key: a redirect is never followed with it.
			disableFollowRedirect: true,
		},
	};
}

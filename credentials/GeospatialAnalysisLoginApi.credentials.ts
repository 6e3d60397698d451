import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { checkRequestOrigin, normaliseBaseUrl } from '../nodes/shared/transport/credentialChecks';
import { baseUrlProperty } from './common';
import { extractJwt } from './jwt';
import { logIn } from './login';

export class GeospatialAnalysisLoginApi implements ICredentialType {
	name = 'geospatialAnalysisLoginApi';

	displayName = 'Geospatial Analysis Login API';

	icon: Icon = {
		light: 'file:../icons/geospatialAnalysis.svg',
		dark: 'file:../icons/geospatialAnalysis.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-geospatial-analysis/n8n-nodes-geospatial-analysis/blob/main/docs/geospatial-analysis/credentials.md';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'Username',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			// Filled by preAuthentication; n8n calls it again when a request answers 401.
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * Logs in with HTTP Basic at POST /login and keeps the JWT it returns. The username and
	 * password go only to the Base URL's origin (login.ts: redirects elsewhere are refused).
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		const username = String(credentials.username ?? '');
		const password = String(credentials.password ?? '');
		const body = await logIn(this, baseUrl, username, password);
		const sessionToken = extractJwt(body);
		if (!sessionToken) {
			throw new Error(
				'The Geospatial Analysis Service answered the login without a session token. Check that the Base URL points at the service itself.',
			);
		}
		return { sessionToken };
	}

	/** The session token as Bearer, attached only to requests addressed to the Base URL's origin. */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		checkRequestOrigin(normaliseBaseUrl(credentials.baseUrl), requestOptions);
		requestOptions.headers = {
			...(requestOptions.headers ?? {}),
			Authorization: `Bearer ${String(credentials.sessionToken ?? '')}`,
		};
		return requestOptions;
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/users/check_tokens',
			method: 'GET',
			headers: { 'X-API-Version': '3', Accept: 'application/json' },
			// The test request carries the credential: a redirect is never followed with it.
			disableFollowRedirect: true,
		},
	};
}

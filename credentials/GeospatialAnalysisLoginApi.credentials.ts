import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { baseUrlProperty, normaliseBaseUrl } from './common';
import { extractJwt } from './jwt';

export class GeospatialAnalysisLoginApi implements ICredentialType {
	name = 'geospatialAnalysisLoginApi';

	displayName = 'Geospatial Analysis Login API';

	icon: Icon = {
		light: 'file:../icons/geospatialAnalysis.svg',
		dark: 'file:../icons/geospatialAnalysis.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-geospatial-analysis/n8n-nodes-geospatial-analysis#credentials';

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

	/** Logs in with HTTP Basic at POST /login and keeps the JWT it returns. */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		const username = String(credentials.username ?? '');
		const password = String(credentials.password ?? '');
		let body: unknown;
		try {
			body = await this.helpers.httpRequest({
				method: 'POST',
				url: `${baseUrl}/login`,
				auth: { username, password },
				headers: { 'X-API-Version': '3', Accept: 'application/json' },
				json: true,
			});
		} catch (error) {
			const status = (error as { response?: { status?: number } }).response?.status;
			if (status === 401) {
				throw new Error(
					'Login to the Geospatial Analysis Service failed: the username or password is wrong. Check them in the credential (accounts created through a third-party sign-in have no password: use an API key credential instead).',
				);
			}
			throw new Error(
				`Login to the Geospatial Analysis Service failed${status ? ` (HTTP ${status})` : ''}. Check the credential's Base URL and that the service is reachable.`,
			);
		}
		const sessionToken = extractJwt(body);
		if (!sessionToken) {
			throw new Error(
				'The Geospatial Analysis Service answered the login without a session token. Check that the Base URL points at the service itself.',
			);
		}
		return { sessionToken };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.sessionToken}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '/users/check_tokens',
			method: 'GET',
			headers: { 'X-API-Version': '3', Accept: 'application/json' },
		},
	};
}

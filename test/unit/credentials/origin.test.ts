/**
 * Defence in depth: both credentials attach their secret only to a request addressed to the
 * origin (scheme, host, port) of their Base URL; anything else fails before it is sent.
 */
import { GeospatialAnalysisApi } from '../../../credentials/GeospatialAnalysisApi.credentials';
import { GeospatialAnalysisLoginApi } from '../../../credentials/GeospatialAnalysisLoginApi.credentials';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'origin_test';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.b3JpZ2lu';
const BASE = 'https://api.example.com/v3/';

describe.each([
	['API key', () => new GeospatialAnalysisApi(), { baseUrl: BASE, apiKey: KEY }, `Bearer ${KEY}`],
	[
		'login',
		() => new GeospatialAnalysisLoginApi(),
		{ baseUrl: BASE, username: 'alice', password: 'pw', sessionToken: JWT },
		`Bearer ${JWT}`,
	],
])('%s credential', (_label, make, credentials, bearer) => {
	const credential = make();

	it.each([
		[{ url: 'https://api.example.com/v3/users/check_tokens' }],
		[{ url: '/users/check_tokens', baseURL: 'https://api.example.com/v3' }],
		[{ url: '/x' }],
	])('attaches the secret to a request to its own origin (%p)', async (request) => {
		const options = await credential.authenticate(credentials, { ...request, headers: {} });
		expect(options.headers).toEqual({ Authorization: bearer });
	});

	it.each([
		['another host', { url: 'https://cdn.example.net/a.png' }, 'https://cdn.example.net'],
		['http instead of https', { url: 'http://api.example.com/x' }, 'http://api.example.com'],
		['another port', { url: 'https://api.example.com:8443/x' }, 'https://api.example.com:8443'],
		[
			'another base',
			{ url: '/x', baseURL: 'https://evil.example.org' },
			'https://evil.example.org',
		],
	])(
		'refuses %s, naming both addresses, without the secret in the message',
		async (_l, request, origin) => {
			const attempt = credential.authenticate(credentials, { ...request, headers: {} });
			await expect(attempt).rejects.toThrow(
				`The credential is sent only to the address of its Base URL (https://api.example.com); this request was addressed to ${origin}, so it was not sent.`,
			);
			await attempt.catch((error: Error) => {
				expect(error.message).not.toContain(KEY);
				expect(error.message).not.toContain(JWT);
			});
		},
	);
});

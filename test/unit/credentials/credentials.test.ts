import { checkApiKey, normaliseBaseUrl } from '../../../nodes/shared/transport/credentialChecks';
import { GeospatialAnalysisApi } from '../../../credentials/GeospatialAnalysisApi.credentials';
import { GeospatialAnalysisLoginApi } from '../../../credentials/GeospatialAnalysisLoginApi.credentials';
import { extractJwt } from '../../../credentials/jwt';

// Made-up values (not secrets).
const FOREIGN_KEY = ['sk', 'test', 'secret123'].join('_');
const GOOD_KEY = 'service_live_' + 'abc';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';

describe('base URL', () => {
	it.each([
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['https://api.example.com/v1//', 'https://api.example.com/v1'],
		['  https://api.example.com  ', 'https://api.example.com'],
		['http://localhost:5680/', 'http://localhost:5680'],
		['http://127.0.0.1:5680', 'http://127.0.0.1:5680'],
		['http://127.1.2.3', 'http://127.1.2.3'],
		['http://[::1]:8080/', 'http://[::1]:8080'],
	])('accepts %s', (input, expected) => {
		expect(normaliseBaseUrl(input)).toBe(expected);
	});

	it.each([
		['http://api.example.com', /must start with https:\/\//],
		['ftp://api.example.com', /must start with https:\/\//],
		['api.example.com', /not a valid address/],
		['', /has no Base URL/],
		['https://api.example.com/?x=1', /must not contain a query/],
	])('rejects %s with a message saying what to do', (input, message) => {
		expect(() => normaliseBaseUrl(input)).toThrow(message);
	});
});

describe('API key credential', () => {
	const credential = new GeospatialAnalysisApi();

	it('sends the key as a Bearer token', async () => {
		const options = await credential.authenticate(
			{ baseUrl: 'https://api.example.com', apiKey: GOOD_KEY },
			{ url: '/x', headers: { 'X-API-Version': '3' } },
		);
		expect(options.headers).toEqual({
			'X-API-Version': '3',
			Authorization: 'Bearer service_live_abc',
		});
	});

	it('refuses a key without the service_live_ prefix, with a message that says so and does not echo it', async () => {
		await expect(
			credential.authenticate(
				{ baseUrl: 'https://api.example.com', apiKey: FOREIGN_KEY },
				{ url: '/x' },
			),
		).rejects.toThrow(/keys start with "service_live_"/);
		await credential
			.authenticate({ baseUrl: 'https://api.example.com', apiKey: FOREIGN_KEY }, { url: '/x' })
			.catch((error: Error) => expect(error.message).not.toContain(FOREIGN_KEY));
	});

	it('refuses an empty key', () => {
		expect(() => checkApiKey('')).toThrow(/has no API key/);
	});

	it('refuses an http base URL before sending the key anywhere', async () => {
		await expect(
			credential.authenticate(
				{ baseUrl: 'http://api.example.com', apiKey: GOOD_KEY },
				{ url: '/x' },
			),
		).rejects.toThrow(/https/);
	});

	it('tests the credential with GET /users/check_tokens and the version header', () => {
		expect(credential.test.request.url).toBe('/users/check_tokens');
		expect(credential.test.request.headers).toMatchObject({ 'X-API-Version': '3' });
	});
});

describe('login credential', () => {
	const credential = new GeospatialAnalysisLoginApi();

	it('keeps the session token in a hidden expirable field', () => {
		const field = credential.properties.find((p) => p.name === 'sessionToken');
		expect(field).toMatchObject({ type: 'hidden', typeOptions: { expirable: true } });
	});

	it('logs in with HTTP Basic at POST /login and keeps the JWT', async () => {
		const calls: unknown[] = [];
		const helpers = {
			helpers: {
				httpRequest: async (options: unknown) => {
					calls.push(options);
					return { token: JWT };
				},
			},
		};
		const out = await credential.preAuthentication.call(helpers as never, {
			baseUrl: 'https://api.example.com/',
			username: 'alice',
			password: 'pw',
		});
		expect(out).toEqual({ sessionToken: JWT });
		expect(calls[0]).toMatchObject({
			method: 'POST',
			url: 'https://api.example.com/login',
			auth: { username: 'alice', password: 'pw' },
			headers: { 'X-API-Version': '3' },
		});
	});

	it('says the username or password is wrong on 401, without echoing the password', async () => {
		const helpers = {
			helpers: {
				httpRequest: async () => {
					throw Object.assign(new Error('Request failed with status code 401'), {
						response: { status: 401 },
					});
				},
			},
		};
		const attempt = credential.preAuthentication.call(helpers as never, {
			baseUrl: 'https://api.example.com',
			username: 'alice',
			password: 'hunter2-secret',
		});
		await expect(attempt).rejects.toThrow(/username or password is wrong/);
		await attempt.catch((e: Error) => expect(e.message).not.toContain('hunter2-secret'));
	});
});

describe('extractJwt', () => {
	it.each([
		['{"token": …}', { token: JWT }],
		['another single string field', { access: JWT }],
		['a JWT among other strings', { user: 'alice', session: JWT }],
		['a bare JSON string', JWT],
		['a JSON-encoded string', JSON.stringify(JWT)],
		['a JSON object as text', JSON.stringify({ token: JWT })],
	])('accepts %s', (_label, body) => {
		expect(extractJwt(body)).toBe(JWT);
	});

	it.each([[{}], [null], [42], [{ a: 1 }], ['']])('finds nothing in %p', (body) => {
		expect(extractJwt(body)).toBeUndefined();
	});
});

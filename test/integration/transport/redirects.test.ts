/**
 * The credential goes only to its Base URL's origin: through n8n's engine against two
 * loopback servers (two ports = two origins; an http origin on another port stands for an
 * https → http downgrade). What reaches each server is asserted: no Authorization header and
 * no HTTP Basic login at any other origin, for apiRequest, the login (preAuthentication) and
 * the credential test request as n8n's RoutingNode sends it.
 */
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { GeospatialAnalysisApi } from '../../../credentials/GeospatialAnalysisApi.credentials';
import { GeospatialAnalysisLoginApi } from '../../../credentials/GeospatialAnalysisLoginApi.credentials';
import { MAX_REDIRECTS } from '../../../nodes/shared/transport/redirects';
import { CredentialStore, registerNodeType, runNode } from '../../helpers/engine';
import type { Loopback, SeenRequest } from '../../helpers/loopback';
import { BALANCE, json, redirect, startLoopback } from '../../helpers/loopback';
import { PROBE_NODE_TYPE } from '../../helpers/probe';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'redirect_test_key_0001';
const USER = 'alice';
const WORD = ['pass', 'word', 'redirect'].join('-');
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXJlZGlyZWN0';
const BASIC = `Basic ${Buffer.from(`${USER}:${WORD}`).toString('base64')}`;

/** A declarative node that sends a credential's `test.request` the way n8n's tester does. */
function credentialTestNode(name: string, credential: string, request: object): INodeType {
	return {
		description: {
			displayName: 'Credential Test',
			name,
			group: ['transform'],
			version: 1,
			description: 'Runs a credential test request through RoutingNode',
			defaults: { name: 'Credential Test' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credential, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', default: '', routing: { request } },
			],
		} as unknown as INodeTypeDescription,
	};
}
const API_KEY_TEST = 'test.credentialTestApiKey';
const LOGIN_TEST = 'test.credentialTestLogin';
registerNodeType(
	API_KEY_TEST,
	credentialTestNode(
		API_KEY_TEST,
		'geospatialAnalysisApi',
		new GeospatialAnalysisApi().test.request,
	),
);
registerNodeType(
	LOGIN_TEST,
	credentialTestNode(
		LOGIN_TEST,
		'geospatialAnalysisLoginApi',
		new GeospatialAnalysisLoginApi().test.request,
	),
);

/** Every credential-bearing header a request carried. */
function credentialsIn(request: SeenRequest): string[] {
	return [request.headers.authorization ?? ''].filter((v) => v !== '');
}

describe('the credential stays with its Base URL (engine → loopback servers)', () => {
	let service: Loopback;
	let other: Loopback;

	beforeAll(async () => {
		service = await startLoopback();
		other = await startLoopback((_req, res) => json(res, 200, BALANCE));
	});
	afterAll(async () => {
		await service.close();
		await other.close();
	});
	beforeEach(() => {
		service.requests.length = 0;
		other.requests.length = 0;
	});

	const apiKeyStore = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });
	const loginStore = (sessionToken = '') =>
		new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: service.url,
				username: USER,
				password: WORD,
				sessionToken,
			},
		});
	const balance = { resource: 'account', operation: 'getTokenBalance' };

	it('follows a same-origin redirect with the credential (307 and 301 on a GET)', async () => {
		service.handle((req, res) => {
			if (req.path === '/users/check_tokens') return redirect(res, 307, '/v3/users/check_tokens');
			if (req.path === '/v3/users/check_tokens')
				return redirect(res, 301, `${service.url}/final/check_tokens`);
			return json(res, 200, BALANCE);
		});
		const { items, error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ total: 100, reserved: 22, free: 78 });
		expect(service.requests.map((r) => r.path)).toEqual([
			'/users/check_tokens',
			'/v3/users/check_tokens',
			'/final/check_tokens',
		]);
		for (const r of service.requests) {
			expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
			expect(r.headers['x-api-version']).toBe('3');
		}
	});

	it.each([
		[302, 'GET'],
		[307, 'GET'],
		[308, 'POST'],
	])(
		'refuses a %i redirect of a %s to another origin, naming it; nothing reaches it',
		async (status, method) => {
			service.handle((req, res) => redirect(res, status, `${other.url}${req.url}`));
			const { error } =
				method === 'GET'
					? await runNode({ parameters: balance, store: apiKeyStore() })
					: await runNode({
							nodeType: PROBE_NODE_TYPE,
							parameters: {
								method: 'POST',
								path: '/protected-areas/checks',
								body: JSON.stringify({ plot_ids: ['1'] }),
							},
							store: apiKeyStore(),
						});
			expect(error?.message).toContain(`to another address (${other.url})`);
			expect(error?.message).toContain('the node did not follow it');
			expect(error?.description).toContain(`only to the address of its Base URL (${service.url})`);
			expect(other.requests).toHaveLength(0);
			// Refused, not retried.
			expect(service.requests).toHaveLength(1);
		},
	);

	it('refuses a change of scheme or host name on the same port (https → http and the like)', async () => {
		for (const target of [
			`https://127.0.0.1:${service.port}/users/check_tokens`,
			`http://localhost:${service.port}/users/check_tokens`,
		]) {
			service.requests.length = 0;
			service.handle((_req, res) => redirect(res, 302, target));
			const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
			expect(error?.message).toContain(`to another address (${new URL(target).origin})`);
			expect(service.requests).toHaveLength(1);
		}
	});

	it(`follows at most ${MAX_REDIRECTS} same-origin redirects`, async () => {
		let n = 0;
		service.handle((_req, res) => redirect(res, 302, `/loop/${++n}`));
		const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error?.message).toMatch(/with a redirect the node did not follow/);
		expect(error?.description).toContain(`at most ${MAX_REDIRECTS} are followed`);
		expect(service.requests).toHaveLength(MAX_REDIRECTS + 1);
	});

	it('never turns a POST into a GET on a 302', async () => {
		service.handle((_req, res) => redirect(res, 302, '/elsewhere'));
		const { error } = await runNode({
			nodeType: PROBE_NODE_TYPE,
			parameters: {
				method: 'POST',
				path: '/protected-areas/checks',
				body: JSON.stringify({ plot_ids: ['1'] }),
			},
			store: apiKeyStore(),
		});
		expect(error?.description).toMatch(/would turn this request into a GET/);
		expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /protected-areas/checks',
		]);
	});

	describe('login credential', () => {
		it('does not send the username and password to another origin when POST /login redirects', async () => {
			service.handle((req, res) => redirect(res, 307, `${other.url}${req.url}`));
			const store = loginStore();
			const { error } = await runNode({
				parameters: { ...balance, authentication: 'login' },
				store,
			});
			expect(error?.message).toMatch(/answered with a redirect that was not followed/);
			expect(error?.message).toContain(`another address (${other.url})`);
			expect(error?.message).not.toContain(WORD);
			expect(other.requests).toHaveLength(0);
			expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /login']);
			expect(service.requests[0].headers.authorization).toBe(BASIC);
		});

		it('follows a same-origin 307 of the login, then uses the JWT', async () => {
			service.handle((req, res) => {
				if (req.path === '/login') return redirect(res, 307, '/auth/login');
				if (req.path === '/auth/login') return json(res, 200, { token: JWT });
				return json(res, 200, BALANCE);
			});
			const store = loginStore();
			const { items, error } = await runNode({
				parameters: { ...balance, authentication: 'login' },
				store,
			});
			expect(error).toBeUndefined();
			expect(items[0].json.total).toBe(100);
			expect(service.requests.map((r) => `${r.method} ${r.path} ${credentialsIn(r)[0]}`)).toEqual([
				`POST /login ${BASIC}`,
				`POST /auth/login ${BASIC}`,
				`GET /users/check_tokens Bearer ${JWT}`,
			]);
			expect(store.data.geospatialAnalysisLoginApi.sessionToken).toBe(JWT);
		});

		it('does not send the JWT to another origin', async () => {
			service.handle((req, res) => redirect(res, 302, `${other.url}${req.url}`));
			const { error } = await runNode({
				parameters: { ...balance, authentication: 'login' },
				store: loginStore(JWT),
			});
			expect(error?.message).toContain(`to another address (${other.url})`);
			expect(other.requests).toHaveLength(0);
			expect(service.requests[0].headers.authorization).toBe(`Bearer ${JWT}`);
		});
	});

	describe("the credential test (n8n's RoutingNode sends the credential's test request)", () => {
		it('API key: a redirect to another origin is not followed', async () => {
			service.handle((req, res) => redirect(res, 302, `${other.url}${req.url}`));
			const { error } = await runNode({
				nodeType: API_KEY_TEST,
				parameters: {},
				store: apiKeyStore(),
			});
			expect(error).toBeDefined();
			expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'GET /users/check_tokens',
			]);
			expect(service.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
			expect(other.requests).toHaveLength(0);
		});

		it('API key: the test passes against the service itself', async () => {
			service.handle((_req, res) => json(res, 200, BALANCE));
			const { error } = await runNode({
				nodeType: API_KEY_TEST,
				parameters: {},
				store: apiKeyStore(),
			});
			expect(error).toBeUndefined();
			expect(service.requests).toHaveLength(1);
		});

		it('login: neither the password (login) nor the JWT (test request) reaches another origin', async () => {
			service.handle((req, res) => {
				if (req.path === '/login') return json(res, 200, { token: JWT });
				return redirect(res, 307, `${other.url}${req.url}`);
			});
			const { error } = await runNode({
				nodeType: LOGIN_TEST,
				parameters: { authentication: 'login' },
				store: loginStore(),
			});
			expect(error).toBeDefined();
			expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /login',
				'GET /users/check_tokens',
			]);
			expect(other.requests).toHaveLength(0);

			service.requests.length = 0;
			service.handle((req, res) => redirect(res, 308, `${other.url}${req.url}`));
			const second = await runNode({
				nodeType: LOGIN_TEST,
				parameters: { authentication: 'login' },
				store: loginStore(),
			});
			expect(second.error).toBeDefined();
			expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /login']);
			expect(other.requests).toHaveLength(0);
		});
	});
});

/**
 * The transport and both credential types, through n8n's execution engine, against the
 * fake service over loopback HTTP.
 */
import type { FakeService } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';
import { PROBE_NODE_TYPE } from '../../helpers/probe';

const JWT_LIFETIME_S = 600;
// Made-up values for the negative cases (not secrets).
const KEY_WITH_WRONG_PREFIX = ['sk', 'live', '123456'].join('_');
const BAD_LOGIN_WORD = ['wrong', 'word', '123'].join('-');
const UNKNOWN_KEY = 'service_live_' + 'not_a_real_key_000';

describe('transport and credentials (engine → fake over HTTP)', () => {
	let fake: FakeService;

	useFakeService(
		{ jwtLifetimeSeconds: JWT_LIFETIME_S, resetBeforeEach: true },
		(started) => (fake = started),
	);

	const apiKeyStore = () =>
		new CredentialStore({
			geospatialAnalysisApi: { baseUrl: `${fake.url}/`, apiKey: fake.users.alice.apiKey },
		});
	const loginStore = () =>
		new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: fake.users.alice.username,
				password: fake.users.alice.password,
				sessionToken: '',
			},
		});
	const balance = { resource: 'account', operation: 'getTokenBalance' };

	it('sends X-API-Version: 3 and the API key as Bearer; tolerates a trailing slash in the base URL', async () => {
		const { items, error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ total: 100000, reserved: 0, free: 100000 });
		const [entry] = fake.log.entries();
		expect(entry).toMatchObject({
			method: 'GET',
			path: '/users/check_tokens',
			status: 200,
			auth: 'api_key',
		});
		expect(entry.headers['x-api-version']).toBe('3');
		expect(entry.headers['content-type']).toBeUndefined();
	});

	it('reads the credential once per node run for its own checks, however many requests it sends', async () => {
		const store = apiKeyStore();
		const rows = Array.from({ length: 45 }, (_, i) => ({
			latitude: -10.123456 - i / 100,
			longitude: -50.123456,
		}));
		const { error } = await runNode({
			parameters: { resource: 'plot', operation: 'register' },
			input: rows,
			store,
		});
		expect(error).toBeUndefined();
		const requests = fake.log.count({ method: 'POST', path: '/plots/make_plot' });
		expect(requests).toBe(3);
		// n8n's request helper reads it once per request to authenticate; the node itself once.
		expect(store.reads).toBe(requests + 1);
	});

	it('adds Content-Type: application/json when there is a body', async () => {
		const { error } = await runNode({
			nodeType: PROBE_NODE_TYPE,
			parameters: {
				method: 'POST',
				path: '/protected-areas/checks',
				body: JSON.stringify({ plot_ids: [] }),
			},
			store: apiKeyStore(),
		});
		const entry = fake.log.entries().find((e) => e.path === '/protected-areas/checks');
		expect(entry?.headers['content-type']).toMatch(/^application\/json/);
		expect(entry?.headers['x-api-version']).toBe('3');
		// The fake refuses an empty check; that error still reads like the service's own.
		expect(error?.message).toBeTruthy();
	});

	it('logs in once with the login credential and reuses the JWT across executions', async () => {
		const store = loginStore();
		for (let run = 0; run < 3; run++) {
			const { items, error } = await runNode({
				parameters: { ...balance, authentication: 'login' },
				store,
			});
			expect(error).toBeUndefined();
			expect(items[0].json.free).toBe(100000);
		}
		expect(store.logins).toBe(1);
		expect(fake.log.count({ path: '/login' })).toBe(1);
		expect(
			fake.log
				.entries()
				.filter((e) => e.path === '/users/check_tokens')
				.every((e) => e.auth === 'jwt'),
		).toBe(true);
	});

	it('renews an expired JWT transparently (401 → login → retry once)', async () => {
		const store = loginStore();
		await runNode({ parameters: { ...balance, authentication: 'login' }, store });
		const firstToken = store.data.geospatialAnalysisLoginApi.sessionToken;
		fake.clock.advance((JWT_LIFETIME_S + 1) * 1000);
		fake.log.clear();

		const { items, error } = await runNode({
			parameters: { ...balance, authentication: 'login' },
			store,
		});
		expect(error).toBeUndefined();
		expect(items[0].json.free).toBe(100000);
		expect(store.logins).toBe(2);
		expect(store.data.geospatialAnalysisLoginApi.sessionToken).not.toBe(firstToken);
		// One 401 per renewal: the expired token is sent once, then the login, then the request.
		expect(fake.log.entries().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
			'GET /users/check_tokens 401',
			'POST /login 200',
			'GET /users/check_tokens 200',
		]);
	});

	it('renews a JWT that expires in the middle of an execution, without failing any item', async () => {
		const store = loginStore();
		// The first item's request is held, after the login, while the fake's clock passes the
		// JWT's expiry; then it reaches the service with the expired token.
		const held = fake.faults.hold({ method: 'GET', path: '/users/check_tokens' });
		const running = runNode({
			parameters: { ...balance, authentication: 'login' },
			input: [{ n: 1 }, { n: 2 }],
			store,
		});
		await held.arrived;
		fake.clock.advance((JWT_LIFETIME_S + 1) * 1000);
		held.release();
		const { items, error } = await running;
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(store.logins).toBe(2);
		expect(fake.log.count({ path: '/login' })).toBe(2);
	});

	it('retries a GET on 503 and 502 with backoff, then succeeds', async () => {
		fake.faults.add({
			kind: 'status',
			status: 503,
			times: 1,
			match: { path: '/users/check_tokens' },
		});
		fake.faults.add({
			kind: 'status',
			status: 502,
			times: 1,
			match: { path: '/users/check_tokens' },
		});
		const { items, error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error).toBeUndefined();
		expect(items[0].json.total).toBe(100000);
		expect(fake.log.entries().map((e) => e.status)).toEqual([503, 502, 200]);
	});

	it('honours Retry-After on a 429 for a GET', async () => {
		fake.faults.add({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 1,
			times: 1,
			match: { path: '/users/check_tokens' },
		});
		const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error).toBeUndefined();
		const [limited, ok] = fake.log.entries();
		expect(limited.status).toBe(429);
		expect(ok.status).toBe(200);
		expect(Date.parse(ok.at) - Date.parse(limited.at)).toBeGreaterThanOrEqual(950);
	});

	it('retries a GET whose connection dropped', async () => {
		fake.faults.add({ kind: 'drop-before', times: 1, match: { path: '/users/check_tokens' } });
		const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error).toBeUndefined();
		expect(fake.log.count({ path: '/users/check_tokens' })).toBe(2);
	});

	it('gives up on a GET after a bounded number of attempts, with the service message', async () => {
		fake.faults.add({
			kind: 'status',
			status: 503,
			times: 10,
			match: { path: '/users/check_tokens' },
		});
		const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error?.description).toMatch(/temporarily unavailable/);
		expect(fake.log.count({ path: '/users/check_tokens' })).toBe(4);
	});

	it.each([
		['503', { kind: 'status' as const, status: 503 as const }],
		['a connection dropped after processing', { kind: 'drop-after' as const }],
	])('never retries a POST after %s', async (_label, fault) => {
		fake.faults.add({
			...fault,
			times: 1,
			match: { method: 'POST', path: '/protected-areas/checks' },
		});
		const { error } = await runNode({
			nodeType: PROBE_NODE_TYPE,
			parameters: {
				method: 'POST',
				path: '/protected-areas/checks',
				body: JSON.stringify({ plot_ids: ['1'] }),
			},
			store: apiKeyStore(),
		});
		expect(error).toBeDefined();
		expect(fake.log.count({ method: 'POST', path: '/protected-areas/checks' })).toBe(1);
	});

	it('keeps a 429 Retry-After on the error when the retries of a POST run out', async () => {
		// A 429 is refused before processing, so even a POST is retried (a bounded number of times).
		fake.faults.add({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 1,
			times: 4,
			match: { method: 'POST' },
		});
		const { error } = await runNode({
			nodeType: PROBE_NODE_TYPE,
			parameters: {
				method: 'POST',
				path: '/protected-areas/checks',
				body: JSON.stringify({ plot_ids: ['1'] }),
			},
			store: apiKeyStore(),
		});
		expect(error?.httpCode).toBe('429');
		expect(fake.log.count({ method: 'POST', path: '/protected-areas/checks' })).toBe(4);
		expect(
			(error as unknown as { errorResponse: { retry_after_ms: number } }).errorResponse
				.retry_after_ms,
		).toBe(1000);
		expect(error?.description).toMatch(/retry after 1 s/);
	});

	it('maps a 500 to the service message with its log ID and what to do', async () => {
		fake.faults.add({
			kind: 'status',
			status: 500,
			times: 1,
			match: { path: '/users/check_tokens' },
		});
		const { error } = await runNode({ parameters: balance, store: apiKeyStore() });
		expect(error?.message).toMatch(
			/^There was an error processing your request\. It has been logged \(ID [0-9a-f]{16}\)\.$/,
		);
		expect(error?.description).toMatch(/logged it under ID [0-9a-f]{16}/);
		expect(error?.httpCode).toBe('500');
	});

	it('maps a 401 with a wrong key to the service message and a hint', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: UNKNOWN_KEY },
		});
		const { error } = await runNode({ parameters: balance, store });
		expect(error?.message).toBe('Credentials are required to access this resource.');
		expect(error?.description).toMatch(/Check the API key/);
	});

	it('refuses a key without the service_live_ prefix before sending anything', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: KEY_WITH_WRONG_PREFIX },
		});
		const { error } = await runNode({ parameters: balance, store });
		expect(error?.message).toMatch(/keys start with "service_live_"/);
		expect(fake.log.entries()).toHaveLength(0);
	});

	it('refuses a plain http base URL that is not loopback before sending anything', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: 'http://api.example.com', apiKey: fake.users.alice.apiKey },
		});
		const { error } = await runNode({ parameters: balance, store });
		expect(error?.message).toMatch(/must start with https:\/\//);
	});

	it('says the username or password is wrong when the login fails', async () => {
		const store = new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: 'alice',
				password: BAD_LOGIN_WORD,
				sessionToken: '',
			},
		});
		const { error } = await runNode({ parameters: { ...balance, authentication: 'login' }, store });
		expect(error?.message).toMatch(/username or password is wrong/);
		expect(JSON.stringify(error)).not.toContain(BAD_LOGIN_WORD);
	});

	describe('credential values never appear in an error', () => {
		const scenarios: Array<[string, () => void]> = [
			['500', () => fake.faults.add({ kind: 'status', status: 500, times: 1 })],
			['503 until giving up', () => fake.faults.add({ kind: 'status', status: 503, times: 10 })],
			['a dropped connection', () => fake.faults.add({ kind: 'drop-before', times: 10 })],
			['403 on a plot of another user', () => undefined],
		];

		it.each(scenarios)('API key, %s', async (label, inject) => {
			inject();
			const parameters = label.startsWith('403')
				? { method: 'GET', path: `/plots/plot/${fake.seedPlots('bob', 1)[0]}` }
				: { method: 'GET', path: '/users/check_tokens' };
			const store = apiKeyStore();
			const { error, run } = await runNode({ nodeType: PROBE_NODE_TYPE, parameters, store });
			expect(error).toBeDefined();
			const secret = fake.users.alice.apiKey;
			for (const text of [
				error!.message,
				error!.description ?? '',
				JSON.stringify(error),
				JSON.stringify(run.data),
			]) {
				expect(text).not.toContain(secret);
				expect(text).not.toContain(secret.slice('service_live_'.length));
			}
		});

		it.each(scenarios)('login, %s', async (label, inject) => {
			const store = loginStore();
			await runNode({ parameters: { ...balance, authentication: 'login' }, store });
			const jwt = String(store.data.geospatialAnalysisLoginApi.sessionToken);
			expect(jwt.length).toBeGreaterThan(20);
			inject();
			const parameters = label.startsWith('403')
				? {
						authentication: 'login',
						method: 'GET',
						path: `/plots/plot/${fake.seedPlots('bob', 1)[0]}`,
					}
				: { authentication: 'login', method: 'GET', path: '/users/check_tokens' };
			const { error, run } = await runNode({ nodeType: PROBE_NODE_TYPE, parameters, store });
			expect(error).toBeDefined();
			for (const text of [
				error!.message,
				error!.description ?? '',
				JSON.stringify(error),
				JSON.stringify(run.data),
			]) {
				expect(text).not.toContain(fake.users.alice.password);
				expect(text).not.toContain(jwt);
			}
		});
	});
});

/**
 * An unexpected answer is an error, never an empty or invented result; error bodies are
 * summarised; a refused TLS certificate says so. Through n8n's engine against a scripted
 * loopback service (and a self-signed HTTPS one).
 */
import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback } from '../../helpers/loopback';
import {
	json,
	notFound,
	startLoopback,
	startSelfSignedLoopback,
	text,
} from '../../helpers/loopback';
import { PROBE_NODE_TYPE } from '../../helpers/probe';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'shapes_test_key_0001';
const BIG = 50 * 1024;
const HTML_PAGE = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>proxy</p>'.repeat(BIG / 12)}</body></html>`;

describe('unexpected answers and error bodies (engine → loopback service)', () => {
	let service: Loopback;

	beforeAll(async () => {
		service = await startLoopback();
	});
	afterAll(async () => await service.close());
	beforeEach(() => {
		service.requests.length = 0;
		service.handle(notFound);
	});

	const store = (baseUrl = service.url) =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl, apiKey: KEY } });
	const answer = (path: string, send: Parameters<Loopback['handle']>[0]) =>
		service.handle((req, res) => (req.path === path ? send(req, res) : notFound(req, res)));

	describe('a 200 without the documented shape fails naming the endpoint', () => {
		it.each([
			[
				'no "plots" key',
				'{"items": []}',
				/GET \/plots cannot be followed: the answer has no "plots" list/,
			],
			['null', 'null', /^Unexpected answer from the service to GET \/plots: it was null$/],
			[
				'a truncated body',
				'{"plots": [{"plot_id": "1", "plot_name": "A"',
				/^Unexpected answer from the service to GET \/plots: it was text that is not JSON \(perhaps cut off\)/,
			],
			[
				'an HTML page',
				'<html><head><title>Sign in</title></head></html>',
				/^Unexpected answer from the service to GET \/plots: it was an HTML page titled "Sign in"$/,
			],
			['an empty body', '', /it was an empty answer$/],
		])('Plot → Get Many, %s: an error, not 0 plots', async (_label, body, message) => {
			answer('/plots', (_req, res) => text(res, 200, body, 'application/json'));
			const { items, error } = await runNode({
				parameters: { resource: 'plot', operation: 'getMany', returnAll: true },
				store: store(),
			});
			expect(error?.message).toMatch(message);
			expect(items).toHaveLength(0);
			// Not retried: the same request would get the same answer.
			expect(service.requests).toHaveLength(1);
		});

		it('Job → Get Many, a "jobs" that is not a list', async () => {
			answer('/jobs', (_req, res) => json(res, 200, { jobs: null, meta: { has_more: false } }));
			const { error } = await runNode({
				parameters: { resource: 'job', operation: 'getMany', limit: 5 },
				store: store(),
			});
			expect(error?.message).toMatch(
				/GET \/jobs cannot be followed: "jobs" is not a list \(it was null\)/,
			);
		});

		it('Account → Get Token Balance: none of the numbers is an error, not a row of nulls', async () => {
			answer('/users/check_tokens', (_req, res) => json(res, 200, { status: 'ok' }));
			const { items, error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance' },
				store: store(),
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toBe(
				'Unexpected answer from the service to GET /users/check_tokens: it carries none of the balance numbers (total, reserved, free tokens): it was a JSON object with the key "status"',
			);
		});

		it('Account → Get Token Balance: a truncated balance is an error', async () => {
			answer('/users/check_tokens', (_req, res) =>
				text(res, 200, '{"Token balance": 100, "Reserv', 'application/json'),
			);
			const { error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance' },
				store: store(),
			});
			expect(error?.message).toMatch(/GET \/users\/check_tokens: it was text that is not JSON/);
		});

		it('Plot → Register: an answer that is not a plot is an error saying plots may exist', async () => {
			answer('/plots/make_plot', (_req, res) => json(res, 200, { message: 'accepted' }));
			const { items, error } = await runNode({
				parameters: { resource: 'plot', operation: 'register' },
				input: [{ latitude: '-15.793889', longitude: '-47.882778' }],
				store: store(),
			});
			expect(items).toHaveLength(0);
			// An unreadable answer to a create may mean it was carried out: the exactly-once
			// recovery looks the plots up (this loopback service has no GET /plots, so the
			// lookup fails) and says the plot may exist instead of inviting a second attempt.
			expect(error?.message).toBe(
				'Item 0 may have been registered: the answer to the registration was lost or unreadable, and looking for the plots failed too',
			);
			expect(error?.description).toMatch(/not with what the endpoint documents/);
			expect(error?.description).toMatch(/Plot → Get Many/);
			expect(service.requests.filter((r) => r.path === '/plots/make_plot')).toHaveLength(1);
		});

		it('Capability → Get Many: a catalog that is no list is an error, not an empty catalog', async () => {
			answer('/v3/discovery/capabilities', (_req, res) => json(res, 200, { capabilities: 'eudr' }));
			const { items, error } = await runNode({
				parameters: { resource: 'capability', operation: 'getMany' },
				store: store(),
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toMatch(
				/GET \/v3\/discovery\/capabilities: it is not a list of capabilities/,
			);
		});
	});

	describe('an answer nested 20,000 levels deep (with an escape) is an unexpected answer, not a stack overflow', () => {
		const DEEP = `${'{"a":'.repeat(20_000)}"x\\\\y${KEY}"${'}'.repeat(20_000)}`;
		it.each([
			[
				400,
				/^Unexpected answer from the service to GET \/users\/check_tokens: it nests more than 100 levels deep$/,
			],
			[
				200,
				/^Unexpected answer from the service to GET \/users\/check_tokens: it nests more than 100 levels deep$/,
			],
		])('Account → Get Token Balance, HTTP %s', async (status, message) => {
			expect(DEEP).toContain('\\');
			expect(() => JSON.parse(DEEP) as unknown).not.toThrow();
			answer('/users/check_tokens', (_req, res) => text(res, status, DEEP, 'application/json'));
			const { items, error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance' },
				store: store(),
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toMatch(message);
			expect(error?.message).not.toMatch(/call stack/i);
			expect(JSON.stringify(error?.description ?? '')).not.toContain(KEY);
			// Not retried: the same request would get the same answer.
			expect(service.requests).toHaveLength(1);
		});
	});

	describe('error bodies are summarised: a few hundred characters, never 50 KB', () => {
		it('a proxy HTML page on 502: status and page title', async () => {
			answer('/protected-areas/checks', (_req, res) => text(res, 502, HTML_PAGE, 'text/html'));
			const { error } = await runNode({
				nodeType: PROBE_NODE_TYPE,
				parameters: {
					method: 'POST',
					path: '/protected-areas/checks',
					body: JSON.stringify({ plot_ids: ['1'] }),
				},
				store: store(),
			});
			expect(error?.message).toBe(
				'The service answered with an HTML page titled "502 Bad Gateway"',
			);
			expect(error?.httpCode).toBe('502');
			expect(error?.description?.length ?? 0).toBeLessThan(400);
			expect(JSON.stringify(error).length).toBeLessThan(5000);
		});

		it.each([
			['a 50 KB text body', 'text/plain', 'x'.repeat(BIG)],
			[
				'a JSON message of 50 KB',
				'application/json',
				JSON.stringify({ code: 400, message: 'y'.repeat(BIG) }),
			],
		])('%s on 400', async (_label, type, body) => {
			answer('/users/check_tokens', (_req, res) => text(res, 400, body, type));
			const { error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance' },
				store: store(),
			});
			expect(error?.message.length).toBeLessThanOrEqual(300);
			expect(error?.message).toMatch(/…$/);
			expect(JSON.stringify(error).length).toBeLessThan(5000);
		});
	});

	describe('a refused TLS certificate says so', () => {
		let tls: Loopback;
		beforeAll(async () => {
			tls = await startSelfSignedLoopback();
		});
		afterAll(async () => await tls.close());

		it('API key: a certificate problem, not "check the credential"; not retried', async () => {
			const { error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance' },
				store: store(tls.url),
			});
			expect(error?.message).toBe("The service's TLS certificate was not accepted");
			expect(error?.description).toMatch(
				/problem with the certificate of the address in the Base URL/,
			);
			expect(error?.description).toMatch(/self-signed/);
			expect(error?.description).toMatch(/DEPTH_ZERO_SELF_SIGNED_CERT/);
			expect(error?.description).not.toMatch(/Open the credential/);
			expect(tls.requests).toHaveLength(0);
		});

		it('login: the login names the certificate too', async () => {
			const { error } = await runNode({
				parameters: { resource: 'account', operation: 'getTokenBalance', authentication: 'login' },
				store: new CredentialStore({
					geospatialAnalysisLoginApi: {
						baseUrl: tls.url,
						username: 'alice',
						password: ['pass', 'word', 'tls'].join('-'),
						sessionToken: '',
					},
				}),
			});
			expect(error?.message).toBe("The service's TLS certificate was not accepted");
			expect(error?.description).toMatch(/not with the API key or password/);
			expect(tls.requests).toHaveLength(0);
		});
	});
});

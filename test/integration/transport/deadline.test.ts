/**
 * Every request has a deadline: through n8n's engine against loopback servers that trickle
 * one byte a second (n8n's idle timeout never fires on them) or never answer. The node ends
 * within its Request Timeout (bounds generous: seconds, not minutes), closes the connection,
 * and does not repeat the attempt. Also: one 401 per JWT renewal on a request that creates.
 */
import type { ServerResponse } from 'node:http';

import { CHECK_GRACE_MS } from '../../../nodes/shared/jobs/waitForJobs';
import type { FakeService } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';
import type { Loopback } from '../../helpers/loopback';
import { json, notFound, startLoopback } from '../../helpers/loopback';
import { until } from '../../helpers/until';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'deadline_test_key_0001';
const TIMEOUT_S = 2;
/** Far more than the deadline, far less than the minutes a trickle could last. */
const GENEROUS_MS = 20_000;

/** Sends the headers, then one byte a second, forever (until the client closes). */
function trickle(res: ServerResponse, type = 'application/json') {
	res.writeHead(200, { 'Content-Type': type });
	res.write('{');
	const timer = setInterval(() => res.write(' '), 1000);
	res.on('close', () => clearInterval(timer));
}

/** The deadline a request was given, from "The service did not answer within 3.9 s". */
function lastCheckDeadlineMs(message: unknown): number {
	const seconds = /did not answer within ([\d.]+) s/.exec(String(message))?.[1];
	if (seconds === undefined) throw new Error(`no request deadline in ${String(message)}`);
	return Number(seconds) * 1000;
}

describe('request deadlines (engine → loopback servers)', () => {
	let service: Loopback;
	let cdn: Loopback;

	beforeAll(async () => {
		service = await startLoopback();
		cdn = await startLoopback();
	});
	afterAll(async () => {
		await service.close();
		await cdn.close();
	});
	beforeEach(() => {
		for (const server of [service, cdn]) {
			server.requests.length = 0;
			server.abandoned = 0;
			server.handle(notFound);
		}
	});

	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });
	const balance = {
		resource: 'account',
		operation: 'getTokenBalance',
		requestTimeout: TIMEOUT_S,
	};

	it('a response that trickles one byte a second ends at the Request Timeout, connection closed', async () => {
		service.handle((_req, res) => trickle(res));
		const started = Date.now();
		const { error } = await runNode({ parameters: balance, store: store() });
		const elapsed = Date.now() - started;
		expect(error?.message).toBe(`The service did not answer within ${TIMEOUT_S} s`);
		expect(error?.description).toMatch(/Request Timeout/);
		expect(elapsed).toBeLessThan(GENEROUS_MS);
		// Abandoned once, not retried (a GET that timed out is not repeated).
		expect(service.requests).toHaveLength(1);
		await until(() => service.abandoned === 1);
		expect(service.abandoned).toBe(1);
	});

	it('a service that never answers ends at the Request Timeout', async () => {
		service.handle(() => undefined);
		const started = Date.now();
		const { error } = await runNode({ parameters: balance, store: store() });
		expect(error?.message).toBe(`The service did not answer within ${TIMEOUT_S} s`);
		expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
		expect(service.requests).toHaveLength(1);
		await until(() => service.abandoned === 1);
		expect(service.abandoned).toBe(1);
	});

	it('Wait for Completion against a silent service ends within Max Wait plus one Request Timeout', async () => {
		service.handle((req, res) => {
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			return undefined; // GET /jobs/job/… never answers
		});
		const maxWaitMs = 6_000;
		const started = Date.now();
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: '7001',
				maxWaitMinutes: maxWaitMs / 60_000,
				options: { firstCheckAfter: 0.5, pollIntervalCap: 1 },
				requestTimeout: TIMEOUT_S,
			},
			store: store(),
		});
		const elapsed = Date.now() - started;
		expect(error?.message).toMatch(/^Job still running after the Max Wait of 0\.1 min: 7001/);
		// Max Wait, plus at most one request deadline in flight, plus generous slack.
		expect(elapsed).toBeLessThan(maxWaitMs + TIMEOUT_S * 1000 + GENEROUS_MS);
		expect(elapsed).toBeGreaterThanOrEqual(maxWaitMs - 500);
		// Bounded in requests too: no more status checks than the time allows.
		const checks = service.requests.filter((r) => r.path === '/jobs/job/7001').length;
		expect(checks).toBeGreaterThan(0);
		expect(checks).toBeLessThanOrEqual(Math.ceil(maxWaitMs / 500) + 2);
	});

	it('Max Wait is a hard bound: 6 s against a status check that never answers ends with that check cut to what was left, naming the job', async () => {
		service.handle((req, res) => {
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			return undefined; // GET /jobs/job/… never answers
		});
		const started = Date.now();
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'waitForCompletion',
				jobIds: '7001, 7002',
				maxWaitMinutes: 0.1,
				// The default Request Timeout (60 s) and schedule: each check gets what is left.
			},
			store: store(),
		});
		const elapsed = Date.now() - started;
		expect(error?.message).toMatch(
			/^Jobs still running after the Max Wait of 0\.1 min: 7001 \(unknown\), 7002 \(unknown\); the last status check \(job 7001\) failed: The service did not answer within [\d.]+ s$/,
		);
		expect(error?.description).toMatch(
			/^The last status check of job 7001 failed: The service did not answer within [\d.]+ s\. /,
		);
		expect(elapsed).toBeGreaterThanOrEqual(6_000 - 500);
		// The feature itself is a bound on time: the last check got what was left of Max Wait
		// plus its grace (far below the 60 s a status request would take on its own). Read from
		// the deadline the node gave it, not from the clock, so a loaded machine cannot fail it.
		expect(lastCheckDeadlineMs(error?.message)).toBeLessThanOrEqual(6_000 + CHECK_GRACE_MS);
	});

	it.each([
		['version 1, Output Per-Plot Results', 1, { output: 'perPlot' }],
		['version 2, its default output (Per-Plot Results)', 2, {}],
	])(
		'Max Wait with On Timeout "Output Current Status", %s: a wholly silent service ends within Max Wait and the grace, one row per job naming it',
		async (_label, typeVersion, output) => {
			// Nothing answers: neither the status checks nor the catalog read for the rows.
			service.handle(() => undefined);
			const started = Date.now();
			const { items, error } = await runNode({
				typeVersion,
				parameters: {
					resource: 'job',
					operation: 'waitForCompletion',
					jobIds: '7001, 7002',
					maxWaitMinutes: 0.1,
					onTimeout: 'output',
					...output,
					// The default Request Timeout (60 s) and schedule: each request gets what is left.
				},
				store: store(),
			});
			const elapsed = Date.now() - started;
			expect(error).toBeUndefined();
			// A job whose status was never read is a row saying so, never no row at all.
			expect(items.map((i) => i.json.job_id)).toEqual(['7001', '7002']);
			const unknownRow = (why: string) => ({
				plot_id: null,
				job_status: null,
				timed_out: true,
				status: 'unknown',
				failed: null,
				failure_reason: `unknown: ${why}`,
				results_reason: `unknown: ${why}`,
				protected_area_overlap: null,
				protected_area_overlap_reason: `unknown: ${why}`,
				indigenous_land_overlap: null,
				risk_level: null,
			});
			// 7001 was checked (the check got what was left of Max Wait and did not answer)…
			expect(items[0].json).toMatchObject(
				unknownRow(
					'the status of the job was never read: no status check of it answered within Max Wait (the last one failed, see last_check_error), so its plots are not known',
				),
			);
			expect(items[0].json.last_check_error).toMatch(
				/^The service did not answer within [\d.]+ s$/,
			);
			// …and that check used up the time: 7002 could not be checked at all.
			expect(items[1].json).toMatchObject({
				...unknownRow(
					'the status of the job was never read: Max Wait ran out before a status check of it could be made, so its plots are not known',
				),
				last_check_error: null,
			});
			expect(elapsed).toBeGreaterThanOrEqual(6_000 - 500);
			// Max Wait plus the grace of the last request: the deadline the node gave that check.
			expect(lastCheckDeadlineMs(items[0].json.last_check_error)).toBeLessThanOrEqual(
				6_000 + CHECK_GRACE_MS,
			);
		},
	);

	it('an image download that trickles ends at the Request Timeout', async () => {
		service.handle((req, res) => {
			if (req.path === '/jobs/job/1')
				return json(res, 200, {
					job_id: '1',
					status: 'done',
					job_visualization_url: [`${cdn.url}/slow/1.png`],
				});
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			return notFound(req, res);
		});
		cdn.handle((_req, res) => trickle(res, 'image/png'));
		const started = Date.now();
		const { error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: '1',
				output: 'job',
				downloadImages: true,
				requestTimeout: TIMEOUT_S,
			},
			store: store(),
		});
		expect(error?.message).toBe(
			`Could not download the visualization at ${cdn.url}/slow/1.png: it did not arrive within ${TIMEOUT_S} s (the node's Request Timeout)`,
		);
		expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
		await until(() => cdn.abandoned === 1);
		expect(cdn.abandoned).toBe(1);
	});

	it('refuses a Request Timeout that is not a number of seconds, before any request', async () => {
		const { error } = await runNode({
			parameters: { ...balance, requestTimeout: 0 },
			store: store(),
		});
		expect(error?.message).toMatch(/^Request Timeout must be a number of seconds from 1 to 3600/);
		expect(service.requests).toHaveLength(0);
	});
});

describe('one 401 per JWT renewal, on a request that creates (engine → fake)', () => {
	let fake: FakeService;
	const LIFETIME_S = 600;
	useFakeService({ jwtLifetimeSeconds: LIFETIME_S }, (started) => (fake = started));

	it('make_plot: 401, login, the request once more; one plot registered', async () => {
		fake.reset();
		fake.clock.setScale(0);
		const store = new CredentialStore({
			geospatialAnalysisLoginApi: {
				baseUrl: fake.url,
				username: fake.users.alice.username,
				password: fake.users.alice.password,
				sessionToken: '',
			},
		});
		const balance = { resource: 'account', operation: 'getTokenBalance', authentication: 'login' };
		expect((await runNode({ parameters: balance, store })).error).toBeUndefined();
		fake.clock.advance((LIFETIME_S + 1) * 1000);
		fake.log.clear();
		const { items, error } = await runNode({
			parameters: { resource: 'plot', operation: 'register', authentication: 'login' },
			input: [{ latitude: '-15.793889', longitude: '-47.882778' }],
			store,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(fake.log.entries().map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
			'POST /plots/make_plot 401',
			'POST /login 200',
			'POST /plots/make_plot 200',
		]);
		expect(store.logins).toBe(2);
	});
});

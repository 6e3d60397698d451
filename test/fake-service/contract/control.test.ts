import { until, watch } from '../../helpers/until';
import { call, type Capability, f, fc, type PlotList, sq, T0, useFakeService } from './harness';

useFakeService();

describe('faults, log and the /__fake control surface', () => {
	test('429 with Retry-After for the next N matching requests', async () => {
		f.faults.add({
			kind: 'status',
			status: 429,
			retryAfterSeconds: 7,
			times: 2,
			match: { method: 'GET', path: '/plots' },
		});
		const a = await call('GET', '/plots');
		expect(a.status).toBe(429);
		expect(a.headers.get('retry-after')).toBe('7');
		expect(a.json).toEqual({ code: 429, message: 'HTTP 429 Too Many Requests' });
		expect((await call('GET', '/jobs')).status).toBe(200);
		expect((await call('GET', '/plots')).status).toBe(429);
		expect((await call('GET', '/plots')).status).toBe(200);
	});

	test('drop-after really processes the request; drop-before does not', async () => {
		f.faults.add({ kind: 'drop-after', match: { path: '/plots/make_plot' } });
		await expect(
			call('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)) } }),
		).rejects.toThrow();
		expect((await call<PlotList>('GET', '/plots')).json.plots).toHaveLength(1);
		f.faults.add({ kind: 'drop-before', match: { path: /make_plot$/ } });
		await expect(
			call('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)) } }),
		).rejects.toThrow();
		expect((await call<PlotList>('GET', '/plots')).json.plots).toHaveLength(1);
		const entries = f.log.entries().filter((e) => e.path === '/plots/make_plot');
		expect(entries.map((e) => [e.status, e.dropped, e.fault])).toEqual([
			[200, true, 'drop-after'],
			[0, true, 'drop-before'],
		]);
	});

	test('delay and 502/503/504', async () => {
		f.faults.add({ kind: 'delay', ms: 150 });
		const t = Date.now();
		expect((await call('GET', '/plots')).status).toBe(200);
		expect(Date.now() - t).toBeGreaterThanOrEqual(140);
		for (const s of [502, 503, 504] as const) {
			f.faults.add({ kind: 'status', status: s });
			expect((await call('GET', '/plots')).status).toBe(s);
		}
	});

	test('status-after and delay-after process the request first; skip lets requests through; peeks list plots and jobs', async () => {
		f.faults.add({ kind: 'status-after', status: 504, match: { path: '/plots/make_plot' } });
		const gateway = await call('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)) } });
		expect(gateway.status).toBe(504);
		expect(gateway.json).toEqual({ code: 504, message: 'HTTP 504 Gateway Timeout' });
		expect(f.plotsOf('alice')).toHaveLength(1);
		f.faults.add({ kind: 'delay-after', ms: 150, match: { path: '/plots/make_plot' } });
		const t = Date.now();
		const slow = call('POST', '/plots/make_plot', { body: { geojson: fc(sq(2, 2)) } });
		const answered = watch(slow);
		// stored before the answer: the answer leaves 150 ms after the store, on a timer that
		// fires after this check's (and the client reads it later still)
		await until(() => f.plotsOf('alice').length === 2);
		expect(answered.done).toBe(false);
		expect((await slow).status).toBe(200);
		expect(Date.now() - t).toBeGreaterThanOrEqual(140);
		f.faults.add({ kind: 'drop-after', ms: 100, skip: 1, match: { path: '/plots/make_plot' } });
		expect(
			(await call('POST', '/plots/make_plot', { body: { geojson: fc(sq(3, 3)) } })).status,
		).toBe(200);
		await expect(
			call('POST', '/plots/make_plot', { body: { geojson: fc(sq(4, 4)) } }),
		).rejects.toThrow();
		expect(f.plotsOf('alice')).toHaveLength(4);
		const entries = f.log.entries().filter((e) => e.path === '/plots/make_plot');
		expect(entries.map((e) => [e.status, e.fault, e.dropped])).toEqual([
			[200, 'status-after', undefined],
			[200, 'delay-after', undefined],
			[200, undefined, undefined],
			[200, 'drop-after', true],
		]);
		expect(f.jobsOf('alice')).toEqual([]);
		expect(() => f.faults.add({ kind: 'status-after', status: 503 as 502 })).toThrow(/502 or 504/);
		expect(() => f.faults.add({ kind: 'status', status: 503, skip: -1 })).toThrow(/skip/);
	});

	test('the log counts requests and holds no secrets', async () => {
		const basic = 'Basic ' + Buffer.from(`alice:${f.users.alice.password}`).toString('base64');
		const tok = (
			await call<{ token: string }>('POST', '/login', {
				who: 'none',
				headers: { authorization: basic },
			})
		).json.token;
		await call('GET', '/plots', { bearer: tok });
		await call('GET', '/plots');
		await call('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)), notes: 'x' } });
		expect(f.log.count()).toBe(4);
		expect(f.log.count({ method: 'GET', path: '/plots' })).toBe(2);
		expect(f.log.count({ path: /^\/plots/ })).toBe(3);
		const e = f.log.entries();
		expect(e[1]).toMatchObject({
			method: 'GET',
			path: '/plots',
			status: 200,
			user: 'alice',
			auth: 'jwt',
		});
		expect(e[2].auth).toBe('api_key');
		expect(e[3].body).toMatchObject({ notes: 'x' });
		const dump = JSON.stringify(e);
		for (const secret of [f.users.alice.password, f.users.alice.apiKey, tok, basic])
			expect(dump).not.toContain(secret);
		expect(e.every((x) => x.headers.authorization === undefined)).toBe(true);
		f.log.clear();
		expect(f.log.count()).toBe(0);
	});

	test('HTTP control surface', async () => {
		const post = (path: string, body?: unknown) =>
			fetch(f.url + path, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body ?? {}),
			}).then((r) => r.json() as Promise<unknown>);
		const users = (await (await fetch(`${f.url}/__fake/users`)).json()) as {
			users: Array<{ key: string }>;
		};
		expect(users.users[0]).toEqual({ key: 'alice', ...f.users.alice, roles: ['analyst'] });
		expect(users.users.map((u) => u.key)).toEqual(['alice', 'bob', 'viewer']);
		await post('/__fake/clock/set', { iso: '2026-05-05T00:00:00Z' });
		expect(f.clock.now().toISOString()).toBe('2026-05-05T00:00:00.000Z');
		await post('/__fake/clock/scale', { factor: 0 });
		await post('/__fake/clock/advance', { ms: 60000 });
		expect(f.clock.now().toISOString()).toBe('2026-05-05T00:01:00.000Z');
		await post('/__fake/balance', { username: 'bob', total: 5 });
		expect((await call('GET', '/users/check_tokens', { who: 'bob' })).json).toEqual({
			'Token balance': 5,
			'Reserved Tokens': 0,
			'Free Tokens': 5,
		});
		await post('/__fake/faults', {
			kind: 'status',
			status: 503,
			match: { pathRegex: '^/jobs' },
			times: 1,
		});
		expect((await call('GET', '/jobs')).status).toBe(503);
		await post('/__fake/faults', { kind: 'status', status: 503 });
		await fetch(`${f.url}/__fake/faults`, { method: 'DELETE' });
		expect((await call('GET', '/jobs')).status).toBe(200);
		await post('/__fake/capabilities', {
			name: 'owl_survey',
			label: 'Owl Survey',
			description: 'Owls',
		});
		expect(
			(await call<Capability[]>('GET', '/v3/discovery/capabilities')).json.map((c) => c.name),
		).toContain('owl_survey');
		const log = (await (await fetch(`${f.url}/__fake/log`)).json()) as {
			entries: Array<{ path: string }>;
		};
		expect(log.entries.map((e) => e.path)).toEqual([
			'/users/check_tokens',
			'/jobs',
			'/jobs',
			'/v3/discovery/capabilities',
		]);
		await fetch(`${f.url}/__fake/log`, { method: 'DELETE' });
		expect(f.log.count()).toBe(0);
		await post('/__fake/seed/plots', { username: 'alice', count: 3 });
		expect((await call<PlotList>('GET', '/plots')).json.plots).toHaveLength(3);
		const beforeReset = Date.now();
		await post('/__fake/reset');
		expect((await call<PlotList>('GET', '/plots')).json.plots).toHaveLength(0);
		expect(f.getBalance('bob').total).toBe(100000);
		// back at T0, running at real speed since the reset (however slow this machine is)
		const sinceReset = f.clock.now().getTime() - T0.getTime();
		expect(sinceReset).toBeGreaterThanOrEqual(0);
		expect(sinceReset).toBeLessThanOrEqual(Date.now() - beforeReset);
		expect((await call<Capability[]>('GET', '/v3/discovery/capabilities')).json).toHaveLength(28);
	});
});

import {
	call,
	f,
	fc,
	type Job,
	makePlot,
	type RunList,
	sq,
	useFakeService,
	type Who,
} from './harness';

useFakeService();

describe('authentication', () => {
	const basic = (u: string, p: string) => 'Basic ' + Buffer.from(`${u}:${p}`).toString('base64');

	test('login returns a JWT usable as bearer until it expires on the fake clock', async () => {
		const r = await call<{ token: string }>('POST', '/login', {
			who: 'none',
			headers: { authorization: basic('alice', f.users.alice.password) },
		});
		expect(r.status).toBe(200);
		expect(Object.keys(r.json)).toEqual(['token']);
		const token = r.json.token as string;
		expect(token.split('.')).toHaveLength(3);
		const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
		expect(payload.exp - payload.iat).toBe(3600);
		expect(payload.sub).toBe('alice');
		expect((await call('GET', '/users/check_tokens', { bearer: token })).status).toBe(200);
		f.clock.advance(3599_000);
		expect((await call('GET', '/users/check_tokens', { bearer: token })).status).toBe(200);
		f.clock.advance(2_000);
		const expired = await call('GET', '/users/check_tokens', { bearer: token });
		expect(expired.status).toBe(401);
		expect(expired.text).toBe('Credentials are required to access this resource.');
	});

	test('login failures are plain string bodies with a JSON content type', async () => {
		const missing = await call('POST', '/login', { who: 'none' });
		expect(missing.status).toBe(400);
		expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
		expect(typeof missing.json).toBe('string');
		const malformed = await call('POST', '/login', {
			who: 'none',
			headers: { authorization: 'Basic %%%notbase64' },
		});
		expect(malformed.status).toBe(400);
		const wrong = await call('POST', '/login', {
			who: 'none',
			headers: { authorization: basic('alice', 'nope') },
		});
		expect(wrong.status).toBe(401);
		expect(wrong.headers.get('content-type')).toMatch(/^application\/json/);
		expect(wrong.json).toBe('Invalid username or password');
		expect(wrong.text).not.toContain('nope');
	});

	test('API keys start with service_live_ and identify distinct users', async () => {
		for (const u of Object.values(f.users)) expect(u.apiKey.startsWith('service_live_')).toBe(true);
		expect(new Set(Object.values(f.users).map((u) => u.apiKey)).size).toBe(3);
	});

	test('missing or invalid bearer → 401 text/plain with WWW-Authenticate', async () => {
		for (const o of [
			{ who: 'none' as Who },
			{ bearer: 'service_live_bogus' },
			{ bearer: 'not.a.jwt' },
			{ who: 'none' as Who, headers: { authorization: 'Basic abc' } },
		]) {
			const r = await call('GET', '/plots', o);
			expect(r.status).toBe(401);
			expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
			expect(r.text).toBe('Credentials are required to access this resource.');
			expect(r.headers.get('www-authenticate')).toBe('Bearer realm="realm"');
		}
	});

	test("another user's plot, job and run → 403 Unauthorized access to entity retrieved", async () => {
		const p = await makePlot();
		const j = (await call<Job>('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } })).json;
		f.clock.advance(5000);
		const runs = (await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json.runs;
		for (const path of [
			`/plots/plot/${p.plot_id}`,
			`/jobs/job/${j.job_id}`,
			`/analysis-runs/${runs[0].run_id}`,
			`/analysis-runs?plot_id=${p.plot_id}`,
		]) {
			const r = await call('GET', path, { who: 'bob' });
			expect(r.status).toBe(403);
			expect(r.json).toEqual({ code: 403, message: 'Unauthorized access to entity retrieved' });
		}
		const job = await call('POST', '/jobs/make_job', {
			who: 'bob',
			body: { plot_ids: [p.plot_id] },
		});
		expect(job.json).toEqual({ code: 403, message: 'Unauthorized access to entity retrieved' });
		const pa = await call('POST', '/protected-areas/checks', {
			who: 'bob',
			body: { plot_ids: [p.plot_id] },
		});
		expect(pa.status).toBe(403);
	});

	test('a user without the analyst role → 403 HTTP 403 Forbidden', async () => {
		const p = await makePlot(sq(-55.5, -6.5), {}, 'viewer').catch(() => undefined);
		expect(p).toBeUndefined();
		for (const [path, body] of [
			['/plots/make_plot', { geojson: fc(sq(1, 1)) }],
			['/jobs/make_job', { plot_ids: ['100001'] }],
			['/protected-areas/checks', { geojson: fc(sq(1, 1)) }],
		] as const) {
			const r = await call('POST', path, { who: 'viewer', body });
			expect(r.status).toBe(403);
			expect(r.json).toEqual({ code: 403, message: 'HTTP 403 Forbidden' });
		}
		expect((await call('GET', '/plots', { who: 'viewer' })).status).toBe(200);
	});
});

import { call, f, fc, type JobList, makePlot, type PlotList, sq, useFakeService } from './harness';

useFakeService();

describe('errors table', () => {
	test('syntactically invalid JSON', async () => {
		for (const path of ['/plots/make_plot', '/jobs/make_job', '/protected-areas/checks']) {
			const r = await call('POST', path, {
				raw: '{"geojson": ',
				headers: { 'content-type': 'application/json' },
			});
			expect(r.status).toBe(400);
			expect(r.json).toEqual({ code: 400, message: 'Unable to process JSON' });
		}
	});

	test('unknown body property', async () => {
		const a = await call('POST', '/plots/make_plot', {
			body: { geojson: fc(sq(1, 1)), colour: 'red' },
		});
		expect(a.json).toEqual({
			code: 400,
			message: 'Unable to process JSON: Unknown property: colour',
		});
		const p = await makePlot();
		const b = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], priority: 1 },
		});
		expect(b.json).toEqual({
			code: 400,
			message: 'Unable to process JSON: Unknown property: priority',
		});
		const c = await call('POST', '/protected-areas/checks', {
			body: { plot_ids: [p.plot_id], foo: 1 },
		});
		expect(c.json).toEqual({ code: 400, message: 'Unable to process JSON: Unknown property: foo' });
	});

	test('unknown check type lists the allowed types', async () => {
		const p = await makePlot();
		const r = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], checks: [{ type: 'teleportation' }] },
		});
		expect(r.status).toBe(400);
		expect(r.json.code).toBe(400);
		expect(r.json.message).toMatch(
			/^Invalid check type 'teleportation'\. Allowed types: eudr, deforestation, protected_area, /,
		);
		expect(r.json.message).toContain('visual_verification');
	});

	test('unknown commodity at registration and at job time', async () => {
		const allowed = 'wood, soy, cocoa, coffee, palm_oil, beef, rubber';
		const a = await call('POST', '/plots/make_plot', {
			body: { geojson: fc(sq(1, 1)), commodity: 'tea' },
		});
		expect(a.json).toEqual({
			code: 400,
			message: `Invalid commodity 'tea'. Allowed types: ${allowed}`,
		});
		const p = await makePlot();
		const b = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], config: { commodity: 'gold' } },
		});
		expect(b.json).toEqual({
			code: 400,
			message: `Invalid commodity 'gold'. Allowed types: ${allowed}`,
		});
		const c = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], per_plot: { [p.plot_id]: { commodity: 'Cocoa' } } },
		});
		expect(c.json.message).toBe(`Invalid commodity 'Cocoa'. Allowed types: ${allowed}`);
	});

	test('unclosed ring', async () => {
		const g = {
			type: 'Polygon',
			coordinates: [
				[
					[0, 0],
					[0.01, 0],
					[0.01, 0.01],
					[0, 0.01],
				],
			],
		};
		const r = await call('POST', '/plots/make_plot', { body: { geojson: fc(g) } });
		expect(r.status).toBe(400);
		expect(r.json.code).toBe(400);
		expect(r.json.message.startsWith('Invalid Polygon in GeoJSON: the ring is not closed.')).toBe(
			true,
		);
		expect(r.json.message).toMatch(/first and last coordinate of a linear ring must be identical/);
	});

	test.each([
		[
			'self-intersecting bow tie',
			{
				type: 'Polygon',
				coordinates: [
					[
						[0, 0],
						[0.01, 0.01],
						[0.01, 0],
						[0, 0.01],
						[0, 0],
					],
				],
			},
			/self-intersects/,
		],
		[
			'ring with fewer than 4 positions',
			{
				type: 'Polygon',
				coordinates: [
					[
						[0, 0],
						[0.01, 0],
						[0, 0],
					],
				],
			},
			/at least 4 positions/,
		],
		['latitude out of range', sq(10, 95), /latitude 95 is out of range/],
		['longitude out of range', sq(200, 10), /longitude 200 is out of range/],
		[
			'unsupported type',
			{
				type: 'LineString',
				coordinates: [
					[0, 0],
					[1, 1],
				],
			},
			/unsupported geometry type 'LineString'/,
		],
		['missing geometry', null, /geometry is required/],
		['non-numeric position', { type: 'Point', coordinates: ['a', 1] }, /array of 2 or 3 numbers/],
		['point_ha of 4.0', { type: 'Point', coordinates: [1, 1], _pointHa: 4.0 }, /point_ha/],
	])('other invalid geometry: %s', async (_name, geom, re) => {
		const feature: { type: string; properties: Record<string, unknown>; geometry: unknown } = {
			type: 'Feature',
			properties: {},
			geometry: geom,
		};
		if (geom && '_pointHa' in geom && geom._pointHa) {
			feature.properties.point_ha = geom._pointHa;
			feature.geometry = { type: 'Point', coordinates: [1, 1] };
		}
		const r = await call('POST', '/plots/make_plot', {
			body: { geojson: { type: 'FeatureCollection', features: [feature] } },
		});
		expect(r.status).toBe(400);
		expect(r.json.code).toBe(400);
		expect(r.json.message).toMatch(/^Invalid Geometry in GeoJSON: /);
		expect(r.json.message).toMatch(re);
	});

	test('invalid cursor and limit on GET /plots and GET /jobs: code is a string', async () => {
		for (const path of ['/plots', '/jobs']) {
			const bad = await call('GET', `${path}?cursor=bm9wZQ`);
			expect(bad.status).toBe(400);
			expect(bad.json).toEqual({ code: '400', message: 'Cursor not found' });
			const garbage = await call('GET', `${path}?cursor=%25%25%25`);
			expect(garbage.json).toEqual({ code: '400', message: 'Cursor not found' });
			const limit = await call('GET', `${path}?limit=1001`);
			expect(limit.status).toBe(400);
			expect(limit.json.code).toBe('400');
			const date = await call('GET', `${path}?created_at_from=yesterday`);
			expect(date.status).toBe(400);
			expect(date.json.code).toBe('400');
		}
		f.seedPlots('alice', 3);
		const page = await call<PlotList>('GET', '/plots?limit=1');
		const jobsWithPlotCursor = await call('GET', `/jobs?cursor=${page.json.meta.next_cursor}`);
		expect(jobsWithPlotCursor.json).toEqual({ code: '400', message: 'Cursor not found' });
	});

	test('insufficient tokens outside make_job (protected-areas check) → plain string body', async () => {
		f.setBalance('alice', 0);
		const r = await call('POST', '/protected-areas/checks', { body: { geojson: fc(sq(1, 1)) } });
		expect(r.status).toBe(400);
		expect(r.headers.get('content-type')).toMatch(/^application\/json/);
		expect(typeof r.json).toBe('string');
		expect(r.json).toMatch(/Insufficient tokens/);
	});

	test('insufficient tokens inside make_job → its own body shape, nothing reserved', async () => {
		const p = await makePlot();
		f.setBalance('alice', 3);
		const r = await call('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ error: 'Insufficient tokens', required: p.tokens_cost, available: 3 });
		expect(f.getBalance('alice')).toEqual({ total: 3, reserved: 0, free: 3 });
		expect((await call<JobList>('GET', '/jobs')).json.jobs).toHaveLength(0);
	});

	test('token balance lookup failure → 404 plain string', async () => {
		f.deleteBalance('alice');
		const r = await call('GET', '/users/check_tokens');
		expect(r.status).toBe(404);
		expect(typeof r.json).toBe('string');
		expect(r.headers.get('content-type')).toMatch(/^application\/json/);
	});

	test('404 for unknown paths and non-numeric path parameters', async () => {
		for (const path of [
			'/nope',
			'/plots/plot/abc',
			'/jobs/job/12x',
			'/analysis-runs/run-1',
			'/protected-areas/areas/abc',
			'/protected-areas/abc',
			'/plots/plot/999999999',
			'/v2/discovery/capabilities',
		]) {
			const r = await call('GET', path);
			expect([path, r.status]).toEqual([path, 404]);
			expect(r.json).toEqual({ code: 404, message: 'HTTP 404 Not Found' });
		}
	});

	test('405 for a wrong method on a known path', async () => {
		for (const [m, path] of [
			['DELETE', '/plots'],
			['GET', '/plots/make_plot'],
			['POST', '/plots'],
			['GET', '/protected-areas/checks'],
			['PUT', '/jobs/job/1'],
		]) {
			const r = await call(m, path);
			expect(r.status).toBe(405);
			expect(r.json).toEqual({ code: 405, message: 'HTTP 405 Method Not Allowed' });
		}
	});

	test('406 when Accept excludes JSON; JSON, wildcards and no Accept are fine', async () => {
		const r = await call('GET', '/plots', { headers: { accept: 'text/html' } });
		expect(r.status).toBe(406);
		expect(r.json).toEqual({ code: 406, message: 'HTTP 406 Not Acceptable' });
		for (const a of ['application/json', '*/*', 'text/html, application/json;q=0.9', ''])
			expect((await call('GET', '/plots', { headers: { accept: a } })).status).toBe(200);
	});

	test('415 for POST without application/json', async () => {
		const none = await call('POST', '/jobs/make_job', { raw: '{"plot_ids":["1"]}' });
		expect(none.status).toBe(415);
		expect(none.json).toEqual({ code: 415, message: 'HTTP 415 Unsupported Media Type' });
		const text = await call('POST', '/plots/make_plot', {
			raw: '{}',
			headers: { 'content-type': 'text/plain' },
		});
		expect(text.status).toBe(415);
	});

	test('500 hides details behind a 16-hex-digit log id', async () => {
		f.faults.add({ kind: 'status', status: 500, match: { path: '/plots' } });
		const r = await call('GET', '/plots');
		expect(r.status).toBe(500);
		expect(r.json.code).toBe(500);
		expect(r.json.message).toMatch(
			/^There was an error processing your request\. It has been logged \(ID [0-9a-f]{16}\)\.$/,
		);
	});
});

/**
 * Contract tests of the fake, over real loopback HTTP.
 * Run: npx jest test/fake-service
 */
import { startFakeService, type FakeService } from './index';

const T0 = new Date('2026-03-01T12:00:00Z');
let f: FakeService;

type Who = 'alice' | 'bob' | 'viewer' | 'none';
interface Opts {
	who?: Who;
	body?: unknown;
	raw?: string;
	headers?: Record<string, string>;
	version?: string | null;
	bearer?: string;
}
interface Res<T> {
	status: number;
	headers: Headers;
	text: string;
	/** the parsed body, typed as the caller expects it (the assertions check it); undefined when not JSON */
	json: T;
}

// Bodies of the service's answers, as far as these tests read them.
interface ErrorBody {
	code: number | string;
	message: string;
	error?: string;
}
interface Meta {
	next_cursor: string | null;
	limit: number;
	count: number;
	has_more: boolean;
}
interface PaSummary {
	protected_area_overlap: boolean;
	total_overlap_percentage: number;
	total_overlap_area_ha: number;
	most_restrictive_extractive_activity_legality: string | null;
}
interface ProtectedAreaResult {
	protected_area_overlap_summary: PaSummary;
	protected_area_details: Array<Record<string, unknown> & { area_name: string }>;
}
interface Analysis extends Record<string, unknown> {
	risk_level?: string;
	areaHa: number;
	protectedAreas: Array<[string, number]>;
	protected_areas: ProtectedAreaResult;
	indigenous_land: {
		indigenous_land_overlap_summary: { indigenous_land_overlap: boolean };
		indigenous_land_details: Array<Record<string, unknown>>;
	};
}
interface Plot {
	plot_id: string;
	plot_name: string;
	username: string;
	commodity: string | null;
	country: string;
	lat: string;
	lon: string;
	area_ha: number;
	tokens_cost: number;
	created_at: string;
	analysis: Analysis;
	analysis_image: string;
	geojson_features: Array<{ geometry: { type: string } }>;
}
interface PlotList {
	plots: Plot[];
	meta: Meta;
}
interface Job {
	job_id: string;
	status: string;
	token_cost: number;
	created_at: string;
	updated_at: string;
	job_visualization_url: string[];
	plots: Plot[];
}
interface JobList {
	jobs: Job[];
	meta: Meta;
}
interface Quote {
	dry_run: boolean;
	token_cost: number;
	plots: unknown[];
	sufficient: boolean;
	checks: Array<{ type: string; config: Record<string, unknown> }>;
}
interface Run {
	run_id: string;
	check_type: string;
	status: string;
	started_at: string | null;
	finished_at: string | null;
	artifacts: Array<{ type: string; url: string }>;
	output?: Record<string, unknown> & { risk_level?: string };
}
interface RunList {
	runs: Run[];
}
interface Capability {
	name: string;
	label: string;
	description: string;
	result_key?: string;
	methodology?: string;
	cost_hint: { currency: string };
}
interface PaFeatureCollection {
	type: string;
	features: Array<{
		type: string;
		properties: ProtectedAreaResult & Record<string, unknown>;
		geometry: { type: string };
	}>;
	sources: Array<{ data_version: string }>;
}

async function call<T = ErrorBody>(method: string, path: string, o: Opts = {}): Promise<Res<T>> {
	const headers: Record<string, string> = {};
	if (o.version !== null) headers['x-api-version'] = o.version ?? '3';
	const who = o.who ?? 'alice';
	if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
	else if (who !== 'none') headers.authorization = `Bearer ${f.users[who].apiKey}`;
	let body: string | undefined;
	if (o.raw !== undefined) body = o.raw;
	else if (o.body !== undefined) {
		body = JSON.stringify(o.body);
		headers['content-type'] = 'application/json';
	}
	Object.assign(headers, o.headers ?? {});
	for (const k of Object.keys(headers)) if (headers[k] === '') delete headers[k];
	const r = await fetch(f.url + path, { method, headers, body });
	const text = await r.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: r.status, headers: r.headers, text, json: json as T };
}

const sq = (lon: number, lat: number, d = 0.01) => ({
	type: 'Polygon',
	coordinates: [
		[
			[lon, lat],
			[lon + d, lat],
			[lon + d, lat + d],
			[lon, lat + d],
			[lon, lat],
		],
	],
});
const fc = (...geoms: unknown[]) => ({
	type: 'FeatureCollection',
	features: geoms.map((g) => ({ type: 'Feature', properties: {}, geometry: g })),
});

async function makePlot(
	geom: unknown = sq(-55.5, -6.5),
	extra: Record<string, unknown> = {},
	who: Who = 'alice',
) {
	const r = await call<Plot>('POST', '/plots/make_plot', {
		who,
		body: { geojson: fc(geom), commodity: 'cocoa', ...extra },
	});
	expect(r.status).toBe(200);
	return r.json;
}

beforeAll(async () => {
	f = await startFakeService({ startTime: T0, perPlotDurationMs: 1000 });
});
afterAll(async () => {
	await f.close();
});
beforeEach(() => {
	f.reset();
	f.clock.setScale(0);
});
afterEach(() => {
	expect(f.internalErrors()).toEqual([]);
});

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

describe('versioning', () => {
	test('missing X-API-Version → MISSING_API_VERSION', async () => {
		const r = await call('GET', '/plots', { version: null });
		expect(r.status).toBe(400);
		expect(r.json.code).toBe(400);
		expect(r.json.error).toBe('MISSING_API_VERSION');
		expect(r.json.message).toMatch(/required/);
		expect(r.json.message).toMatch(/3/);
	});

	test('unsupported value → INVALID_API_VERSION with the exact message', async () => {
		for (const v of ['4', '1', 'abc', '3.0']) {
			const r = await call('GET', '/plots', { version: v });
			expect(r.status).toBe(400);
			expect(r.json).toEqual({
				code: 400,
				error: 'INVALID_API_VERSION',
				message: `Invalid X-API-Version value: '${v}'. Supported versions are: 3.`,
			});
		}
	});

	test('version 2 answers with Warning, Sunset and Link until 2026-07-01T00:01Z, then 400', async () => {
		f.clock.set(new Date('2026-07-01T00:00:59Z'));
		const before = await call('GET', '/users/check_tokens', { version: '2' });
		expect(before.status).toBe(200);
		expect(before.headers.get('warning')).toMatch(/^299 /);
		expect(before.headers.get('sunset')).toBe('Wed, 01 Jul 2026 00:01:00 GMT');
		expect(before.headers.get('link')).toMatch(/rel="successor-version"/);
		const v3 = await call('GET', '/users/check_tokens');
		expect(v3.headers.get('warning')).toBeNull();
		f.clock.set(new Date('2026-07-01T00:01:00Z'));
		const after = await call('GET', '/users/check_tokens', { version: '2' });
		expect(after.status).toBe(400);
		expect(after.json).toEqual({
			code: 400,
			error: 'INVALID_API_VERSION',
			message: "Invalid X-API-Version value: '2'. Supported versions are: 3.",
		});
	});
});

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

describe('plots', () => {
	test('one Feature → a plot object with computed fields', async () => {
		const p = await makePlot(sq(-55.5, -6.5), {
			plot_name: 'Farm A',
			harvest_date: '2025-05-01',
			notes: 'n',
			additional_info: { supplier: 'X' },
		});
		expect(p.plot_id).toMatch(/^\d+$/);
		expect(p).toMatchObject({
			plot_name: 'Farm A',
			username: 'alice',
			commodity: 'cocoa',
			country: 'Brazil',
			state: 'Pará',
			notes: 'n',
			additional_info: { supplier: 'X' },
			harvest_dates: ['2025-05-01'],
		});
		expect(typeof p.lat).toBe('string');
		expect(typeof p.lon).toBe('string');
		expect(Number(p.lat)).toBeCloseTo(-6.495, 2);
		expect(p.area_ha).toBeGreaterThan(120);
		expect(p.area_ha).toBeLessThan(125);
		expect(p.tokens_cost).toBe(Math.ceil(p.area_ha));
		expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$/);
		const again = await call<Plot>('GET', `/plots/plot/${p.plot_id}`);
		expect(again.json).toEqual(p);
	});

	test('2 to 20 Features → {plots: [...]}; more than 20 → 400', async () => {
		const two = await call<PlotList>('POST', '/plots/make_plot', {
			body: { geojson: fc(sq(1, 1), sq(2, 2)), plot_name: 'Batch' },
		});
		expect(two.status).toBe(200);
		expect(two.json.plots).toHaveLength(2);
		expect(two.json.plots.map((p) => p.plot_name)).toEqual(['Batch 1', 'Batch 2']);
		expect(two.json.plots[0].country).toBe('Unknown');
		const twenty = await call<PlotList>('POST', '/plots/make_plot', {
			body: { geojson: fc(...Array.from({ length: 20 }, (_, i) => sq(i, 1))) },
		});
		expect(twenty.json.plots).toHaveLength(20);
		const many = await call('POST', '/plots/make_plot', {
			body: { geojson: fc(...Array.from({ length: 21 }, (_, i) => sq(i, 1))) },
		});
		expect(many.status).toBe(400);
		expect(many.json.code).toBe(400);
		expect((await call<PlotList>('GET', '/plots')).json.meta.count).toBe(22);
	});

	test('points become circles of about 4 ha, or point_ha', async () => {
		const dflt = await makePlot({ type: 'Point', coordinates: [-5.5, 6.9] });
		expect(dflt.area_ha).toBeGreaterThan(3.9);
		expect(dflt.area_ha).toBeLessThanOrEqual(4.0);
		expect(dflt.geojson_features[0].geometry.type).toBe('Polygon');
		expect(dflt.country).toBe("Côte d'Ivoire");
		const r = await call<Plot>('POST', '/plots/make_plot', {
			body: {
				geojson: {
					type: 'FeatureCollection',
					features: [
						{
							type: 'Feature',
							properties: { point_ha: 1.5 },
							geometry: { type: 'Point', coordinates: [101.5, 0.5, 12] },
						},
					],
				},
			},
		});
		expect(r.status).toBe(200);
		expect(r.json.area_ha).toBeCloseTo(1.5, 1);
		expect(r.json.tokens_cost).toBe(2);
		expect(r.json.country).toBe('Indonesia');
		expect(r.json.commodity).toBeNull();
	});

	test('MultiPolygon and z coordinates are accepted', async () => {
		const multi = {
			type: 'MultiPolygon',
			coordinates: [sq(-55, -7).coordinates, sq(-54.9, -7).coordinates],
		};
		const m = await makePlot(multi);
		expect(m.area_ha).toBeGreaterThan(240);
		const z = {
			type: 'Polygon',
			coordinates: [
				[
					[1, 1, 5],
					[1.01, 1, 5],
					[1.01, 1.01, 5],
					[1, 1.01, 5],
					[1, 1, 5],
				],
			],
		};
		expect((await makePlot(z)).area_ha).toBeGreaterThan(100);
	});

	test('a top-level FeatureCollection body is accepted too', async () => {
		const r = await call<Plot>('POST', '/plots/make_plot', {
			body: { ...fc(sq(1, 1)), plot_name: 'Top' },
		});
		expect(r.status).toBe(200);
		expect(r.json.plot_name).toBe('Top');
	});

	test('pagination: 2,500 plots with limit 1000 → each exactly once, newest first', async () => {
		// 5 plots share each created_at, so the id tie-break matters
		const base = T0.getTime() - 10_000_000;
		const ids = f.seedPlots('alice', 2500, {
			createdAt: (i) => new Date(base + Math.floor(i / 5) * 1000),
		});
		f.seedPlots('bob', 10);
		const seen: Plot[] = [];
		let cursor: string | undefined;
		let pages = 0;
		do {
			const r = await call<PlotList>(
				'GET',
				`/plots?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
			);
			expect(r.status).toBe(200);
			pages++;
			seen.push(...r.json.plots);
			expect(r.json.meta.count).toBe(r.json.plots.length);
			expect(r.json.meta.limit).toBe(1000);
			cursor = r.json.meta.has_more ? (r.json.meta.next_cursor ?? undefined) : undefined;
			if (!r.json.meta.has_more) expect(r.json.meta.next_cursor).toBeNull();
		} while (cursor);
		expect(pages).toBe(3);
		expect(seen).toHaveLength(2500);
		expect(new Set(seen.map((p) => p.plot_id)).size).toBe(2500);
		expect(seen.map((p) => p.plot_id)).toEqual([...ids].reverse());
		for (let i = 1; i < seen.length; i++)
			expect(seen[i - 1].created_at >= seen[i].created_at).toBe(true);
		expect(seen.every((p) => p.username === 'alice')).toBe(true);
	});

	test('pagination: default limit 100, lite summaries, inclusive created_at bounds', async () => {
		const base = Date.parse('2026-01-01T00:00:00Z');
		f.seedPlots('alice', 150, { createdAt: (i) => new Date(base + i * 60_000) });
		const d = await call<PlotList>('GET', '/plots');
		expect(d.json.meta).toMatchObject({ limit: 100, count: 100, has_more: true });
		const lite = await call<PlotList>('GET', '/plots?lite=true&limit=2');
		expect(Object.keys(lite.json.plots[0]).sort()).toEqual([
			'area_ha',
			'commodity',
			'country',
			'created_at',
			'plot_id',
			'plot_name',
		]);
		expect(lite.json.meta.count).toBe(2);
		const from = new Date(base + 10 * 60_000).toISOString();
		const until = new Date(base + 19 * 60_000).toISOString();
		const win = await call<PlotList>(
			'GET',
			`/plots?created_at_from=${from}&created_at_until=${until}&limit=1000`,
		);
		expect(win.json.plots).toHaveLength(10);
		const noZone = await call<PlotList>(
			'GET',
			`/plots?created_at_from=${win.json.plots[0].created_at}&limit=1000`,
		);
		expect(noZone.json.plots).toHaveLength(1 + 149 - 19);
	});
});

describe('capabilities', () => {
	test('28 by default, 33 with include=hidden, each with a JSON Schema, sync transport and cost_hint', async () => {
		const d = await call<Capability[]>('GET', '/v3/discovery/capabilities');
		expect(d.status).toBe(200);
		expect(d.json).toHaveLength(28);
		const h = await call<Capability[]>('GET', '/v3/discovery/capabilities?include=hidden');
		expect(h.json).toHaveLength(33);
		expect(new Set(h.json.map((c) => c.name)).size).toBe(33);
		for (const c of h.json) {
			expect(c).toMatchObject({ transport: 'sync', input_schema: { type: 'object' } });
			expect(typeof c.label).toBe('string');
			expect(typeof c.description).toBe('string');
			expect(c.cost_hint.currency).toBe('tokens');
			expect(c.methodology).toBeUndefined();
		}
		const byName = Object.fromEntries(h.json.map((c) => [c.name, c]));
		expect(byName.protected_area.result_key).toBe('protected_areas');
		expect(byName.eudr.result_key).toBeUndefined();
		expect(byName.enso_teleconnection.label).toBe('El Niño Climate Sensitivity');
		expect(byName.coastal_structural.label).toBe('Coastal Flood · Structural Exposure');
		const doc = await call<Capability[]>('GET', '/v3/discovery/capabilities?include=doc,hidden');
		expect(doc.json).toHaveLength(33);
		expect(
			doc.json.every((c) => typeof c.methodology === 'string' && c.methodology.length > 20),
		).toBe(true);
	});

	test('config is validated against input_schema; defaults fill the effective config', async () => {
		const p = await makePlot();
		const bad = [
			[{ type: 'deforestation', config: { start_year: 1990 } }, /start_year: must be >= 2001/],
			[{ type: 'eudr', config: { nonsense: true } }, /nonsense: unknown property/],
			[{ type: 'canopy_condition', config: { index: 'xyz' } }, /must be one of/],
			[{ type: 'data_center_site_suitability' }, /power_mw: is required/],
			[{ type: 'soil_moisture', config: { depth_cm: '10' } }, /must be of type integer/],
		] as const;
		for (const [check, re] of bad) {
			const r = await call('POST', '/jobs/make_job', {
				body: { plot_ids: [p.plot_id], checks: [check] },
			});
			expect(r.status).toBe(400);
			expect(r.json.message).toMatch(re);
		}
		const ok = await call<Quote>('POST', '/jobs/make_job', {
			headers: { 'x-dry-run': 'true' },
			body: {
				plot_ids: [p.plot_id],
				checks: [{ type: 'flood_outlook', config: { horizon_weeks: 2 } }, { type: 'eudr' }],
			},
		});
		expect(ok.status).toBe(200);
		expect(ok.json.checks[0].config).toEqual({ horizon_weeks: 2 });
		expect(ok.json.checks[1].config).toMatchObject({ cutoff_date: '2020-12-31' });
	});

	test('addCapability: appears at once and runs in jobs', async () => {
		f.addCapability({
			name: 'bee_count',
			label: 'Bee Count',
			description: 'Counts bees',
			cost_hint: { model: 'per_plot', tokens_per_plot: 7, currency: 'tokens' },
			result_key: 'bees',
		});
		const d = await call<Capability[]>('GET', '/v3/discovery/capabilities');
		expect(d.json.find((c) => c.name === 'bee_count')).toMatchObject({
			result_key: 'bees',
			transport: 'sync',
		});
		const p = await makePlot();
		const j = await call<Job>('POST', '/jobs/make_job', {
			body: { plot_ids: [p.plot_id], checks: [{ type: 'bee_count' }] },
		});
		expect(j.json.token_cost).toBe(7);
		f.clock.advance(2000);
		const plot = (await call<Plot>('GET', `/plots/plot/${p.plot_id}`)).json;
		expect(plot.analysis.bees).toMatchObject({ capability: 'bee_count' });
	});
});

describe('jobs and tokens', () => {
	test('dry run returns the exact quote and changes nothing', async () => {
		const a = await makePlot(sq(-55.5, -6.5));
		const b = await makePlot({ type: 'Point', coordinates: [1, 1] });
		const before = (await call('GET', '/users/check_tokens')).json;
		expect(before).toEqual({
			'Token balance': 100000,
			'Reserved Tokens': 0,
			'Free Tokens': 100000,
		});
		f.log.clear();
		const body = {
			plot_ids: [a.plot_id, b.plot_id],
			checks: [{ type: 'eudr' }, { type: 'visual_verification' }],
		};
		const q = await call<Quote>('POST', '/jobs/make_job', {
			body,
			headers: { 'x-dry-run': 'true' },
		});
		expect(q.status).toBe(200);
		expect(q.json.dry_run).toBe(true);
		const expected = a.tokens_cost + 3 + b.tokens_cost + 3;
		expect(q.json.token_cost).toBe(expected);
		expect(q.json.plots).toEqual([
			{
				plot_id: a.plot_id,
				area_ha: a.area_ha,
				tokens: a.tokens_cost + 3,
				checks: [
					{ type: 'eudr', tokens: a.tokens_cost },
					{ type: 'visual_verification', tokens: 3 },
				],
			},
			{
				plot_id: b.plot_id,
				area_ha: b.area_ha,
				tokens: b.tokens_cost + 3,
				checks: [
					{ type: 'eudr', tokens: b.tokens_cost },
					{ type: 'visual_verification', tokens: 3 },
				],
			},
		]);
		expect(q.json.sufficient).toBe(true);
		expect((await call('GET', '/users/check_tokens')).json).toEqual(before);
		expect((await call<JobList>('GET', '/jobs')).json.jobs).toHaveLength(0);
		expect(
			(await call<RunList>('GET', `/analysis-runs?plot_id=${a.plot_id}`)).json.runs,
		).toHaveLength(0);
		const real = await call<Job>('POST', '/jobs/make_job', { body });
		expect(real.json.token_cost).toBe(expected);
		expect(f.getBalance('alice')).toEqual({
			total: 100000,
			reserved: expected,
			free: 100000 - expected,
		});
		// insufficient balance still quotes
		f.setBalance('alice', expected);
		const q2 = await call<Quote>('POST', '/jobs/make_job', {
			body,
			headers: { 'x-dry-run': 'true' },
		});
		expect(q2.json).toMatchObject({ token_cost: expected, sufficient: false });
	});

	test('progression creating → pending → done; tokens reserved then settled; results written', async () => {
		const plots = [
			await makePlot(sq(-55.5, -6.5)),
			await makePlot(sq(101.92, -0.32, 0.02)),
			await makePlot(sq(10, 50)),
		];
		const t = (
			await call<Job>('POST', '/jobs/make_job', {
				body: {
					plot_ids: plots.map((p) => p.plot_id),
					job_name: 'J',
					notes: 'N',
					additional_info: { po: '42' },
				},
			})
		).json;
		const cost = plots.reduce((a, p) => a + p.tokens_cost, 0);
		expect(t).toMatchObject({
			job_name: 'J',
			notes: 'N',
			additional_info: { po: '42' },
			status: 'creating',
			token_cost: cost,
			username: 'alice',
		});
		expect(t.job_id).toMatch(/^\d+$/);
		expect(t.created_at).not.toMatch(/Z$/);
		expect(f.getBalance('alice')).toEqual({ total: 100000, reserved: cost, free: 100000 - cost });
		const status = async () => (await call<Job>('GET', `/jobs/job/${t.job_id}`)).json;
		f.clock.advance(600);
		expect((await status()).status).toBe('pending');
		f.clock.advance(1000);
		const mid = await status();
		expect(mid.status).toBe('pending');
		expect(mid.job_visualization_url).toHaveLength(1);
		expect(mid.plots[0].analysis.risk_level).toBeDefined();
		expect(mid.plots[1].analysis).toEqual({});
		f.clock.advance(2000);
		const done = await status();
		expect(done.status).toBe('done');
		expect(done.job_visualization_url).toHaveLength(3);
		expect(done.plots).toHaveLength(3);
		expect(done.updated_at > done.created_at).toBe(true);
		expect(f.getBalance('alice')).toEqual({
			total: 100000 - cost,
			reserved: 0,
			free: 100000 - cost,
		});
		// EUDR bundle
		const inBrazil = done.plots[0].analysis;
		expect(['Low', 'Medium', 'High']).toContain(inBrazil.risk_level);
		for (const k of [
			'risk_reason',
			'forest_percentage_2020',
			'deforestation',
			'protectedAreas',
			'indigenous_overlap',
			'eudr',
			'protected_areas',
			'indigenous_land',
			'analysis_end',
			'analysisEnd',
			'version',
		])
			expect(inBrazil).toHaveProperty(k);
		expect(inBrazil.protected_areas.protected_area_overlap_summary.protected_area_overlap).toBe(
			true,
		);
		expect(inBrazil.protected_areas.protected_area_details[0]).toMatchObject({
			area_id: '351814',
			iucn_category: 'VI',
			extractive_activity_legality: 'limited',
		});
		expect(inBrazil.protectedAreas[0][0]).toBe('Jamanxim National Forest');
		expect(inBrazil.protectedAreas[0][1]).toBeCloseTo(inBrazil.areaHa, 0);
		const inRiau = done.plots[1].analysis;
		expect(
			inRiau.protected_areas.protected_area_overlap_summary
				.most_restrictive_extractive_activity_legality,
		).toBe('prohibited');
		expect(
			inRiau.protected_areas.protected_area_overlap_summary.total_overlap_percentage,
		).toBeGreaterThan(0);
		expect(inRiau.indigenous_land.indigenous_land_overlap_summary.indigenous_land_overlap).toBe(
			true,
		);
		expect(inRiau.indigenous_land.indigenous_land_details[0]).toMatchObject({
			id: 'ID-WA-0117',
			government_acknowledged: false,
		});
		const inGermany = done.plots[2].analysis;
		expect(inGermany.protected_areas.protected_area_overlap_summary).toMatchObject({
			protected_area_overlap: false,
			total_overlap_area_ha: 0,
		});
		expect(done.plots[2].analysis_image).toBe(`${f.url}/__fake/images/${plots[2].plot_id}.png`);
		const img = await fetch(done.plots[2].analysis_image);
		expect(img.headers.get('content-type')).toBe('image/png');
		// job list: no embedded plots
		const list = (await call<JobList>('GET', '/jobs')).json;
		expect(list.jobs).toHaveLength(1);
		expect(list.jobs[0].plots).toBeUndefined();
		expect(list.jobs[0]).toMatchObject({ status: 'done', plot_ids: plots.map((p) => p.plot_id) });
		expect(list.meta).toMatchObject({ count: 1, has_more: false, next_cursor: null });
	});

	test('progression with failures: incomplete → done-with-errors; failed plots refunded', async () => {
		f.setFailingPlotNames(['bad']);
		const bad = await makePlot(sq(1, 1), { plot_name: 'bad' });
		const good = await makePlot(sq(2, 2), { plot_name: 'good' });
		const j = (
			await call<Job>('POST', '/jobs/make_job', { body: { plot_ids: [bad.plot_id, good.plot_id] } })
		).json;
		const cost = bad.tokens_cost + good.tokens_cost;
		f.clock.advance(1600);
		const mid = (await call<Job>('GET', `/jobs/job/${j.job_id}`)).json;
		expect(mid.status).toBe('incomplete');
		expect(mid.plots[0].analysis).toMatchObject({ status: 'failed' });
		expect(mid.job_visualization_url).toHaveLength(0);
		expect(f.getBalance('alice').reserved).toBe(cost);
		f.clock.advance(1000);
		const end = (await call<Job>('GET', `/jobs/job/${j.job_id}`)).json;
		expect(end.status).toBe('done-with-errors');
		expect(end.job_visualization_url).toHaveLength(1);
		expect(f.getBalance('alice')).toEqual({
			total: 100000 - good.tokens_cost,
			reserved: 0,
			free: 100000 - good.tokens_cost,
		});
		expect(f.getJob(j.job_id)).toMatchObject({
			tokensCharged: good.tokens_cost,
			tokensRefunded: bad.tokens_cost,
		});
		const runs = (await call<RunList>('GET', `/analysis-runs?plot_id=${bad.plot_id}`)).json.runs;
		expect(runs[0]).toMatchObject({ status: 'failed', tokens_charged: 0 });
	});

	test('validation: missing plots, duplicates, missing commodity, per_plot and config commodity', async () => {
		const noCommodity = (
			await call<Plot>('POST', '/plots/make_plot', { body: { geojson: fc(sq(1, 1)) } })
		).json;
		const r1 = await call('POST', '/jobs/make_job', { body: { plot_ids: [noCommodity.plot_id] } });
		expect(r1.status).toBe(400);
		expect(r1.json.message).toMatch(/has no commodity/);
		expect(
			(
				await call('POST', '/jobs/make_job', {
					body: { plot_ids: [noCommodity.plot_id], config: { commodity: 'soy' } },
				})
			).status,
		).toBe(200);
		expect(
			(
				await call('POST', '/jobs/make_job', {
					body: {
						plot_ids: [noCommodity.plot_id],
						per_plot: { [noCommodity.plot_id]: { commodity: 'beef', harvest_date: '2025-01-01' } },
					},
				})
			).status,
		).toBe(200);
		const missing = await call('POST', '/jobs/make_job', { body: { plot_ids: ['99999999'] } });
		expect(missing.status).toBe(404);
		const dup = await call('POST', '/jobs/make_job', {
			body: { plot_ids: [noCommodity.plot_id, noCommodity.plot_id], config: { commodity: 'soy' } },
		});
		expect(dup.status).toBe(400);
		const empty = await call('POST', '/jobs/make_job', { body: { plot_ids: [] } });
		expect(empty.status).toBe(400);
		const badDate = await call('POST', '/jobs/make_job', {
			body: {
				plot_ids: [noCommodity.plot_id],
				config: { commodity: 'soy', harvest_date: '01/02/2025' },
			},
		});
		expect(badDate.status).toBe(400);
	});

	test('jobs list: keyset pagination newest first', async () => {
		const p = await makePlot();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) {
			ids.push(
				(await call<Job>('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } })).json
					.job_id,
			);
			f.clock.advance(10);
		}
		const first = (await call<JobList>('GET', '/jobs?limit=2')).json;
		expect(first.jobs.map((j) => j.job_id)).toEqual([ids[4], ids[3]]);
		const second = (await call<JobList>('GET', `/jobs?limit=2&cursor=${first.meta.next_cursor}`))
			.json;
		expect(second.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
		const third = (await call<JobList>('GET', `/jobs?limit=2&cursor=${second.meta.next_cursor}`))
			.json;
		expect(third.jobs.map((j) => j.job_id)).toEqual([ids[0]]);
		expect(third.meta).toEqual({ next_cursor: null, limit: 2, count: 1, has_more: false });
	});
});

describe('analysis runs', () => {
	test('one run per check per plot per job, with status, timing, cost, artifacts and output', async () => {
		const p = await makePlot();
		const j = (
			await call<Job>('POST', '/jobs/make_job', {
				body: {
					plot_ids: [p.plot_id],
					checks: [{ type: 'eudr' }, { type: 'fire_outlook', config: { horizon_weeks: 3 } }],
				},
			})
		).json;
		let list = (await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json;
		expect(list.runs).toHaveLength(2);
		expect(list.runs.map((r) => r.status)).toEqual(['pending', 'pending']);
		f.clock.advance(1000);
		expect((await call<Run>('GET', `/analysis-runs/${list.runs[0].run_id}`)).json.status).toBe(
			'running',
		);
		f.clock.advance(1000);
		list = (await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json;
		const fire = list.runs.find((r) => r.check_type === 'fire_outlook');
		if (!fire) throw new Error('no fire_outlook run');
		expect(fire).toMatchObject({
			plot_id: p.plot_id,
			job_id: j.job_id,
			status: 'completed',
			config: { horizon_weeks: 3 },
			token_cost: 2,
		});
		expect(fire.run_id).toMatch(/^\d+$/);
		expect(fire.started_at).toBeTruthy();
		expect(fire.finished_at).toBeTruthy();
		expect(fire.artifacts.map((a) => a.type)).toEqual(['visualization', 'geojson']);
		expect(fire.output).toBeUndefined();
		const detail = (await call<Run>('GET', `/analysis-runs/${fire.run_id}`)).json;
		expect(detail.output).toMatchObject({ capability: 'fire_outlook' });
		const plot = (await call<Plot>('GET', `/plots/plot/${p.plot_id}`)).json;
		expect(plot.analysis.fire_outlook).toEqual(detail.output);
		const eudrRun = (
			await call<Run>(
				'GET',
				`/analysis-runs/${list.runs.find((r) => r.check_type === 'eudr')?.run_id}`,
			)
		).json;
		expect(eudrRun.output?.risk_level).toBe(plot.analysis.risk_level);
		const art = await fetch(fire.artifacts[1].url);
		expect(((await art.json()) as { type: string }).type).toBe('FeatureCollection');
		// a second job adds runs
		await call('POST', '/jobs/make_job', { body: { plot_ids: [p.plot_id] } });
		expect(
			(await call<RunList>('GET', `/analysis-runs?plot_id=${p.plot_id}`)).json.runs,
		).toHaveLength(3);
		expect((await call('GET', '/analysis-runs')).status).toBe(400);
		expect((await call('GET', '/analysis-runs/99999999')).status).toBe(404);
	});
});

describe('protected areas', () => {
	test('check by plot_ids and geojson → one FeatureCollection in request order, charged per item', async () => {
		const p = await makePlot(sq(-7.3, 5.6)); // inside Taï
		const before = f.getBalance('alice').total;
		const r = await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
			body: {
				plot_ids: [p.plot_id],
				geojson: {
					type: 'FeatureCollection',
					features: [
						{ type: 'Feature', properties: { ref: 'far' }, geometry: sq(10, 50) },
						{
							type: 'Feature',
							properties: {},
							geometry: { type: 'Point', coordinates: [101.8, -0.2] },
						},
					],
				},
			},
		});
		expect(r.status).toBe(200);
		expect(r.json.type).toBe('FeatureCollection');
		expect(r.json.features).toHaveLength(3);
		const [a, b, c] = r.json.features.map((x) => x.properties);
		expect(a).toMatchObject({ input_index: 0, input_type: 'plot', plot_id: p.plot_id });
		expect(a.protected_area_overlap_summary).toMatchObject({
			protected_area_overlap: true,
			most_restrictive_extractive_activity_legality: 'prohibited',
		});
		expect(a.protected_area_overlap_summary.total_overlap_percentage).toBeCloseTo(100, 0);
		expect(a.protected_area_details[0]).toMatchObject({
			area_id: '721',
			iucn_category: 'II',
			regulation_names: expect.any(Array),
			regulation_urls: expect.any(Array),
		});
		expect(b).toMatchObject({
			input_index: 1,
			input_type: 'geojson',
			geojson_index: 0,
			input_properties: { ref: 'far' },
		});
		expect(b.protected_area_overlap_summary.protected_area_overlap).toBe(false);
		expect(c.protected_area_details[0].area_name).toBe('Tesso Nilo National Park');
		expect(r.json.sources[0].data_version).toBeTruthy();
		expect(f.getBalance('alice').total).toBe(before - 3);
		// single Feature is accepted
		expect(
			(
				await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
					body: { geojson: { type: 'Feature', properties: {}, geometry: sq(1, 1) } },
				})
			).json.features,
		).toHaveLength(1);
	});

	test('batch limit 100, required input, invalid geometry', async () => {
		const many = fc(...Array.from({ length: 101 }, (_, i) => sq(i * 0.1, 1)));
		const r = await call('POST', '/protected-areas/checks', { body: { geojson: many } });
		expect(r.status).toBe(400);
		expect(r.json.message).toMatch(/At most 100/);
		const hundred = fc(...Array.from({ length: 100 }, (_, i) => sq(i * 0.1, 1)));
		expect(
			(
				await call<PaFeatureCollection>('POST', '/protected-areas/checks', {
					body: { geojson: hundred },
				})
			).json.features,
		).toHaveLength(100);
		expect((await call('POST', '/protected-areas/checks', { body: {} })).status).toBe(400);
		const bow = {
			type: 'Polygon',
			coordinates: [
				[
					[0, 0],
					[1, 1],
					[1, 0],
					[0, 1],
					[0, 0],
				],
			],
		};
		const inv = await call('POST', '/protected-areas/checks', { body: { geojson: fc(bow) } });
		expect(inv.json.message).toMatch(/^Invalid Geometry in GeoJSON: /);
	});

	test('GET /protected-areas/{id} and /protected-areas/areas/{id}', async () => {
		const a = await call<PaFeatureCollection>('GET', '/protected-areas/351814');
		expect(a.status).toBe(200);
		expect(a.json.type).toBe('FeatureCollection');
		expect(a.json.features[0].properties).toMatchObject({
			area_id: '351814',
			iucn_category: 'VI',
			extractive_activity_legality: 'limited',
		});
		expect(a.json.features[0].geometry.type).toBe('Polygon');
		const b = await call<PaFeatureCollection>('GET', '/protected-areas/areas/351814');
		expect(b.json).toEqual(a.json);
		expect((await call('GET', '/protected-areas/424242')).status).toBe(404);
	});
});

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
		await post('/__fake/reset');
		expect((await call<PlotList>('GET', '/plots')).json.plots).toHaveLength(0);
		expect(f.getBalance('bob').total).toBe(100000);
		expect(Math.abs(f.clock.now().getTime() - T0.getTime())).toBeLessThan(1000);
		expect((await call<Capability[]>('GET', '/v3/discovery/capabilities')).json).toHaveLength(28);
	});
});

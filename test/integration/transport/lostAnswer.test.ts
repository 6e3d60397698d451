/**
 * Issue 14, parts 2 and 3: creates happen once, and paid results are never thrown away.
 * Through n8n's engine against the fake over loopback, with the fake's faults: a request
 * processed and then its connection cut (drop-after), cut before processing (drop-before),
 * processed and then answered by a "gateway" 502/504 (status-after), slowed (delay-after).
 * Every test counts the requests and the plots and jobs that exist afterwards.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Timing } from '../../../nodes/shared/time/sleep';
import type { FakeService } from '../../fake-service';
import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';

/**
 * The pause before a second lookup runs on `systemTiming`, which this file's module registry
 * replaces with one that only records the pauses asked for (the transport's own waits, e.g.
 * Retry-After, stay real). Production code has no test seam.
 */
const pauses: number[] = [];
jest.mock('../../../nodes/shared/time/sleep', () => {
	const actual = jest.requireActual('../../../nodes/shared/time/sleep');
	const recorded: Timing = {
		now: () => Date.now(),
		sleep: async (ms: number) => {
			pauses.push(ms);
		},
		random: () => 0.5,
	};
	return { ...actual, systemTiming: recorded };
});

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };
const LIST_PLOTS = { method: 'GET', path: '/plots' };
const MAKE_JOB = { method: 'POST', path: '/jobs/make_job' };
const LIST_JOBS = { method: 'GET', path: '/jobs' };
const CHECKS = { method: 'POST', path: '/protected-areas/checks' };
const SERVICE_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

let fake: FakeService;
let store: CredentialStore;

useFakeService({}, (started) => {
	fake = started;
	store = new CredentialStore({
		geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
	});
});
beforeEach(() => {
	pauses.length = 0;
	fake.reset();
	// reset() puts the fake's clock back to its start: bring it to now (skew is tested on its own).
	fake.clock.set(new Date());
});

/** n latitude/longitude rows, each its own place. */
const rows = (n: number, from = 0) =>
	Array.from({ length: n }, (_, i) => ({
		latitude: (-10.123456 - (from + i) * 0.01).toFixed(6),
		longitude: '-50.123456',
	}));

const register = async (input: IDataObject[], extra: IDataObject = {}, continueOnFail = false) =>
	await runNode({
		parameters: { resource: 'plot', operation: 'register', geometrySource: 'latLon', ...extra },
		input,
		store,
		continueOnFail,
	});

const plotsNow = () => fake.plotsOf('alice');
const jobsNow = () => fake.jobsOf('alice');
const makePlotRequests = () =>
	fake.log.entries().filter((e) => e.method === MAKE_PLOT.method && e.path === MAKE_PLOT.path);
const featuresOf = (body: unknown) =>
	((body as IDataObject).geojson as { features: unknown[] }).features.length;

/** Each output is the plot of its own row: same centre as the row's point. */
function expectPairedWithRows(
	items: Array<{ json: IDataObject; pairedItem?: unknown }>,
	input: Array<{ latitude: string }>,
) {
	items.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		expect(Number(item.json.lat)).toBeCloseTo(Number(input[i].latitude), 5);
	});
}

/** No two plots of alice at the same place with the same name. */
function expectNoDuplicatePlots() {
	const keys = plotsNow().map((p) => `${String(p.lat)},${String(p.lon)},${String(p.plot_name)}`);
	expect(new Set(keys).size).toBe(keys.length);
}

describe('Plot → Register: exactly once after a lost answer', () => {
	it('processed, then the connection cut: the plots are found, paired with their rows and marked recovered; nothing is sent twice', async () => {
		const input = rows(5);
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		const { items, error } = await register(input);
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(plotsNow()).toHaveLength(5);
		expect(items).toHaveLength(5);
		expectPairedWithRows(items, input);
		expect(items.every((i) => i.json.recovered_after_connection_error === true)).toBe(true);
		expect(items.map((i) => i.json.input_feature_index)).toEqual([0, 0, 0, 0, 0]);
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(5);
		// Same shape as a normal registration: the plot's own fields are all there.
		expect(Object.keys(items[0].json)).toEqual(
			expect.arrayContaining(['plot_id', 'plot_name', 'geojson_features', 'area_ha', 'created_at']),
		);
		// Everything found at once: no pause, one lookup.
		expect(pauses).toEqual([]);
		expect(fake.log.count(LIST_PLOTS)).toBe(1);
		// The lookup asked for plots created since just before the request, in the service's style.
		const lookup = fake.log.entries().find((e) => e.path === LIST_PLOTS.path);
		expect(lookup?.query.created_at_from).toMatch(SERVICE_TIMESTAMP);
		expect(Date.parse(`${lookup?.query.created_at_from}Z`)).toBeLessThan(Date.now());
	});

	it.each([502, 504] as const)(
		'processed, then a gateway answered %s: the plots are found, none registered twice',
		async (status) => {
			const input = rows(3);
			fake.faults.add({ kind: 'status-after', status, match: MAKE_PLOT });
			const { items, error } = await register(input);
			expect(error).toBeUndefined();
			expect(fake.log.count(MAKE_PLOT)).toBe(1);
			expect(plotsNow()).toHaveLength(3);
			expectPairedWithRows(items, input);
			expect(items.every((i) => i.json.recovered_after_connection_error === true)).toBe(true);
		},
	);

	it('cut before processing: the lookup (twice, a pause apart) finds nothing, so the rows are sent again, once', async () => {
		const input = rows(4);
		fake.faults.add({ kind: 'drop-before', match: MAKE_PLOT });
		const { items, error } = await register(input);
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(2);
		expect(fake.log.count(LIST_PLOTS)).toBe(2);
		expect(pauses).toEqual([2000]); // the pause between the two lookups
		expect(plotsNow()).toHaveLength(4);
		expectNoDuplicatePlots();
		expectPairedWithRows(items, input);
		// Registered by the second request: not a recovered plot.
		expect(items.some((i) => i.json.recovered_after_connection_error)).toBe(false);
	});

	it('several batches in parallel, one processed and cut, one cut before processing: 45 plots, 0 duplicates', async () => {
		const input = rows(45);
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		fake.faults.add({ kind: 'drop-before', match: MAKE_PLOT });
		const { items, error } = await register(input, { options: { parallelRequests: 3 } });
		expect(error).toBeUndefined();
		const requests = makePlotRequests();
		// 3 batches (20, 20, 5) and the one sent again after it was certainly not processed.
		expect(requests).toHaveLength(4);
		expect(plotsNow()).toHaveLength(45);
		expectNoDuplicatePlots();
		expect(items).toHaveLength(45);
		expectPairedWithRows(items, input);
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(45);
		const processedThenCut = requests.find((e) => e.fault === 'drop-after');
		const recovered = items.filter((i) => i.json.recovered_after_connection_error === true);
		expect(recovered).toHaveLength(featuresOf(processedThenCut?.body));
		const cutBefore = requests.find((e) => e.fault === 'drop-before');
		const resent = requests.filter((e) => !e.fault).map((e) => featuresOf(e.body));
		expect(resent).toContain(featuresOf(cutBefore?.body));
	});

	it('identical rows in two parallel batches: the lookup waits for the other request, so no plot is paired with two rows', async () => {
		// 40 rows of the same point: two requests of 20 identical features each.
		const input = Array.from({ length: 40 }, () => ({
			latitude: '-11.123456',
			longitude: '-51.123456',
		}));
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		// The other request is processed at once but answered late: its plots exist meanwhile.
		fake.faults.add({ kind: 'delay-after', ms: 800, match: MAKE_PLOT });
		const { items, error } = await register(input, { options: { parallelRequests: 2 } });
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(2);
		expect(plotsNow()).toHaveLength(40);
		expect(items).toHaveLength(40);
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(40);
		expect(items.filter((i) => i.json.recovered_after_connection_error === true)).toHaveLength(20);
	});

	it('a named item of three polygons, processed and cut: each plot found under its numbered name, paired with its feature', async () => {
		const square = (lon: number): IDataObject => ({
			type: 'Feature',
			properties: {},
			geometry: {
				type: 'Polygon',
				coordinates: [
					[
						[lon, -15.123456],
						[lon + 0.01, -15.123456],
						[lon + 0.01, -15.113456],
						[lon, -15.113456],
						[lon, -15.123456],
					],
				],
			},
		});
		const geojson = {
			type: 'FeatureCollection',
			features: [square(-47.123456), square(-47.023456), square(-46.923456)],
		};
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		const { items, error } = await register([{ geojson, name: 'Farm' }], {
			geometrySource: 'geoJson',
			plotFields: { plotName: '={{ $json.name }}', commodity: 'cocoa', notes: 'north block' },
		});
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(plotsNow()).toHaveLength(3);
		expect(items.map((i) => [i.json.plot_name, i.json.input_feature_index])).toEqual([
			['Farm 1', 0],
			['Farm 2', 1],
			['Farm 3', 2],
		]);
		items.forEach((item, k) => {
			const ring = (
				item.json.geojson_features as Array<{ geometry: { coordinates: number[][][] } }>
			)[0].geometry.coordinates[0];
			expect(ring[0][0]).toBeCloseTo(-47.123456 + k * 0.1, 6);
			expect(item.json.recovered_after_connection_error).toBe(true);
		});
	});

	it('n8n clock 3 minutes ahead of the service: the plots are still found (clock-skew margin)', async () => {
		fake.clock.set(new Date(Date.now() - 3 * 60_000));
		const input = rows(2);
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		const { items, error } = await register(input);
		expect(error).toBeUndefined();
		expect(plotsNow()).toHaveLength(2);
		expect(items.every((i) => i.json.recovered_after_connection_error === true)).toBe(true);
	});

	it('cannot tell (an identical plot registered just before): fails naming the row and how to check; never sends it again', async () => {
		const input = rows(1);
		const first = await register(input);
		expect(first.error).toBeUndefined();
		fake.log.clear();
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		const { items, error } = await register(input);
		expect(items).toHaveLength(0);
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(plotsNow()).toHaveLength(2); // the earlier one and the one of the lost answer
		expect(error?.message).toMatch(/^Item 0 may have been registered: .*cannot be paired/);
		const ids = plotsNow().map((p) => String(p.plot_id));
		expect(error?.description).toContain(`plots ${ids.join(', ')}`);
		expect(error?.description).toMatch(
			/Plot → Get Many with Filters → Created After = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(UTC\)/,
		);
		expect(error?.description).not.toMatch(/No plot was registered/);
	});

	it('the lookup fails too: the error names the rows that may exist and how to check, never "No plot was registered"', async () => {
		const input = rows(3);
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		fake.faults.add({ kind: 'status', status: 500, match: LIST_PLOTS });
		const { items, error } = await register(input);
		expect(items).toHaveLength(0);
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(plotsNow()).toHaveLength(3);
		expect(error?.message).toMatch(
			/^Items 0, 1, 2 may have been registered: the answer to the registration was lost or unreadable, and looking for the plots failed too/,
		);
		expect(error?.description).toMatch(/the connection broke after the request was sent/);
		expect(error?.description).toMatch(/logged \(ID [0-9a-f]{16}\)/);
		expect(error?.description).toMatch(
			/Plot → Get Many with Filters → Created After = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(UTC\)/,
		);
		expect(error?.description).not.toMatch(/No plot was registered/);
		expect(error?.context?.mayHaveBeenRegistered).toEqual([0, 1, 2]);
	});

	it('the lookup fails in a later batch: the error says which items were registered and which may have been', async () => {
		const input = rows(25);
		fake.faults.add({ kind: 'drop-after', skip: 1, match: MAKE_PLOT });
		fake.faults.add({ kind: 'status', status: 500, match: LIST_PLOTS });
		const { error } = await register(input, { options: { parallelRequests: 1 } });
		expect(fake.log.count(MAKE_PLOT)).toBe(2);
		expect(plotsNow()).toHaveLength(25);
		expect(error?.message).toMatch(/^Items 20, 21, 22, 23, 24 may have been registered/);
		expect(error?.description).toMatch(
			/Items 0, 1, .*, 19 were registered before the failure \(their plots exist now\)/,
		);
		// Named once, in the message: the description does not repeat them.
		expect(error?.description).not.toMatch(/Items 20, 21, 22, 23, 24 may have been registered/);
		expect(error?.context?.mayHaveBeenRegistered).toEqual([20, 21, 22, 23, 24]);
		expect(error?.description).not.toMatch(/No plot was registered/);
		const registered = error?.context?.registeredBeforeFailure as Array<{ item: number }>;
		expect(registered.map((r) => r.item)).toEqual(Array.from({ length: 20 }, (_, i) => i));
	});

	it('with Continue On Fail, rows that may exist become error items and the other batches are output', async () => {
		const input = rows(25);
		fake.faults.add({ kind: 'drop-after', match: MAKE_PLOT });
		fake.faults.add({ kind: 'status', status: 500, match: LIST_PLOTS });
		const { items, error } = await register(input, { options: { parallelRequests: 1 } }, true);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(25);
		expect(
			items.slice(0, 20).every((i) => /may have been registered/.test(String(i.json.error))),
		).toBe(true);
		expect(items.slice(20).every((i) => typeof i.json.plot_id === 'string')).toBe(true);
		expect(plotsNow()).toHaveLength(25);
	});

	it('a 429 on make_plot (nothing processed) is retried after its Retry-After', async () => {
		const input = rows(3);
		fake.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 1, match: MAKE_PLOT });
		const { items, error } = await register(input);
		expect(error).toBeUndefined();
		const [limited, ok] = makePlotRequests();
		expect(makePlotRequests()).toHaveLength(2);
		expect(limited.status).toBe(429);
		expect(ok.status).toBe(200);
		expect(Date.parse(ok.at) - Date.parse(limited.at)).toBeGreaterThanOrEqual(950);
		expect(plotsNow()).toHaveLength(3);
		expect(items).toHaveLength(3);
	});

	it('a definite failure (503, nothing processed) still says no plot was registered, without looking up', async () => {
		fake.faults.add({ kind: 'status', status: 503, match: MAKE_PLOT });
		const { error } = await register(rows(2));
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(fake.log.count(LIST_PLOTS)).toBe(0);
		expect(plotsNow()).toHaveLength(0);
		expect(error?.description).toMatch(/No plot was registered/);
	});
});

describe('Job → Create: exactly once after a lost answer', () => {
	const seed = (n: number) => fake.seedPlots('alice', n, { commodity: 'soy' });
	const create = async (plotIds: string[], extra: IDataObject = {}) =>
		await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: plotIds.join(','), ...extra },
			store,
		});
	const realCreates = () =>
		fake.log
			.entries()
			.filter((e) => e.path === MAKE_JOB.path && e.method === 'POST' && !e.headers['x-dry-run']);

	it.each([
		['processed, then the connection cut', { kind: 'drop-after' as const }],
		[
			'processed, then a gateway answered 504',
			{ kind: 'status-after' as const, status: 504 as const },
		],
	])('%s: the job is found and returned once', async (_label, fault) => {
		const ids = seed(2);
		fake.faults.add({ ...fault, match: MAKE_JOB });
		const { items, error } = await create(ids);
		expect(error).toBeUndefined();
		expect(realCreates()).toHaveLength(1);
		expect(jobsNow()).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			job_id: jobsNow()[0].job_id,
			recovered_after_connection_error: true,
		});
		expect(items[0].json.job_name).toMatch(/^n8n \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ [a-z0-9]+$/);
		const lookup = fake.log.entries().find((e) => e.path === LIST_JOBS.path);
		expect(lookup?.query.created_at_from).toMatch(SERVICE_TIMESTAMP);
	});

	it('cut before processing: looked up twice, then sent again once: one job', async () => {
		const ids = seed(2);
		fake.faults.add({ kind: 'drop-before', match: MAKE_JOB });
		const { items, error } = await create(ids, { additionalFields: { jobName: 'Resent once' } });
		expect(error).toBeUndefined();
		expect(realCreates()).toHaveLength(2);
		expect(fake.log.count(LIST_JOBS)).toBe(2);
		expect(pauses).toEqual([2000]); // the pause between the two lookups
		expect(jobsNow()).toHaveLength(1);
		expect(items[0].json).toMatchObject({ job_id: jobsNow()[0].job_id, job_name: 'Resent once' });
		expect(items[0].json.recovered_after_connection_error).toBeUndefined();
	});

	it('the lookup fails too: the error says a job may exist, its name and how to find it', async () => {
		const ids = seed(2);
		fake.faults.add({ kind: 'drop-after', match: MAKE_JOB });
		fake.faults.add({ kind: 'status', status: 500, match: LIST_JOBS });
		const { items, error } = await create(ids);
		expect(items).toHaveLength(0);
		expect(realCreates()).toHaveLength(1);
		expect(jobsNow()).toHaveLength(1);
		const name = String(jobsNow()[0].job_name);
		expect(name).toMatch(/^n8n /);
		expect(error?.message).toBe(
			`A job named "${name}" may have been created: the answer to the create request was lost, and looking for the job failed too`,
		);
		expect(error?.description).toMatch(/the connection broke after the request was sent/);
		expect(error?.description).toMatch(
			/Job → Get Many with Filters → Created After = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \(UTC\)/,
		);
		expect(error?.description).toContain(
			`look for the job named "${name}" (plots ${ids.join(', ')})`,
		);
		expect(error?.description).toMatch(/Do not simply run again/);
	});

	it('two jobs of the same name and plots since the window began: cannot tell, so nothing is sent again', async () => {
		const ids = seed(1);
		const first = await create(ids, { additionalFields: { jobName: 'Weekly' } });
		expect(first.error).toBeUndefined();
		fake.faults.add({ kind: 'drop-after', match: MAKE_JOB });
		const { items, error } = await create(ids, { additionalFields: { jobName: 'Weekly' } });
		expect(items).toHaveLength(0);
		expect(realCreates()).toHaveLength(2);
		const jobs = jobsNow().map((j) => String(j.job_id));
		expect(jobs).toHaveLength(2);
		expect(error?.message).toBe(
			`Jobs ${[...jobs].reverse().join(', ')} are all named "Weekly" with the same plots: the one this run created cannot be told apart`,
		);
		expect(error?.description).toMatch(/Job → Get Many \(Filters → Created After = \d{4}-/);
	});

	it('a 429 on make_job (nothing processed) is retried: one job', async () => {
		const ids = seed(1);
		fake.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 1, match: MAKE_JOB });
		const { error } = await create(ids);
		expect(error).toBeUndefined();
		expect(realCreates().map((e) => e.status)).toEqual([429, 200]);
		expect(jobsNow()).toHaveLength(1);
	});

	it('one job per item, the second failing: the error names the job already created and its cost', async () => {
		const ids = seed(1);
		const { items, error } = await runNode({
			parameters: {
				resource: 'job',
				operation: 'create',
				jobPer: 'item',
				plotIds: '={{ $json.id }}',
				additionalFields: { jobName: '={{ "Job " + $json.id }}' },
			},
			input: [{ id: ids[0] }, { id: '999999' }],
			store,
		});
		expect(items).toHaveLength(0);
		expect(jobsNow()).toHaveLength(1);
		const job = jobsNow()[0];
		expect(error?.description).toContain(
			`Created before the failure: job ${String(job.job_id)} "Job ${ids[0]}" (item 0, ${String(job.token_cost)} tokens)`,
		);
		expect(error?.context?.createdBeforeFailure).toEqual([
			{ items: [0], job_id: job.job_id, job_name: `Job ${ids[0]}`, token_cost: job.token_cost },
		]);
	});
});

describe('Retry-After on every status that carries it', () => {
	it('a 503 with Retry-After: 1 on a read is retried after at least 1 s', async () => {
		fake.faults.add({
			kind: 'status',
			status: 503,
			retryAfterSeconds: 1,
			match: { path: '/users/check_tokens' },
		});
		const { error } = await runNode({
			parameters: { resource: 'account', operation: 'getTokenBalance' },
			store,
		});
		expect(error).toBeUndefined();
		const [unavailable, ok] = fake.log.entries();
		expect(unavailable.status).toBe(503);
		expect(ok.status).toBe(200);
		expect(Date.parse(ok.at) - Date.parse(unavailable.at)).toBeGreaterThanOrEqual(950);
	});
});

describe('Protected Area → Check: paid results are never thrown away', () => {
	const check = async (ids: string[], extra: IDataObject = {}, continueOnFail = false) =>
		await runNode({
			parameters: {
				resource: 'protectedArea',
				operation: 'check',
				checkBy: 'plotIds',
				options: { batchSize: 2 },
				...extra,
			},
			input: ids.map((plot_id) => ({ plot_id })),
			store,
			continueOnFail,
		});

	it('the second chunk fails (no Continue On Fail): the error says what was checked and paid, and carries the results', async () => {
		const ids = fake.seedPlots('alice', 4);
		const before = fake.getBalance('alice').total;
		fake.faults.add({ kind: 'status', status: 503, skip: 1, match: CHECKS });
		const { items, error } = await check(ids);
		expect(items).toHaveLength(0);
		expect(fake.log.count(CHECKS)).toBe(2);
		expect(fake.getBalance('alice').total).toBe(before - 2);
		expect(error?.description).toContain(
			'Checked and paid for before the failure: items 0, 1 (2 plots and geometries; 2 tokens charged).',
		);
		expect(error?.description).toContain('Run again only items 2, 3');
		const kept = error?.context?.checkedBeforeFailure as Array<{ item: number; json: IDataObject }>;
		expect(kept.map((k) => [k.item, k.json.plot_id])).toEqual([
			[0, ids[0]],
			[1, ids[1]],
		]);
		expect(kept[0].json).toHaveProperty('protected_area_overlap');
		expect(error?.context?.tokensChargedBeforeFailure).toBe(2);
	});

	it('the second chunk fails with Continue On Fail: the paid rows are output, the failed items are error items', async () => {
		const ids = fake.seedPlots('alice', 4);
		const before = fake.getBalance('alice').total;
		fake.faults.add({ kind: 'status', status: 503, skip: 1, match: CHECKS });
		const { items, error } = await check(ids, {}, true);
		expect(error).toBeUndefined();
		expect(fake.getBalance('alice').total).toBe(before - 2);
		expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(items.slice(0, 2).map((i) => i.json.plot_id)).toEqual(ids.slice(0, 2));
		expect(items.slice(2).every((i) => typeof i.json.error === 'string')).toBe(true);
	});

	it('the second chunk processed and its answer lost: the error says it may have been charged too', async () => {
		const ids = fake.seedPlots('alice', 4);
		const before = fake.getBalance('alice').total;
		fake.faults.add({ kind: 'drop-after', skip: 1, match: CHECKS });
		const { error } = await check(ids);
		expect(fake.log.count(CHECKS)).toBe(2); // a check is never sent twice after it may have arrived
		expect(fake.getBalance('alice').total).toBe(before - 4);
		expect(error?.description).toContain('items 0, 1 (2 plots and geometries; 2 tokens charged)');
		expect(error?.description).toMatch(
			/The failing request for items 2, 3 may have been carried out and charged too \(the connection broke after the request was sent/,
		);
		expect(error?.context?.checkedBeforeFailure).toHaveLength(2);
	});

	it('raw output: the answers already paid for are kept on the error as they came', async () => {
		const ids = fake.seedPlots('alice', 4);
		fake.faults.add({ kind: 'status', status: 503, skip: 1, match: CHECKS });
		const { error } = await check(ids, { output: 'raw' });
		const kept = error?.context?.checkedBeforeFailure as Array<{
			item: number[];
			json: IDataObject;
		}>;
		expect(kept).toHaveLength(1);
		expect(kept[0].item).toEqual([0, 1]);
		expect(kept[0].json.type).toBe('FeatureCollection');
		expect(kept[0].json.features).toHaveLength(2);
	});

	it('one item split over two chunks: the partly checked item is named with its count', async () => {
		const ids = fake.seedPlots('alice', 3);
		fake.faults.add({ kind: 'status', status: 503, skip: 1, match: CHECKS });
		const { error } = await runNode({
			parameters: {
				resource: 'protectedArea',
				operation: 'check',
				checkBy: 'plotIds',
				plotIds: ids.join(','),
				options: { batchSize: 2 },
			},
			store,
		});
		expect(error?.description).toContain(
			'Checked and paid for before the failure: item 0 (2 of 3 plots and geometries) (2 plots and geometries; 2 tokens charged).',
		);
	});
});

/**
 * The trigger's job listing is bounded: against a loopback server whose GET /jobs pages
 * misbehave (a cursor that repeats, cursors that cycle, has_more without a cursor, an empty
 * page that says more follow, no list, pages without end), a poll stops with an error that
 * says what happened after a small, known number of requests, emits nothing and leaves the
 * stored state as it was. A listing of several well-formed pages is followed to its end.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import { MAX_LISTING_PAGES } from '../../../nodes/GeospatialAnalysisTrigger/triggerRequests';
import { CredentialStore, runPoll } from '../../helpers/poll';

type Behaviour = (page: number, cursor: string | undefined) => unknown;

const MIN = 60_000;

function job(id: number, createdMs: number, status = 'pending'): IDataObject {
	const ts = new Date(createdMs).toISOString().replace('Z', '');
	return { job_id: String(id), job_name: `Job ${id}`, status, created_at: ts, updated_at: ts };
}

describe('Trigger listing: bounded pagination (loopback server)', () => {
	let server: http.Server;
	let url: string;
	let behaviour: Behaviour;
	let requests: { path: string; query: URLSearchParams }[];
	let store: CredentialStore;
	const now = Date.now();

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const u = new URL(req.url ?? '/', 'http://127.0.0.1');
			requests.push({ path: u.pathname, query: u.searchParams });
			res.setHeader('Content-Type', 'application/json');
			if (u.pathname !== '/jobs') {
				res.statusCode = 404;
				res.end(JSON.stringify({ code: 404, message: 'HTTP 404 Not Found' }));
				return;
			}
			const page = requests.filter((r) => r.path === '/jobs').length;
			res.end(JSON.stringify(behaviour(page, u.searchParams.get('cursor') ?? undefined)));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => {
		requests = [];
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: url, apiKey: 'service_live_loopback_test_key' },
		});
	});

	/** A page of one job, with the meta given. */
	const page = (n: number, meta: IDataObject) => ({
		jobs: [job(9000 + n, now - n * MIN)],
		meta: { limit: 1000, count: 1, ...meta },
	});

	async function stopsWith(message: RegExp, expectedRequests: number) {
		// a stored state from an earlier poll: the failed poll must leave it as it was
		const stored: IDataObject = {
			'node:Geospatial Analysis Trigger': {
				tracker: {
					v: 2,
					from: now - 10 * MIN,
					newest: now,
					polledAt: now,
					pending: { '42': now - 5 * MIN },
					seen: {},
				},
			},
		};
		const result = await runPoll({ parameters: {}, store, staticData: stored });
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/emitted nothing.*state is unchanged/);
		expect(result.items).toBeNull();
		expect(result.staticData).toEqual(stored);
		expect(requests.filter((r) => r.path === '/jobs')).toHaveLength(expectedRequests);
		// nothing but the listing was asked (no single-job request for the watched job)
		expect(requests).toHaveLength(expectedRequests);
		return result;
	}

	it('stops on a cursor that repeats (A, A): two requests', async () => {
		behaviour = (n) => page(n, { next_cursor: 'A', has_more: true });
		await stopsWith(/page cursor it had sent before, .*\(page 2\)/, 2);
	});

	it('stops on cursors that cycle (A, B, A): three requests', async () => {
		const cursors = ['A', 'B', 'A', 'B'];
		behaviour = (n) => page(n, { next_cursor: cursors[n - 1], has_more: true });
		await stopsWith(/page cursor it had sent before, .*\(page 3\)/, 3);
		expect(requests.map((r) => r.query.get('cursor'))).toEqual([null, 'A', 'B']);
	});

	it('stops on has_more without a cursor: one request', async () => {
		behaviour = (n) => page(n, { next_cursor: null, has_more: true });
		await stopsWith(/has_more: true\) but gives no next_cursor \(page 1\)/, 1);
	});

	it('stops on an empty page that says more follow: one request', async () => {
		behaviour = () => ({ jobs: [], meta: { next_cursor: 'A', has_more: true, count: 0 } });
		await stopsWith(/an empty page says more pages follow .*\(page 1\)/, 1);
	});

	it('stops on an answer without the jobs list: one request', async () => {
		behaviour = () => ({ items: [] });
		await stopsWith(/the answer has no "jobs" list .*\(page 1\)/, 1);
	});

	it(`stops after ${MAX_LISTING_PAGES} pages that never end`, async () => {
		behaviour = (n) => page(n, { next_cursor: `c${n}`, has_more: true });
		const result = await stopsWith(
			new RegExp(`more pages follow after ${MAX_LISTING_PAGES}.*\\(page ${MAX_LISTING_PAGES}\\)`),
			MAX_LISTING_PAGES,
		);
		expect(result.error?.description).toMatch(/Watch Unfinished Jobs For \(Days\)/);
	});

	it('follows well-formed pages to the end, each cursor once, with the same window', async () => {
		const meta = [
			{ next_cursor: 'x', has_more: true },
			{ next_cursor: 'y', has_more: true },
			{ next_cursor: null, has_more: false },
		];
		behaviour = (n) => page(n, meta[n - 1]);
		const result = await runPoll({ parameters: {}, store });
		expect(result.error).toBeUndefined();
		expect(requests.map((r) => r.query.get('cursor'))).toEqual([null, 'x', 'y']);
		const froms = new Set(requests.map((r) => r.query.get('created_at_from')));
		expect(froms.size).toBe(1);
		// the bound in the service's own timestamp style: UTC without zone, to the second
		expect([...froms][0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
		expect(requests.every((r) => r.query.get('limit') === '1000')).toBe(true);
		// the jobs of all three pages are watched
		const tracker = result.nodeStaticData.tracker as { pending: Record<string, number> };
		expect(Object.keys(tracker.pending).sort()).toEqual(['9001', '9002', '9003']);
	});

	it('refuses a Look Back or Watch Period that is not a number in range, naming the field, before any request', async () => {
		const lookBack = await runPoll({ parameters: { options: { lookBackHours: 'two' } }, store });
		expect(lookBack.error?.message).toBe(
			'Field "Look Back (Hours)": "two" is not a number. Give a number of 0 or more.',
		);
		expect(lookBack.error?.description).toMatch(/Enter 0 to skip jobs/);
		const negative = await runPoll({ parameters: { options: { lookBackHours: -1 } }, store });
		expect(negative.error?.message).toMatch(/^Field "Look Back \(Hours\)": -1 is below/);
		const watch = await runPoll({ parameters: { options: { maxTrackingDays: 0 } }, store });
		expect(watch.error?.message).toBe(
			'Field "Watch Unfinished Jobs For (Days)": 0 is below the smallest allowed value, 0.01. Give a number of 0.01 or more.',
		);
		expect(watch.error?.description).toMatch(/how many days after its creation/);
		expect(requests).toEqual([]);
		// a number typed as text reads as that number
		const typed = await runPoll({
			parameters: { options: { lookBackHours: '2', maxTrackingDays: '3' } },
			store,
		});
		expect(typed.error).toBeUndefined();
	});

	it('reads Job Name Contains through the input layer: a list is refused naming the field, before any request', async () => {
		const list = await runPoll({
			parameters: { options: { jobName: ['weekly', 'monthly'] } },
			store,
		});
		expect(list.error?.message).toMatch(/^Field "Job Name Contains": it is a list, not text/);
		expect(requests).toEqual([]);
		const typed = await runPoll({ parameters: { options: { jobName: '  weekly ' } }, store });
		expect(typed.error).toBeUndefined();
	});
});

/**
 * Bounded pagination through n8n's engine (Plot → Get Many, Job → Get Many) against a
 * loopback service whose cursors misbehave: a repeated or alternating cursor, `has_more`
 * without a cursor, empty pages, and endless fresh cursors. Request counts are asserted.
 */
import { MAX_RETURN_ALL_PAGES } from '../../../nodes/shared/transport/pageTrail';
import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback, SeenRequest } from '../../helpers/loopback';
import { json, notFound, startLoopback } from '../../helpers/loopback';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'pagination_test_key_01';

function cursorOf(request: SeenRequest): string | undefined {
	return new URL(request.url, 'http://x').searchParams.get('cursor') ?? undefined;
}

describe('pagination is bounded (engine → loopback service)', () => {
	let service: Loopback;

	beforeAll(async () => {
		service = await startLoopback();
	});
	afterAll(async () => await service.close());
	beforeEach(() => {
		service.requests.length = 0;
		service.handle(notFound);
	});

	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });
	/** Answers `key` pages from `page(n, cursor)`, n counting from 1. */
	const list = (
		path: string,
		key: string,
		page: (n: number, cursor: string | undefined) => { count: number; meta: object },
	) => {
		let n = 0;
		service.handle((req, res) => {
			if (req.path !== path) return notFound(req, res);
			const { count, meta } = page(++n, cursorOf(req));
			const prefix = key === 'plots' ? 'plot_id' : 'job_id';
			json(res, 200, {
				[key]: Array.from({ length: count }, (_, i) => ({ [prefix]: `${n}-${i}` })),
				meta,
			});
		});
	};

	it('Plot → Get Many, Return All: a repeated cursor stops at the repeat (3 requests)', async () => {
		list('/plots', 'plots', (n) => ({
			count: 2,
			meta: { next_cursor: n === 1 ? 'A' : n === 2 ? 'B' : 'A', has_more: true },
		}));
		const { items, error } = await runNode({
			parameters: { resource: 'plot', operation: 'getMany', returnAll: true },
			store: store(),
		});
		expect(error?.message).toMatch(
			/pages of GET \/plots cannot be followed: the service sent a page cursor it had sent before/,
		);
		expect(error?.message).toContain('(page 3)');
		expect(items).toHaveLength(0);
		expect(service.requests).toHaveLength(3);
		expect(service.requests.map(cursorOf)).toEqual([undefined, 'A', 'B']);
	});

	it('Job → Get Many, Return All: alternating cursors give an error, not thousands of duplicates', async () => {
		list('/jobs', 'jobs', (n) => ({
			count: 1000,
			meta: { next_cursor: n % 2 === 1 ? 'odd' : 'even', has_more: true },
		}));
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getMany', returnAll: true },
			store: store(),
		});
		expect(error?.message).toMatch(
			/GET \/jobs cannot be followed: .* sent before, so the pages would repeat \(page 3\)/,
		);
		expect(error?.description).toMatch(/stopped after 3 requests \(3000 records read\)/);
		expect(items).toHaveLength(0);
		expect(service.requests).toHaveLength(3);
	});

	it('has_more: true without a next_cursor is an error, not a silent first page', async () => {
		list('/plots', 'plots', () => ({ count: 100, meta: { has_more: true, next_cursor: null } }));
		const { error } = await runNode({
			parameters: { resource: 'plot', operation: 'getMany', returnAll: true },
			store: store(),
		});
		expect(error?.message).toMatch(
			/says more pages follow \(has_more: true\) but gives no next_cursor/,
		);
		expect(service.requests).toHaveLength(1);
	});

	it('an empty page that says more follow is an error', async () => {
		list('/plots', 'plots', (n) => ({ count: 0, meta: { has_more: true, next_cursor: `c${n}` } }));
		const { error } = await runNode({
			parameters: { resource: 'plot', operation: 'getMany', returnAll: true },
			store: store(),
		});
		expect(error?.message).toMatch(/an empty page says more pages follow/);
		expect(service.requests).toHaveLength(1);
	});

	it('a Limit of N needs at most N pages, even when every page holds one record', async () => {
		list('/plots', 'plots', (n) => ({ count: 1, meta: { has_more: true, next_cursor: `c${n}` } }));
		const { items, error } = await runNode({
			parameters: { resource: 'plot', operation: 'getMany', returnAll: false, limit: 3 },
			store: store(),
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.plot_id)).toEqual(['1-0', '2-0', '3-0']);
		expect(service.requests).toHaveLength(3);
		expect(
			service.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('limit')),
		).toEqual(['3', '2', '1']);
	});

	it(`Return All reads at most ${MAX_RETURN_ALL_PAGES} pages of endless fresh cursors`, async () => {
		list('/jobs', 'jobs', (n) => ({ count: 1, meta: { has_more: true, next_cursor: `c${n}` } }));
		const { items, error } = await runNode({
			parameters: { resource: 'job', operation: 'getMany', returnAll: true },
			store: store(),
		});
		expect(error?.message).toMatch(
			new RegExp(`more pages follow after ${MAX_RETURN_ALL_PAGES}, .*Return All reads at most`),
		);
		expect(items).toHaveLength(0);
		expect(service.requests).toHaveLength(MAX_RETURN_ALL_PAGES);
	}, 60_000);
});

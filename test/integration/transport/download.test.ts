/**
 * Download Visualisations, through n8n's engine (Job → Get Results) against loopback
 * servers: the service (origin A) and two CDN hosts (origins B and C). The credential is sent
 * to the service's origin only, redirects are followed by hand, only http(s) addresses are
 * fetched, hops are bounded and an image past the size cap is abandoned, not buffered.
 */
import type { ServerResponse } from 'node:http';

import {
	MAX_EXECUTION_DOWNLOAD_BYTES,
	MAX_ITEM_DOWNLOAD_BYTES,
} from '../../../nodes/shared/jobs/jobOutput';
import { MAX_DOWNLOAD_BYTES } from '../../../nodes/shared/transport/download';
import { MAX_REDIRECTS } from '../../../nodes/shared/transport/redirects';
import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback } from '../../helpers/loopback';
import { json, notFound, redirect, startLoopback } from '../../helpers/loopback';
import { until } from '../../helpers/until';

// Made-up values (not secrets).
const KEY = 'service_live_' + 'download_test_key_0001';
const IMAGE = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const MB = 1024 * 1024;

function png(res: ServerResponse) {
	res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(IMAGE.length) });
	res.end(IMAGE);
}

interface Sent {
	bytes: number;
	/** the client closed the connection before the end */
	cut?: boolean;
	/** the connection closed (cut or ended) */
	closed?: boolean;
}

/**
 * Streams `total` bytes in 64 KB chunks, honouring backpressure; records how many were
 * accepted, whether the connection closed and whether the client cut it before the end.
 */
async function stream(res: ServerResponse, total: number, sent: Sent) {
	let closed = false;
	res.once('close', () => {
		closed = true;
		if (!res.writableEnded) sent.cut = true;
		sent.closed = true;
	});
	if (!res.headersSent) res.writeHead(200, { 'Content-Type': 'image/png' });
	const chunk = Buffer.alloc(64 * 1024, 1);
	while (sent.bytes < total && !closed) {
		sent.bytes += chunk.length;
		if (!res.write(chunk))
			await new Promise<void>((resolve) => {
				const done = () => {
					res.off('drain', done);
					res.off('close', done);
					resolve();
				};
				res.on('drain', done);
				res.on('close', done);
			});
	}
	if (!closed) res.end();
}

describe('Download Visualisations (engine → loopback service and CDN hosts)', () => {
	let service: Loopback;
	let cdn: Loopback;
	let cdn2: Loopback;
	let images: string[];

	beforeAll(async () => {
		service = await startLoopback();
		cdn = await startLoopback();
		cdn2 = await startLoopback();
	});
	afterAll(async () => {
		await Promise.all([service.close(), cdn.close(), cdn2.close()]);
	});
	beforeEach(() => {
		for (const server of [service, cdn, cdn2]) {
			server.requests.length = 0;
			server.abandoned = 0;
			server.handle(notFound);
		}
		service.handle((req, res) => {
			if (req.path === '/jobs/job/1')
				return json(res, 200, {
					job_id: '1',
					job_name: 'images',
					status: 'done',
					plot_ids: ['10'],
					job_visualization_url: images,
				});
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			if (req.path === '/img/10.png') return redirect(res, 302, `${cdn.url}/cdn/10.png`);
			if (req.path === '/direct/10.png') return png(res);
			return notFound(req, res);
		});
	});

	const store = () =>
		new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: KEY } });
	const getResults = async (input?: Array<{ id: string }>) =>
		await runNode({
			parameters: {
				resource: 'job',
				operation: 'getResults',
				jobId: input ? '={{ $json.id }}' : '1',
				output: 'job',
				downloadImages: true,
			},
			...(input ? { input } : {}),
			store: store(),
		});
	const imageRequests = (server: Loopback) =>
		server.requests.filter((r) => !['/jobs/job/1', '/v3/discovery/capabilities'].includes(r.path));

	it('sends the credential to the service origin only, along a redirect chain through two CDN hosts', async () => {
		images = [`${service.url}/img/10.png`];
		cdn.handle((_req, res) => redirect(res, 307, `${cdn2.url}/x/10.png`));
		cdn2.handle((_req, res) => png(res));
		const { items, error } = await getResults();
		expect(error).toBeUndefined();
		const binary = items[0].binary?.data_0;
		expect(binary?.mimeType).toBe('image/png');
		expect(binary?.fileName).toBe('10.png');
		expect(Buffer.from(binary!.data, 'base64')).toEqual(IMAGE);
		expect(imageRequests(service).map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
		expect(cdn.requests).toHaveLength(1);
		expect(cdn2.requests).toHaveLength(1);
		for (const r of [...cdn.requests, ...cdn2.requests])
			expect(r.headers.authorization).toBeUndefined();
	});

	it('fetches an image hosted elsewhere without the credential, and one on the service with it', async () => {
		images = [`${cdn.url}/plain/10.png`, `${service.url}/direct/10.png`];
		cdn.handle((_req, res) => png(res));
		const { items, error } = await getResults();
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual(['data_0', 'data_1']);
		expect(cdn.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
		expect(imageRequests(service).map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
	});

	it.each([
		['data:', 'data:image/png;base64,iVBORw0KGgo='],
		['file:', 'file:///etc/passwd'],
	])('refuses a %s address without fetching anything', async (scheme, url) => {
		images = [url];
		const { error } = await getResults();
		expect(error?.message).toMatch(/^Could not download the visualization at /);
		expect(error?.message).toContain(
			`"${scheme}" address, and only http(s) addresses are downloaded`,
		);
		expect(error?.message).not.toContain('iVBORw0KGgo');
		expect(imageRequests(service)).toHaveLength(0);
	});

	it(`follows at most ${MAX_REDIRECTS} redirects of a download`, async () => {
		images = [`${cdn.url}/loop/0.png`];
		let n = 0;
		cdn.handle((_req, res) => redirect(res, 302, `/loop/${++n}.png`));
		const { error } = await getResults();
		expect(error?.message).toContain(`at most ${MAX_REDIRECTS} are followed`);
		expect(cdn.requests).toHaveLength(MAX_REDIRECTS + 1);
	});

	it('refuses a redirect to a non-http address', async () => {
		images = [`${cdn.url}/to-file.png`];
		cdn.handle((_req, res) => redirect(res, 302, 'file:///etc/passwd'));
		const { error } = await getResults();
		expect(error?.message).toContain('"file:" address, and only http(s) addresses are followed');
	});

	it('refuses an image whose Content-Length passes the cap, before reading it', async () => {
		images = [`${cdn.url}/big.png`];
		const sent: Sent = { bytes: 0 };
		cdn.handle(async (_req, res) => {
			res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(30 * MB) });
			await stream(res, 30 * MB, sent);
		});
		const { error } = await getResults();
		expect(error?.message).toContain(
			`larger than the download limit of ${MAX_DOWNLOAD_BYTES / MB} MB (30 MB)`,
		);
		expect(error?.description).toContain(`larger than ${MAX_DOWNLOAD_BYTES / MB} MB`);
		await until(() => sent.closed === true); // the connection closed, cut or ended
		expect(sent.cut).toBe(true);
		expect(sent.bytes).toBeLessThan(30 * MB);
	});

	it('abandons a 50 MB image without Content-Length once it passes the cap (never buffered whole)', async () => {
		images = [`${cdn.url}/huge.png`];
		const sent: Sent = { bytes: 0 };
		cdn.handle(async (_req, res) => await stream(res, 50 * MB, sent));
		const { error } = await getResults();
		expect(error?.message).toContain(
			`larger than the download limit of ${MAX_DOWNLOAD_BYTES / MB} MB (more than`,
		);
		// The client stopped reading and closed the connection: the 50 MB were never all sent.
		await until(() => sent.closed === true); // the connection closed, cut or ended
		expect(sent.cut).toBe(true);
		expect(sent.bytes).toBeLessThan(45 * MB);
	});

	it('names the status of an image that is not there', async () => {
		images = [`${cdn.url}/missing.png?signature=secret-token`];
		const { error } = await getResults();
		expect(error?.message).toBe(
			`Could not download the visualization at ${cdn.url}/missing.png: the server answered HTTP 404`,
		);
	});

	it('skips a JSON document served as an image (a .png name on the service host), saying why', async () => {
		images = [`${service.url}/direct/10.png`, `${service.url}/img/report.png?x=1`];
		service.handle((req, res) => {
			if (req.path === '/jobs/job/1')
				return json(res, 200, { job_id: '1', status: 'done', job_visualization_url: images });
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			if (req.path === '/direct/10.png') return png(res);
			return json(res, 200, { note: 'a JSON document, not an image' });
		});
		const { items, error } = await getResults();
		expect(error).toBeUndefined();
		expect(Object.keys(items[0].binary ?? {})).toEqual(['data_0']);
		expect(items[0].json.visualizations_skipped).toEqual([
			{
				url: `${service.url}/img/report.png`,
				reason:
					'it is not an image: the server sent "application/json" content, and only PNG, JPEG, GIF and WebP images are attached',
			},
		]);
	});

	it('never echoes a Content-Type outside a fixed list of well-known types (a hostile service could reflect the API key in it)', async () => {
		images = [`${service.url}/img/a.png`, `${service.url}/img/b.png`];
		service.handle((req, res) => {
			if (req.path === '/jobs/job/1')
				return json(res, 200, { job_id: '1', status: 'done', job_visualization_url: images });
			if (req.path === '/v3/discovery/capabilities') return json(res, 200, []);
			const reflected =
				req.path === '/img/a.png' ? `application/x-${KEY}` : `text/${KEY}; charset=utf-8`;
			res.writeHead(200, { 'Content-Type': reflected });
			res.end('{}');
		});
		const { items, error } = await getResults();
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		const reason =
			"it is not an image: the answer's Content-Type is not an image type, and only PNG, JPEG, GIF and WebP images are attached";
		expect(items[0].json.visualizations_skipped).toEqual([
			{ url: `${service.url}/img/a.png`, reason },
			{ url: `${service.url}/img/b.png`, reason },
		]);
		const everything = JSON.stringify(items);
		expect(everything).not.toContain(KEY);
		expect(everything).not.toContain(KEY.slice(0, 20));
	});

	it('skips JSON whose Content-Type claims an image (another host): its first bytes are not one', async () => {
		images = [`${cdn.url}/lying.png`];
		cdn.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'image/png' });
			res.end(JSON.stringify({ note: 'a JSON document, not an image' }));
		});
		const { items, error } = await getResults();
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.visualizations_skipped).toEqual([
			{
				url: `${cdn.url}/lying.png`,
				reason: expect.stringMatching(
					/^it is not an image: its content is not a PNG, JPEG, GIF or WebP/,
				),
			},
		]);
	});

	describe('caps on the images of an item and of an execution', () => {
		const big = Buffer.alloc(20 * MB, 7);
		IMAGE.copy(big);
		beforeEach(() => {
			cdn.handle((_req, res) => {
				res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(big.length) });
				res.end(big);
			});
		});

		it('eight 20 MB images: the item keeps what fits its cap, the rest are skipped naming the cap', async () => {
			images = Array.from({ length: 8 }, (_, i) => `${cdn.url}/big/${i}.png`);
			const { items, error } = await getResults();
			expect(error).toBeUndefined();
			const fit = Math.floor(MAX_ITEM_DOWNLOAD_BYTES / big.length);
			expect(fit).toBeLessThan(8);
			expect(Object.keys(items[0].binary ?? {})).toEqual(
				Array.from({ length: fit }, (_, i) => `data_${i}`),
			);
			const skipped = items[0].json.visualizations_skipped as Array<{
				url: string;
				reason: string;
			}>;
			expect(skipped.map((s) => s.url)).toEqual(images.slice(fit));
			for (const s of skipped)
				expect(s.reason).toMatch(
					new RegExp(`the download cap of ${MAX_ITEM_DOWNLOAD_BYTES / MB} MB per item`),
				);
			// Never more than the cap in one item.
			const bytes = Object.values(items[0].binary ?? {}).reduce(
				(sum, b) => sum + Buffer.from(b.data, 'base64').length,
				0,
			);
			expect(bytes).toBeLessThanOrEqual(MAX_ITEM_DOWNLOAD_BYTES);
		});

		it('three jobs of three 20 MB images: the execution stops attaching at its cap and names it', async () => {
			images = Array.from({ length: 3 }, (_, i) => `${cdn.url}/big/${i}.png`);
			const { items, error } = await getResults([{ id: '1' }, { id: '1' }, { id: '1' }]);
			expect(error).toBeUndefined();
			const attached = items.map((i) => Object.keys(i.binary ?? {}).length);
			const total = attached.reduce((a, b) => a + b, 0) * big.length;
			expect(total).toBeLessThanOrEqual(MAX_EXECUTION_DOWNLOAD_BYTES);
			expect(total).toBeGreaterThan(MAX_EXECUTION_DOWNLOAD_BYTES - big.length);
			const reasons = items.flatMap((i) =>
				((i.json.visualizations_skipped ?? []) as Array<{ reason: string }>).map((s) => s.reason),
			);
			expect(reasons.at(-1)).toMatch(
				new RegExp(
					`the download cap of ${MAX_EXECUTION_DOWNLOAD_BYTES / MB} MB per run of this node`,
				),
			);
		});
	});
});

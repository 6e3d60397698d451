/**
 * The EU's limit of calls a second through n8n's engine against the EU fake (issue 36, 4):
 * - reads refused with HTTP 429 by the fake's own throttling (a low rate on a clock the test
 *   drives: which arrival is refused does not depend on the machine's speed) wait the
 *   Retry-After and go again: every item succeeds in the end;
 * - Withdraw and Amend refused with 429 (a loopback proxy in front of the fake refuses the one
 *   call, Retry-After: 0; the rest is the fake's) are sent again only after a fresh read: sent
 *   again when nothing changed; not sent again when the statement was withdrawn meanwhile (the
 *   output says WITHDRAWN, as the EU does) or amended by someone else meanwhile (refused,
 *   naming both versions).
 */
import type { ServerResponse } from 'node:http';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import type { Loopback, SeenRequest } from '../../helpers/loopback';
import { startLoopback } from '../../helpers/loopback';
import {
	ddsParameters as submit,
	ddsPlotRow,
	euStore,
	jsonOf,
	keyLeaks,
	operationOf,
	runEu,
} from './helpers';

beforeEach(() => resetEuRateLimit());

describe('reads refused by the fake for its limit of calls a second', () => {
	// 2 calls per 900 ms window on a clock that moves 300 ms per arrival while `throttled`
	// (every third arrival refused, whatever the machine's speed), 10 s otherwise (none)
	let throttled = false;
	let clock = 0;
	const eu = useFakeEu({
		ratePerSecond: 2,
		availableAfterMs: 1000,
		rateClock: () => (clock += throttled ? 300 : 10_000),
	});
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);

	it('Get by Internal Reference: the refused lookups wait the Retry-After and go again; every item succeeds', async () => {
		const refs = Array.from({ length: 6 }, (_, i) => `RATE-READ-${i + 1}`);
		const filed = await runEu({
			parameters: submit(),
			input: refs.map((ref) => ddsPlotRow(ref)),
			store: store(),
		});
		expect(filed.error).toBeUndefined();
		const since = eu.fake.requests().length;
		throttled = true;
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: '={{ $json.ref }}' },
			input: refs.map((ref) => ({ ref })),
			store: store(),
		});
		throttled = false;
		expect(result.error).toBeUndefined();
		const lookups = eu.fake
			.requests()
			.slice(since)
			.filter((r) => r.operation === 'getDdsByInternalReference' || r.status === 429);
		const refused = lookups.filter((r) => r.status === 429).length;
		expect(refused).toBeGreaterThan(0);
		expect(lookups.filter((r) => r.outcome === 'accepted')).toHaveLength(refs.length);
		expect(jsonOf(result).map((s) => s.internalReferenceNumber)).toEqual(refs);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});
});

describe('Withdraw and Amend refused for the limit: sent again only after a fresh read', () => {
	const eu = useFakeEu({ ratePerSecond: 0, availableAfterMs: 1000 });
	let proxy: Loopback;
	/** What the proxy does with the next call of an operation instead of forwarding it. */
	let refuseNext: { operation: string; before?: (seen: SeenRequest) => Promise<void> } | undefined;

	const forward = async (seen: SeenRequest, res: ServerResponse) => {
		const answer = await fetch(`${new URL(eu.fake.url).origin}${seen.url}`, {
			method: seen.method,
			headers: {
				'content-type': String(seen.headers['content-type'] ?? 'text/xml'),
				soapaction: String(seen.headers.soapaction ?? ''),
			},
			body: seen.method === 'POST' ? seen.body : undefined,
		});
		res.writeHead(answer.status, {
			'content-type': answer.headers.get('content-type') ?? 'text/xml',
		});
		res.end(await answer.text());
	};

	beforeAll(async () => {
		proxy = await startLoopback(async (seen, res) => {
			if (refuseNext && operationOf(seen.headers) === refuseNext.operation) {
				const { before } = refuseNext;
				refuseNext = undefined;
				await before?.(seen);
				res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' });
				res.end('Too Many Requests');
				return;
			}
			await forward(seen, res);
		});
	});
	afterAll(async () => await proxy.close());

	const store = () => euStore(`${proxy.url}${new URL(eu.fake.url).pathname}`, eu.fake.users[0]);
	const sentToFake = (operation: string) =>
		eu.fake.requests().filter((r) => r.operation === operation && r.outcome === 'accepted');
	const sentToProxy = (operation: string) =>
		proxy.requests.filter((r) => operationOf(r.headers) === operation);

	/** The UUID of a statement filed by the node and made AVAILABLE. */
	async function filedAndAvailable(ref: string): Promise<string> {
		const result = await runEu({ parameters: submit(), input: [ddsPlotRow(ref)], store: store() });
		expect(result.error).toBeUndefined();
		eu.fake.clock.advance(2000);
		return String(jsonOf(result)[0].uuid);
	}

	it('Withdraw refused with 429 is sent again after the statement was read again, and withdraws it once', async () => {
		const uuid = await filedAndAvailable('RATE-WD-1');
		refuseNext = { operation: 'withdrawDds' };
		const result = await runEu({
			parameters: { operation: 'withdraw', uuid },
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([expect.objectContaining({ uuid, status: 'WITHDRAWN' })]);
		expect(sentToProxy('withdrawDds')).toHaveLength(2);
		expect(sentToFake('withdrawDds')).toHaveLength(1);
		// the check before, and the fresh read after the refusal
		const proxied = proxy.requests.map((r) => operationOf(r.headers));
		expect(proxied.slice(proxied.lastIndexOf('submitDds') + 1)).toEqual([
			'getDds',
			'withdrawDds',
			'getDds',
			'getDds',
			'withdrawDds',
		]);
		expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('WITHDRAWN');
	});

	it('Withdraw refused with 429 while the statement was withdrawn meanwhile: nothing sent again, the output says WITHDRAWN', async () => {
		const uuid = await filedAndAvailable('RATE-WD-2');
		const [proxied, accepted] = [
			sentToProxy('withdrawDds').length,
			sentToFake('withdrawDds').length,
		];
		refuseNext = {
			operation: 'withdrawDds',
			before: async () => eu.fake.events.setStatus(uuid, 'WITHDRAWN'),
		};
		const result = await runEu({ parameters: { operation: 'withdraw', uuid }, store: store() });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([expect.objectContaining({ uuid, status: 'WITHDRAWN' })]);
		// the one refused withdrawal, nothing after it
		expect(sentToProxy('withdrawDds').length - proxied).toBe(1);
		expect(sentToFake('withdrawDds').length - accepted).toBe(0);
	});

	it('Amend refused with 429 is sent again when the statement is the version this run read: amended once', async () => {
		const uuid = await filedAndAvailable('RATE-AM-1');
		const amendsBefore = sentToFake('amendDds').length;
		refuseNext = { operation: 'amendDds' };
		const result = await runEu({
			parameters: { ...submit({ netWeight: '11000' }), operation: 'amend', uuid },
			input: [ddsPlotRow('RATE-AM-1')],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ uuid, amended: true });
		expect(sentToFake('amendDds').length - amendsBefore).toBe(1);
		expect(eu.fake.statements().find((s) => s.uuid === uuid)?.version).toBe(2);
	});

	it('Amend refused with 429 while someone else amended it: not sent again, both versions named', async () => {
		const uuid = await filedAndAvailable('RATE-AM-2');
		const amendsBefore = sentToFake('amendDds').length;
		refuseNext = {
			operation: 'amendDds',
			// another amendment reaches the EU first (the same body, forwarded by the proxy)
			before: async (seen) => {
				const answer = await fetch(`${new URL(eu.fake.url).origin}${seen.url}`, {
					method: 'POST',
					headers: {
						'content-type': 'text/xml; charset=utf-8',
						soapaction: String(seen.headers.soapaction),
					},
					body: seen.body,
				});
				expect(answer.status).toBe(200);
			},
		};
		const result = await runEu({
			parameters: { ...submit({ netWeight: '11000' }), operation: 'amend', uuid },
			input: [ddsPlotRow('RATE-AM-2')],
			store: store(),
		});
		expect(result.error?.message).toMatch(
			new RegExp(`^The statement ${uuid} changed while this amendment waited: .*not sent again`),
		);
		expect(result.error?.description).toMatch(/version 1; now: version 2/);
		expect(sentToFake('amendDds').length - amendsBefore).toBe(1); // the other one only
	});
});

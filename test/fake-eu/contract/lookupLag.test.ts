/**
 * Lagging lookups (README "Lagging lookups", pack §12: on live acceptance getDds and
 * getDdsByInternalReference answered an empty list right after a submission): a new statement
 * is left out of getDds, getDdsByInternalReference, getSd and getSdByInternalReference for its
 * first N lookups, or for T ms of the lifecycle clock after its submission; as a start option,
 * in process (`setLookupLag`) and through the control API.
 */
import type { FakeEu } from '../index';
import { CONTROL_PREFIX } from '../index';
import { byReferenceBody, getDdsBody, request, submit, textIn, useFakes } from './harness';
import { callSd, getSdBody, sdByReferenceBody, submitSd } from './sdHarness';

const fake = useFakes();

/** The uuids a DDS lookup lists. */
async function listed(eu: FakeEu, operation: string, body: string): Promise<string[]> {
	const read = await request(eu, operation, body);
	expect(read.status).toBe(200);
	return (read.body ? Array.from(read.body.childNodes) : [])
		.filter((n) => n.nodeType === 1)
		.map(
			(n) =>
				textIn(
					n as never,
					'uuid',
					'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3',
				) as string,
		);
}

test('no lag by default: listed at once', async () => {
	const eu = await fake();
	const uuid = await submit(eu, { internalReference: 'LAG-A-1' });
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('LAG-A'))).toEqual([uuid]);
});

test('the first N lookups (by reference and by uuid alike) leave a new statement out, then it is listed', async () => {
	const eu = await fake({ lookupLag: { lookups: 2 } });
	const uuid = await submit(eu, { internalReference: 'LAG-B-1' });
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('LAG-B'))).toEqual([]);
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([]);
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('lag-b-1'))).toEqual([uuid]);
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([uuid]);
});

test('for T ms of the lifecycle clock after the submission', async () => {
	const eu = await fake({ lookupLag: { ms: 30_000 } });
	const uuid = await submit(eu, { internalReference: 'LAG-C-1' });
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('LAG-C'))).toEqual([]);
	eu.clock.advance(29_999);
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([]);
	eu.clock.advance(1);
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([uuid]);
});

test('the switch turned on later lags only the statements still inside its time; cleared, all are listed', async () => {
	const eu = await fake();
	const first = await submit(eu, { internalReference: 'LAG-D-1' });
	eu.setLookupLag({ ms: 60_000 });
	eu.clock.advance(60_000);
	const second = await submit(eu, { internalReference: 'LAG-D-2' });
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('LAG-D'))).toEqual([first]);
	eu.setLookupLag({});
	expect(await listed(eu, 'getDdsByInternalReference', byReferenceBody('LAG-D'))).toEqual([
		first,
		second,
	]);
});

test('the SD reads lag alike: getSd and getSdByInternalReference', async () => {
	const eu = await fake({ lookupLag: { lookups: 1 } });
	const uuid = await submitSd(eu, { internalReference: 'LAG-SD-1' });
	const sdListed = async (operation: string, body: string) => {
		const read = await callSd(eu, operation, body);
		expect(read.status).toBe(200);
		return (read.body ? Array.from(read.body.childNodes) : []).filter((n) => n.nodeType === 1)
			.length;
	};
	expect(await sdListed('getSdByInternalReference', sdByReferenceBody('LAG-SD'))).toBe(0);
	expect(await sdListed('getSd', getSdBody([{ uuid }]))).toBe(1);
});

test('the control API sets and clears the lag; bad values are refused with 400', async () => {
	const eu = await fake();
	const control = `${new URL(eu.url).origin}${CONTROL_PREFIX}lookup-lag`;
	const post = async (body: unknown) =>
		await fetch(control, { method: 'POST', body: JSON.stringify(body) });
	const set = await post({ lookups: 1 });
	expect(set.status).toBe(200);
	expect(await set.json()).toEqual({ lookups: 1, ms: 0 });
	const uuid = await submit(eu, { internalReference: 'LAG-E-1' });
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([]);
	expect(await listed(eu, 'getDds', getDdsBody([uuid]))).toEqual([uuid]);
	expect((await post({ lookups: -1 })).status).toBe(400);
	expect((await post({ ms: 'soon' })).status).toBe(400);
	expect((await post({})).status).toBe(200);
	const other = await submit(eu, { internalReference: 'LAG-E-2' });
	expect(await listed(eu, 'getDds', getDdsBody([other]))).toEqual([other]);
});

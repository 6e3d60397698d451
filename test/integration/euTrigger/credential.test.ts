/**
 * A credential edited while the trigger runs: another Base URL (another EU service: its
 * statements from the last poll on, the old service never asked again), another user of the
 * same operator (the records kept: nothing fires twice), a user of another operator (the
 * statements it cannot read stop being watched, with a warning). The account is kept as a keyed
 * hash: neither key nor user name appears in the static data.
 */
import { randomUUID } from 'node:crypto';

import type { FakeEu } from '../../fake-eu';
import { DEFAULT_USER, startFakeEu } from '../../fake-eu';
import type { EuClock } from './helpers';
import { MIN, euPoller, euStore, file, followEuClock, operationsSince } from './helpers';

let a: FakeEu;
let b: FakeEu;
let clock: EuClock;

/** A fake user's key, made at run time (nothing secret in the source). */
const keyOf = (name: string) => `${name}-${randomUUID()}`;
const colleague = {
	username: 'colleague',
	key: keyOf('colleague'),
	operator: DEFAULT_USER.operator,
};
const stranger = { username: 'stranger', key: keyOf('stranger') };

beforeEach(async () => {
	a = await startFakeEu({ availableAfterMs: MIN, users: [DEFAULT_USER, colleague, stranger] });
	b = await startFakeEu({ availableAfterMs: MIN });
	clock = followEuClock(a, b);
});
afterEach(async () => {
	clock.restore();
	await a.stop();
	await b.stop();
});

test('another Base URL: what changed there since the last poll fires; the old service is not asked again', async () => {
	const store = euStore(a.url, a.users[0]);
	const poller = euPoller(store, 'default');
	await file(a, 'SHIP-A1');
	await file(b, 'SHIP-B-OLD');
	clock.advance(2 * MIN);
	await poller.poll();
	// the last poll on A 10 minutes after SHIP-B-OLD became AVAILABLE (more than the 5 minutes
	// by which another service's clock may differ)
	clock.advance(10 * MIN);
	await poller.poll();
	clock.advance(10 * MIN);
	const onB = await file(b, 'SHIP-B1');
	const aLater = await file(a, 'SHIP-A2');
	const fromA = a.requests().length;
	clock.advance(2 * MIN);
	store.data.euInformationSystemApi = euStore(b.url, b.users[0]).data.euInformationSystemApi;
	const moved = await poller.poll();
	expect(moved.error).toBeUndefined();
	expect(moved.logs.some((l) => /now points to/.test(l.message))).toBe(true);
	// SHIP-B1 became AVAILABLE after the last poll; SHIP-B-OLD 10 minutes before it
	expect(moved.items!.map((i) => i.json.uuid)).toEqual([onB]);
	clock.advance(MIN);
	expect((await poller.poll()).items).toBeNull();
	expect(a.requests().length).toBe(fromA);
	expect(JSON.stringify(moved.nodeStaticData)).not.toContain(aLater);
});

test('another user of the same operator: nothing fires twice; of another operator: its statements stop being watched', async () => {
	const store = euStore(a.url, a.users[0]);
	const poller = euPoller(store, 'durable');
	const one = await file(a, 'SHIP-1');
	clock.advance(2 * MIN);
	await poller.poll();
	clock.advance(31 * MIN);
	expect((await poller.poll()).items).toBeNull();
	const saved = JSON.stringify(poller.saved);
	for (const secret of [DEFAULT_USER.key, DEFAULT_USER.username])
		expect(saved).not.toContain(secret);

	store.data.euInformationSystemApi = euStore(a.url, a.users[1]).data.euInformationSystemApi;
	clock.advance(MIN);
	const same = await poller.poll();
	expect(same.error).toBeUndefined();
	expect(same.items).toBeNull();
	a.events.setStatus(one, 'WITHDRAWN');
	clock.advance(MIN);
	expect((await poller.poll()).items!.map((i) => [i.json.uuid, i.json.status])).toEqual([
		[one, 'WITHDRAWN'],
	]);

	store.data.euInformationSystemApi = euStore(a.url, a.users[2]).data.euInformationSystemApi;
	clock.advance(MIN);
	const mark = a.requests().length;
	const other = await poller.poll();
	expect(other.error).toBeUndefined();
	expect(other.items).toBeNull();
	expect(operationsSince(a, mark)).toEqual(['getDdsByInternalReference', 'getDds']);
	expect(other.logs.some((l) => l.level === 'warn' && /no longer shows/.test(l.message))).toBe(
		true,
	);
	expect(JSON.stringify(other.nodeStaticData)).not.toContain(one);
});

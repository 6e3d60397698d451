/**
 * The EU Information System Trigger against answers that would hurt if trusted, through n8n's
 * PollContext against the fake EU whose store the test changes: statuses named like members of
 * Object fire once each (not on every poll), 100 statements whose "UUID" is 100 KB are left
 * out and counted (static data stays small: docs/eu-information-system/trigger.md's ~60 bytes a statement), the prefix
 * with a character XML cannot carry is refused before any request.
 */
import path from 'node:path';

import type { FakeEu } from '../../fake-eu';
import { startFakeEu } from '../../fake-eu';
import { doneValue, runInBoundedChild } from '../../helpers/boundedChild';
import type { Scenario } from '../../helpers/euHostileScenarios';
import type { CredentialStore } from '../../helpers/engine';
import type { EuClock } from './helpers';
import { MIN, euPoller, euStore, file, followEuClock, pollEu } from './helpers';

let eu: FakeEu;
let clock: EuClock;
let store: CredentialStore;

beforeEach(async () => {
	eu = await startFakeEu({ availableAfterMs: MIN });
	clock = followEuClock(eu);
	store = euStore(eu.url, eu.users[0]);
});
afterEach(async () => {
	clock.restore();
	await eu.stop();
});

test('statuses __proto__, constructor, toString and hasOwnProperty fire once each, as the text they are', async () => {
	const poller = euPoller(store, 'default');
	const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
	const uuids: string[] = [];
	for (let n = 0; n < names.length; n++) uuids.push(await file(eu, `SHIP-${n + 1}`));
	clock.advance(2 * MIN);
	await poller.poll();
	clock.advance(40 * MIN);
	uuids.forEach((uuid, n) => eu.events.setStatus(uuid, names[n]));
	clock.advance(MIN);
	const changed = await poller.poll();
	expect(changed.error).toBeUndefined();
	expect(changed.items!.map((i) => [i.json.uuid, i.json.status, i.json.previousStatus])).toEqual(
		expect.arrayContaining(uuids.map((uuid, n) => [uuid, names[n], 'AVAILABLE'])),
	);
	expect(changed.items).toHaveLength(4);
	for (let again = 0; again < 4; again++) {
		clock.advance(MIN);
		const next = await poller.poll();
		expect(next.error).toBeUndefined();
		expect(next.items).toBeNull();
	}
});

test('a prefix with a character XML cannot carry is refused before any request, naming the field and where', async () => {
	const before = eu.requests().length;
	const result = await pollEu(store, { internalReferencePrefix: 'SHIP\u0001-' });
	expect(result.error?.message).toBe(
		'Field "Internal Reference Starts With": it contains the character U+0001 at position 5, which XML cannot carry; remove it (it comes right after "SHIP"; such characters are often left over from a copied cell or a file export).',
	);
	expect(eu.requests().length).toBe(before);
});

interface PollsResult {
	polls: Array<{
		error?: string;
		items: number;
		warnings: string[];
		staticDataBytes: number;
		savedItems: { bytes: number } | { error: string };
	}>;
}

test('100 statements whose UUID is 100 KB: left out and counted, never stored (a child process with a 512 MB heap)', async () => {
	const filed = await file(eu, 'MODEL-1');
	const model = eu.statements().find((s) => s.uuid === filed)!;
	for (let n = 0; n < 100; n++)
		eu.statements().push({
			...model,
			uuid: `${n}-`.padEnd(100_000, 'f'),
			internalReferenceNumber: `SHIP-BIG-${n}`,
			groups: [],
		});
	clock.restore(); // the child polls on real time, as n8n does
	const scenario: Scenario = {
		kind: 'poll',
		url: eu.url,
		user: eu.users[0],
		prefix: 'SHIP-',
		polls: 2,
	};
	const child = await runInBoundedChild<PollsResult>(
		path.resolve(__dirname, '../../helpers/euHostileScenarios.ts'),
		scenario,
	);
	const { polls } = doneValue(child);
	for (const poll of polls) {
		expect(poll.error).toBeUndefined();
		expect(poll.items).toBe(0);
		expect(poll.savedItems).toEqual({ bytes: expect.any(Number) });
		// the state's own fields and no record: not 10 MB
		expect(poll.staticDataBytes).toBeLessThan(400);
		expect(poll.warnings).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^EU Information System Trigger: the EU listed 100 statements without a valid UUID; they are not watched and nothing of them is stored \(a statement in the answer has "0-f{38}…" \(100000 characters\) as its UUID, which is not a UUID/,
				),
			]),
		);
	}
	// the search listed 100: the EU's cap, said as such
	expect(polls[0].warnings.join('\n')).toMatch(/returned 100 statements/);
}, 180_000); // a child bundles and loads n8n's engine first

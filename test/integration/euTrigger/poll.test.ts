/**
 * The EU Information System Trigger through n8n's PollContext against the fake EU: statements
 * filed over SOAP go SUBMITTED → AVAILABLE (numbers) or REJECTED (reason); each change fires
 * once; the search by internal reference and the refresh by UUID keep the EU's limits.
 */
import type { FakeEu } from '../../fake-eu';
import { REJECT_MARKER, startFakeEu } from '../../fake-eu';
import { request, withdrawBody } from '../../fake-eu/contract/harness';
import { callSd, submitSd, withdrawSdBody } from '../../fake-eu/contract/sdHarness';
import { encodeRecord, records } from '../../../nodes/EuInformationSystemTrigger/statementState';
import type { CredentialStore } from '../../helpers/engine';
import type { EuClock } from './helpers';
import {
	MIN,
	cloneStatements,
	euPoller,
	euStore,
	file,
	followEuClock,
	operationsSince,
	pollEu,
} from './helpers';

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

test('AVAILABLE with its numbers and REJECTED with its reason fire once; other references never', async () => {
	const poller = euPoller(store, 'default');
	const a = await file(eu, 'SHIP-1');
	const r = await file(eu, 'SHIP-2', `please ${REJECT_MARKER}`);
	await file(eu, 'OTHER-SHIP-3');
	const activation = await poller.poll();
	expect(activation.error).toBeUndefined();
	expect(activation.items).toBeNull();

	clock.advance(2 * MIN);
	const next = await poller.poll();
	expect(next.error).toBeUndefined();
	const items = next.items!.map((i) => i.json);
	expect(items).toHaveLength(2);
	const available = items.find((i) => i.uuid === a)!;
	expect(available).toMatchObject({
		event: 'statusChange',
		statementType: 'dueDiligenceStatement',
		status: 'AVAILABLE',
		previousStatus: 'SUBMITTED',
		internalReferenceNumber: 'SHIP-1',
	});
	expect(available.referenceNumber).toEqual(expect.any(String));
	expect(available.verificationNumber).toEqual(expect.any(String));
	expect(items.find((i) => i.uuid === r)).toMatchObject({
		status: 'REJECTED',
		rejectionReason: expect.stringContaining(REJECT_MARKER),
	});

	clock.advance(MIN);
	expect((await poller.poll()).items).toBeNull();
});

test('WITHDRAWN, GROUPED and an unknown status pass through, once each', async () => {
	const poller = euPoller(store, 'durable');
	const one = await file(eu, 'SHIP-1');
	const two = await file(eu, 'SHIP-2');
	const three = await file(eu, 'SHIP-3');
	clock.advance(2 * MIN);
	await poller.poll();
	clock.advance(40 * MIN);
	expect((await request(eu, 'withdrawDds', withdrawBody(one))).body).toBeDefined();
	const ref = eu.statements().find((s) => s.uuid === two)!.referenceNumber!;
	const { submit } = await import('../../fake-eu/contract/harness');
	await submit(eu, { internalReference: 'GROUP-1', grouped: [ref] });
	eu.events.setStatus(three, 'UNDER_AUTHORITY_CHECK');
	clock.advance(MIN);
	const changed = await poller.poll();
	expect(changed.error).toBeUndefined();
	expect(
		changed.items!.map((i) => [i.json.uuid, i.json.status, i.json.previousStatus]).sort(),
	).toEqual(
		[
			[one, 'WITHDRAWN', 'AVAILABLE'],
			[two, 'GROUPED', 'AVAILABLE'],
			[three, 'UNDER_AUTHORITY_CHECK', 'AVAILABLE'],
		].sort(),
	);
	clock.advance(MIN);
	expect((await poller.poll()).items).toBeNull();
});

test('ARCHIVED and a communication from the authority fire once each; Trigger On filters them', async () => {
	const poller = euPoller(store, 'durable');
	const onlyNotes = euPoller(store, 'durable', { events: ['communication'] });
	const one = await file(eu, 'SHIP-1');
	clock.advance(2 * MIN);
	await poller.poll();
	await onlyNotes.poll();
	clock.advance(40 * MIN);
	eu.events.communicate(one, 'Please send the supplier contract.');
	clock.advance(MIN);
	const note = await poller.poll();
	expect(note.items!.map((i) => i.json)).toEqual([
		expect.objectContaining({
			event: 'communication',
			uuid: one,
			status: 'AVAILABLE',
			previousStatus: 'AVAILABLE',
			communication: 'Please send the supplier contract.',
			communicationDate: expect.any(String),
		}),
	]);
	eu.events.setStatus(one, 'ARCHIVED');
	clock.advance(MIN);
	const archived = await poller.poll();
	expect(archived.items!.map((i) => [i.json.event, i.json.status])).toEqual([
		['statusChange', 'ARCHIVED'],
	]);
	clock.advance(MIN);
	expect((await poller.poll()).items).toBeNull();
	const notes = await onlyNotes.poll();
	expect(notes.items!.map((i) => i.json.event)).toEqual(['communication']);
});

test('Statuses and Trigger On filter; a skipped change never fires later', async () => {
	const poller = euPoller(store, 'default', { statuses: ['REJECTED'] });
	await file(eu, 'SHIP-1');
	const r = await file(eu, 'SHIP-2', REJECT_MARKER);
	await poller.poll();
	clock.advance(2 * MIN);
	expect((await poller.poll()).items!.map((i) => i.json.uuid)).toEqual([r]);
	clock.advance(MIN);
	expect((await poller.poll()).items).toBeNull();
});

test('beyond 100 matches: the search warns, known statements are asked ≤ 100 a call, none younger than 30 minutes', async () => {
	const model = await file(eu, 'SHIP-0');
	cloneStatements(eu, model, 149, 'SHIP-X');
	const poller = euPoller(store, 'default', { options: { maxRequestsPerPoll: 3 } });
	const from = eu.requests().length;
	const first = await poller.poll();
	expect(first.error).toBeUndefined();
	expect(
		first.logs.some((l) => l.level === 'warn' && /100 statements, the EU's most/.test(l.message)),
	).toBe(true);
	expect(operationsSince(eu, from)).toEqual(['getDdsByInternalReference']);
	// From now on the search shows 100 other statements (their references contain the prefix
	// but do not start with it): the 100 known ones must be asked for by UUID.
	const others = cloneStatements(eu, model, 100, 'XSHIP-');
	const all = eu.statements();
	const moved = all.splice(all.length - others.length, others.length);
	all.unshift(...moved);

	clock.advance(10 * MIN);
	let mark = eu.requests().length;
	const young = await poller.poll();
	expect(young.error).toBeUndefined();
	expect(young.items).toBeNull();
	expect(operationsSince(eu, mark)).toEqual(['getDdsByInternalReference']);

	clock.advance(21 * MIN);
	mark = eu.requests().length;
	const later = await poller.poll();
	expect(later.error).toBeUndefined();
	expect(operationsSince(eu, mark)).toEqual(['getDdsByInternalReference', 'getDds']);
	expect(later.items).toHaveLength(100);
	expect(new Set(later.items!.map((i) => i.json.status))).toEqual(new Set(['AVAILABLE']));
});

test('Wait After Filing 0 asks at once (a setting says so)', async () => {
	const model = await file(eu, 'SHIP-0');
	const poller = euPoller(store, 'default', { options: { minAgeMinutes: 0 } });
	await poller.poll();
	const others = cloneStatements(eu, model, 100, 'XSHIP-');
	const all = eu.statements();
	all.unshift(...all.splice(all.length - others.length, others.length));
	clock.advance(2 * MIN);
	const mark = eu.requests().length;
	const next = await poller.poll();
	expect(operationsSince(eu, mark)).toEqual(['getDdsByInternalReference', 'getDds']);
	expect(next.items!.map((i) => i.json.uuid)).toEqual([model]);
});

test('a bad prefix is refused before any request, naming the field', async () => {
	const mark = eu.requests().length;
	const result = await pollEu(store, { internalReferencePrefix: 'SH' });
	expect(result.error?.message).toMatch(/Internal Reference Starts With.*at least 3/);
	expect(eu.requests().length).toBe(mark);
});

test('manual test: the latest statement with the prefix, nothing stored', async () => {
	await file(eu, 'SHIP-1');
	clock.advance(2 * MIN);
	const result = await pollEu(store, {}, undefined, 'manual');
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items![0].json).toMatchObject({
		status: 'AVAILABLE',
		internalReferenceNumber: 'SHIP-1',
	});
	expect(result.nodeStaticData).toEqual({});
	const none = await pollEu(store, { internalReferencePrefix: 'NONE-' }, undefined, 'manual');
	expect(none.error?.message).toMatch(/No statement found/);
});

test('simplified declarations when Watch includes them: their changes once, their searches and reads on the SD service', async () => {
	const dds = await file(eu, 'SHIP-1');
	const sd = await submitSd(eu, { internalReference: 'SHIP-SD1' });
	const both = euPoller(store, 'default', {
		statementTypes: ['dueDiligenceStatement', 'simplifiedDeclaration'],
		options: { minAgeMinutes: 0 },
	});
	const ddsOnly = euPoller(store, 'default');
	await both.poll();
	await ddsOnly.poll();
	clock.advance(2 * MIN);
	const mark = eu.requests().length;
	const changed = await both.poll();
	expect(operationsSince(eu, mark)).toEqual([
		'getDdsByInternalReference',
		'getSdByInternalReference',
	]);
	expect(
		changed.items!.map((i) => [i.json.uuid, i.json.statementType, i.json.status]).sort(),
	).toEqual(
		[
			[dds, 'dueDiligenceStatement', 'AVAILABLE'],
			[sd, 'simplifiedDeclaration', 'AVAILABLE'],
		].sort(),
	);
	expect((await ddsOnly.poll()).items!.map((i) => i.json.uuid)).toEqual([dds]);
	expect((await callSd(eu, 'withdrawSd', withdrawSdBody(sd))).body).toBeDefined();
	clock.advance(MIN);
	expect((await both.poll()).items!.map((i) => [i.json.uuid, i.json.status])).toEqual([
		[sd, 'WITHDRAWN'],
	]);
	clock.advance(MIN);
	expect((await both.poll()).items).toBeNull();
});

test('a poll of 10 requests keeps the EU limit of 5 calls a second (the fake refuses none); the cap forgets with a warning', async () => {
	const model = await file(eu, 'SHIP-0');
	cloneStatements(eu, model, 999, 'SHIP-X');
	const others = cloneStatements(eu, model, 100, 'XSHIP-');
	const all = eu.statements();
	all.unshift(...all.splice(all.length - others.length, others.length));
	clock.advance(40 * MIN);
	// a state that knows the 1,000 statements (found over time), all old enough to be asked
	const seenMs = clock.now() - 35 * MIN;
	const s = records(
		all
			.filter((x) => x.internalReferenceNumber.startsWith('SHIP-'))
			.map((x): [string, string] => [
				x.uuid,
				encodeRecord({ kind: 'dds', status: x.status, communication: '', seenMs }),
			]),
	);
	const staticData = {
		'node:EU Information System Trigger': {
			statements: { v: 1, since: seenMs, polledAt: seenMs, rr: '', s },
		},
	};
	const mark = eu.requests().length;
	const full = await pollEu(store, {}, staticData);
	expect(full.error).toBeUndefined();
	const calls = eu.requests().slice(mark);
	expect(calls.map((c) => c.operation)).toEqual([
		'getDdsByInternalReference',
		...Array<string>(9).fill('getDds'),
	]);
	expect(calls.filter((c) => c.outcome !== 'accepted')).toEqual([]);

	const capped = await pollEu(store, { options: { maxStatements: 50 } }, staticData);
	expect(capped.error).toBeUndefined();
	expect(
		capped.logs.some(
			(l) => l.level === 'warn' && /more than 50 statements watched/.test(l.message),
		),
	).toBe(true);
	const stored = capped.nodeStaticData.statements as { s: Record<string, string> };
	expect(Object.keys(stored.s)).toHaveLength(50);
});

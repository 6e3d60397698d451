/**
 * Status events made by the EU side (pack README §5: REJECTED with a reason, ARCHIVED,
 * SUSPENDED, OBSOLETE, and statuses outside the enumeration, which the change log says to
 * expect [OPREF §8.1.3]) and communications to the operator (OverviewType
 * communicationToOperator, pack §4.1), in-process (`eu.events`) and over the control API
 * (`/__fake-eu/`, JSON) that the e2e drives from another process.
 */
import { validateEuXml } from '../../helpers/euXsd';
import type { ControlLogEntry, ControlStatement, FakeEu } from '../index';
import {
	CONTROL_PREFIX,
	DEFAULT_AVAILABLE_AFTER_MS,
	UnknownStatement,
	startFakeEu,
} from '../index';
import { COMMON_NS, standalone } from '../xml';
import type { Read } from './harness';
import { getDdsBody, request, submit, withdrawBody } from './harness';

let eu: FakeEu;
const START = Date.parse('2026-03-02T08:00:00Z');
beforeEach(async () => {
	eu = await startFakeEu({ ratePerSecond: 0, startTime: START });
});
afterEach(async () => {
	await eu.stop();
});

const text = (read: Read, name: string) =>
	read.body!.getElementsByTagNameNS(COMMON_NS, name)[0]?.textContent ?? null;
const overview = async (uuid: string) => {
	const read = await request(eu, 'getDds', getDdsBody([uuid]));
	expect(read.status).toBe(200);
	return read;
};
const available = async (internalReference = 'REF-1') => {
	const uuid = await submit(eu, { internalReference });
	eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
	return uuid;
};

describe('in-process events', () => {
	test('REJECTED with a reason: the overview says so, dated at the lifecycle now, and validates', async () => {
		const uuid = await available();
		eu.clock.advance(5 * 60_000);
		eu.events.setStatus(uuid, 'REJECTED', { reason: 'Geolocation overlaps a protected area' });
		const read = await overview(uuid);
		expect(text(read, 'status')).toBe('REJECTED');
		expect(text(read, 'rejectionReason')).toBe('Geolocation overlaps a protected area');
		expect(text(read, 'date')).toBe(new Date(eu.clock.now()).toISOString());
		expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
	});

	test('REJECTED without a reason gets a default one; a SUBMITTED statement stays rejected after the delay', async () => {
		const uuid = await submit(eu);
		eu.events.setStatus(uuid, 'REJECTED');
		eu.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
		const s = eu.statements().find((x) => x.uuid === uuid)!;
		expect(s.status).toBe('REJECTED');
		expect(s.rejectionReason).toMatch(/rejected/i);
		expect(s.referenceNumber).toBeNull();
	});

	test.each(['ARCHIVED', 'SUSPENDED', 'OBSOLETE'])(
		'%s: the status and the date change, the numbers stay',
		async (status) => {
			const uuid = await available();
			const before = eu.statements().find((x) => x.uuid === uuid)!;
			const numbers = [before.referenceNumber, before.verificationNumber];
			eu.clock.advance(3_600_000);
			eu.events.setStatus(uuid, status);
			const read = await overview(uuid);
			expect(text(read, 'status')).toBe(status);
			expect(text(read, 'rejectionReason')).toBeNull();
			expect([text(read, 'referenceNumber'), text(read, 'verificationNumber')]).toEqual(numbers);
			expect(text(read, 'date')).toBe(new Date(START + 3_660_000).toISOString());
			expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
		},
	);

	test('a status outside the enumeration is answered as set (the EU may add some)', async () => {
		const uuid = await available();
		eu.events.setStatus(uuid, 'DRAFT');
		expect(text(await overview(uuid), 'status')).toBe('DRAFT');
	});

	test('a GROUPED statement set to another status is no longer held by its group', async () => {
		const member = await available('MEMBER');
		const ref = eu.statements().find((x) => x.uuid === member)!.referenceNumber!;
		await submit(eu, { internalReference: 'GROUP', grouped: [ref] });
		expect(eu.statements().find((x) => x.uuid === member)!.status).toBe('GROUPED');
		eu.events.setStatus(member, 'AVAILABLE');
		const read = await request(eu, 'withdrawDds', withdrawBody(member));
		expect(read.status).toBe(200);
		expect(eu.statements().find((x) => x.uuid === member)!.status).toBe('WITHDRAWN');
	});

	test('AVAILABLE set on a SUBMITTED statement gives it numbers at once', async () => {
		const uuid = await submit(eu);
		eu.events.setStatus(uuid, 'AVAILABLE');
		const s = eu.statements().find((x) => x.uuid === uuid)!;
		expect(s.status).toBe('AVAILABLE');
		expect(s.referenceNumber).toMatch(/^[A-Z0-9]{14}$/);
		expect(s.verificationNumber).toMatch(/^[A-Z0-9]{8}$/);
	});

	test('communicate: communicationToOperator {date, content} in the overview, the date moves too', async () => {
		const uuid = await available();
		eu.clock.advance(60_000);
		eu.events.communicate(uuid, 'Please send the plot map & the supplier list');
		const read = await overview(uuid);
		const message = read.body!.getElementsByTagNameNS(COMMON_NS, 'communicationToOperator')[0];
		expect(message).toBeDefined();
		const now = new Date(eu.clock.now()).toISOString();
		expect(message.getElementsByTagNameNS(COMMON_NS, 'date')[0].textContent).toBe(now);
		expect(message.getElementsByTagNameNS(COMMON_NS, 'content')[0].textContent).toBe(
			'Please send the plot map & the supplier list',
		);
		expect(text(read, 'status')).toBe('AVAILABLE');
		// the overview's own date (after the communication in OverviewType order)
		const dates = Array.from(read.body!.getElementsByTagNameNS(COMMON_NS, 'date')).map(
			(d) => d.textContent,
		);
		expect(dates).toEqual([now, now]);
		expect((await validateEuXml(standalone(read.body!), 'dds')).errors).toEqual([]);
		// a later one replaces it
		eu.clock.advance(1000);
		eu.events.communicate(uuid, 'Second message');
		expect(eu.statements().find((x) => x.uuid === uuid)!.communication).toEqual({
			date: eu.clock.now(),
			content: 'Second message',
		});
	});

	test('an unknown uuid, an empty status or a communication over 1000 characters throw', async () => {
		const uuid = await available();
		expect(() => eu.events.setStatus('00000000-0000-0000-0000-000000000000', 'ARCHIVED')).toThrow(
			UnknownStatement,
		);
		expect(() => eu.events.communicate('nope', 'x')).toThrow(UnknownStatement);
		expect(() => eu.events.setStatus(uuid, '')).toThrow();
		expect(() => eu.events.communicate(uuid, 'x'.repeat(1001))).toThrow(/1000/);
		expect(() => eu.events.communicate(uuid, 'x'.repeat(1000))).not.toThrow();
	});
});

describe('control API', () => {
	const control = (path: string) => `${new URL(eu.url).origin}${CONTROL_PREFIX}${path}`;
	const postJson = async (path: string, body: unknown) => {
		const res = await fetch(control(path), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		});
		return { status: res.status, json: (await res.json()) as Record<string, unknown> };
	};
	const getJson = async <T>(path: string) => {
		const res = await fetch(control(path));
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		return (await res.json()) as T;
	};

	test('GET statements lists every statement with its numbers', async () => {
		const uuid = await available('SHIP-0001');
		const pending = await submit(eu, { internalReference: 'SHIP-0002' });
		const list = await getJson<ControlStatement[]>('statements');
		const s = eu.statements().find((x) => x.uuid === uuid)!;
		expect(list).toEqual([
			{
				uuid,
				kind: 'dds',
				internalReferenceNumber: 'SHIP-0001',
				status: 'AVAILABLE',
				referenceNumber: s.referenceNumber,
				verificationNumber: s.verificationNumber,
				version: 1,
				operator: 'Fake Operator SA',
				rejectionReason: null,
				communication: null,
				updatedAt: new Date(START + DEFAULT_AVAILABLE_AFTER_MS).toISOString(),
			},
			expect.objectContaining({ uuid: pending, status: 'SUBMITTED', referenceNumber: null }),
		]);
	});

	test('POST status, communication and clock/advance act as the in-process events', async () => {
		const uuid = await available();
		let r = await postJson('clock/advance', { ms: 120_000 });
		expect(r).toEqual({
			status: 200,
			json: { now: new Date(START + DEFAULT_AVAILABLE_AFTER_MS + 120_000).toISOString() },
		});
		expect(eu.clock.now()).toBe(START + DEFAULT_AVAILABLE_AFTER_MS + 120_000);
		r = await postJson(`statements/${uuid}/status`, { status: 'REJECTED', reason: 'Late' });
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({ uuid, status: 'REJECTED', rejectionReason: 'Late' });
		expect(text(await overview(uuid), 'rejectionReason')).toBe('Late');
		r = await postJson(`statements/${uuid}/communication`, { content: 'Call us' });
		expect(r.json).toMatchObject({
			communication: { date: new Date(eu.clock.now()).toISOString(), content: 'Call us' },
		});
		r = await postJson(`statements/${uuid}/status`, { status: 'ARCHIVED' });
		expect(r.json).toMatchObject({ status: 'ARCHIVED', rejectionReason: null });
		expect(eu.statements()[0].status).toBe('ARCHIVED');
	});

	test('GET log: the SOAP requests with operation, service, time and HTTP status', async () => {
		await available();
		eu.faults.failNext('getDds', { status: 503 });
		const uuid = eu.statements()[0].uuid;
		// the 503 answer is plain text, not an envelope: the harness's reader refuses it
		await expect(request(eu, 'getDds', getDdsBody([uuid]))).rejects.toThrow();
		await overview(uuid);
		const log = await getJson<ControlLogEntry[]>('log');
		expect(log.map((e) => [e.operation, e.service, e.status, e.outcome])).toEqual([
			['submitDds', 'dds', 200, 'accepted'],
			['getDds', 'dds', 503, 'http-503'],
			['getDds', 'dds', 200, 'accepted'],
		]);
		expect(log[0].at).toBe(new Date(START).toISOString());
		expect(log[2].at).toBe(new Date(START + DEFAULT_AVAILABLE_AFTER_MS).toISOString());
		expect(log[0]).toMatchObject({ username: 'fake-eu-operator', lost: false });
		expect(log.map((e) => e.index)).toEqual([0, 1, 2]);
		// control calls are not in the log
		expect(eu.requests()).toHaveLength(3);
		// since=<index>: only what came after
		const later = await getJson<ControlLogEntry[]>('log?since=2');
		expect(later.map((e) => [e.index, e.operation, e.status])).toEqual([[2, 'getDds', 200]]);
		expect(await getJson<ControlLogEntry[]>('log?since=3')).toEqual([]);
		expect((await fetch(control('log?since=-1'))).status).toBe(400);
	});

	test('refusals: unknown uuid 404, bad bodies 400, unknown route 404, the statement unchanged', async () => {
		const uuid = await available();
		expect((await postJson('statements/nope/status', { status: 'ARCHIVED' })).status).toBe(404);
		expect((await postJson(`statements/${uuid}/status`, {})).status).toBe(400);
		expect((await postJson(`statements/${uuid}/status`, { status: 7 })).status).toBe(400);
		expect((await postJson(`statements/${uuid}/status`, 'not json')).status).toBe(400);
		expect(
			(await postJson(`statements/${uuid}/communication`, { content: 'x'.repeat(1001) })).status,
		).toBe(400);
		expect((await postJson('clock/advance', { ms: -1 })).status).toBe(400);
		expect((await postJson('clock/advance', { ms: '5' })).status).toBe(400);
		const unknown = await fetch(control('nothing-here'));
		expect(unknown.status).toBe(404);
		expect(((await unknown.json()) as { error: string }).error).toMatch(/No control route/);
		const big = await postJson(`statements/${uuid}/communication`, {
			content: 'x'.repeat(70_000),
		});
		expect(big.status).toBe(413);
		expect(eu.statements()[0]).toMatchObject({ status: 'AVAILABLE', communication: null });
	});
});

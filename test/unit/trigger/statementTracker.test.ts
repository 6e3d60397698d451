import type {
	EuPollPlan,
	EuTrackerSettings,
	StatementObservation,
} from '../../../nodes/EuInformationSystemTrigger/statementTracker';
import {
	MAX_UUIDS_PER_CALL,
	advance,
	planPoll,
	toRefresh,
} from '../../../nodes/EuInformationSystemTrigger/statementTracker';
import type { EuTrackerState } from '../../../nodes/EuInformationSystemTrigger/statementState';
import {
	ALL_STATUSES,
	triggerProperties,
} from '../../../nodes/EuInformationSystemTrigger/triggerDescription';
import {
	decodeRecord,
	encodeRecord,
	readEuState,
	stateBytes,
} from '../../../nodes/EuInformationSystemTrigger/statementState';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const settings: EuTrackerSettings = {
	prefix: 'SHIP-',
	graceMs: 7 * MIN,
	lookBackMs: 0,
	minAgeMs: 30 * MIN,
	maxRequests: 10,
	maxStatements: 2000,
};
const identity = { service: 'http://127.0.0.1:1/tracesnt/', account: 'a2:x' };

function uuid(n: number): string {
	return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

function obs(
	n: number,
	status: string,
	dateMs: number | null,
	extra: Partial<StatementObservation> = {},
): StatementObservation {
	return {
		uuid: uuid(n),
		kind: 'dds',
		internalReferenceNumber: `SHIP-${n}`,
		status,
		dateMs,
		communication: '',
		communicationMs: null,
		...extra,
	};
}

/** One poll: plan, refresh plan, advance, with the overviews the EU would answer. */
function poll(
	state: EuTrackerState | undefined,
	now: number,
	searched: StatementObservation[],
	eu: Map<string, StatementObservation> = new Map(),
	s: EuTrackerSettings = settings,
) {
	const plan = planPoll(state, now, s, identity);
	const refresh = toRefresh(plan, searched, 1);
	const refreshed = refresh.batches.flatMap((b) =>
		b.uuids.map((u) => eu.get(u)).filter((o): o is StatementObservation => o !== undefined),
	);
	return { plan, refresh, ...advance(plan, { searched, refreshed, refresh }) };
}

describe('statement records', () => {
	test('encode and decode every known status, unknown ones and long ones', () => {
		for (const status of ['SUBMITTED', 'AVAILABLE', 'GROUPED', 'DRAFT', 'A.B|C', 'X'.repeat(41)]) {
			const text = encodeRecord({ kind: 'sd', status, communication: 'abcDEF12', seenMs: T0 });
			const back = decodeRecord(text)!;
			expect(back.kind).toBe('sd');
			expect(back.communication).toBe('abcDEF12');
			expect(back.seenMs).toBe(T0);
			if (status.length <= 40) expect(back.status).toBe(status);
		}
		expect(
			encodeRecord({ kind: 'dds', status: 'AVAILABLE', communication: '', seenMs: T0 }).length,
		).toBeLessThan(12);
	});

	test('a stored state that does not read starts afresh; bad records are left out', () => {
		expect(readEuState(undefined)).toBeUndefined();
		expect(readEuState({ v: 2, since: 1, polledAt: 1, s: {} })).toBeUndefined();
		expect(readEuState({ v: 1, since: 'x', polledAt: 1, s: {} })).toBeUndefined();
		const read = readEuState({
			v: 1,
			since: 1,
			polledAt: 2,
			rr: '',
			s: { [uuid(1)]: 'rk.x.dA', [uuid(2)]: 'junk', [uuid(3)]: 5 },
		});
		expect(Object.keys(read!.s)).toEqual([uuid(1)]);
	});

	test('a stored key or cursor that is not a UUID is left out (a state an older version filled shrinks back)', () => {
		const big = 'x'.repeat(100_000);
		const read = readEuState({
			v: 1,
			since: 1,
			polledAt: 2,
			rr: big,
			s: { [uuid(1).toUpperCase()]: 'rk.x.dA', [big]: 'rk.x.dA', __proto__x: 'rk.x.dA' },
		});
		expect(Object.keys(read!.s)).toEqual([uuid(1).toUpperCase()]);
		expect(read!.rr).toBe('');
		expect(stateBytes(read!)).toBeLessThan(200);
	});

	test('statuses named like members of Object are unknown statuses, stored and read back as written', () => {
		for (const status of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
			const text = encodeRecord({ kind: 'dds', status, communication: '', seenMs: T0 });
			expect(text).toBe(`${(T0 / MIN).toString(36)}..d=${status}`);
			expect(decodeRecord(text)!.status).toBe(status);
		}
	});
});

describe('statementTracker', () => {
	test('a first poll emits what the EU dated within the grace period, never SUBMITTED', () => {
		const r = poll(undefined, T0, [
			obs(1, 'SUBMITTED', T0 - MIN),
			obs(2, 'AVAILABLE', T0 - 2 * MIN),
			obs(3, 'AVAILABLE', T0 - 60 * MIN),
			obs(4, 'REJECTED', null),
		]);
		expect(r.changes.map((c) => [c.uuid, c.status])).toEqual([[uuid(2), 'AVAILABLE']]);
		expect(r.state.since).toBe(T0 - settings.graceMs);
		expect(Object.keys(r.state.s)).toHaveLength(4);
	});

	test('Look Back widens the first poll', () => {
		const r = poll(undefined, T0, [obs(3, 'AVAILABLE', T0 - 60 * MIN)], new Map(), {
			...settings,
			lookBackMs: 2 * 60 * MIN,
		});
		expect(r.changes).toHaveLength(1);
	});

	test('a status change fires once; the same answer again fires nothing', () => {
		const first = poll(undefined, T0, [obs(1, 'SUBMITTED', T0)]);
		const second = poll(first.state, T0 + 40 * MIN, [obs(1, 'AVAILABLE', T0 + 31 * MIN)]);
		expect(second.changes).toEqual([
			expect.objectContaining({
				uuid: uuid(1),
				event: 'statusChange',
				status: 'AVAILABLE',
				previousStatus: 'SUBMITTED',
			}),
		]);
		const third = poll(second.state, T0 + 41 * MIN, [obs(1, 'AVAILABLE', T0 + 31 * MIN)]);
		expect(third.changes).toEqual([]);
		// from the older state again (n8n dropped the second poll's state): the change again, once
		const replay = poll(first.state, T0 + 42 * MIN, [obs(1, 'AVAILABLE', T0 + 31 * MIN)]);
		expect(replay.changes).toHaveLength(1);
	});

	test('a new communication fires once, beside the status; unknown statuses pass through', () => {
		const first = poll(undefined, T0, [obs(1, 'AVAILABLE', T0 - 60 * MIN)]);
		const next = poll(first.state, T0 + MIN, [
			obs(1, 'UNDER_REVIEW', T0 + MIN, { communication: 'c1', communicationMs: T0 + MIN }),
		]);
		expect(next.changes.map((c) => [c.event, c.status, c.previousStatus])).toEqual([
			['statusChange', 'UNDER_REVIEW', 'AVAILABLE'],
			['communication', 'UNDER_REVIEW', 'AVAILABLE'],
		]);
		const again = poll(next.state, T0 + 2 * MIN, [
			obs(1, 'UNDER_REVIEW', T0 + MIN, { communication: 'c1', communicationMs: T0 + MIN }),
		]);
		expect(again.changes).toEqual([]);
	});

	test('statements found later fire when dated since the watch began; the prefix is ours to check', () => {
		const first = poll(undefined, T0, []);
		const next = poll(first.state, T0 + 90 * MIN, [
			obs(5, 'AVAILABLE', T0 + 60 * MIN),
			obs(6, 'AVAILABLE', T0 - 24 * 60 * MIN),
			obs(7, 'AVAILABLE', T0 + 60 * MIN, { internalReferenceNumber: 'XSHIP-7' }),
			obs(8, 'AVAILABLE', T0 + 60 * MIN, { internalReferenceNumber: 'ship-8' }),
		]);
		expect(next.changes.map((c) => c.uuid)).toEqual([uuid(5), uuid(8)]);
		expect(Object.keys(next.state.s).sort()).toEqual([uuid(5), uuid(6), uuid(8)]);
	});

	test('refresh: known statements not in the search, ≤ 100 per batch, within the budget, round robin, none young', () => {
		const many = Array.from({ length: 2500 }, (_, i) => obs(i, 'AVAILABLE', T0 - 60 * MIN));
		let state = poll(undefined, T0, many).state;
		const eu = new Map(many.map((o) => [o.uuid, o]));
		const asked = new Map<string, number>();
		for (let p = 1; p <= 3; p++) {
			const r = poll(state, T0 + p * MIN, [], eu);
			expect(r.refresh.batches.length).toBeLessThanOrEqual(settings.maxRequests - 1);
			for (const b of r.refresh.batches) {
				expect(b.uuids.length).toBeLessThanOrEqual(MAX_UUIDS_PER_CALL);
				for (const u of b.uuids) asked.set(u, (asked.get(u) ?? 0) + 1);
			}
			state = r.state;
		}
		// 3 polls × 9 batches × 100 ≥ 2000 (the cap): every watched statement asked at least once
		expect(Object.keys(state.s)).toHaveLength(2000);
		for (const u of Object.keys(state.s)) expect(asked.get(u)).toBeGreaterThanOrEqual(1);
		const young = poll(undefined, T0, [obs(1, 'SUBMITTED', T0)]);
		const soon = poll(young.state, T0 + 10 * MIN, []);
		expect(soon.refresh).toMatchObject({ batches: [], young: 1 });
		const later = poll(young.state, T0 + 31 * MIN, []);
		expect(later.refresh.batches).toEqual([{ kind: 'dds', uuids: [uuid(1)] }]);
	});

	test('refresh batches are of one kind each (getDds or getSd)', () => {
		const mixed = Array.from({ length: 150 }, (_, i) =>
			obs(i, 'AVAILABLE', T0 - 60 * MIN, { kind: i % 3 === 0 ? 'sd' : 'dds' }),
		);
		const first = poll(undefined, T0, mixed);
		const plan = planPoll(first.state, T0 + MIN, settings, identity);
		const refresh = toRefresh(plan, [], 2);
		expect(refresh.batches.map((b) => [b.kind, b.uuids.length])).toEqual([
			['sd', 50],
			['dds', 100],
		]);
		expect(refresh.deferred).toBe(0);
	});

	test('a statement asked for and not shown is gone', () => {
		const first = poll(undefined, T0, [obs(1, 'AVAILABLE', T0 - 60 * MIN)]);
		const next = poll(first.state, T0 + 60 * MIN, [], new Map());
		expect(next.gone).toEqual([uuid(1)]);
		expect(next.state.s).toEqual({});
	});

	test('at the cap final statuses go first, and since rises so that none fires again', () => {
		const s = { ...settings, maxStatements: 2 };
		const first = poll(
			undefined,
			T0,
			[
				obs(1, 'AVAILABLE', T0 - 90 * MIN),
				obs(2, 'WITHDRAWN', T0 - 10 * MIN),
				obs(3, 'AVAILABLE', T0 - 60 * MIN),
			],
			new Map(),
			s,
		);
		expect(first.forgotten).toEqual([uuid(2)]);
		expect(first.state.since).toBe(T0);
		const again = poll(first.state, T0 + MIN, [obs(2, 'WITHDRAWN', T0 - 5 * MIN)], new Map(), s);
		expect(again.changes).toEqual([]);
	});

	test('another service starts afresh from the last poll; another account keeps the records', () => {
		const first = poll(undefined, T0, [obs(1, 'SUBMITTED', T0)]);
		const other: EuPollPlan = planPoll(first.state, T0 + MIN, settings, {
			...identity,
			service: 'http://other/',
		});
		expect(other.start).toBe('newService');
		expect(other.since).toBe(T0 - 5 * MIN);
		const moved = advance(other, {
			searched: [obs(9, 'AVAILABLE', T0 + 30_000)],
			refreshed: [],
			refresh: toRefresh(other, [], 1),
		});
		expect(moved.changes.map((c) => c.uuid)).toEqual([uuid(9)]);
		expect(Object.keys(moved.state.s)).toEqual([uuid(9)]);
		const account = planPoll(first.state, T0 + MIN, settings, { ...identity, account: 'a2:y' });
		expect(account.start).toBe('newAccount');
		expect(toRefresh(account, [], 1).young).toBe(1);
	});

	test('the state stays small: about 60 bytes a statement', () => {
		const many = Array.from({ length: 1000 }, (_, i) =>
			obs(i, 'AVAILABLE', T0 - 60 * MIN, { communication: 'abcdefgh' }),
		);
		const r = poll(undefined, T0, many);
		expect(stateBytes(r.state) / 1000).toBeLessThan(70);
	});
});

describe('triggerDescription', () => {
	test('the Statuses default is every status offered', () => {
		const statuses = triggerProperties.find((p) => p.name === 'statuses')!;
		expect(statuses.default).toEqual(ALL_STATUSES);
	});
});

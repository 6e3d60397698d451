/**
 * completionTracker against what a hostile or faulty service may send (issue 21, item 3):
 * times in the future, ids that are names of object properties, ids of any length.
 */
import fc from 'fast-check';
import { deepCopy } from 'n8n-workflow';

import type {
	JobObservation,
	TrackerSettings,
	TrackerState,
} from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';
import { planAndAdvance } from '../../helpers/tracker';
import {
	advance,
	believableState,
	DEFAULT_SETTINGS,
	entryBytes,
	planPoll,
	MAX_SKEW_MS,
	idOfStoredKey,
	readState,
	storedKey,
	storedState,
	toRecheck,
} from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';

const FINAL = new Set(['done', 'done-with-errors']);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 2, 1, 12);
const Y2099 = Date.UTC(2099, 0, 1);
const PROTO_NAMES = [
	'constructor',
	'toString',
	'__proto__',
	'hasOwnProperty',
	'valueOf',
	'isPrototypeOf',
	'__defineGetter__',
];

function settings(over: Partial<TrackerSettings> = {}): TrackerSettings {
	return { ...DEFAULT_SETTINGS, isFinal: (s) => FINAL.has(s), ...over };
}

interface SimJob {
	id: string;
	/** what the service shows as created_at (may be 2099) */
	shownCreatedMs: number;
	/** when it really appeared */
	visibleMs: number;
	finishMs: number;
	/** updated_at shown once finished (may be 2099 too) */
	shownFinishMs: number;
}

function observe(job: SimJob, t: number): JobObservation {
	const finished = t >= job.finishMs;
	return {
		id: job.id,
		createdMs: job.shownCreatedMs,
		updatedMs: finished ? job.shownFinishMs : job.shownCreatedMs,
		status: finished ? 'done' : 'pending',
	};
}

function simulatePoll(
	jobs: SimJob[],
	state: TrackerState | undefined,
	t: number,
	s: TrackerSettings,
) {
	// every poll's state goes through JSON, as n8n stores it
	const stored = state ? readState(JSON.parse(JSON.stringify(state))) : undefined;
	const plan = planPoll(stored, t, s);
	const from = plan.listFrom;
	const listed = jobs
		.filter((j) => j.visibleMs <= t && j.shownCreatedMs >= from)
		.sort((a, b) => b.shownCreatedMs - a.shownCreatedMs)
		.map((j) => observe(j, t));
	const rechecked = new Map<string, JobObservation | null>();
	for (const id of toRecheck(plan, listed)) {
		const job = jobs.find((j) => j.id === id);
		rechecked.set(id, job ? observe(job, t) : null);
	}
	return advance(plan, { listed, rechecked });
}

describe('completionTracker: service times in the future', () => {
	it('jobs dated 2099 (created or finished) beside ordinary ones: each that finishes after activation fires once; nobody is aged out by them; the window stays on the local clock', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						createdOffset: fc.integer({ min: -2 * HOUR, max: 6 * HOUR }),
						runFor: fc.integer({ min: 1, max: 4 * HOUR }),
						futureCreated: fc.boolean(),
						futureFinished: fc.boolean(),
						protoId: fc.option(fc.constantFrom(...PROTO_NAMES), { nil: undefined }),
					}),
					{ maxLength: 30 },
				),
				fc.array(fc.integer({ min: MIN, max: 40 * MIN }), { minLength: 1, maxLength: 30 }),
				(specs, gaps) => {
					const s = settings();
					const used = new Set<string>();
					const jobs: SimJob[] = specs.map((spec, i) => {
						let id = spec.protoId ?? String(7001 + i);
						if (used.has(id)) id = String(7001 + i);
						used.add(id);
						const created = T0 + spec.createdOffset;
						const finish = created + spec.runFor;
						return {
							id,
							shownCreatedMs: spec.futureCreated ? Y2099 + i : created,
							visibleMs: created,
							finishMs: finish,
							shownFinishMs: spec.futureFinished ? Y2099 + DAY + i : finish,
						};
					});
					const emitted = new Map<string, number>();
					let state: TrackerState | undefined;
					let t = T0;
					const times = [0, ...gaps, 5 * HOUR, 5 * HOUR, 5 * HOUR];
					for (const gap of times) {
						t += gap;
						const r = simulatePoll(jobs, state, t, s);
						for (const job of r.completed) emitted.set(job.id, (emitted.get(job.id) ?? 0) + 1);
						expect(r.dropped).toEqual([]);
						expect(r.forgotten).toEqual([]);
						expect(r.state.from).toBeLessThanOrEqual(t + MAX_SKEW_MS);
						expect(r.state.polledAt).toBeLessThanOrEqual(t + MAX_SKEW_MS);
						state = r.state;
					}
					for (const job of jobs) {
						const count = emitted.get(job.id) ?? 0;
						const beforeActivation = job.finishMs <= T0 && job.visibleMs <= T0;
						// a job already finished at activation fires only when its completion time is
						// known and within the grace period (none here): never
						expect({ id: job.id, count }).toEqual({
							id: job.id,
							count: beforeActivation ? 0 : 1,
						});
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it('a 2099 creation time moves the window no further than the local clock, and makes no watched job old', () => {
		const s = settings();
		const listed: JobObservation[] = [
			{ id: 'future', createdMs: Y2099, updatedMs: Y2099, status: 'pending' },
			{ id: 'real', createdMs: T0 - HOUR, updatedMs: T0 - HOUR, status: 'pending' },
		];
		const r = planAndAdvance({
			state: undefined,
			now: T0,
			listed,
			rechecked: new Map(),
			settings: s,
		});
		expect(r.dropped).toEqual([]);
		// counted as created now (on the local clock), never 2099
		expect(r.state.newest).toBe(T0);
		expect(r.state.from).toBe(T0 - s.overlapMs);
		expect(r.state.polledAt).toBe(T0);
		// many polls later the job is still watched: a 2099 creation never ages anyone out
		let state = r.state;
		for (let k = 1; k <= 3; k++) {
			const next = planAndAdvance({
				state,
				now: T0 + k * DAY,
				listed: [listed[0]],
				rechecked: new Map([['real', { ...listed[1], status: 'pending' }]]),
				settings: { ...s, maxAgeMs: 10 * DAY },
			});
			expect(next.dropped).toEqual([]);
			expect(next.state.from).toBe(T0 + k * DAY - s.overlapMs);
			state = next.state;
		}
		expect(Object.keys(r.state.pending).sort()).toEqual(['future', 'real']);
	});

	it('a service whose clock runs 30 minutes ahead: every job fires once, the listing window follows the local clock', () => {
		const s = settings();
		const AHEAD = 30 * MIN;
		const jobs: SimJob[] = Array.from({ length: 2 * 24 * 6 }, (_, i) => {
			const created = T0 + 10 * MIN + i * 10 * MIN;
			return {
				id: String(9001 + i),
				shownCreatedMs: created + AHEAD,
				visibleMs: created,
				finishMs: created + 20 * MIN,
				shownFinishMs: created + 20 * MIN + AHEAD,
			};
		});
		const emitted = new Map<string, number>();
		let state: TrackerState | undefined;
		for (let t = T0; t <= T0 + 2 * DAY + HOUR; t += 5 * MIN) {
			const r = simulatePoll(jobs, state, t, s);
			for (const job of r.completed) emitted.set(job.id, (emitted.get(job.id) ?? 0) + 1);
			expect(r.dropped).toEqual([]);
			expect(r.forgotten).toEqual([]);
			if (t >= jobs[0].visibleMs && t <= jobs[jobs.length - 1].visibleMs)
				expect(r.state.from).toBeGreaterThanOrEqual(t - s.overlapMs - 5 * MIN);
			expect(Object.keys(r.state.seen).length + Object.keys(r.state.pending).length).toBeLessThan(
				10,
			);
			state = r.state;
		}
		for (const job of jobs)
			expect({ id: job.id, n: emitted.get(job.id) }).toEqual({ id: job.id, n: 1 });
	});

	it('believes a service time up to the stated skew ahead, no further', () => {
		const s = settings();
		const at = (ms: number): JobObservation[] => [
			{ id: '1', createdMs: T0 - HOUR, updatedMs: ms, status: 'done' },
		];
		const within = planAndAdvance({
			state: undefined,
			now: T0,
			listed: at(T0 + MAX_SKEW_MS),
			rechecked: new Map(),
			settings: { ...s, graceMs: 10 * MIN },
		});
		expect(within.state.polledAt).toBe(T0 + MAX_SKEW_MS);
		expect(within.completed.map((j) => j.id)).toEqual(['1']);
		const beyond = planAndAdvance({
			state: undefined,
			now: T0,
			listed: at(T0 + MAX_SKEW_MS + 1),
			rechecked: new Map(),
			settings: { ...s, graceMs: 10 * MIN },
		});
		expect(beyond.state.polledAt).toBe(T0);
		// a completion time that far ahead is unknown: it does not fire on a poll without state
		expect(beyond.completed).toEqual([]);
		expect(MAX_SKEW_MS).toBe(5 * MIN);
	});

	it('a state moved into the future by an earlier version is not used; future newest/poll times are set back', () => {
		const s = settings();
		const poisoned: TrackerState = {
			v: 2,
			from: Y2099 - 10 * MIN,
			newest: Y2099,
			polledAt: Y2099,
			pending: {},
			seen: { x: Y2099 },
		};
		const r = believableState(poisoned, T0, s);
		expect(r.state).toBeUndefined();
		expect(r.reason).toMatch(
			/^its listing window starts at 2098-12-31T23:50:00.000Z, in the future/,
		);
		const partly: TrackerState = { ...poisoned, from: T0 - HOUR };
		expect(believableState(partly, T0, s)).toEqual({
			state: { ...partly, newest: null, polledAt: T0 + MAX_SKEW_MS },
		});
		const fine: TrackerState = { ...poisoned, from: T0 - HOUR, newest: T0, polledAt: T0 };
		expect(believableState(fine, T0, s).state).toBe(fine);
		expect(believableState(undefined, T0, s)).toEqual({ state: undefined });
	});
});

describe('completionTracker: any id is a key', () => {
	it('ids that are Object.prototype names are watched, fire once and are remembered, through JSON', () => {
		const s = settings();
		const pendingJobs: JobObservation[] = PROTO_NAMES.map((id, i) => ({
			id,
			createdMs: T0 - 10 * MIN + i,
			updatedMs: null,
			status: 'pending',
		}));
		const first = planAndAdvance({
			state: undefined,
			now: T0,
			listed: pendingJobs,
			rechecked: new Map(),
			settings: s,
		});
		expect(Object.keys(first.state.pending).sort()).toEqual([...PROTO_NAMES].sort());
		const stored = readState(JSON.parse(JSON.stringify(first.state)))!;
		expect(Object.keys(stored.pending).sort()).toEqual([...PROTO_NAMES].sort());
		expect(Object.getPrototypeOf(stored.pending)).toBeNull();
		const done = pendingJobs.map((j) => ({ ...j, updatedMs: T0 + MIN, status: 'done' }));
		const second = planAndAdvance({
			state: stored,
			now: T0 + 2 * MIN,
			listed: done,
			rechecked: new Map(),
			settings: s,
		});
		expect(second.completed.map((j) => j.id).sort()).toEqual([...PROTO_NAMES].sort());
		expect(Object.keys(second.state.pending)).toEqual([]);
		expect(Object.keys(second.state.seen).sort()).toEqual([...PROTO_NAMES].sort());
		const third = planAndAdvance({
			state: readState(JSON.parse(JSON.stringify(second.state))),
			now: T0 + 3 * MIN,
			listed: done,
			rechecked: new Map(),
			settings: s,
		});
		expect(third.completed).toEqual([]);
	});

	it('a stored __proto__ key is read as an id, not as a prototype', () => {
		const json = `{"v":2,"from":5,"newest":null,"polledAt":7,"pending":{"__proto__":3,"constructor":4},"seen":{"toString":6}}`;
		const state = readState(JSON.parse(json))!;
		expect(Object.entries(state.pending)).toEqual([
			['__proto__', 3],
			['constructor', 4],
		]);
		expect(toRecheck(planPoll(state, 7, settings()), [])).toEqual(['__proto__', 'constructor']);
		expect(JSON.stringify(state.seen)).toBe('{"toString":6}');
	});
});

describe('completionTracker: ids in static data survive a copy by assignment', () => {
	it('stores __proto__ (and ids starting with ~) under a ~ key and reads every form back', () => {
		for (const id of ['7001', 'constructor', '__proto__', '~', '~x', '~~y', '__proto__~'])
			expect(idOfStoredKey(storedKey(id))).toBe(id);
		expect(storedKey('__proto__')).toBe('~__proto__');
		expect(storedKey('7001')).toBe('7001');
		const state: TrackerState = readState({
			v: 2,
			from: 5,
			newest: null,
			polledAt: 7,
			pending: { x: 1 },
			seen: {},
		})!;
		state.pending['__proto__'] = 3;
		state.seen['~tilde'] = 4;
		state.seen['constructor' as string] = 6;
		// n8n's deepCopy assigns keys one by one: a plain "__proto__" key would be lost there
		const copied = readState(deepCopy(JSON.parse(JSON.stringify(storedState(state)))))!;
		expect(Object.entries(copied.pending).sort()).toEqual([
			['__proto__', 3],
			['x', 1],
		]);
		expect(Object.entries(copied.seen).sort()).toEqual([
			['constructor', 6],
			['~tilde', 4],
		]);
	});
});

describe('completionTracker: static data capped in bytes', () => {
	const longId = (i: number) => `${String(i).padStart(4, '0')}-${'x'.repeat(20_000)}`;

	it('counts an entry as it is stored (UTF-8 JSON)', () => {
		expect(entryBytes('7001', 1_700_000_000_000)).toBe(Buffer.byteLength('"7001":1700000000000,'));
		expect(entryBytes('é"', 5)).toBe(Buffer.byteLength('"é\\"":5,'));
		expect(entryBytes('😀', 5)).toBe(Buffer.byteLength('"😀":5,'));
	});

	it('500 watched ids of 20 KB: the newest that fit are watched, the others dropped as "bytes", oldest first', () => {
		const s = settings();
		const listed: JobObservation[] = Array.from({ length: 500 }, (_, i) => ({
			id: longId(i),
			createdMs: T0 - HOUR + i * 1000,
			updatedMs: null,
			status: 'pending',
		}));
		const r = planAndAdvance({
			state: undefined,
			now: T0,
			listed,
			rechecked: new Map(),
			settings: s,
		});
		const size = Buffer.byteLength(JSON.stringify(r.state));
		expect(size).toBeLessThan(s.maxPendingBytes! + s.maxSeenBytes! + 512);
		const watched = Object.keys(r.state.pending);
		expect(watched).toEqual([longId(497), longId(498), longId(499)]);
		expect(r.dropped).toHaveLength(497);
		expect(r.dropped[0]).toEqual({ id: longId(0), reason: 'bytes' });
		expect(new Set(r.dropped.map((d) => d.reason))).toEqual(new Set(['bytes']));
		// remembered dropped ids are capped too: the window moved past those forgotten
		expect(Buffer.byteLength(JSON.stringify(r.state.seen))).toBeLessThanOrEqual(s.maxSeenBytes!);
		expect(r.overlapShrunkTo).toBeDefined();
		for (const [, created] of Object.entries(r.state.seen))
			expect(created).toBeGreaterThanOrEqual(r.state.from);
		expect(r.forgotten).toEqual([]);
	});

	it('within the count cap, short ids keep the count rule ("cap")', () => {
		const small = settings({ maxPending: 2 });
		const listed: JobObservation[] = [1, 2, 3].map((k) => ({
			id: String(k),
			createdMs: T0 + k,
			updatedMs: null,
			status: 'pending',
		}));
		const r = planAndAdvance({
			state: undefined,
			now: T0 + 10,
			listed,
			rechecked: new Map(),
			settings: small,
		});
		expect(r.dropped).toEqual([{ id: '1', reason: 'cap' }]);
	});

	it('remembered ids dated beyond the skew that do not fit are forgotten and reported; the window stays on the clock', () => {
		const small = settings({ maxSeen: 2 });
		const state: TrackerState = { v: 2, from: T0, newest: T0, polledAt: T0, pending: {}, seen: {} };
		const listed: JobObservation[] = [1, 2, 3].map((k) => ({
			id: `f${k}`,
			createdMs: Y2099 + k,
			updatedMs: Y2099 + k,
			status: 'done',
		}));
		const r = planAndAdvance({
			state,
			now: T0 + MIN,
			listed,
			rechecked: new Map(),
			settings: small,
		});
		expect(r.completed.map((j) => j.id).sort()).toEqual(['f1', 'f2', 'f3']);
		expect(r.state.from).toBe(T0);
		expect(Object.keys(r.state.seen).sort()).toEqual(['f2', 'f3']);
		expect(r.forgotten).toEqual(['f1']);
	});
});

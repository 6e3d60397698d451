import fc from 'fast-check';

import { parseServiceTimestamp as parseServiceTime } from '../../../nodes/shared/time/serviceTime';

import type {
	JobObservation,
	TrackerSettings,
	TrackerState,
} from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';
import { planAndAdvance } from '../../helpers/tracker';
import {
	advance,
	planPoll,
	pollStart,
	readState,
	toRecheck,
} from '../../../nodes/GeospatialAnalysisTrigger/completionTracker';

const FINAL = new Set(['done', 'done-with-errors']);
const MIN = 60_000;
const HOUR = 60 * MIN;

function settings(over: Partial<TrackerSettings> = {}): TrackerSettings {
	return {
		overlapMs: 10 * MIN,
		maxAgeMs: 7 * 24 * HOUR,
		maxPending: 500,
		maxSeen: 2000,
		lookBackMs: 0,
		graceMs: 0,
		isFinal: (s) => FINAL.has(s),
		...over,
	};
}

/** A job of the simulated service: visible from `visibleMs`, final from `finishMs`. */
interface SimJob {
	id: string;
	createdMs: number;
	visibleMs: number;
	finishMs: number;
	finalStatus: 'done' | 'done-with-errors';
}

function observe(job: SimJob, t: number): JobObservation {
	const finished = t >= job.finishMs;
	return {
		id: job.id,
		createdMs: job.createdMs,
		updatedMs: finished ? job.finishMs : job.createdMs,
		status: finished ? job.finalStatus : t < job.createdMs + 500 ? 'creating' : 'pending',
	};
}

/** One poll of the simulated service at time t; state is kept only when the poll "succeeds". */
function simulatePoll(
	jobs: SimJob[],
	state: TrackerState | undefined,
	t: number,
	s: TrackerSettings,
) {
	const plan = planPoll(state, t, s);
	const from = plan.listFrom;
	const visible = jobs.filter((j) => j.visibleMs <= t);
	const listed = visible
		.filter((j) => j.createdMs >= from)
		.sort((a, b) => b.createdMs - a.createdMs)
		.map((j) => observe(j, t));
	const rechecked = new Map<string, JobObservation | null>();
	for (const id of toRecheck(plan, listed)) {
		const job = jobs.find((j) => j.id === id);
		rechecked.set(id, job ? observe(job, t) : null);
	}
	return advance(plan, { listed, rechecked });
}

const T0 = Date.UTC(2026, 2, 1, 12);

/** Random schedules: jobs created before and after activation, finishing out of order. */
const scheduleArb = fc.record({
	jobs: fc.array(
		fc.record({
			createdOffset: fc.integer({ min: -3 * HOUR, max: 6 * HOUR }),
			runFor: fc.integer({ min: 0, max: 4 * HOUR }),
			visibleDelay: fc.integer({ min: 0, max: 4 * MIN }),
			finalStatus: fc.constantFrom('done' as const, 'done-with-errors' as const),
		}),
		{ maxLength: 40 },
	),
	polls: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 40 * MIN }), fails: fc.boolean() }), {
		minLength: 1,
		maxLength: 40,
	}),
	activationFails: fc.boolean(),
});

describe('completionTracker: exactly once (model-based, fast-check)', () => {
	it('emits every job that finishes after activation exactly once, never early, never twice', () => {
		fc.assert(
			fc.property(scheduleArb, ({ jobs: specs, polls, activationFails }) => {
				const s = settings();
				const jobs: SimJob[] = specs.map((spec, i) => {
					const createdMs = T0 + spec.createdOffset;
					return {
						id: String(7001 + i),
						createdMs,
						visibleMs: createdMs + spec.visibleDelay,
						finishMs: createdMs + 500 + spec.runFor,
						finalStatus: spec.finalStatus,
					};
				});
				const emitted = new Map<string, number>();
				let state: TrackerState | undefined;
				let t = T0;
				const times = [activationFails, ...polls.map((p) => p.fails)];
				const gaps = [0, ...polls.map((p) => p.gap)];
				// then drain: long after everything, polls that succeed
				for (let k = 0; k < 3; k++) {
					times.push(false);
					gaps.push(5 * HOUR);
				}
				let activatedAt: number | undefined;
				times.forEach((fails, k) => {
					t += gaps[k];
					const result = simulatePoll(jobs, state, t, s);
					if (fails) return; // the poll threw: nothing emitted, nothing stored
					if (activatedAt === undefined) activatedAt = t;
					for (const job of result.completed) {
						const sim = jobs.find((j) => j.id === job.id)!;
						expect(sim.finishMs).toBeLessThanOrEqual(t); // never early
						emitted.set(job.id, (emitted.get(job.id) ?? 0) + 1);
					}
					expect(result.dropped).toEqual([]);
					state = result.state;
				});
				for (const job of jobs) {
					const count = emitted.get(job.id) ?? 0;
					const finishedBeforeActivation =
						job.finishMs <= activatedAt! && job.visibleMs <= activatedAt!;
					expect({ id: job.id, count }).toEqual({
						id: job.id,
						count: finishedBeforeActivation ? 0 : 1,
					});
				}
			}),
			{ numRuns: 300 },
		);
	});

	it('with a look-back period, also emits jobs that finished within it before activation, once', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						createdOffset: fc.integer({ min: -10 * HOUR, max: 0 }),
						runFor: fc.integer({ min: 0, max: 3 * HOUR }),
					}),
					{ maxLength: 30 },
				),
				fc.integer({ min: 1, max: 8 }),
				(specs, lookBackHours) => {
					const s = settings({ lookBackMs: lookBackHours * HOUR });
					const jobs: SimJob[] = specs.map((spec, i) => ({
						id: String(9001 + i),
						createdMs: T0 + spec.createdOffset,
						visibleMs: T0 + spec.createdOffset,
						finishMs: T0 + spec.createdOffset + spec.runFor,
						finalStatus: 'done',
					}));
					const first = simulatePoll(jobs, undefined, T0, s);
					const second = simulatePoll(jobs, first.state, T0 + 5 * HOUR, s);
					const third = simulatePoll(jobs, second.state, T0 + 6 * HOUR, s);
					const ids = [...first.completed, ...second.completed, ...third.completed].map(
						(j) => j.id,
					);
					expect(new Set(ids).size).toBe(ids.length);
					for (const job of jobs) {
						const expected = job.finishMs > T0 || job.finishMs >= T0 - lookBackHours * HOUR;
						expect({ id: job.id, emitted: ids.includes(job.id) }).toEqual({
							id: job.id,
							emitted: expected,
						});
					}
				},
			),
			{ numRuns: 200 },
		);
	});

	it('keeps the state bounded whatever happens, and reports every dropped job', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						createdGap: fc.integer({ min: 0, max: 30_000 }),
						runFor: fc.integer({ min: 0, max: 48 * HOUR }),
					}),
					{
						maxLength: 200,
					},
				),
				fc.integer({ min: 1, max: 20 }),
				fc.integer({ min: 5, max: 50 }),
				(specs, maxPending, maxSeen) => {
					const s = settings({ maxPending, maxSeen, maxAgeMs: 12 * HOUR });
					let c = T0;
					const jobs: SimJob[] = specs.map((spec, i) => {
						c += spec.createdGap;
						return {
							id: String(i + 1),
							createdMs: c,
							visibleMs: c,
							finishMs: c + spec.runFor,
							finalStatus: 'done',
						};
					});
					let state: TrackerState | undefined;
					const emitted: string[] = [];
					const dropped = new Set<string>();
					for (let t = T0; t <= c + 50 * HOUR; t += 30 * MIN) {
						const r = simulatePoll(jobs, state, t, s);
						state = r.state;
						emitted.push(...r.completed.map((j) => j.id));
						for (const d of r.dropped) {
							expect(dropped.has(d.id)).toBe(false);
							dropped.add(d.id);
						}
						expect(Object.keys(state.pending).length).toBeLessThanOrEqual(maxPending);
						expect(Object.keys(state.seen).length).toBeLessThanOrEqual(maxSeen);
					}
					// never twice; a job is either emitted or reported as dropped (it was created after activation)
					expect(new Set(emitted).size).toBe(emitted.length);
					for (const job of jobs) {
						if (job.finishMs <= T0) continue;
						const fate = Number(emitted.includes(job.id)) + Number(dropped.has(job.id));
						expect({ id: job.id, fate }).toEqual({ id: job.id, fate: 1 });
					}
				},
			),
			{ numRuns: 150 },
		);
	});
});

/**
 * What n8n keeps of a poll's state (see test/helpers/poll.ts, StateKeeping): with its durable
 * scheduler the activation poll's state is dropped when it emitted nothing; worse, every poll
 * that emitted nothing is dropped. A poll that throws keeps nothing.
 */
type Keeping = 'durable' | 'emitted';

describe('completionTracker: exactly once when n8n drops the state of polls that emitted nothing', () => {
	const INTERVAL = 20 * MIN;
	const dropArb = fc.record({
		jobs: scheduleArb.map((s) => s.jobs),
		polls: fc.array(
			fc.record({ gap: fc.integer({ min: 1, max: INTERVAL }), fails: fc.boolean() }),
			{ minLength: 1, maxLength: 40 },
		),
		keeping: fc.constantFrom<Keeping>('durable', 'emitted'),
		activationFails: fc.boolean(),
	});

	it('emits every job that finishes after the grace period before activation exactly once', () => {
		let emptyActivations = 0;
		fc.assert(
			fc.property(dropArb, ({ jobs: specs, polls, keeping, activationFails }) => {
				// two poll intervals (one poll may fail) plus the margin, as the trigger sets it
				const s = settings({ graceMs: 2 * INTERVAL + 5 * MIN });
				const jobs: SimJob[] = specs.map((spec, i) => {
					const createdMs = T0 + spec.createdOffset;
					return {
						id: String(7001 + i),
						createdMs,
						visibleMs: createdMs + spec.visibleDelay,
						finishMs: createdMs + 500 + spec.runFor,
						finalStatus: spec.finalStatus,
					};
				});
				// n8n polls every INTERVAL at most; no two polls fail in a row
				const fails = [activationFails, ...polls.map((p) => p.fails)].map(
					(f, k, all) => f && !(k > 0 && all[k - 1]),
				);
				const gaps = [0, ...polls.map((p) => p.gap)];
				// then drain: polls every interval that succeed, long after everything finished
				for (let k = 0; k < 30; k++) {
					fails.push(false);
					gaps.push(INTERVAL);
				}
				const emitted = new Map<string, number>();
				let state: TrackerState | undefined;
				let t = T0;
				let activatedAt: number | undefined;
				let emptyActivation = false;
				fails.forEach((failsNow, k) => {
					t += gaps[k];
					const result = simulatePoll(jobs, state, t, s);
					if (failsNow) return; // the poll threw: nothing emitted, nothing stored
					const activation = activatedAt === undefined;
					if (activation) activatedAt = t;
					for (const job of result.completed) {
						const sim = jobs.find((j) => j.id === job.id)!;
						expect(sim.finishMs).toBeLessThanOrEqual(t); // never early
						emitted.set(job.id, (emitted.get(job.id) ?? 0) + 1);
					}
					expect(result.dropped).toEqual([]);
					const emittedNow = result.completed.length > 0;
					if (activation && !emittedNow) emptyActivation = true;
					const kept = emittedNow || (keeping === 'durable' && !activation);
					if (kept) state = result.state;
				});
				for (const job of jobs) {
					const count = emitted.get(job.id) ?? 0;
					const wanted = job.finishMs >= activatedAt! - s.graceMs;
					expect({ id: job.id, count }).toEqual({ id: job.id, count: wanted ? 1 : 0 });
				}
				if (emptyActivation) emptyActivations++;
			}),
			{ numRuns: 300 },
		);
		// activation polls that emitted nothing (their state dropped) were among the runs
		expect(emptyActivations).toBeGreaterThan(0);
	});

	it('loses jobs without the grace period (what the grace period is for)', () => {
		// activation at T0 emits nothing and its state is dropped; a job finishes; the next poll
		// starts without state again: with no grace it counts the job as finished before activation
		const job: SimJob = {
			id: '1',
			createdMs: T0 + MIN,
			visibleMs: T0 + MIN,
			finishMs: T0 + 2 * MIN,
			finalStatus: 'done',
		};
		const noGrace = settings();
		expect(simulatePoll([job], undefined, T0, noGrace).completed).toEqual([]);
		expect(simulatePoll([job], undefined, T0 + INTERVAL, noGrace).completed).toEqual([]);
		const grace = settings({ graceMs: 2 * INTERVAL + 5 * MIN });
		expect(simulatePoll([job], undefined, T0, grace).completed).toEqual([]);
		expect(simulatePoll([job], undefined, T0 + INTERVAL, grace).completed.map((j) => j.id)).toEqual(
			['1'],
		);
	});
});

describe('completionTracker: the credential points elsewhere', () => {
	const s = settings({ graceMs: 25 * MIN });
	const A = { service: 'https://a.example.com', account: 'key:aaaa' };
	const B = { service: 'https://b.example.com', account: 'key:bbbb' };
	const stateOnA: TrackerState = {
		v: 2,
		from: T0 - 10 * MIN,
		newest: T0,
		polledAt: T0 + MIN,
		...A,
		pending: { '7002': T0 - HOUR },
		seen: { '7001': T0 },
	};

	it('tells how a poll starts', () => {
		expect(pollStart(undefined, A)).toBe('first');
		expect(pollStart(stateOnA, A)).toBe('continue');
		expect(pollStart(stateOnA, undefined)).toBe('continue');
		expect(pollStart(stateOnA, B)).toBe('newService');
		expect(pollStart(stateOnA, { ...A, account: 'user:bob' })).toBe('newAccount');
		// state of version 1 has no identity: it is taken over
		const { service, account, ...v1 } = stateOnA;
		expect([service, account]).toEqual([A.service, A.account]);
		expect(pollStart(v1 as TrackerState, B)).toBe('continue');
	});

	it('on another service, starts afresh there: its jobs that finished since the last poll fire, whatever their ids', () => {
		const now = T0 + 30 * MIN;
		expect(planPoll(stateOnA, now, s, B).listFrom).toBe(now - s.maxAgeMs);
		expect(toRecheck(planPoll(stateOnA, now, s, B), [])).toEqual([]); // ids of the old service mean nothing here
		const listed: JobObservation[] = [
			// same id as a job seen on A, finished after the last poll: fires
			{ id: '7001', createdMs: T0 + 5 * MIN, updatedMs: T0 + 6 * MIN, status: 'done' },
			// finished before the last poll (on A): does not
			{ id: '9', createdMs: T0 - HOUR, updatedMs: T0, status: 'done' },
			// same id as a job watched on A: watched as B's job
			{ id: '7002', createdMs: T0 + 20 * MIN, updatedMs: T0 + 20 * MIN, status: 'pending' },
		];
		const r = planAndAdvance({
			state: stateOnA,
			now,
			listed,
			rechecked: new Map(),
			settings: s,
			identity: B,
		});
		expect(r.completed.map((j) => j.id)).toEqual(['7001']);
		expect(r.state).toEqual({
			v: 2,
			...B,
			from: T0 + 20 * MIN - s.overlapMs,
			newest: T0 + 20 * MIN,
			polledAt: now,
			pending: { '7002': T0 + 20 * MIN },
			seen: {}, // both created before `from`: never listed again
		});
		// the next poll continues on B
		expect(pollStart(r.state, B)).toBe('continue');
	});

	it('with another account on the same service, keeps what it knows and lists the watch period once', () => {
		const other = { ...A, account: 'key:cccc' };
		const now = T0 + 30 * MIN;
		expect(planPoll(stateOnA, now, s, other).listFrom).toBe(now - s.maxAgeMs);
		expect(toRecheck(planPoll(stateOnA, now, s, other), [])).toEqual(['7002']);
		const listed: JobObservation[] = [
			// seen before: not again
			{ id: '7001', createdMs: T0, updatedMs: T0 + 10 * MIN, status: 'done' },
			// the other account's job, running for days: watched now
			{ id: '8001', createdMs: T0 - 2 * 24 * HOUR, updatedMs: null, status: 'pending' },
			// the other account's job finished since the last poll: fires
			{ id: '8002', createdMs: T0 - 3 * HOUR, updatedMs: T0 + 2 * MIN, status: 'done' },
			// finished before the last poll: does not
			{ id: '8003', createdMs: T0 - 3 * HOUR, updatedMs: T0 + MIN, status: 'done' },
		];
		const r = planAndAdvance({
			state: stateOnA,
			now,
			listed,
			// the old account's job answers 403: gone
			rechecked: new Map([['7002', null]]),
			settings: s,
			identity: other,
		});
		expect(r.completed.map((j) => j.id)).toEqual(['8002']);
		expect(r.dropped).toEqual([{ id: '7002', reason: 'gone' }]);
		expect(r.state.pending).toEqual({ '8001': T0 - 2 * 24 * HOUR });
		expect(r.state.account).toBe('key:cccc');
		expect(r.state.from).toBe(stateOnA.from);
	});

	it('counts completion times read as "now" (the service clock may run ahead of the local one)', () => {
		const listed: JobObservation[] = [
			{ id: '1', createdMs: T0 - HOUR, updatedMs: T0 + 5 * MIN, status: 'done' },
		];
		const r = planAndAdvance({
			state: undefined,
			now: T0,
			listed,
			rechecked: new Map(),
			settings: s,
		});
		expect(r.state.polledAt).toBe(T0 + 5 * MIN);
		expect(r.completed.map((j) => j.id)).toEqual(['1']); // within the grace period of that "now"
	});
});

describe('completionTracker: details', () => {
	const s = settings();

	it('takes up no job listed before listFrom (the bound is sent to the second), except a watched one', () => {
		const state: TrackerState = {
			v: 2,
			from: T0 + 500,
			newest: T0 + 500 + s.overlapMs,
			polledAt: T0 + 500 + s.overlapMs,
			pending: { '8': T0 + 100 },
			seen: {},
		};
		const plan = planPoll(state, T0 + HOUR, s);
		expect(plan.listFrom).toBe(T0 + 500);
		const listed: JobObservation[] = [
			// handled before and forgotten when `from` passed it: the second's listing returns it again
			{ id: '7', createdMs: T0 + 200, updatedMs: T0 + MIN, status: 'done' },
			// watched: completes from the listing, no recheck needed
			{ id: '8', createdMs: T0 + 100, updatedMs: T0 + 2 * MIN, status: 'done' },
			// within the window: fires
			{ id: '9', createdMs: T0 + 600, updatedMs: T0 + 3 * MIN, status: 'done' },
		];
		expect(toRecheck(plan, listed)).toEqual([]);
		const r = advance(plan, { listed, rechecked: new Map() });
		expect(r.completed.map((j) => j.id)).toEqual(['8', '9']);
		expect(Object.keys(r.state.seen)).not.toContain('7');
	});

	it('first poll lists the watch period and emits nothing already finished', () => {
		expect(planPoll(undefined, T0, s).listFrom).toBe(T0 - s.maxAgeMs);
		const listed: JobObservation[] = [
			{ id: '2', createdMs: T0 - HOUR, updatedMs: T0 - MIN, status: 'done' },
			{ id: '1', createdMs: T0 - 2 * HOUR, updatedMs: T0 - 2 * HOUR, status: 'pending' },
		];
		const r = planAndAdvance({
			state: undefined,
			now: T0,
			listed,
			rechecked: new Map(),
			settings: s,
		});
		expect(r.completed).toEqual([]);
		expect(r.state.pending).toEqual({ '1': T0 - 2 * HOUR });
		expect(r.state.from).toBe(T0 - HOUR - s.overlapMs);
		expect(r.state.seen).toEqual({ '2': T0 - HOUR });
	});

	it('re-checks watched jobs the listing did not return, and forgets jobs that are gone', () => {
		const state: TrackerState = {
			v: 2,
			from: T0,
			newest: T0 + s.overlapMs,
			polledAt: T0 + s.overlapMs,
			pending: { '5': T0 - HOUR, '6': T0 - HOUR },
			seen: {},
		};
		expect(toRecheck(planPoll(state, T0 + HOUR, s), [])).toEqual(['5', '6']);
		const r = planAndAdvance({
			state,
			now: T0 + HOUR,
			listed: [],
			rechecked: new Map([
				[
					'5',
					{ id: '5', createdMs: T0 - HOUR, updatedMs: T0 + 30 * MIN, status: 'done-with-errors' },
				],
				['6', null],
			]),
			settings: s,
		});
		expect(r.completed.map((j) => j.id)).toEqual(['5']);
		expect(r.dropped).toEqual([{ id: '6', reason: 'gone' }]);
		expect(r.state.pending).toEqual({});
		expect(r.state.seen).toEqual({}); // created before `from`: never listed again
	});

	it('orders completions by completion time', () => {
		const listed: JobObservation[] = [
			{ id: '3', createdMs: T0 + 3, updatedMs: T0 + 50, status: 'done' },
			{ id: '2', createdMs: T0 + 2, updatedMs: T0 + 10, status: 'done' },
			{ id: '1', createdMs: T0 + 1, updatedMs: T0 + 30, status: 'done' },
		];
		const state: TrackerState = { v: 2, from: T0, newest: T0, polledAt: T0, pending: {}, seen: {} };
		const r = planAndAdvance({ state, now: T0 + 100, listed, rechecked: new Map(), settings: s });
		expect(r.completed.map((j) => j.id)).toEqual(['2', '1', '3']);
	});

	it('drops unfinished jobs past the maximum age and beyond the cap, oldest first', () => {
		const small = settings({ maxPending: 2, maxAgeMs: HOUR });
		const listed: JobObservation[] = [
			{ id: '4', createdMs: T0 + 40 * MIN, updatedMs: null, status: 'pending' },
			{ id: '3', createdMs: T0 + 30 * MIN, updatedMs: null, status: 'pending' },
			{ id: '2', createdMs: T0 + 20 * MIN, updatedMs: null, status: 'pending' },
			{ id: '1', createdMs: T0 - 2 * HOUR, updatedMs: null, status: 'incomplete' },
		];
		const state: TrackerState = {
			v: 2,
			from: T0 - 3 * HOUR,
			newest: null,
			polledAt: T0 - 3 * HOUR,
			pending: {},
			seen: {},
		};
		const r = planAndAdvance({
			state,
			now: T0 + HOUR,
			listed,
			rechecked: new Map(),
			settings: small,
		});
		expect(r.dropped).toEqual([
			{ id: '1', reason: 'age' },
			{ id: '2', reason: 'cap' },
		]);
		expect(r.state.pending).toEqual({ '3': T0 + 30 * MIN, '4': T0 + 40 * MIN });
	});

	it('shrinks the overlap window instead of forgetting ids it would list again', () => {
		const small = settings({ maxSeen: 2 });
		const listed: JobObservation[] = [3, 2, 1].map((k) => ({
			id: String(k),
			createdMs: T0 + k * 1000,
			updatedMs: T0 + k * 1000,
			status: 'done',
		}));
		const state: TrackerState = { v: 2, from: T0, newest: T0, polledAt: T0, pending: {}, seen: {} };
		const r = planAndAdvance({
			state,
			now: T0 + 5000,
			listed,
			rechecked: new Map(),
			settings: small,
		});
		expect(r.completed).toHaveLength(3);
		expect(r.state.seen).toEqual({ '2': T0 + 2000, '3': T0 + 3000 });
		expect(r.state.from).toBe(T0 + 1001);
		expect(r.overlapShrunkTo).toBe(1999);
	});

	it('reads back only well-formed state', () => {
		const state: TrackerState = {
			v: 2,
			from: 5,
			newest: null,
			polledAt: 7,
			service: 'https://api.example.com',
			account: 'user:alice',
			pending: { a: 1 },
			seen: {},
		};
		expect(readState(JSON.parse(JSON.stringify(state)))).toEqual(state);
		expect(readState(undefined)).toBeUndefined();
		expect(readState({ ...state, v: 3 })).toBeUndefined();
		expect(readState({ ...state, pending: { a: 'x' } })).toBeUndefined();
		expect(readState({ ...state, from: null })).toBeUndefined();
		expect(readState({ ...state, polledAt: undefined })).toBeUndefined();
		expect(readState({ ...state, service: 5 })).toBeUndefined();
		// state written by version 1 (no polledAt, no identity) reads on
		const v1 = { v: 1, from: 5, newest: 9, pending: { a: 1 }, seen: { b: 6 } };
		expect(readState(v1)).toEqual({ ...v1, v: 2, polledAt: 9 });
		expect(readState({ ...v1, newest: null })).toEqual({ ...v1, v: 2, newest: null, polledAt: 5 });
	});

	it('parses service timestamps as UTC, cutting microseconds (the one parser, nodes/shared/time)', () => {
		expect(parseServiceTime('2026-03-01T12:00:00.123456')).toBe(
			Date.UTC(2026, 2, 1, 12, 0, 0, 123),
		);
		expect(parseServiceTime('2026-03-01T12:00:00')).toBe(Date.UTC(2026, 2, 1, 12));
		expect(parseServiceTime('2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
		expect(parseServiceTime('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
		expect(parseServiceTime('nope')).toBeUndefined();
		expect(parseServiceTime(undefined)).toBeUndefined();
	});
});

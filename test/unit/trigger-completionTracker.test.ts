import fc from 'fast-check';

import type {
	JobObservation,
	TrackerSettings,
	TrackerState,
} from '../../nodes/GeospatialAnalysisTrigger/completionTracker';
import {
	advance,
	listFrom,
	parseServiceTime,
	readState,
	toRecheck,
} from '../../nodes/GeospatialAnalysisTrigger/completionTracker';

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
	const from = listFrom(state, t, s);
	const visible = jobs.filter((j) => j.visibleMs <= t);
	const listed = visible
		.filter((j) => j.createdMs >= from)
		.sort((a, b) => b.createdMs - a.createdMs)
		.map((j) => observe(j, t));
	const rechecked = new Map<string, JobObservation | null>();
	for (const id of toRecheck(state, listed)) {
		const job = jobs.find((j) => j.id === id);
		rechecked.set(id, job ? observe(job, t) : null);
	}
	return advance({ state, now: t, listed, rechecked, settings: s });
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

describe('completionTracker: details', () => {
	const s = settings();

	it('first poll lists the watch period and emits nothing already finished', () => {
		expect(listFrom(undefined, T0, s)).toBe(T0 - s.maxAgeMs);
		const listed: JobObservation[] = [
			{ id: '2', createdMs: T0 - HOUR, updatedMs: T0 - MIN, status: 'done' },
			{ id: '1', createdMs: T0 - 2 * HOUR, updatedMs: T0 - 2 * HOUR, status: 'pending' },
		];
		const r = advance({ state: undefined, now: T0, listed, rechecked: new Map(), settings: s });
		expect(r.completed).toEqual([]);
		expect(r.state.pending).toEqual({ '1': T0 - 2 * HOUR });
		expect(r.state.from).toBe(T0 - HOUR - s.overlapMs);
		expect(r.state.seen).toEqual({ '2': T0 - HOUR });
	});

	it('re-checks watched jobs the listing did not return, and forgets jobs that are gone', () => {
		const state: TrackerState = {
			v: 1,
			from: T0,
			newest: T0 + s.overlapMs,
			pending: { '5': T0 - HOUR, '6': T0 - HOUR },
			seen: {},
		};
		expect(toRecheck(state, [])).toEqual(['5', '6']);
		const r = advance({
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
		const state: TrackerState = { v: 1, from: T0, newest: T0, pending: {}, seen: {} };
		const r = advance({ state, now: T0 + 100, listed, rechecked: new Map(), settings: s });
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
		const state: TrackerState = { v: 1, from: T0 - 3 * HOUR, newest: null, pending: {}, seen: {} };
		const r = advance({ state, now: T0 + HOUR, listed, rechecked: new Map(), settings: small });
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
		const state: TrackerState = { v: 1, from: T0, newest: T0, pending: {}, seen: {} };
		const r = advance({ state, now: T0 + 5000, listed, rechecked: new Map(), settings: small });
		expect(r.completed).toHaveLength(3);
		expect(r.state.seen).toEqual({ '2': T0 + 2000, '3': T0 + 3000 });
		expect(r.state.from).toBe(T0 + 1001);
		expect(r.overlapShrunkTo).toBe(1999);
	});

	it('reads back only well-formed state', () => {
		const state: TrackerState = { v: 1, from: 5, newest: null, pending: { a: 1 }, seen: {} };
		expect(readState(JSON.parse(JSON.stringify(state)))).toEqual(state);
		expect(readState(undefined)).toBeUndefined();
		expect(readState({ ...state, v: 2 })).toBeUndefined();
		expect(readState({ ...state, pending: { a: 'x' } })).toBeUndefined();
		expect(readState({ ...state, from: null })).toBeUndefined();
	});

	it('parses service timestamps as UTC, cutting microseconds', () => {
		expect(parseServiceTime('2026-03-01T12:00:00.123456')).toBe(
			Date.UTC(2026, 2, 1, 12, 0, 0, 123),
		);
		expect(parseServiceTime('2026-03-01T12:00:00')).toBe(Date.UTC(2026, 2, 1, 12));
		expect(parseServiceTime('2026-03-01T12:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 10));
		expect(parseServiceTime('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
		expect(parseServiceTime('nope')).toBeNull();
		expect(parseServiceTime(undefined)).toBeNull();
	});
});

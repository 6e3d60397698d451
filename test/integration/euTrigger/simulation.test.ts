/**
 * Acceptance: the EU Information System Trigger's poll through n8n's real PollContext against
 * the fake EU, with statements filed and changed at random times, searches failing at random,
 * restarts, and the static data kept as each of n8n's schedulers keeps it (test/helpers/poll.ts,
 * StateKeeping: `default`, `durable`, and the harsher `emitted`). Random schedules (fast-check).
 *
 * In some runs the credential is edited mid-run to point to another EU service (a second fake):
 * from the next poll on only that one is asked.
 *
 * Every statement's last status (unless SUBMITTED) that the EU dated at or after the baseline
 * (the first successful poll of an activation without stored state, less the grace period of
 * Poll Times every 20 minutes) and that the status filter selects is emitted exactly once, by a
 * poll after it happened; no status of a statement is emitted twice; nothing is emitted that the
 * statement never had; a statement whose every change came before the baseline never fires. On
 * the old service, what changed after its last successful poll never fires; on the new one, what
 * changed after that poll fires once (earlier changes at most once).
 */
import fc from 'fast-check';

import { firstPollGraceMs } from '../../../nodes/shared/polling/pollSchedule';
import type { FakeEu } from '../../fake-eu';
import { REJECT_MARKER, startFakeEu } from '../../fake-eu';
import type { StateKeeping } from '../../helpers/poll';
import type { EuClock } from './helpers';
import { MIN, euPoller, euStore, file, followEuClock } from './helpers';

const POLL_TIMES = { item: [{ mode: 'everyX', value: 20, unit: 'minutes' }] };
const GRACE = firstPollGraceMs(POLL_TIMES);
const NEXT: Record<string, string[]> = {
	AVAILABLE: ['WITHDRAWN', 'SUSPENDED', 'UNDER_CHECK'],
	SUSPENDED: ['ARCHIVED'],
	UNDER_CHECK: ['ARCHIVED'],
};
const OFFERED = [
	'AVAILABLE',
	'REJECTED',
	'WITHDRAWN',
	'GROUPED',
	'ARCHIVED',
	'SUSPENDED',
	'OBSOLETE',
];

type Fault = 'none' | 'search' | 'restart';
interface Step {
	file: Array<{ reject: boolean }>;
	/** indexes (mod the count) of statements whose status moves on before the poll */
	change: number[];
	/** indexes (mod the count) of statements the authority writes to before the poll */
	communicate: number[];
	advanceMs: number;
	fault: Fault;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
	file: fc.array(fc.record({ reject: fc.boolean() }), { maxLength: 1 }),
	change: fc.array(fc.nat(), { maxLength: 2 }),
	communicate: fc.array(fc.nat(), { maxLength: 1 }),
	advanceMs: fc.integer({ min: 0, max: 20 * MIN }),
	fault: fc.constantFrom<Fault>('none', 'none', 'none', 'search', 'restart'),
});

const scenarioArb = fc
	.record({
		before: fc.array(fc.record({ reject: fc.boolean() }), { maxLength: 2 }),
		steps: fc.array(stepArb, { minLength: 5, maxLength: 9 }),
		keeping: fc.constantFrom<StateKeeping>('default', 'durable', 'emitted'),
		statuses: fc.constantFrom<string[] | undefined>(undefined, ['REJECTED', 'ARCHIVED', 'other']),
		/** before which step the credential is switched to service B (none: never) */
		switchAt: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
	})
	.map((s) => ({
		...s,
		// where n8n may drop state, a failed poll is followed by one that succeeds
		steps: s.steps.map((step, i) =>
			i > 0 && s.steps[i - 1].fault !== 'none' && step.fault !== 'none'
				? { ...step, fault: 'none' as Fault }
				: step,
		),
	}));

type Service = 'A' | 'B';
let fakes: Record<Service, FakeEu>;
let clock: EuClock;
beforeAll(async () => {
	fakes = {
		A: await startFakeEu({ availableAfterMs: MIN }),
		B: await startFakeEu({ availableAfterMs: MIN }),
	};
});
afterAll(async () => {
	await fakes.A.stop();
	await fakes.B.stop();
});

test('every change once, none early, none twice, under random schedules, both schedulers and a credential edit', async () => {
	const seen = { keeping: new Set<StateKeeping>(), switched: 0 };
	let run = 0;
	let wantedTotal = 0;
	await fc.assert(
		fc.asyncProperty(scenarioArb, async (scenario) => {
			clock = followEuClock(fakes.A, fakes.B);
			try {
				run++;
				seen.keeping.add(scenario.keeping);
				const prefix = `R${run}-`;
				let current: Service = 'A';
				const store = euStore(fakes.A.url, fakes.A.users[0]);
				const parameters = {
					internalReferencePrefix: prefix,
					pollTimes: POLL_TIMES,
					...(scenario.statuses ? { statuses: scenario.statuses } : {}),
				};
				const poller = euPoller(store, scenario.keeping, parameters);
				const history = new Map<string, Array<{ status: string; at: number; seq: number }>>();
				let seq = -1; // the step: what happens in it happens before its poll
				const noteSeq = new Map<string, number>();
				const mine: Array<{ service: Service; uuid: string }> = [];
				const onCurrent = () => mine.filter((m) => m.service === current).map((m) => m.uuid);
				const statusOf = (uuid: string) => {
					const { service } = mine.find((m) => m.uuid === uuid)!;
					return fakes[service].statements().find((x) => x.uuid === uuid)!;
				};
				const fileSome = async (specs: Array<{ reject: boolean }>) => {
					for (const spec of specs) {
						const uuid = await file(
							fakes[current],
							`${prefix}${mine.length}`,
							spec.reject ? REJECT_MARKER : undefined,
						);
						mine.push({ service: current, uuid });
					}
				};
				const change = (indexes: number[]) => {
					const uuids = onCurrent();
					for (const i of indexes) {
						if (uuids.length === 0) return;
						const uuid = uuids[i % uuids.length];
						const next = NEXT[statusOf(uuid).status];
						if (next) fakes[current].events.setStatus(uuid, next[i % next.length]);
					}
				};
				let notes = 0;
				const communicate = (indexes: number[]) => {
					const uuids = onCurrent();
					for (const i of indexes)
						if (uuids.length > 0) {
							fakes[current].events.communicate(uuids[i % uuids.length], `note ${++notes}`);
							noteSeq.set(uuids[i % uuids.length], seq);
						}
				};
				let baseline: number | undefined;
				let lastPollOfA: number | undefined; // its step
				let requestsToA: number | undefined;
				const emitted = new Map<string, number>(); // uuid|status or uuid|note|content → times
				const poll = async (fault: Fault) => {
					if (fault === 'restart') poller.restart();
					if (fault === 'search')
						fakes[current].faults.failNext('getDdsByInternalReference', { status: 400 });
					const fresh = poller.saved === undefined;
					const result = await poller.poll();
					fakes[current].faults.clear();
					if (result.error) {
						expect({ fault, error: result.error.message }).toEqual({
							fault: 'search',
							error: result.error.message,
						});
						return;
					}
					// the activation's baseline as the trigger set it (its poll time less the grace period)
					if (result.activation && fresh && baseline === undefined) {
						baseline = (result.nodeStaticData.statements as { since: number }).since;
						expect(baseline).toBeLessThanOrEqual(Date.now() - GRACE);
						expect(baseline).toBeGreaterThan(Date.now() - GRACE - MIN);
					}
					if (current === 'A') lastPollOfA = seq;
					for (const item of result.items ?? []) {
						const uuid = String(item.json.uuid);
						expect(onCurrent()).toContain(uuid);
						if (item.json.event === 'communication') {
							const key = `${uuid}|note|${String(item.json.communication)}`;
							emitted.set(key, (emitted.get(key) ?? 0) + 1);
							expect(statusOf(uuid).communication?.content).toBe(item.json.communication);
							continue;
						}
						const status = String(item.json.status);
						const key = `${uuid}|${status}`;
						emitted.set(key, (emitted.get(key) ?? 0) + 1);
						// none early: the statement has (or had) that status now
						const had = [...(history.get(uuid) ?? []), { status: statusOf(uuid).status }];
						expect(had.map((h) => h.status)).toContain(status);
					}
				};
				// what the statements went through (the fake's last status and date, read after each step)
				const record = () => {
					for (const { uuid } of mine) {
						const x = statusOf(uuid);
						const h = history.get(uuid) ?? [];
						if (h.at(-1)?.status !== x.status) h.push({ status: x.status, at: x.updatedAt, seq });
						history.set(uuid, h);
					}
				};

				await fileSome(scenario.before);
				clock.advance(2 * MIN);
				for (const [i, step] of scenario.steps.entries()) {
					seq = i;
					if (scenario.switchAt === i) {
						// the credential is edited: another environment, from the next poll on
						store.data.euInformationSystemApi = euStore(
							fakes.B.url,
							fakes.B.users[0],
						).data.euInformationSystemApi;
						current = 'B';
						requestsToA = fakes.A.requests().length;
						seen.switched++;
					}
					await fileSome(step.file);
					record();
					change(step.change);
					communicate(step.communicate);
					record();
					clock.advance(step.advanceMs);
					record();
					await poll(step.fault);
				}
				for (let k = 0; k < 3; k++) {
					seq++;
					clock.advance(20 * MIN);
					record();
					await poll('none');
				}
				expect(baseline).toBeDefined();
				if (requestsToA !== undefined) expect(fakes.A.requests().length).toBe(requestsToA);
				for (const [key, times] of emitted) expect({ key, times }).toEqual({ key, times: 1 });
				for (const { service, uuid } of mine) {
					const last = history.get(uuid)!.at(-1)!;
					const note = statusOf(uuid).communication;
					const selected =
						scenario.statuses === undefined ||
						scenario.statuses.includes(OFFERED.includes(last.status) ? last.status : 'other');
					const switched = requestsToA !== undefined;
					// A change fires when dated since the baseline, and: on A after the switch, when it
					// happened before A's last successful poll; on B, when it happened after A's last poll.
					const inWindow = (at: number, step: number) =>
						at >= baseline! &&
						(!switched ||
							(service === 'A'
								? lastPollOfA !== undefined && step <= lastPollOfA
								: lastPollOfA === undefined || step > lastPollOfA));
					const wanted = last.status !== 'SUBMITTED' && inWindow(last.at, last.seq) && selected;
					if (wanted) wantedTotal++;
					const times = emitted.get(`${uuid}|${last.status}`) ?? 0;
					// The overview's date is the statement's last update: a statement first seen by a poll
					// without state after a communication reports its status too; on B, changes before the
					// switch may fire once when the kept state was older than A's last poll.
					const may =
						selected &&
						last.status !== 'SUBMITTED' &&
						(service === 'B' || (note !== null && inWindow(note.date, noteSeq.get(uuid)!)));
					expect({ uuid, status: last.status, at: last.at, times }).toEqual({
						uuid,
						status: last.status,
						at: last.at,
						times: wanted ? 1 : may ? Math.min(times, 1) : 0,
					});
					if (note !== null) {
						const key = `${uuid}|note|${note.content}`;
						const noteTimes = emitted.get(key) ?? 0;
						const noteWanted = inWindow(note.date, noteSeq.get(uuid)!);
						expect({ key, times: noteTimes }).toEqual({
							key,
							times: noteWanted ? 1 : service === 'B' ? Math.min(noteTimes, 1) : 0,
						});
					}
				}
			} finally {
				clock.restore();
			}
		}),
		{ numRuns: 10 },
	);
	expect(seen.keeping.size).toBeGreaterThan(1);
	expect(seen.switched).toBeGreaterThan(0);
	expect(wantedTotal).toBeGreaterThan(0);
}, 900_000);

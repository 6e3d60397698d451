/**
 * Acceptance: the EU Information System Trigger's poll through n8n's real PollContext against
 * the fake EU, with statements filed and changed at random times, searches failing at random,
 * restarts, and the static data kept as each of n8n's schedulers keeps it (test/helpers/poll.ts,
 * StateKeeping: `default`, `durable`, and the harsher `emitted`). Random schedules (fast-check).
 *
 * Every statement's last status (unless SUBMITTED) that the EU dated at or after the baseline
 * (the first successful poll of an activation without stored state, less the grace period of
 * Poll Times every 20 minutes) and that the status filter selects is emitted exactly once, by a
 * poll after it happened; no status of a statement is emitted twice; nothing is emitted that the
 * statement never had; a statement whose every change came before the baseline never fires.
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

let eu: FakeEu;
let clock: EuClock;
beforeAll(async () => {
	eu = await startFakeEu({ availableAfterMs: MIN });
});
afterAll(async () => {
	await eu.stop();
});

test('every change once, none early, none twice, under random schedules and both schedulers', async () => {
	const seen = new Set<StateKeeping>();
	let run = 0;
	let wantedTotal = 0;
	await fc.assert(
		fc.asyncProperty(scenarioArb, async (scenario) => {
			clock = followEuClock(eu);
			try {
				run++;
				seen.add(scenario.keeping);
				const prefix = `R${run}-`;
				const store = euStore(eu.url, eu.users[0]);
				const parameters = {
					internalReferencePrefix: prefix,
					pollTimes: POLL_TIMES,
					...(scenario.statuses ? { statuses: scenario.statuses } : {}),
				};
				const poller = euPoller(store, scenario.keeping, parameters);
				const history = new Map<string, Array<{ status: string; at: number }>>();
				const mine: string[] = [];
				const fileSome = async (specs: Array<{ reject: boolean }>) => {
					for (const spec of specs) {
						const uuid = await file(
							eu,
							`${prefix}${mine.length}`,
							spec.reject ? REJECT_MARKER : undefined,
						);
						mine.push(uuid);
					}
				};
				const statusOf = (uuid: string) => eu.statements().find((s) => s.uuid === uuid)!;
				const change = (indexes: number[]) => {
					for (const i of indexes) {
						if (mine.length === 0) return;
						const uuid = mine[i % mine.length];
						const next = NEXT[statusOf(uuid).status];
						if (!next) continue;
						eu.events.setStatus(uuid, next[i % next.length]);
					}
				};
				let notes = 0;
				const communicate = (indexes: number[]) => {
					for (const i of indexes)
						if (mine.length > 0) eu.events.communicate(mine[i % mine.length], `note ${++notes}`);
				};
				let baseline: number | undefined;
				const emitted = new Map<string, number>(); // uuid|status → times
				const poll = async (fault: Fault) => {
					if (fault === 'restart') poller.restart();
					if (fault === 'search') eu.faults.failNext('getDdsByInternalReference', { status: 400 });
					const fresh = poller.saved === undefined;
					const result = await poller.poll();
					eu.faults.clear();
					if (result.error) {
						expect({ fault, error: result.error.message }).toEqual({
							fault: 'search',
							error: result.error.message,
						});
						return;
					}
					if (result.activation && fresh && baseline === undefined) baseline = Date.now() - GRACE;
					for (const item of result.items ?? []) {
						const uuid = String(item.json.uuid);
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
						const had = [...(history.get(uuid) ?? []), { status: statusOf(uuid).status, at: 0 }];
						expect(had.map((h) => h.status)).toContain(status);
					}
				};
				// what the statements went through (the fake's last status and date, read after each step)
				const record = () => {
					for (const uuid of mine) {
						const s = statusOf(uuid);
						const h = history.get(uuid) ?? [];
						if (h.at(-1)?.status !== s.status) h.push({ status: s.status, at: s.updatedAt });
						history.set(uuid, h);
					}
				};

				await fileSome(scenario.before);
				clock.advance(2 * MIN);
				for (const step of scenario.steps) {
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
					clock.advance(20 * MIN);
					record();
					await poll('none');
				}
				expect(baseline).toBeDefined();
				for (const [key, times] of emitted) expect({ key, times }).toEqual({ key, times: 1 });
				for (const uuid of mine) {
					const last = history.get(uuid)!.at(-1)!;
					const selected =
						scenario.statuses === undefined ||
						scenario.statuses.includes(OFFERED.includes(last.status) ? last.status : 'other');
					const wanted = last.status !== 'SUBMITTED' && last.at >= baseline! && selected;
					if (wanted) wantedTotal++;
					expect({
						uuid,
						status: last.status,
						at: last.at,
						times: emitted.get(`${uuid}|${last.status}`) ?? 0,
					}).toEqual({
						uuid,
						status: last.status,
						at: last.at,
						times: wanted ? 1 : 0,
					});
					if (last.at < baseline!)
						expect([...emitted.keys()].filter((k) => k.startsWith(uuid))).toEqual([]);
				}
			} finally {
				clock.restore();
			}
		}),
		{ numRuns: 10 },
	);
	expect(seen.size).toBeGreaterThan(1);
	expect(wantedTotal).toBeGreaterThan(0);
}, 600_000);

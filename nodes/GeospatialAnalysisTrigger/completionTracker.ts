/**
 * The exactly-once logic of the trigger, pure (no n8n imports) and unit-tested directly, as
 * plan and advance: `planPoll` says what the poll lists (`listFrom`) and, once the listing came
 * back, `toRecheck` which watched jobs need a single-job request; the node makes the requests
 * and `advance` takes what came back and returns the new state and the jobs that completed.
 * The node stores the new state only once the whole poll succeeded, so a failed request loses
 * nothing and the next poll catches up.
 *
 * Why it is designed so (what n8n keeps between polls; n8n 1.x and 2.x source, packages/core
 * and packages/cli): its default poller makes one context per activation and keeps the node's
 * static data in memory from poll to poll, saving it to the database after the activation poll
 * and whenever a poll emits. With the durable scheduler (N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED) every poll gets a new context built from the database;
 * with N8N_POLLER_DURABLE_CURSORS_ENABLED the node's static data is a per-poll copy of a stored
 * cursor, committed together with the execution when the poll emits, alone when a scheduled
 * poll emits nothing, and never for the activation poll that emitted nothing. A poll that
 * throws keeps nothing. Manual mode ("test step") keeps no state at all: the node answers it
 * without the tracker. So the state read by a poll may be older than the last poll, or absent
 * although polls ran: the tracker is correct from any earlier state (exactly once under both
 * schedulers), and a poll without state emits what finished within the grace period before it.
 *
 * Jobs finish long after they are created and out of creation order, so a creation
 * watermark alone would miss them. The state kept in the workflow's static data is:
 *
 * - `from`: the lower bound (inclusive, ms) of the next `GET /jobs?created_at_from=` listing.
 *   It trails the newest creation time seen by an overlap window (so a job that becomes
 *   visible a little late is still listed) and never decreases.
 * - `pending`: jobs seen unfinished (id → created ms). Each poll re-checks them: from the
 *   listing when they were created at or after `from`, otherwise one `GET /jobs/job/{id}`
 *   each. Bounded by a maximum age and a maximum count; what is dropped is reported.
 * - `seen`: finished jobs created at or after `from` that were already handled (emitted or
 *   filtered out), so that the overlap window never emits them twice. Entries older than
 *   `from` are pruned (the plan never takes such a job up again, even when the listing's
 *   second returns it); the count is capped by raising `from`.
 * - `polledAt`: the latest time the poll witnessed (local clock, creation and completion
 *   times it read): every job it handled had finished by then.
 * - `service` / `account`: where the ids come from (the credential's base URL, and who).
 *
 * Time: windows and ages are measured on the local clock (n8n's, the machine's: `now`). A time
 * the service writes counts as "now" only up to `maxSkewMs` (5 minutes) ahead of it, for a
 * service clock that runs a little ahead; a later one (a `created_at` in 2099) is not believed:
 * it moves the listing window no further than a job created at the local "now" would (never
 * into the future), never makes another job old, and a completion time that far ahead counts
 * as unknown. Such a job is still watched and fires once when it finishes.
 *
 * Ids: every id is a key, whatever its text (`constructor`, `toString`, `__proto__`): the
 * work is done on Maps, and the state's shape in static data is trackerState.ts's.
 *
 * Size: `pending` and `seen` are capped in count and in bytes (an id may be long): what goes
 * beyond is dropped oldest first and reported (`dropped`, `forgotten`), never silently.
 *
 * The listing's bound is sent to the second (the service's timestamp style, nodes/shared/time):
 * jobs it returns that were created before `listFrom` are outside the plan and not taken up
 * (unless watched), as if the bound had been exact.
 *
 * Any state an earlier poll returned is a valid start: a poll that starts from an older state
 * than the last one (n8n did not keep the state of the polls in between) lists and re-checks
 * what that state says and emits what completed since, none twice, because what the polls in
 * between emitted was stored with their state (n8n keeps the state of a poll that emitted).
 * Only a poll without any state cannot know what happened before it: it emits the jobs that
 * finished within a grace period before it (`graceMs`, at least two poll intervals, or the
 * look-back period when longer), so that a job finishing after activation is not lost when
 * n8n dropped the state of the activation poll (or of later polls that emitted nothing).
 *
 * When the credential now points to another service (base URL), the state is of no use there:
 * the poll starts afresh on it, emitting what finished there since the last poll (`polledAt`).
 * When only the account changed (same service: job ids are unique there), the state is kept
 * for deduplication and the whole watch period is listed once, to find the jobs of the account
 * now in use; those that finished since the last poll are emitted.
 */

import type { TrackerState } from './trackerState';
import {
	MAX_PENDING_BYTES,
	MAX_SEEN_BYTES,
	MAX_SKEW_MS,
	TRACKER_STATE_VERSION,
	entryBytes,
	record,
	toMap,
} from './trackerState';

import type { PollStart, TrackerIdentity } from '../shared/polling/pollStart';
import { pollStart } from '../shared/polling/pollStart';

export type { PollStart, TrackerIdentity } from '../shared/polling/pollStart';
export { pollStart } from '../shared/polling/pollStart';
export type { RestoredState, TrackerState } from './trackerState';
export {
	MAX_PENDING_BYTES,
	MAX_SEEN_BYTES,
	MAX_SKEW_MS,
	TRACKER_STATE_VERSION,
	believableState,
	entryBytes,
	idOfStoredKey,
	readState,
	restoreState,
	storedKey,
	storedState,
} from './trackerState';

/** What one listing or single-job request says about a job. */
export interface JobObservation {
	id: string;
	createdMs: number;
	/** `updated_at` in ms (changes when the analysis completes), or null when unknown. */
	updatedMs: number | null;
	status: string;
}

export interface TrackerSettings {
	/** How far below the newest creation time the listing starts. */
	overlapMs: number;
	/** Unfinished jobs created longer ago than this (before the newest known time) stop being watched. */
	maxAgeMs: number;
	/** Most unfinished jobs watched at once; the oldest are dropped beyond it. */
	maxPending: number;
	/** Most handled ids remembered for the overlap window; the window shrinks beyond it. */
	maxSeen: number;
	/** On the first poll, jobs that finished within this period before it are emitted (0: none). */
	lookBackMs: number;
	/**
	 * The same for every poll without state, however long the look-back: what finished within
	 * it fires (0: nothing). The trigger sets two poll intervals plus a margin (pollSchedule.ts).
	 */
	graceMs: number;
	/** How far ahead of the local clock a service time is still believed (default 5 minutes). */
	maxSkewMs?: number;
	/** Most bytes the watched ids take in static data (default 64 KiB); the oldest are dropped beyond it. */
	maxPendingBytes?: number;
	/** Most bytes the remembered ids take in static data (default 128 KiB); the window shrinks beyond it. */
	maxSeenBytes?: number;
	isFinal(status: string): boolean;
}

export const DEFAULT_SETTINGS: Omit<TrackerSettings, 'isFinal'> = {
	overlapMs: 10 * 60_000,
	maxAgeMs: 7 * 24 * 3_600_000,
	maxPending: 500,
	maxSeen: 2_000,
	lookBackMs: 0,
	graceMs: 0,
	maxSkewMs: MAX_SKEW_MS,
	maxPendingBytes: MAX_PENDING_BYTES,
	maxSeenBytes: MAX_SEEN_BYTES,
};

/** `cap`: beyond the count of watched jobs; `bytes`: beyond their size in static data. */
export type DropReason = 'age' | 'cap' | 'bytes' | 'gone';

export interface Dropped {
	id: string;
	reason: DropReason;
}

export interface AdvanceResult {
	state: TrackerState;
	/** Jobs that reached a final status in this poll, oldest completion first. */
	completed: JobObservation[];
	/** Unfinished jobs no longer watched, and why. */
	dropped: Dropped[];
	/** Set when the overlap window had to shrink because too many ids fell into it. */
	overlapShrunkTo?: number;
	/**
	 * Handled jobs dated more than the skew ahead that had to be forgotten (the remembered ids
	 * exceeded their cap while the window cannot move into the future): the listing still
	 * returns them, so they may fire again. Empty unless the service dates thousands of jobs
	 * in the future.
	 */
	forgotten: string[];
}

/** What a poll does, decided before any request from the state it starts from. */
export interface PollPlan {
	/** How the poll starts (`pollStart`). */
	start: PollStart;
	/** The stored state (believable), or undefined without one. */
	state: TrackerState | undefined;
	/**
	 * The local clock (ms). A later creation or completion time read in this poll counts as
	 * "now" instead (the service's clock is the one its times are in).
	 */
	now: number;
	settings: TrackerSettings;
	/** Where the jobs come from now; undefined keeps the state's. */
	identity?: TrackerIdentity;
	/** Where the listing by creation time starts (ms, inclusive). */
	listFrom: number;
}

/** What the requests of a poll brought back. */
export interface PollAnswers {
	/** Jobs listed with created_at_from = plan.listFrom (to the second). */
	listed: JobObservation[];
	/** Answers to the ids from toRecheck(): the job, or null when it no longer exists. */
	rechecked: Map<string, JobObservation | null>;
}

/** The plan of a poll at `now` from `state` (undefined: none) with the credential's identity. */
export function planPoll(
	state: TrackerState | undefined,
	now: number,
	settings: TrackerSettings,
	identity?: TrackerIdentity,
): PollPlan {
	const start = pollStart(state, identity);
	const watchPeriod = now - Math.max(settings.maxAgeMs, settings.lookBackMs, settings.graceMs);
	const listFrom =
		start === 'first' || start === 'newService'
			? watchPeriod
			: start === 'newAccount'
				? Math.min(state!.from, now - settings.maxAgeMs)
				: state!.from;
	return { start, state, now, settings, ...(identity ? { identity } : {}), listFrom };
}

function isFresh(plan: PollPlan): boolean {
	return plan.start === 'first' || plan.start === 'newService';
}

/** The watched jobs of the state the plan continues (none when it starts afresh). */
function watched(plan: PollPlan): Record<string, number> {
	return isFresh(plan) ? {} : plan.state!.pending;
}

/** The listed jobs the plan takes up: created at or after listFrom, or watched. */
function inPlan(plan: PollPlan, listed: JobObservation[]): Map<string, JobObservation> {
	const pending = watched(plan);
	const byId = new Map<string, JobObservation>();
	for (const job of listed)
		if (!byId.has(job.id) && (job.createdMs >= plan.listFrom || Object.hasOwn(pending, job.id)))
			byId.set(job.id, job);
	return byId;
}

/** Watched jobs the listing did not cover: each needs a single-job request. */
export function toRecheck(plan: PollPlan, listed: JobObservation[]): string[] {
	const covered = inPlan(plan, listed);
	return Object.keys(watched(plan)).filter((id) => !covered.has(id));
}

/**
 * The entries kept under a count and a byte cap, newest first (`[id, ms]` sorted newest first
 * on input): the first that does not fit and every one after it are left out.
 */
function keepNewest(
	newestFirst: Array<[string, number]>,
	maxCount: number,
	maxBytes: number,
): { kept: number; overBytes: boolean } {
	let bytes = 0;
	for (let i = 0; i < newestFirst.length; i++) {
		if (i >= maxCount) return { kept: i, overBytes: false };
		bytes += entryBytes(newestFirst[i][0], newestFirst[i][1]);
		if (bytes > maxBytes) return { kept: i, overBytes: true };
	}
	return { kept: newestFirst.length, overBytes: false };
}

function byCompletion(a: JobObservation, b: JobObservation): number {
	const ua = a.updatedMs ?? a.createdMs;
	const ub = b.updatedMs ?? b.createdMs;
	return ua - ub || a.createdMs - b.createdMs || compareIds(a.id, b.id);
}

function compareIds(a: string, b: string): number {
	if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Which jobs listed for the first time, already finished, fire: every one when the poll
 * continues a state; else those that finished after the baseline (a time), none when it is
 * null. A job whose completion time is unknown fires only when the poll continues a state.
 */
function firesWhenFirstSeen(
	plan: PollPlan,
	job: JobObservation,
	refNow: number,
	believable: (t: number) => boolean,
): boolean {
	const { start, settings } = plan;
	if (start === 'continue') return true;
	// A completion time far in the future says nothing about when the job finished.
	if (job.updatedMs === null || !believable(job.updatedMs)) return false;
	if (start === 'first') {
		const window = Math.max(settings.lookBackMs, settings.graceMs);
		return window > 0 && job.updatedMs >= refNow - window;
	}
	// Another service or account: what finished there since the last poll.
	return job.updatedMs > plan.state!.polledAt;
}

/** Computes the state after a successful poll and the jobs that completed in it. Pure. */
export function advance(plan: PollPlan, answers: PollAnswers): AdvanceResult {
	const { settings } = plan;
	const { rechecked } = answers;
	const fresh = isFresh(plan);
	const prev: TrackerState =
		!fresh && plan.state
			? plan.state
			: {
					v: TRACKER_STATE_VERSION,
					from: plan.listFrom,
					newest: null,
					polledAt: plan.now,
					pending: {},
					seen: {},
				};

	const listedById = inPlan(plan, answers.listed);

	// Service times are believed up to the skew ahead of the local clock, no further.
	const latestBelievable = plan.now + (settings.maxSkewMs ?? MAX_SKEW_MS);
	const believable = (t: number) => t <= latestBelievable;

	// A creation time beyond the skew counts as "now" on the local clock for the window: such a
	// job moves it no further than a job created now would (and a service clock far ahead does
	// not leave the window behind, listing ever more).
	const windowTime = (t: number) => (believable(t) ? t : plan.now);
	let newest = prev.newest !== null ? windowTime(prev.newest) : null;
	for (const job of listedById.values()) {
		const created = windowTime(job.createdMs);
		if (newest === null || created > newest) newest = created;
	}
	// "Now" on the service's clock: no earlier than any believable time it wrote into what was read.
	let refNow = Math.max(plan.now, newest ?? -Infinity);
	for (const job of [...listedById.values(), ...rechecked.values()])
		if (job && job.updatedMs !== null && believable(job.updatedMs))
			refNow = Math.max(refNow, job.updatedMs);

	const prevPending = toMap(prev.pending);
	const prevSeen = toMap(prev.seen);
	const pending = new Map(prevPending);
	const seen = new Map(prevSeen);
	const completed: JobObservation[] = [];
	const dropped: Dropped[] = [];

	// 1. Jobs already watched: complete, gone, or still running.
	for (const [id, created] of prevPending) {
		const job = listedById.get(id) ?? rechecked.get(id);
		if (job === undefined) continue; // not looked at in this poll: keep watching
		if (job === null) {
			pending.delete(id);
			dropped.push({ id, reason: 'gone' });
			seen.set(id, created);
			continue;
		}
		if (settings.isFinal(job.status)) {
			pending.delete(id);
			seen.set(id, created);
			completed.push(job);
		}
	}

	// 2. Jobs listed for the first time.
	for (const job of listedById.values()) {
		if (prevPending.has(job.id) || prevSeen.has(job.id)) continue;
		if (settings.isFinal(job.status)) {
			seen.set(job.id, job.createdMs);
			if (firesWhenFirstSeen(plan, job, refNow, believable)) completed.push(job);
		} else {
			pending.set(job.id, job.createdMs);
		}
	}

	// 3. Unfinished jobs are watched for a bounded time, in a bounded number and size. A dropped
	// job counts as handled: while the listing still returns it, it must not be taken up again.
	// Its age is counted on the local clock: a creation time in the future never ages anyone out.
	for (const [id, created] of pending) {
		if (created < refNow - settings.maxAgeMs) {
			pending.delete(id);
			seen.set(id, created);
			dropped.push({ id, reason: 'age' });
		}
	}
	const pendingNewestFirst = [...pending].sort((a, b) => b[1] - a[1] || compareIds(b[0], a[0]));
	const keptPending = keepNewest(
		pendingNewestFirst,
		settings.maxPending,
		settings.maxPendingBytes ?? MAX_PENDING_BYTES,
	);
	for (let i = pendingNewestFirst.length - 1; i >= keptPending.kept; i--) {
		const [id, created] = pendingNewestFirst[i];
		pending.delete(id);
		seen.set(id, created);
		dropped.push({ id, reason: keptPending.overBytes ? 'bytes' : 'cap' });
	}

	// 4. The listing window trails the newest (believable) creation time by the overlap.
	let from = prev.from;
	if (newest !== null) from = Math.max(from, newest - settings.overlapMs);

	// 5. Remembered ids the listing will not return again are forgotten; too many (or too many
	// bytes of them) shrink the window. The window never moves to a time dated beyond the skew:
	// such ids that do not fit are forgotten and reported.
	let overlapShrunkTo: number | undefined;
	const forgotten: string[] = [];
	const seenNewestFirst = [...seen].sort((a, b) => b[1] - a[1] || compareIds(b[0], a[0]));
	const keptSeen = keepNewest(
		seenNewestFirst,
		settings.maxSeen,
		settings.maxSeenBytes ?? MAX_SEEN_BYTES,
	);
	const newestForgotten = seenNewestFirst
		.slice(keptSeen.kept)
		.find(([, created]) => believable(created));
	if (newestForgotten && newestForgotten[1] + 1 > from) {
		from = newestForgotten[1] + 1;
		overlapShrunkTo = newest === null ? 0 : Math.max(0, newest - from);
	}
	for (let i = keptSeen.kept; i < seenNewestFirst.length; i++) {
		const [id, created] = seenNewestFirst[i];
		if (created >= from) {
			seen.delete(id);
			forgotten.push(id);
		}
	}
	for (const [id, created] of seen) if (created < from) seen.delete(id);

	completed.sort(byCompletion);
	const service = plan.identity?.service ?? prev.service;
	const account = plan.identity?.account ?? prev.account;
	return {
		state: {
			v: TRACKER_STATE_VERSION,
			from,
			newest,
			polledAt: Math.max(refNow, fresh ? -Infinity : prev.polledAt),
			...(service !== undefined ? { service } : {}),
			...(account !== undefined ? { account } : {}),
			pending: record(pending),
			seen: record(seen),
		},
		completed,
		dropped,
		forgotten,
		...(overlapShrunkTo !== undefined ? { overlapShrunkTo } : {}),
	};
}

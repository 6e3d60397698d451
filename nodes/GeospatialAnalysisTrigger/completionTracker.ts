/**
 * The exactly-once logic of the trigger, pure (no n8n imports) and unit-tested directly.
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
 *   `from` are pruned (they are never listed again); the count is capped by raising `from`.
 * - `polledAt`: the latest time the poll witnessed (local clock, creation and completion
 *   times it read): every job it handled had finished by then.
 * - `service` / `account`: where the ids come from (the credential's base URL, and who).
 *
 * A poll reads the state, lists and re-checks, and calls `advance`, which returns the new
 * state and the jobs that completed. The caller stores the new state only once the whole
 * poll succeeded, so a failed request loses nothing and the next poll catches up.
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

import { parseServiceTimestamp } from '../shared/helpers/serviceTime';

export const TRACKER_STATE_VERSION = 2;

export interface TrackerState {
	v: typeof TRACKER_STATE_VERSION;
	/** Lower bound (ms, inclusive) of the next listing by creation time. Never decreases. */
	from: number;
	/** Newest `created_at` seen (ms), or null before any job was seen. */
	newest: number | null;
	/** The latest time the poll witnessed (ms): every job it handled had finished by then. */
	polledAt: number;
	/** The service the ids belong to (normalised base URL); absent in state of version 1. */
	service?: string;
	/** The account in use on it (user name, or a fingerprint of the API key); absent in version 1. */
	account?: string;
	/** Jobs seen unfinished: job id → created ms. */
	pending: Record<string, number>;
	/** Finished jobs created at or after `from` that were already handled: job id → created ms. */
	seen: Record<string, number>;
}

/** Where the jobs come from: the service (base URL) and the account on it. */
export interface TrackerIdentity {
	service: string;
	account: string;
}

/**
 * How a poll starts: `first` without state; `newService` when the credential points to another
 * base URL than the state's; `newAccount` on the same service with another account; else
 * `continue`.
 */
export type PollStart = 'first' | 'newService' | 'newAccount' | 'continue';

export function pollStart(
	state: TrackerState | undefined,
	identity: TrackerIdentity | undefined,
): PollStart {
	if (!state) return 'first';
	if (!identity) return 'continue';
	if (state.service !== undefined && state.service !== identity.service) return 'newService';
	if (state.account !== undefined && state.account !== identity.account) return 'newAccount';
	return 'continue';
}

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
	 * it fires (0: nothing). The trigger sets two poll intervals plus a margin (schedule.ts).
	 */
	graceMs: number;
	isFinal(status: string): boolean;
}

export const DEFAULT_SETTINGS: Omit<TrackerSettings, 'isFinal'> = {
	overlapMs: 10 * 60_000,
	maxAgeMs: 7 * 24 * 3_600_000,
	maxPending: 500,
	maxSeen: 2_000,
	lookBackMs: 0,
	graceMs: 0,
};

export type DropReason = 'age' | 'cap' | 'gone';

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
}

export interface AdvanceInput {
	/** The stored state, or undefined on the first poll (activation). */
	state: TrackerState | undefined;
	/**
	 * The local clock (ms). A later creation or completion time read in this poll counts as
	 * "now" instead (the service's clock is the one its times are in).
	 */
	now: number;
	/** Jobs listed with created_at_from = listFrom(state, now, settings, identity). */
	listed: JobObservation[];
	/** Answers to the ids from toRecheck(): the job, or null when it no longer exists. */
	rechecked: Map<string, JobObservation | null>;
	settings: TrackerSettings;
	/** Where the jobs come from now; undefined keeps the state's. */
	identity?: TrackerIdentity;
}

/** Where the listing of this poll starts (ms, inclusive). */
export function listFrom(
	state: TrackerState | undefined,
	now: number,
	settings: TrackerSettings,
	identity?: TrackerIdentity,
): number {
	const watchPeriod = now - Math.max(settings.maxAgeMs, settings.lookBackMs, settings.graceMs);
	switch (pollStart(state, identity)) {
		case 'first':
		case 'newService':
			return watchPeriod;
		case 'newAccount':
			return Math.min(state!.from, now - settings.maxAgeMs);
		default:
			return state!.from;
	}
}

/** Pending jobs the listing did not cover: each needs a single-job request. */
export function toRecheck(
	state: TrackerState | undefined,
	listed: JobObservation[],
	identity?: TrackerIdentity,
): string[] {
	const start = pollStart(state, identity);
	if (start === 'first' || start === 'newService') return [];
	const listedIds = new Set(listed.map((j) => j.id));
	return Object.keys(state!.pending).filter((id) => !listedIds.has(id));
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
	start: PollStart,
	job: JobObservation,
	state: TrackerState | undefined,
	refNow: number,
	settings: TrackerSettings,
): boolean {
	if (start === 'continue') return true;
	if (job.updatedMs === null) return false;
	if (start === 'first') {
		const window = Math.max(settings.lookBackMs, settings.graceMs);
		return window > 0 && job.updatedMs >= refNow - window;
	}
	// Another service or account: what finished there since the last poll.
	return job.updatedMs > state!.polledAt;
}

/** Computes the state after a successful poll and the jobs that completed in it. Pure. */
export function advance(input: AdvanceInput): AdvanceResult {
	const { settings, rechecked } = input;
	const start = pollStart(input.state, input.identity);
	const fresh = start === 'first' || start === 'newService';
	const prev: TrackerState =
		!fresh && input.state
			? input.state
			: {
					v: TRACKER_STATE_VERSION,
					from: listFrom(undefined, input.now, settings),
					newest: null,
					polledAt: input.now,
					pending: {},
					seen: {},
				};

	const listedById = new Map<string, JobObservation>();
	for (const job of input.listed) if (!listedById.has(job.id)) listedById.set(job.id, job);

	let newest = prev.newest;
	for (const job of listedById.values())
		if (newest === null || job.createdMs > newest) newest = job.createdMs;
	// "Now" on the service's clock: no earlier than any time it wrote into what was read.
	let refNow = Math.max(input.now, newest ?? -Infinity);
	for (const job of [...listedById.values(), ...rechecked.values()])
		if (job && job.updatedMs !== null) refNow = Math.max(refNow, job.updatedMs);

	const pending: Record<string, number> = { ...prev.pending };
	const seen: Record<string, number> = { ...prev.seen };
	const completed: JobObservation[] = [];
	const dropped: Dropped[] = [];

	// 1. Jobs already watched: complete, gone, or still running.
	for (const id of Object.keys(prev.pending)) {
		const job = listedById.get(id) ?? rechecked.get(id);
		if (job === undefined) continue; // not looked at in this poll: keep watching
		if (job === null) {
			delete pending[id];
			dropped.push({ id, reason: 'gone' });
			seen[id] = prev.pending[id];
			continue;
		}
		if (settings.isFinal(job.status)) {
			delete pending[id];
			seen[id] = prev.pending[id];
			completed.push(job);
		}
	}

	// 2. Jobs listed for the first time.
	for (const job of listedById.values()) {
		if (job.id in prev.pending || job.id in prev.seen) continue;
		if (settings.isFinal(job.status)) {
			seen[job.id] = job.createdMs;
			if (firesWhenFirstSeen(start, job, input.state, refNow, settings)) completed.push(job);
		} else {
			pending[job.id] = job.createdMs;
		}
	}

	// 3. Unfinished jobs are watched for a bounded time and in a bounded number. A dropped job
	// counts as handled: while the listing still returns it, it must not be taken up again.
	for (const [id, created] of Object.entries(pending)) {
		if (created < refNow - settings.maxAgeMs) {
			delete pending[id];
			seen[id] = created;
			dropped.push({ id, reason: 'age' });
		}
	}
	const pendingEntries = Object.entries(pending).sort(
		(a, b) => a[1] - b[1] || compareIds(a[0], b[0]),
	);
	for (let i = 0; i < pendingEntries.length - settings.maxPending; i++) {
		delete pending[pendingEntries[i][0]];
		seen[pendingEntries[i][0]] = pendingEntries[i][1];
		dropped.push({ id: pendingEntries[i][0], reason: 'cap' });
	}

	// 4. The listing window trails the newest creation time by the overlap.
	let from = prev.from;
	if (newest !== null) from = Math.max(from, newest - settings.overlapMs);

	// 5. Remembered ids the listing will not return again are forgotten; too many shrink the window.
	let overlapShrunkTo: number | undefined;
	const seenEntries = Object.entries(seen).sort((a, b) => b[1] - a[1]);
	if (seenEntries.length > settings.maxSeen) {
		const newestForgotten = seenEntries[settings.maxSeen][1];
		if (newestForgotten + 1 > from) {
			from = newestForgotten + 1;
			overlapShrunkTo = newest === null ? 0 : Math.max(0, newest - from);
		}
	}
	for (const [id, created] of seenEntries) if (created < from) delete seen[id];

	completed.sort(byCompletion);
	const service = input.identity?.service ?? prev.service;
	const account = input.identity?.account ?? prev.account;
	return {
		state: {
			v: TRACKER_STATE_VERSION,
			from,
			newest,
			polledAt: Math.max(refNow, fresh ? -Infinity : prev.polledAt),
			...(service !== undefined ? { service } : {}),
			...(account !== undefined ? { account } : {}),
			pending,
			seen,
		},
		completed,
		dropped,
		...(overlapShrunkTo !== undefined ? { overlapShrunkTo } : {}),
	};
}

/**
 * The stored state when it has the expected shape, otherwise undefined (start afresh). State
 * of version 1 (before `polledAt` and the identity) reads as version 2: `polledAt` is its newest
 * creation time (or `from`), and the identity is taken from the first poll that uses it.
 */
export function readState(value: unknown): TrackerState | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const s = value as Partial<Omit<TrackerState, 'v'>> & { v?: unknown };
	const isTime = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t);
	const isMap = (m: unknown): m is Record<string, number> =>
		!!m &&
		typeof m === 'object' &&
		!Array.isArray(m) &&
		Object.values(m as object).every((v) => typeof v === 'number' && Number.isFinite(v));
	if (
		(s.v !== 1 && s.v !== TRACKER_STATE_VERSION) ||
		!isTime(s.from) ||
		!(s.newest === null || isTime(s.newest)) ||
		!isMap(s.pending) ||
		!isMap(s.seen)
	)
		return undefined;
	if (s.v === TRACKER_STATE_VERSION) {
		if (!isTime(s.polledAt)) return undefined;
		for (const key of ['service', 'account'] as const)
			if (s[key] !== undefined && typeof s[key] !== 'string') return undefined;
	}
	return {
		v: TRACKER_STATE_VERSION,
		from: s.from,
		newest: s.newest,
		polledAt: s.v === TRACKER_STATE_VERSION ? s.polledAt! : (s.newest ?? s.from),
		...(s.v === TRACKER_STATE_VERSION && s.service !== undefined ? { service: s.service } : {}),
		...(s.v === TRACKER_STATE_VERSION && s.account !== undefined ? { account: s.account } : {}),
		pending: { ...s.pending },
		seen: { ...s.seen },
	};
}

/**
 * A service timestamp in ms, or null (`parseServiceTimestamp`: no zone means UTC, fractions
 * beyond milliseconds are cut, never rounded up, so a lower bound built from it stays inclusive).
 */
export function parseServiceTime(value: unknown): number | null {
	return parseServiceTimestamp(value) ?? null;
}

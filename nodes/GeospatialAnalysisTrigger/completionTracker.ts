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
 * Time: windows and ages are measured on the local clock (n8n's, the machine's: `now`). A time
 * the service writes counts as "now" only up to `maxSkewMs` (5 minutes) ahead of it, for a
 * service clock that runs a little ahead; a later one (a `created_at` in 2099) is not believed:
 * it moves the listing window no further than a job created at the local "now" would (never
 * into the future), never makes another job old, and a completion time that far ahead counts
 * as unknown. Such a job is still watched and fires once when it finishes.
 *
 * Ids: every id is a key, whatever its text (`constructor`, `toString`, `__proto__`): the
 * work is done on Maps, the maps returned are objects without a prototype, and in static data
 * (`storedState`) `__proto__` is kept as `~__proto__` (`~x` as `~~x`), so that no copy of it
 * made by assignment can lose the key; `readState` reads both forms.
 *
 * Size: `pending` and `seen` are capped in count and in bytes (an id may be long): what goes
 * beyond is dropped oldest first and reported (`dropped`, `forgotten`), never silently.
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
	/**
	 * The account in use on it: a keyed hash (identity.ts) from which neither the secret nor the
	 * user name can be read back; `key:`/`user:` values of earlier versions are migrated.
	 * Absent in version 1.
	 */
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
	/**
	 * What earlier versions stored as `account` for the same credential (`key:` + fingerprint,
	 * `user:` + name), computed in memory and never stored: a state written by them continues
	 * (and takes `account`) when it matches, rather than looking like another account.
	 */
	legacyAccount?: string;
}

/** Whether a stored account value was written by an earlier version (see TrackerIdentity). */
export function isLegacyAccount(account: string | undefined): boolean {
	return account !== undefined && /^(key|user):/.test(account);
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
	if (state.account !== undefined && state.account !== identity.account) {
		const migrated =
			isLegacyAccount(state.account) &&
			identity.legacyAccount !== undefined &&
			state.account === identity.legacyAccount;
		if (!migrated) return 'newAccount';
	}
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
	/** How far ahead of the local clock a service time is still believed (default 5 minutes). */
	maxSkewMs?: number;
	/** Most bytes the watched ids take in static data (default 64 KiB); the oldest are dropped beyond it. */
	maxPendingBytes?: number;
	/** Most bytes the remembered ids take in static data (default 128 KiB); the window shrinks beyond it. */
	maxSeenBytes?: number;
	isFinal(status: string): boolean;
}

/** Service times more than this ahead of the local clock are not believed. */
export const MAX_SKEW_MS = 5 * 60_000;
export const MAX_PENDING_BYTES = 64 * 1024;
export const MAX_SEEN_BYTES = 128 * 1024;

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

/** An object without a prototype: any id, `__proto__` included, is an own key of it. */
function record(entries: Iterable<[string, number]>): Record<string, number> {
	const out = Object.create(null) as Record<string, number>;
	for (const [id, ms] of entries) out[id] = ms;
	return out;
}

/** A stored id → ms map as a Map (own keys only: `__proto__` as a JSON key is one). */
function toMap(m: Record<string, number>): Map<string, number> {
	return new Map(Object.entries(m));
}

/**
 * The key an id is stored under in static data: the id itself, except `__proto__` and ids that
 * start with `~`, which get a `~` in front. So no stored key is `__proto__`, and a copy of the
 * static data made by plain assignment (n8n's deepCopy, Object.assign) cannot lose one.
 */
export function storedKey(id: string): string {
	return id === '__proto__' || id.startsWith('~') ? `~${id}` : id;
}

/** The id a stored key stands for (storedKey undone; a key written without it reads as is). */
export function idOfStoredKey(key: string): string {
	return key.startsWith('~') ? key.slice(1) : key;
}

/** The state as it goes into static data: every id under its storedKey. */
export function storedState(state: TrackerState): TrackerState {
	const encode = (m: Record<string, number>) =>
		record(Object.entries(m).map(([id, ms]): [string, number] => [storedKey(id), ms]));
	return { ...state, pending: encode(state.pending), seen: encode(state.seen) };
}

/** UTF-8 length of a text. */
function utf8Bytes(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
			n += 4;
			i++;
		} else n += 3;
	}
	return n;
}

/** What one `"id":ms,` entry takes in the stored JSON. */
export function entryBytes(id: string, ms: number): number {
	return utf8Bytes(JSON.stringify(storedKey(id))) + String(ms).length + 2;
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
	start: PollStart,
	job: JobObservation,
	state: TrackerState | undefined,
	refNow: number,
	settings: TrackerSettings,
	believable: (t: number) => boolean,
): boolean {
	if (start === 'continue') return true;
	// A completion time far in the future says nothing about when the job finished.
	if (job.updatedMs === null || !believable(job.updatedMs)) return false;
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

	// Service times are believed up to the skew ahead of the local clock, no further.
	const latestBelievable = input.now + (settings.maxSkewMs ?? MAX_SKEW_MS);
	const believable = (t: number) => t <= latestBelievable;

	// A creation time beyond the skew counts as "now" on the local clock for the window: such a
	// job moves it no further than a job created now would (and a service clock far ahead does
	// not leave the window behind, listing ever more).
	const windowTime = (t: number) => (believable(t) ? t : input.now);
	let newest = prev.newest !== null ? windowTime(prev.newest) : null;
	for (const job of listedById.values()) {
		const created = windowTime(job.createdMs);
		if (newest === null || created > newest) newest = created;
	}
	// "Now" on the service's clock: no earlier than any believable time it wrote into what was read.
	let refNow = Math.max(input.now, newest ?? -Infinity);
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
			if (firesWhenFirstSeen(start, job, input.state, refNow, settings, believable))
				completed.push(job);
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
			pending: record(pending),
			seen: record(seen),
		},
		completed,
		dropped,
		forgotten,
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
		pending: record(
			Object.entries(s.pending).map(([k, ms]): [string, number] => [idOfStoredKey(k), ms]),
		),
		seen: record(Object.entries(s.seen).map(([k, ms]): [string, number] => [idOfStoredKey(k), ms])),
	};
}

/**
 * A stored state whose window was moved into the future by a service time an earlier version
 * believed (a `created_at` in 2099 made every later listing start in 2098): undefined with the
 * reason, so that the poll starts afresh (as without state: what finished within the grace
 * period fires); otherwise the state, its future newest/poll times set back to believable ones.
 */
export function believableState(
	state: TrackerState | undefined,
	now: number,
	settings: Pick<TrackerSettings, 'maxSkewMs'>,
): { state: TrackerState | undefined; reason?: string } {
	if (!state) return { state };
	const latest = now + (settings.maxSkewMs ?? MAX_SKEW_MS);
	if (state.from > latest)
		return {
			state: undefined,
			reason: `its listing window starts at ${new Date(state.from).toISOString()}, in the future (a job dated in the future moved it there)`,
		};
	if ((state.newest === null || state.newest <= latest) && state.polledAt <= latest)
		return { state };
	return {
		state: {
			...state,
			newest: state.newest !== null && state.newest > latest ? null : state.newest,
			polledAt: Math.min(state.polledAt, latest),
		},
	};
}

/**
 * A service timestamp in ms, or null (`parseServiceTimestamp`: no zone means UTC, fractions
 * beyond milliseconds are cut, never rounded up, so a lower bound built from it stays inclusive).
 */
export function parseServiceTime(value: unknown): number | null {
	return parseServiceTimestamp(value) ?? null;
}

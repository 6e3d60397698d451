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
 *
 * A poll reads the state, lists and re-checks, and calls `advance`, which returns the new
 * state and the jobs that completed. The caller stores the new state only once the whole
 * poll succeeded, so a failed request loses nothing and the next poll catches up.
 */

export const TRACKER_STATE_VERSION = 1;

export interface TrackerState {
	v: typeof TRACKER_STATE_VERSION;
	/** Lower bound (ms, inclusive) of the next listing by creation time. Never decreases. */
	from: number;
	/** Newest `created_at` seen (ms), or null before any job was seen. */
	newest: number | null;
	/** Jobs seen unfinished: job id → created ms. */
	pending: Record<string, number>;
	/** Finished jobs created at or after `from` that were already handled: job id → created ms. */
	seen: Record<string, number>;
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
	isFinal(status: string): boolean;
}

export const DEFAULT_SETTINGS: Omit<TrackerSettings, 'isFinal'> = {
	overlapMs: 10 * 60_000,
	maxAgeMs: 7 * 24 * 3_600_000,
	maxPending: 500,
	maxSeen: 2_000,
	lookBackMs: 0,
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
	/** The local clock (ms). The newest creation time seen counts as "now" when it is later. */
	now: number;
	/** Jobs listed with created_at_from = listFrom(state, now, settings). */
	listed: JobObservation[];
	/** Answers to the ids from toRecheck(): the job, or null when it no longer exists. */
	rechecked: Map<string, JobObservation | null>;
	settings: TrackerSettings;
}

/** Where the listing of this poll starts (ms, inclusive). */
export function listFrom(
	state: TrackerState | undefined,
	now: number,
	settings: TrackerSettings,
): number {
	if (state) return state.from;
	return now - Math.max(settings.maxAgeMs, settings.lookBackMs);
}

/** Pending jobs the listing did not cover: each needs a single-job request. */
export function toRecheck(state: TrackerState | undefined, listed: JobObservation[]): string[] {
	if (!state) return [];
	const listedIds = new Set(listed.map((j) => j.id));
	return Object.keys(state.pending).filter((id) => !listedIds.has(id));
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

/** Computes the state after a successful poll and the jobs that completed in it. Pure. */
export function advance(input: AdvanceInput): AdvanceResult {
	const { settings, rechecked } = input;
	const first = input.state === undefined;
	const prev: TrackerState = input.state ?? {
		v: TRACKER_STATE_VERSION,
		from: listFrom(undefined, input.now, settings),
		newest: null,
		pending: {},
		seen: {},
	};

	const listedById = new Map<string, JobObservation>();
	for (const job of input.listed) if (!listedById.has(job.id)) listedById.set(job.id, job);

	let newest = prev.newest;
	for (const job of listedById.values())
		if (newest === null || job.createdMs > newest) newest = job.createdMs;
	const refNow = Math.max(input.now, newest ?? -Infinity);

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
			const before = first; // finished before the trigger was activated
			const inLookBack =
				settings.lookBackMs > 0 &&
				job.updatedMs !== null &&
				job.updatedMs >= refNow - settings.lookBackMs;
			if (!before || inLookBack) completed.push(job);
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
	return {
		state: { v: TRACKER_STATE_VERSION, from, newest, pending, seen },
		completed,
		dropped,
		...(overlapShrunkTo !== undefined ? { overlapShrunkTo } : {}),
	};
}

/** The stored state when it has the expected shape, otherwise undefined (start afresh). */
export function readState(value: unknown): TrackerState | undefined {
	if (!value || typeof value !== 'object') return undefined;
	const s = value as Partial<TrackerState>;
	const isMap = (m: unknown): m is Record<string, number> =>
		!!m &&
		typeof m === 'object' &&
		!Array.isArray(m) &&
		Object.values(m as object).every((v) => typeof v === 'number' && Number.isFinite(v));
	if (
		s.v !== TRACKER_STATE_VERSION ||
		typeof s.from !== 'number' ||
		!Number.isFinite(s.from) ||
		!(s.newest === null || (typeof s.newest === 'number' && Number.isFinite(s.newest))) ||
		!isMap(s.pending) ||
		!isMap(s.seen)
	)
		return undefined;
	return {
		v: TRACKER_STATE_VERSION,
		from: s.from,
		newest: s.newest,
		pending: { ...s.pending },
		seen: { ...s.seen },
	};
}

/**
 * A service timestamp in ms. `created_at` / `updated_at` are ISO-8601 without a zone,
 * meaning UTC; fractions beyond milliseconds are cut (never rounded up, so a lower bound
 * built from it stays inclusive).
 */
export function parseServiceTime(value: unknown): number | null {
	if (typeof value !== 'string' || value.trim() === '') return null;
	let text = value.trim().replace(' ', 'T');
	text = text.replace(/(\.\d{3})\d+/, '$1');
	if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00';
	if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
	const ms = Date.parse(text);
	return Number.isFinite(ms) ? ms : null;
}

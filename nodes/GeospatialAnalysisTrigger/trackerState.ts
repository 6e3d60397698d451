/**
 * The trigger's state as it lives in the workflow's static data (pure): its shape, how it is
 * written (`storedState`: ids as safe keys) and read back (`readState`: earlier versions
 * included; `believableState`: times an earlier version believed too far ahead set back).
 * Split from completionTracker.ts, which decides what a poll does with it.
 *
 * Ids: every id is a key, whatever its text (`constructor`, `toString`, `__proto__`): the
 * work is done on Maps, the maps returned are objects without a prototype, and in static data
 * (`storedState`) `__proto__` is kept as `~__proto__` (`~x` as `~~x`), so that no copy of it
 * made by assignment can lose the key; `readState` reads both forms.
 */

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
	 * The account in use on it: a keyed hash (accountIdentity.ts) from which neither the secret nor the
	 * user name can be read back; `key:`/`user:` values of earlier versions are migrated.
	 * Absent in version 1.
	 */
	account?: string;
	/** Jobs seen unfinished: job id → created ms. */
	pending: Record<string, number>;
	/** Finished jobs created at or after `from` that were already handled: job id → created ms. */
	seen: Record<string, number>;
}

/** Service times more than this ahead of the local clock are not believed. */
export const MAX_SKEW_MS = 5 * 60_000;
export const MAX_PENDING_BYTES = 64 * 1024;
export const MAX_SEEN_BYTES = 128 * 1024;

/** An object without a prototype: any id, `__proto__` included, is an own key of it. */
export function record(entries: Iterable<[string, number]>): Record<string, number> {
	const out = Object.create(null) as Record<string, number>;
	for (const [id, ms] of entries) out[id] = ms;
	return out;
}

/** A stored id → ms map as a Map (own keys only: `__proto__` as a JSON key is one). */
export function toMap(m: Record<string, number>): Map<string, number> {
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
	settings: { maxSkewMs?: number },
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

/** The stored state as a poll can start from it, and what was wrong with it (for the log). */
export interface RestoredState {
	state: TrackerState | undefined;
	/** Static data held a state this version cannot read: the poll starts afresh. */
	unreadable: boolean;
	/** Why a readable state is not usable (`believableState`): the poll starts afresh. */
	unbelievable?: string;
}

/** `readState` then `believableState`: what a poll at `now` starts from. */
export function restoreState(
	stored: unknown,
	now: number,
	settings: { maxSkewMs?: number },
): RestoredState {
	const readable = readState(stored);
	const { state, reason } = believableState(readable, now, settings);
	return {
		state,
		unreadable: stored !== undefined && readable === undefined,
		...(reason !== undefined ? { unbelievable: reason } : {}),
	};
}

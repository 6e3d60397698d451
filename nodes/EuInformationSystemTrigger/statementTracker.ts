/**
 * The exactly-once logic of the EU Information System Trigger, pure (no n8n imports), as plan
 * and advance like the Geospatial Analysis Trigger's completionTracker.ts (whose header
 * explains what n8n keeps of a trigger's static data under its two polling schedulers and in
 * manual mode; the same holds here): `planPoll` decides from the stored state how the poll
 * starts; the node searches the statements by internal reference, `toRefresh` says which known
 * statements to ask for by UUID (batches of at most 100, within the request budget, round
 * robin, none younger than the minimum age); `advance` compares what came back with the records
 * and returns the new state and the changes. The node stores the new state only once the whole
 * poll succeeded, so a failed request loses nothing and the next poll catches up.
 *
 * A change is a statement's status differing from its record (AVAILABLE, REJECTED, WITHDRAWN,
 * GROUPED, ARCHIVED, any status the EU may add: passed through as written), or a
 * `communicationToOperator` differing from the record's. A change is emitted by the poll that
 * first sees it and stored with the record in the same state, so no later poll that starts from
 * that state (or a later one) emits it again. n8n keeps the state of every poll that emitted;
 * a poll that starts from an older state (n8n dropped the state of polls that emitted nothing)
 * sees the same differences those polls saw and emitted nothing for, so it emits nothing more.
 *
 * Statements seen for the first time (a new filing, one filed outside n8n found by the search):
 * their status (unless SUBMITTED, where every statement starts) and communication fire when the
 * EU dated them at or after `since`; without a date, only when the poll continues a state. On a
 * poll without state (the first of an activation, or after n8n dropped the state of an
 * activation poll that emitted nothing: the durable scheduler does so) `since` is the poll's time
 * minus the grace period (two poll intervals and a margin, or the Look Back when longer): a
 * statement that changed after activation fires even when the activation poll's state was lost
 * (the Geospatial trigger's lesson, test/e2e/durable/). Later polls keep `since`.
 *
 * When the credential points to another service (base URL), the records are of no use there:
 * the poll starts afresh with `since` at the last poll less the clock skew margin (5 minutes:
 * that service's clock and n8n's may differ a little): what changed there since fires. When
 * only the account changed (same service, UUIDs unique there), the records are kept; those the
 * new account cannot read are dropped as gone.
 *
 * Bounds: the records are capped (`maxStatements`); beyond it the statements in a final status
 * (WITHDRAWN, REJECTED, ARCHIVED, OBSOLETE) are forgotten first, oldest first, then the oldest
 * others; `since` then rises to the poll's time, so that a forgotten statement found again by
 * the search does not fire again for a change already emitted (a change it makes later still
 * fires when the search finds it). The requests are capped (`maxRequests`: the searches and the
 * refresh batches together).
 */
import type { PollStart, StateIdentity } from '../shared/polling/pollStart';
import { CLOCK_SKEW_MARGIN_MS } from '../shared/time/serviceTime';
import { pollStart } from '../shared/polling/pollStart';
import type { EuTrackerState, StatementKind } from './statementState';
import {
	EU_TRACKER_STATE_VERSION,
	decodeRecord,
	encodeRecord,
	records,
	statusCode,
	uuidKey,
} from './statementState';

/** The EU's most UUIDs per getDds / getSd call. */
export const MAX_UUIDS_PER_CALL = 100;
/** The EU's advice: wait at least 30 minutes after a submission before asking for its status. */
export const ADVISED_MIN_AGE_MS = 30 * 60_000;
/** Statuses after which nothing is expected to change (forgotten first at the cap). */
export const FINAL_STATUSES: readonly string[] = ['WITHDRAWN', 'REJECTED', 'ARCHIVED', 'OBSOLETE'];

/** What one overview says about a statement (the EU's answer, read by the node). */
export interface StatementObservation {
	uuid: string;
	kind: StatementKind;
	internalReferenceNumber: string | null;
	status: string;
	/** The overview's `date` in ms, or null when absent or unreadable. */
	dateMs: number | null;
	/** The communication's fingerprint (statementState.communicationKey), '' without one. */
	communication: string;
	/** The communication's date in ms, or null. */
	communicationMs: number | null;
}

export interface EuTrackerSettings {
	/** Internal references must start with this (not case-sensitive, as the EU's search). */
	prefix: string;
	/** On a poll without state, changes dated within this period before it fire. */
	graceMs: number;
	/** On the first poll, changes dated within this period before it fire (when longer than grace). */
	lookBackMs: number;
	/** A statement first seen less than this ago is not asked for by UUID. */
	minAgeMs: number;
	/** Most requests of one poll (searches and refresh batches). */
	maxRequests: number;
	/** Most statements watched. */
	maxStatements: number;
}

export const EU_DEFAULT_SETTINGS: Omit<EuTrackerSettings, 'prefix' | 'graceMs'> = {
	lookBackMs: 0,
	minAgeMs: ADVISED_MIN_AGE_MS,
	maxRequests: 10,
	maxStatements: 2_000,
};

export interface EuTrackerIdentity {
	service: string;
	account: string;
}

export interface EuPollPlan {
	start: PollStart;
	/** The stored state, or undefined without one. */
	state: EuTrackerState | undefined;
	/** The local clock (ms). */
	now: number;
	settings: EuTrackerSettings;
	identity?: EuTrackerIdentity;
	/** First-seen changes dated at or after this fire. */
	since: number;
}

/** One getDds / getSd call of the refresh. */
export interface RefreshBatch {
	kind: StatementKind;
	uuids: string[];
}

export interface RefreshPlan {
	batches: RefreshBatch[];
	/** Where the round robin goes on next poll. */
	cursor: string;
	/** Known statements not asked because younger than the minimum age. */
	young: number;
	/** Known statements not asked in this poll because the budget was spent. */
	deferred: number;
}

export interface EuPollAnswers {
	/** The overviews the searches by internal reference returned. */
	searched: StatementObservation[];
	/** The overviews the refresh batches returned. */
	refreshed: StatementObservation[];
	/** The refresh that was made (toRefresh's answer). */
	refresh: RefreshPlan;
}

export type ChangeEvent = 'statusChange' | 'communication';

export interface StatementChange {
	uuid: string;
	kind: StatementKind;
	event: ChangeEvent;
	/** The status now (as the EU wrote it). */
	status: string;
	/** The status before, or null when the statement was seen for the first time. */
	previousStatus: string | null;
	/** When the EU dated it (ms), or null. */
	atMs: number | null;
}

export interface EuAdvanceResult {
	state: EuTrackerState;
	/** The changes of this poll, oldest first. */
	changes: StatementChange[];
	/** Statements asked for by UUID that the EU no longer shows: no longer watched. */
	gone: string[];
	/** Statements whose internal reference no longer starts with the prefix: no longer watched. */
	unwatched: string[];
	/** Statements forgotten at the cap. */
	forgotten: string[];
}

/** Whether an internal reference starts with the prefix (not case-sensitive). */
export function hasPrefix(reference: string | null, prefix: string): boolean {
	return reference !== null && reference.toLowerCase().startsWith(prefix.toLowerCase());
}

/** The plan of a poll at `now` from `state` (undefined: none) with the credential's identity. */
export function planPoll(
	state: EuTrackerState | undefined,
	now: number,
	settings: EuTrackerSettings,
	identity?: EuTrackerIdentity,
): EuPollPlan {
	const start = pollStart(state as StateIdentity | undefined, identity);
	const since =
		start === 'first'
			? now - Math.max(settings.graceMs, settings.lookBackMs)
			: start === 'newService'
				? Math.min(state!.polledAt, now) - CLOCK_SKEW_MARGIN_MS
				: state!.since;
	return { start, state, now, settings, ...(identity ? { identity } : {}), since };
}

function isFresh(plan: EuPollPlan): boolean {
	return plan.start === 'first' || plan.start === 'newService';
}

/** The records the plan continues (none when it starts afresh). */
function knownRecords(plan: EuPollPlan): Record<string, string> {
	return isFresh(plan) || !plan.state ? records([]) : plan.state.s;
}

/**
 * Which known statements to ask for by UUID, once the searches (`searchCalls` requests) came
 * back: those the searches did not show, old enough, in UUID order from the cursor on, in
 * batches of at most 100 of one kind, within the request budget.
 */
export function toRefresh(
	plan: EuPollPlan,
	searched: readonly StatementObservation[],
	searchCalls: number,
): RefreshPlan {
	const shown = new Set(searched.map((o) => uuidKey(o.uuid)));
	const known = knownRecords(plan);
	let young = 0;
	const candidates: Array<{ uuid: string; kind: StatementKind }> = [];
	for (const uuid of Object.keys(known).sort()) {
		if (shown.has(uuid)) continue;
		const record = decodeRecord(known[uuid])!;
		if (plan.now - record.seenMs < plan.settings.minAgeMs) {
			young++;
			continue;
		}
		candidates.push({ uuid, kind: record.kind });
	}
	const cursor = isFresh(plan) ? '' : (plan.state?.rr ?? '');
	const startAt = candidates.findIndex((c) => c.uuid > cursor);
	const ordered =
		startAt <= 0 ? candidates : [...candidates.slice(startAt), ...candidates.slice(0, startAt)];
	const budget = Math.max(0, plan.settings.maxRequests - searchCalls);
	const batches: RefreshBatch[] = [];
	const open = new Map<StatementKind, RefreshBatch>();
	let taken = 0;
	for (const c of ordered) {
		let batch = open.get(c.kind);
		if (!batch || batch.uuids.length >= MAX_UUIDS_PER_CALL) {
			if (batches.length >= budget) break;
			batch = { kind: c.kind, uuids: [] };
			batches.push(batch);
			open.set(c.kind, batch);
		}
		batch.uuids.push(c.uuid);
		taken++;
	}
	const deferred = ordered.length - taken;
	const last = taken > 0 ? ordered[taken - 1].uuid : cursor;
	// Everything was asked: the next poll starts from the beginning again.
	return { batches, cursor: deferred === 0 ? '' : last, young, deferred };
}

function firesWhenFirstSeen(plan: EuPollPlan, dateMs: number | null): boolean {
	if (dateMs === null) return plan.start === 'continue' || plan.start === 'newAccount';
	return dateMs >= plan.since;
}

function byTime(a: StatementChange, b: StatementChange): number {
	const ta = a.atMs ?? Infinity;
	const tb = b.atMs ?? Infinity;
	if (ta !== tb) return ta < tb ? -1 : 1;
	if (a.uuid !== b.uuid) return a.uuid < b.uuid ? -1 : 1;
	return a.event === b.event ? 0 : a.event === 'statusChange' ? -1 : 1;
}

/** Computes the state after a successful poll and the changes seen in it. Pure. */
export function advance(plan: EuPollPlan, answers: EuPollAnswers): EuAdvanceResult {
	const { settings, now } = plan;
	const prev = knownRecords(plan);
	const next = new Map(Object.entries(prev));
	const changes: StatementChange[] = [];
	const unwatched: string[] = [];

	// The latest observation of each statement (a refresh is as fresh as a search).
	const observed = new Map<string, StatementObservation>();
	for (const o of [...answers.searched, ...answers.refreshed]) observed.set(uuidKey(o.uuid), o);

	for (const [uuid, o] of observed) {
		const stored = prev[uuid] !== undefined ? decodeRecord(prev[uuid]) : undefined;
		if (!hasPrefix(o.internalReferenceNumber, settings.prefix)) {
			if (stored) {
				next.delete(uuid);
				unwatched.push(uuid);
			}
			continue;
		}
		if (stored) {
			if (statusCode(o.status) !== stored.code)
				changes.push({
					uuid,
					kind: o.kind,
					event: 'statusChange',
					status: o.status,
					previousStatus: stored.status,
					atMs: o.dateMs,
				});
			if (o.communication !== '' && o.communication !== stored.communication)
				changes.push({
					uuid,
					kind: o.kind,
					event: 'communication',
					status: o.status,
					previousStatus: stored.status,
					atMs: o.communicationMs ?? o.dateMs,
				});
			next.set(uuid, encodeRecord({ ...stored, status: o.status, communication: o.communication }));
			continue;
		}
		if (o.status !== 'SUBMITTED' && firesWhenFirstSeen(plan, o.dateMs))
			changes.push({
				uuid,
				kind: o.kind,
				event: 'statusChange',
				status: o.status,
				previousStatus: null,
				atMs: o.dateMs,
			});
		if (o.communication !== '' && firesWhenFirstSeen(plan, o.communicationMs ?? o.dateMs))
			changes.push({
				uuid,
				kind: o.kind,
				event: 'communication',
				status: o.status,
				previousStatus: null,
				atMs: o.communicationMs ?? o.dateMs,
			});
		const seenMs = o.dateMs !== null && o.dateMs < now ? o.dateMs : now;
		next.set(
			uuid,
			encodeRecord({ kind: o.kind, status: o.status, communication: o.communication, seenMs }),
		);
	}

	// Asked for by UUID and not shown: the EU no longer shows it to this account.
	const gone: string[] = [];
	for (const batch of answers.refresh.batches)
		for (const uuid of batch.uuids)
			if (!observed.has(uuid) && next.has(uuid)) {
				next.delete(uuid);
				gone.push(uuid);
			}

	// The cap: final statuses first, then the others, oldest first.
	let since = plan.since;
	const forgotten: string[] = [];
	if (next.size > settings.maxStatements) {
		const ranked = [...next].map(([uuid, text]) => {
			const r = decodeRecord(text)!;
			return { uuid, final: FINAL_STATUSES.includes(r.status) ? 0 : 1, seenMs: r.seenMs };
		});
		ranked.sort((a, b) => a.final - b.final || a.seenMs - b.seenMs || (a.uuid < b.uuid ? -1 : 1));
		for (const r of ranked.slice(0, next.size - settings.maxStatements)) {
			next.delete(r.uuid);
			forgotten.push(r.uuid);
		}
		since = Math.max(since, now);
	}

	changes.sort(byTime);
	const prevState = isFresh(plan) ? undefined : plan.state;
	const service = plan.identity?.service ?? prevState?.service;
	const account = plan.identity?.account ?? prevState?.account;
	return {
		state: {
			v: EU_TRACKER_STATE_VERSION,
			...(service !== undefined ? { service } : {}),
			...(account !== undefined ? { account } : {}),
			since,
			polledAt: Math.max(now, prevState?.polledAt ?? -Infinity),
			rr: answers.refresh.cursor,
			s: records(next),
		},
		changes,
		gone,
		unwatched,
		forgotten,
	};
}

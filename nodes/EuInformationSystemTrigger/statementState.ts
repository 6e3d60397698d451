/**
 * The EU Information System Trigger's state as it is kept in the workflow's static data, and
 * its compact per-statement record (pure). statementTracker.ts says what the state means and
 * how a poll moves it on.
 *
 * One record per watched statement, keyed by its UUID (lower case):
 * `<seen>.<communication>.<kind><status>`, e.g. `rk3c1.Hk2vQ9aZ.dA` (16 bytes):
 * - `seen`: when the statement was first seen (its date, or the poll's time when later), in
 *   whole minutes since 1970, base 36: the age that keeps a young statement from being asked.
 * - `communication`: 8 characters of a SHA-256 of the latest `communicationToOperator` (date
 *   and content), empty when there is none.
 * - `kind`: `d` for a due diligence statement, `s` for a simplified declaration.
 * - `status`: one letter for each status the EU documents (STATUS_CODES), otherwise `=` and the
 *   status as the EU wrote it (up to 40 characters; a longer one as `#` and a hash of it).
 * So a watched statement costs about 60 bytes of static data with its UUID. Only a UUID of the
 * UUID shape (36 characters, answers.ts's isStatementUuid) is ever a key: the reads leave any
 * other out before the tracker sees it, and a stored state is read back without such keys.
 */
import { createHash } from 'node:crypto';

import { isStatementUuid } from '../shared/dds/answers';

export const EU_TRACKER_STATE_VERSION = 1;

export type StatementKind = 'dds' | 'sd';

export interface StatementRecord {
	kind: StatementKind;
	/** The status as it was last seen (the EU's text). */
	status: string;
	/** The communication's fingerprint ('' without one). */
	communication: string;
	/** When first seen, ms (whole minutes). */
	seenMs: number;
}

export interface EuTrackerState {
	v: typeof EU_TRACKER_STATE_VERSION;
	/** The credential's base URL the UUIDs belong to. */
	service?: string;
	/** The account (a keyed hash, nodes/shared/polling/accountKey.ts). */
	account?: string;
	/**
	 * A change of a statement seen for the first time fires only when the EU dated it at or after
	 * this time (ms): the watch's start, raised when statements had to be forgotten.
	 */
	since: number;
	/** The latest time a poll witnessed (ms). */
	polledAt: number;
	/** The UUID the last refresh ended at: the next one goes on after it (round robin). */
	rr: string;
	/** UUID → encoded record. */
	s: Record<string, string>;
}

/**
 * The statuses of EudrStatusType, one letter each in the record. Maps, not objects: a status
 * the EU sends is looked up as data, so that `__proto__`, `constructor` or `toString` is an
 * unknown status like any other (kept as `=` and its text), never a member of Object.
 */
const STATUS_CODES: ReadonlyMap<string, string> = new Map([
	['SUBMITTED', 'S'],
	['AVAILABLE', 'A'],
	['REJECTED', 'R'],
	['WITHDRAWN', 'W'],
	['ARCHIVED', 'X'],
	['SUSPENDED', 'P'],
	['UPDATED', 'U'],
	['GROUPED', 'G'],
	['OBSOLETE', 'O'],
]);
const CODE_STATUS: ReadonlyMap<string, string> = new Map(
	[...STATUS_CODES].map(([status, code]) => [code, status]),
);
const MAX_STATUS_TEXT = 40;

/** A short fingerprint of a text (8 base64url characters of its SHA-256). */
export function shortHash(text: string): string {
	return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 8);
}

/** How a status is written in a record (also what two statuses are compared by). */
export function statusCode(status: string): string {
	const code = STATUS_CODES.get(status);
	if (code !== undefined) return code;
	return status.length <= MAX_STATUS_TEXT ? `=${status}` : `#${shortHash(status)}`;
}

/** The status a record's code stands for (a hashed one reads as null: only its code is kept). */
function statusOfCode(code: string): string | null {
	if (code.startsWith('=')) return code.slice(1);
	if (code.startsWith('#')) return null;
	return CODE_STATUS.get(code) ?? null;
}

export function encodeRecord(r: StatementRecord): string {
	const minutes = Math.max(0, Math.floor(r.seenMs / 60_000)).toString(36);
	return `${minutes}.${r.communication}.${r.kind === 'sd' ? 's' : 'd'}${statusCode(r.status)}`;
}

/** A stored record, or undefined when it does not have the record's shape. */
export function decodeRecord(text: string): (StatementRecord & { code: string }) | undefined {
	const m = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{0,16})\.([ds])(.+)$/s.exec(text);
	if (!m) return undefined;
	const code = m[4];
	if (!/^(=|#)/.test(code) && !CODE_STATUS.has(code)) return undefined;
	return {
		kind: m[3] === 's' ? 'sd' : 'dds',
		status: statusOfCode(code) ?? code,
		communication: m[2],
		seenMs: parseInt(m[1], 36) * 60_000,
		code,
	};
}

/** The fingerprint of a communication (its date and content), '' when there is none. */
export function communicationKey(
	communication: { date: string | null; content: string | null } | null | undefined,
): string {
	if (!communication || (communication.date === null && communication.content === null)) return '';
	return shortHash(`${communication.date ?? ''}\n${communication.content ?? ''}`);
}

/** A UUID as a key of the record map (the EU's UUIDs are case-insensitive). */
export function uuidKey(uuid: string): string {
	return uuid.trim().toLowerCase();
}

/** An object without a prototype: any key, `__proto__` included, is an own key of it. */
function bare(entries: Iterable<[string, string]>): Record<string, string> {
	const out = Object.create(null) as Record<string, string>;
	for (const [k, v] of entries) out[k] = v;
	return out;
}

/** A record map from entries. */
export function records(entries: Iterable<[string, string]>): Record<string, string> {
	return bare(entries);
}

/**
 * The stored state when it has the expected shape, otherwise undefined (start afresh); records
 * that do not read, or whose key is not a UUID, are left out (their statements are found again
 * as new ones; a state an older version filled with what the EU sent as UUIDs shrinks back).
 */
export function readEuState(value: unknown): EuTrackerState | undefined {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const s = value as Partial<Record<keyof EuTrackerState, unknown>>;
	const isTime = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t);
	if (s.v !== EU_TRACKER_STATE_VERSION || !isTime(s.since) || !isTime(s.polledAt)) return undefined;
	if (!s.s || typeof s.s !== 'object' || Array.isArray(s.s)) return undefined;
	for (const key of ['service', 'account'] as const)
		if (s[key] !== undefined && typeof s[key] !== 'string') return undefined;
	const kept = Object.entries(s.s as object).filter(
		(e): e is [string, string] =>
			isStatementUuid(e[0]) && typeof e[1] === 'string' && decodeRecord(e[1]) !== undefined,
	);
	return {
		v: EU_TRACKER_STATE_VERSION,
		...(typeof s.service === 'string' ? { service: s.service } : {}),
		...(typeof s.account === 'string' ? { account: s.account } : {}),
		since: s.since,
		polledAt: s.polledAt,
		rr: typeof s.rr === 'string' && isStatementUuid(s.rr) ? s.rr : '',
		s: bare(kept),
	};
}

/** The bytes the state takes as JSON in static data. */
export function stateBytes(state: EuTrackerState): number {
	return new TextEncoder().encode(JSON.stringify(state)).length;
}

/**
 * What this n8n process sent to the EU Information System in the last REMEMBER_MS (pure module
 * state, shared by every execution of the process). The EU's lookups can lag behind a
 * submission (pack README §12: getDds and getDdsByInternalReference answered an empty list
 * right after one), so a lookup made seconds after a submission cannot prove "not filed": a
 * quick rerun must not trust it. Submit records a statement here BEFORE sending it, and looks
 * here before looking at the EU: inside the window, a remembered reference is never sent again.
 *
 * Keyed by the credential's origin, user and operator access identifier, the service (DDS/SD)
 * and the case-folded internal reference. Kept REMEMBER_MS (30 minutes: the EU asks
 * integrators to wait 30 minutes after a submission before asking for its status, pack §6),
 * at most MAX_REMEMBERED entries (the oldest forgotten first). One process only: the workers
 * of n8n's queue mode each have their own memory (docs/eu-information-system/exactly-once.md).
 */
import { foldCase } from './referenceMatch';

/** How long a submission is remembered (the EU's "wait 30 minutes" after submitting). */
export const REMEMBER_MS = 30 * 60_000;
/** Most submissions remembered at once (about 200 bytes each). */
export const MAX_REMEMBERED = 10_000;

export interface Remembered {
	/** The internal reference as sent. */
	reference: string;
	/** When it was sent (ms since the epoch, the submit clock). */
	sentAt: number;
	/**
	 * `sending`: sent, no answer yet (another execution may be waiting for it); `filed`: the
	 * EU answered with its UUID; `lost`: its answer was lost and no lookup found it.
	 */
	state: 'sending' | 'filed' | 'lost';
	uuid?: string;
}

const remembered = new Map<string, Remembered>();

/** The key of a reference: who sent it where, to which service, the reference case-folded. */
export function memoryKey(
	who: { origin: string; username: string; operatorAccessIdentifier: string },
	service: string,
	reference: string,
): string {
	return JSON.stringify([
		who.origin,
		who.username,
		who.operatorAccessIdentifier,
		service,
		foldCase(reference),
	]);
}

function forgetExpired(now: number): void {
	for (const [key, entry] of remembered) {
		if (now - entry.sentAt < REMEMBER_MS && entry.sentAt <= now) break;
		remembered.delete(key);
	}
}

/** The submission remembered under `key`, if sent within REMEMBER_MS before `now`. */
export function recall(key: string, now: number): Remembered | undefined {
	forgetExpired(now);
	const entry = remembered.get(key);
	if (entry && now - entry.sentAt >= REMEMBER_MS) {
		remembered.delete(key);
		return undefined;
	}
	return entry;
}

/** Records a submission (in sending order: the oldest first, so expiry stops at the first kept). */
export function remember(key: string, entry: Remembered): void {
	remembered.delete(key);
	remembered.set(key, entry);
	while (remembered.size > MAX_REMEMBERED) {
		const oldest = remembered.keys().next().value as string;
		remembered.delete(oldest);
	}
}

/** Changes what is known of a remembered submission (its UUID, or that its answer was lost). */
export function update(key: string, change: Partial<Pick<Remembered, 'state' | 'uuid'>>): void {
	const entry = remembered.get(key);
	if (entry) Object.assign(entry, change);
}

/** Forgets a submission that certainly did not arrive (refused before processing). */
export function forget(key: string): void {
	remembered.delete(key);
}

/** Forgets everything (tests). */
export function resetSubmitMemory(): void {
	remembered.clear();
}

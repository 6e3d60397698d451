/**
 * At most EU_CALLS_PER_SECOND calls a second per origin, for the whole process (module state
 * shared by every item and node): the EU Information System's fair-use limit (5 calls a second
 * per IP, pack §6). Calls start one after the other, START_SPACING_MS apart: a tenth more than
 * 1000 / 5 ms, so that six consecutive calls span 1.1 s and the network's jitter on the way
 * cannot put six into one second at the service (measured against the fake, which counts
 * arrivals per rolling second: with a plain "5 per rolling second at our end", bursts of five
 * arrived as six and were refused with HTTP 429). A caller reserves its slot at once and waits
 * for it (with the given sleep; n8n's by default).
 */
import { sleepUnlessCancelled } from '../time/sleep';

export const EU_CALLS_PER_SECOND = 5;
/** The time between two call starts to one origin. */
export const START_SPACING_MS = 220;

/** The earliest start of the next call, per origin. */
const nextStart = new Map<string, number>();

export interface RateLimitTiming {
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const systemRateTiming: RateLimitTiming = { now: () => Date.now(), sleep: sleepUnlessCancelled };

/** Waits until a call to `origin` may start; the slot is taken before waiting. */
export async function waitForEuSlot(
	origin: string,
	signal?: AbortSignal,
	timing: RateLimitTiming = systemRateTiming,
): Promise<void> {
	const now = timing.now();
	const slot = Math.max(now, nextStart.get(origin) ?? now);
	nextStart.set(origin, slot + START_SPACING_MS);
	if (slot > now) await timing.sleep(slot - now, signal);
}

/** Forgets every start (tests). */
export function resetEuRateLimit(): void {
	nextStart.clear();
}

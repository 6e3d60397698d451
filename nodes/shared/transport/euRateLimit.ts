/**
 * At most EU_CALLS_PER_SECOND calls started per rolling second per origin, for the whole
 * process (module state shared by every item and node): the EU Information System's fair-use
 * limit. A caller waits for its slot (with the given sleep; n8n's by default).
 */
import { sleepUnlessCancelled } from '../time/sleep';

export const EU_CALLS_PER_SECOND = 5;
const WINDOW_MS = 1000;

/** Start times of the calls of the last second, per origin. */
const started = new Map<string, number[]>();

export interface RateLimitTiming {
	now: () => number;
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const systemRateTiming: RateLimitTiming = { now: () => Date.now(), sleep: sleepUnlessCancelled };

/** Waits until a call to `origin` may start, and counts it as started. */
export async function waitForEuSlot(
	origin: string,
	signal?: AbortSignal,
	timing: RateLimitTiming = systemRateTiming,
): Promise<void> {
	for (;;) {
		const now = timing.now();
		const times = (started.get(origin) ?? []).filter((t) => t > now - WINDOW_MS);
		if (times.length < EU_CALLS_PER_SECOND) {
			times.push(now);
			started.set(origin, times);
			return;
		}
		started.set(origin, times);
		await timing.sleep(Math.max(1, times[0] + WINDOW_MS - now), signal);
	}
}

/** Forgets every start (tests). */
export function resetEuRateLimit(): void {
	started.clear();
}

/**
 * The waits of Submit (the look-again window after a lost answer, the wait after a 429) and
 * the clock of its memory, on n8n's sleep that ends when the execution is cancelled. Module
 * state so that tests (through n8n's engine) can give them a clock that does not wait
 * (`setSubmitTiming`); nothing else sets it.
 */
import type { Timing } from '../time/sleep';
import { systemTiming } from '../time/sleep';
import { MAX_REFUSALS } from '../transport/retry';

/**
 * After a submission whose answer was lost, the lookups that may find it: the first at once,
 * then 5, 15, 30 and 60 s after the loss (the waits between them below: five lookups over about
 * a minute). The EU's lookups can lag behind a submission (pack README §12): one empty answer
 * right after it proves nothing, so the node looks again before it says anything.
 */
export const LOOK_AGAIN_DELAYS_MS: readonly number[] = [0, 5_000, 10_000, 15_000, 30_000];

/**
 * Submissions refused with "too many calls" (HTTP 429) are tried at most this many times in
 * all: the transport's budget for refused reads (retry.ts), so that a Submit gives up no sooner
 * than the lookups around it (with 3, a Submit among busy neighbours in queue mode was refused
 * three times in a row and gave up while its reads went through).
 */
export const THROTTLED_SUBMIT_TRIES = MAX_REFUSALS;
/** The wait after a 429 when the EU gives no Retry-After. */
export const THROTTLE_WAIT_MS = 2_000;
/** The longest wait after a 429 (a longer Retry-After ends the tries with the EU's refusal). */
export const MAX_THROTTLE_WAIT_MS = 60_000;

let timing: Timing = systemTiming;

/** The clock and sleep of Submit now. */
export function submitTiming(): Timing {
	return timing;
}

/** Replaces Submit's clock and sleep (tests); none given: the real ones again. */
export function setSubmitTiming(replacement?: Partial<Timing>): void {
	timing = { ...systemTiming, ...(replacement ?? {}) };
}

/**
 * A call that must never be repeated blindly (Amend, Withdraw, Update of a statement with
 * legal value; Submit has its own lookup-first path) when the EU refused it because of its
 * rate limit: HTTP 429 or its throttling fault is an answer that says the call was refused
 * before anything was processed (refusedForRate). The call is sent again only
 * 1. after the wait the EU asks for (Retry-After, seconds or an HTTP date; else the backoff),
 *    within the call's deadline (the Request Timeout from the first refusal) and at most
 *    MAX_REFUSALS times (retry.ts refusalDelay), ending early when the execution is cancelled;
 * 2. after `recheck`, the fresh read that decides whether sending it again is still right:
 *    it resolves `{ resend: true }`, or `{ done: value }` when what the EU shows now makes the
 *    call unnecessary (a statement already WITHDRAWN), or throws why it may not be sent again
 *    (the statement changed since it was read, the window closed).
 * Any other failure is thrown as it is. The pace of the calls has already slowed down
 * (euRateLimit.ts, told by the transport).
 */
import { euFailureOf, refusedForRate } from './euFailure';
import { cancelSignalOf, requestTimeoutMs } from './deadline';
import { refusalDelay } from './retry';
import type { ServiceContext } from './serviceContext';
import type { Timing } from '../time/sleep';
import { systemTiming } from '../time/sleep';

export type Recheck<T> = { resend: true } | { done: T };

export async function resendAfterRateRefusal<T>(
	ctx: ServiceContext,
	send: () => Promise<T>,
	recheck: () => Promise<Recheck<T>>,
	timing: Timing = systemTiming,
): Promise<T> {
	let deadline: number | undefined;
	for (let refusals = 1; ; refusals++) {
		let error: unknown;
		try {
			return await send();
		} catch (e) {
			error = e;
		}
		const failure = euFailureOf(error);
		if (!refusedForRate(failure)) throw error;
		deadline ??= timing.now() + requestTimeoutMs(ctx);
		const delay = refusalDelay(
			{ retryAfterMs: failure.retryAfterMs, refusals, now: timing.now(), deadline },
			undefined,
			timing.random,
		);
		if (delay === undefined) throw error;
		await timing.sleep(delay, cancelSignalOf(ctx));
		const next = await recheck();
		if ('done' in next) return next.done;
	}
}

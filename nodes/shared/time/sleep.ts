import { sleep } from 'n8n-workflow';

/** Raised when the execution is cancelled during a wait. */
export class WaitCancelledError extends Error {
	constructor() {
		super('The execution was cancelled while waiting');
		this.name = 'WaitCancelledError';
	}
}

/**
 * Waits for `promise`, but rejects with WaitCancelledError as soon as the execution is
 * cancelled (`signal` aborts); listeners are always removed.
 */
export async function unlessCancelled<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return await promise;
	if (signal.aborted) throw new WaitCancelledError();
	let onAbort: (() => void) | undefined;
	const cancelled = new Promise<never>((_, reject) => {
		onAbort = () => reject(new WaitCancelledError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([promise, cancelled]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

/**
 * n8n's `sleep` that ends early, rejecting with WaitCancelledError, when the execution is
 * cancelled. Built on `sleep` alone: n8n-workflow's `sleepWithAbort` exists in 1.x only.
 */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw new WaitCancelledError();
	return await unlessCancelled(sleep(ms), signal);
}

/**
 * The clock, the sleep and the randomness a waiting loop runs on, passed to it as an
 * argument so that tests and benchmarks can give it another one.
 */
export interface Timing {
	now: () => number;
	/** Waits `ms`; ends early (rejecting) when `signal`, the execution's cancel signal, aborts. */
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	random: () => number;
}

/** The real timing: Date.now, n8n's sleep (ending on cancel), Math.random. */
export const systemTiming: Timing = Object.freeze({
	now: () => Date.now(),
	sleep: sleepUnlessCancelled,
	random: () => Math.random(),
});

import { sleep } from 'n8n-workflow';

/** Raised when the execution is cancelled during a wait. */
export class WaitCancelledError extends Error {
	constructor() {
		super('The execution was cancelled while waiting');
		this.name = 'WaitCancelledError';
	}
}

/**
 * n8n's `sleep` that ends early, rejecting with WaitCancelledError, when the execution is
 * cancelled. Built on `sleep` alone: n8n-workflow's `sleepWithAbort` exists in 1.x only.
 */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<void> {
	if (!signal) return await sleep(ms);
	if (signal.aborted) throw new WaitCancelledError();
	let onAbort: (() => void) | undefined;
	const cancelled = new Promise<never>((_, reject) => {
		onAbort = () => reject(new WaitCancelledError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), cancelled]);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
	}
}

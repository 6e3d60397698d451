/**
 * The deadline of every request: one attempt (with its redirects) ends within the request
 * timeout, whatever the service does, a response that trickles one byte every 20 s included.
 *
 * n8n's own `timeout` option is the socket's idle timeout (axios): a trickle resets it forever.
 * So each attempt gets an AbortSignal of its own, aborted at the deadline (or when the
 * execution is cancelled), and
 * - it is given to n8n's helper as `abortSignal`. n8n's httpRequestWithAuthentication replaces
 *   that option by `this.getExecutionCancelSignal()` when the context has one (n8n 1.x and
 *   2.x), so the helper is called on a context whose getExecutionCancelSignal returns the
 *   attempt's signal (which also fires on cancel): the connection is really closed;
 * - the attempt also races the signal, so the node ends on time even if a release of n8n
 *   stopped honouring the signal.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** Request Timeout when the node sets none. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Largest Request Timeout accepted. */
export const MAX_REQUEST_TIMEOUT_MS = 3_600_000;

/** Why an attempt ended before its answer: the deadline passed, or the execution was cancelled. */
export class AttemptAborted extends Error {
	constructor(readonly reason: 'deadline' | 'cancelled') {
		super(reason === 'deadline' ? 'The request deadline passed' : 'The execution was cancelled');
		this.name = 'AttemptAborted';
	}
}

/** The execution's cancel signal of a context, if it has one. */
export function cancelSignalOf(ctx: object): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

/**
 * A context that is `ctx` in every way, except that its getExecutionCancelSignal returns
 * `signal`: n8n's request helper then aborts the request with it.
 */
export function contextWithSignal<C extends object>(ctx: C, signal: AbortSignal): C {
	return Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal, enumerable: false },
	}) as C;
}

/**
 * Runs `attempt` with a signal that aborts after `ms` or when `cancel` aborts, and rejects
 * with AttemptAborted at that moment even if `attempt` has not noticed. Listeners are always
 * removed.
 */
export async function withDeadline<T>(
	ms: number,
	cancel: AbortSignal | undefined,
	attempt: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
	const controller = new AbortController();
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_, reject) => {
		onAbort = () => reject(controller.signal.reason as Error);
		controller.signal.addEventListener('abort', onAbort, { once: true });
	});
	// AbortSignal.timeout: no timer to clear (n8n's rules keep setTimeout out of nodes), and
	// its timer does not hold the process open.
	const deadline = AbortSignal.timeout(ms);
	const onDeadline = () => controller.abort(new AttemptAborted('deadline'));
	deadline.addEventListener('abort', onDeadline, { once: true });
	const onCancel = () => controller.abort(new AttemptAborted('cancelled'));
	if (cancel?.aborted) onCancel();
	else cancel?.addEventListener('abort', onCancel, { once: true });
	const running = attempt(controller.signal);
	// Once the deadline won, the attempt's own failure (the aborted request) is not news.
	running.catch(() => undefined);
	try {
		return await Promise.race([running, aborted]);
	} finally {
		deadline.removeEventListener('abort', onDeadline);
		cancel?.removeEventListener('abort', onCancel);
		if (onAbort) controller.signal.removeEventListener('abort', onAbort);
		aborted.catch(() => undefined);
	}
}

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
import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readNumber } from '../input/numbers';
import type { ServiceContext } from './serviceContext';

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

/** The node parameter (seconds) read as the deadline of each request, when the node has it. */
export const REQUEST_TIMEOUT_PARAMETER = 'requestTimeout';

/**
 * The deadline of each request, in milliseconds: the node's "Request Timeout (Seconds)" when
 * it has that option and it is set, else DEFAULT_REQUEST_TIMEOUT_MS. A value that is not a
 * number of seconds between 1 and 3600 fails before any request.
 */
export function requestTimeoutMs(ctx: ServiceContext): number {
	let value: unknown;
	// Top level (action node version 1, trigger), or inside Options (action node version 2).
	for (const name of [REQUEST_TIMEOUT_PARAMETER, `options.${REQUEST_TIMEOUT_PARAMETER}`]) {
		try {
			value =
				'getInputData' in ctx
					? (ctx as IExecuteFunctions).getNodeParameter(name, 0, '')
					: (ctx as IPollFunctions).getNodeParameter(name, '');
		} catch {
			value = '';
		}
		if (value !== '' && value !== undefined && value !== null) break;
	}
	const seconds = readNumber(value, { min: 1, max: MAX_REQUEST_TIMEOUT_MS / 1000 });
	if (seconds.kind === 'missing') return DEFAULT_REQUEST_TIMEOUT_MS;
	if (seconds.kind === 'invalid') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Request Timeout must be a number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_MS / 1000}; it is ${JSON.stringify(value)}`,
			{
				description: `Enter how long one request may take, in seconds (for example ${DEFAULT_REQUEST_TIMEOUT_MS / 1000}), or leave it empty for the default.`,
			},
		);
	}
	return Math.round(seconds.value * 1000);
}

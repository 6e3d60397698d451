/**
 * Waiting for an event in a test: a test waits until what it needs has happened (a plot
 * stored, a connection closed, a request arrived), never for a number of milliseconds, so that
 * a busy machine makes it slower, not red. Bounded by the test's jest timeout (jest.config.js),
 * not by a time of its own.
 */

/** Resolves once `condition()` holds, checking it again every turn of the timers. */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) {
		// unref: a check left waiting by a test that already failed never holds a worker open
		await new Promise<void>((resolve) => setTimeout(resolve, 1).unref());
	}
}

/** Whether a promise has settled, read synchronously (`settled.done`), without handling its outcome. */
export function watch(promise: Promise<unknown>): { done: boolean } {
	const state = { done: false };
	const mark = () => {
		state.done = true;
	};
	promise.then(mark, mark);
	return state;
}

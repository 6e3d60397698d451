/** A bounded pool of async tasks (pure; used by the item runner). */

interface PoolOutcome<R> {
	/** Per task: its result, its error, or `skipped` when the pool stopped before starting it. */
	results: Array<
		| { status: 'fulfilled'; value: R }
		| { status: 'rejected'; reason: unknown }
		| { status: 'skipped' }
	>;
}

/**
 * Runs `tasks` with at most `concurrency` at a time, in order of start. With
 * `stopOnError`, no new task starts after one fails (those already running finish).
 */
export async function runPool<T, R>(
	tasks: readonly T[],
	concurrency: number,
	work: (task: T, index: number) => Promise<R>,
	stopOnError = false,
): Promise<PoolOutcome<R>> {
	const results: PoolOutcome<R>['results'] = tasks.map(() => ({ status: 'skipped' as const }));
	let next = 0;
	let stopped = false;
	const lanes = Math.max(1, Math.min(Math.floor(concurrency) || 1, tasks.length));
	const lane = async () => {
		while (!stopped && next < tasks.length) {
			const index = next++;
			try {
				results[index] = { status: 'fulfilled', value: await work(tasks[index], index) };
			} catch (reason) {
				results[index] = { status: 'rejected', reason };
				if (stopOnError) stopped = true;
			}
		}
	};
	await Promise.all(Array.from({ length: lanes }, lane));
	return { results };
}

/**
 * The timing Job → Wait for Completion runs on in the integration tests. The operation passes
 * `systemTiming` (nodes/shared/time/sleep) to its loop; a test file gives it another one by
 * mocking that module with sleepModuleWithTestTiming() (jest.mock is per test file):
 *
 *   jest.mock('../../../nodes/shared/time/sleep', () =>
 *   	jest.requireActual<typeof import('./timing')>('./timing').sleepModuleWithTestTiming(),
 *   );
 *
 * and then sets `mockTiming.current` (a virtual clock, or the real timing with its sleeps
 * recorded). The rest of time/sleep, which the transport uses, stays real. Production code
 * has no test seam.
 */
import type { Timing } from '../../../nodes/shared/time/sleep';

/** The timing the mocked `systemTiming` delegates to; unset, the wait loop throws. */
export const mockTiming: { current?: Timing } = {};

/** The module factory for jest.mock of nodes/shared/time/sleep. */
export function sleepModuleWithTestTiming() {
	const actual = jest.requireActual('../../../nodes/shared/time/sleep');
	const timing = (): Timing => {
		if (!mockTiming.current)
			throw new Error('This test file runs the wait loop on a timing the test sets only');
		return mockTiming.current;
	};
	return {
		...actual,
		systemTiming: {
			now: () => timing().now(),
			sleep: async (ms: number, signal?: AbortSignal) => await timing().sleep(ms, signal),
			random: () => timing().random(),
		},
	};
}

/**
 * The wait loops (`waitForJobs`) the operation started, so that a test can wait for a loop to
 * end (e.g. after a cancel) instead of waiting a number of milliseconds. Filled by the module
 * factory below, for a test file that mocks nodes/shared/jobs/waitForJobs with it:
 *
 *   jest.mock('../../../nodes/shared/jobs/waitForJobs', () =>
 *   	jest.requireActual<typeof import('./timing')>('./timing').waitForJobsModuleRecordingLoops(),
 *   );
 */
export const waitLoops: Array<Promise<unknown>> = [];

/** The module factory for jest.mock of nodes/shared/jobs/waitForJobs: the real loop, recorded in `waitLoops`. */
export function waitForJobsModuleRecordingLoops() {
	const actual = jest.requireActual<typeof import('../../../nodes/shared/jobs/waitForJobs')>(
		'../../../nodes/shared/jobs/waitForJobs',
	);
	return {
		...actual,
		waitForJobs: (...args: Parameters<typeof actual.waitForJobs>) => {
			const loop = actual.waitForJobs(...args);
			waitLoops.push(loop);
			return loop;
		},
	};
}

/**
 * The real timing (n8n's sleep, ending on cancel), recording every sleep's length in `sleeps`;
 * `onSleep`, when given, is called as each sleep starts.
 */
export function recordingSystemTiming(sleeps: number[], onSleep?: () => void): Timing {
	const { systemTiming } = jest.requireActual<typeof import('../../../nodes/shared/time/sleep')>(
		'../../../nodes/shared/time/sleep',
	);
	return {
		...systemTiming,
		sleep: async (ms: number, signal?: AbortSignal) => {
			sleeps.push(ms);
			onSleep?.();
			await systemTiming.sleep(ms, signal);
		},
	};
}

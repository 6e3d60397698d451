/**
 * The timing Job → Wait for Completion runs on in the integration tests. The operation passes
 * `systemTiming` (nodes/shared/helpers/sleep) to its loop; a test file gives it another one by
 * mocking that module with sleepModuleWithTestTiming() (jest.mock is per test file):
 *
 *   jest.mock('../../../nodes/shared/helpers/sleep', () =>
 *   	jest.requireActual<typeof import('./timing')>('./timing').sleepModuleWithTestTiming(),
 *   );
 *
 * and then sets `mockTiming.current` (a virtual clock, or the real timing with its sleeps
 * recorded). The rest of helpers/sleep, which the transport uses, stays real. Production code
 * has no test seam.
 */
import type { Timing } from '../../../nodes/shared/helpers/sleep';

/** The timing the mocked `systemTiming` delegates to; unset, the wait loop throws. */
export const mockTiming: { current?: Timing } = {};

/** The module factory for jest.mock of nodes/shared/helpers/sleep. */
export function sleepModuleWithTestTiming() {
	const actual = jest.requireActual('../../../nodes/shared/helpers/sleep');
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

/** The real timing (n8n's sleep, ending on cancel), recording every sleep's length in `sleeps`. */
export function recordingSystemTiming(sleeps: number[]): Timing {
	const { systemTiming } = jest.requireActual<typeof import('../../../nodes/shared/helpers/sleep')>(
		'../../../nodes/shared/helpers/sleep',
	);
	return {
		...systemTiming,
		sleep: async (ms: number, signal?: AbortSignal) => {
			sleeps.push(ms);
			await systemTiming.sleep(ms, signal);
		},
	};
}

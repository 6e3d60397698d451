/**
 * A loopback server for a test file of the EU transport or node, with the process-wide EU
 * rate limit reset before each test (its pacing would otherwise carry over from test to test):
 *
 *   let server: Loopback;
 *   useEuLoopback((s) => (server = s));
 */
import { resetEuRateLimit } from '../../nodes/shared/transport/euRateLimit';
import type { Loopback } from './loopback';
import { startLoopback } from './loopback';

export function useEuLoopback(set: (server: Loopback) => void): void {
	let server: Loopback | undefined;
	beforeAll(async () => {
		server = await startLoopback();
		set(server);
	});
	afterAll(async () => await server?.close());
	beforeEach(() => {
		resetEuRateLimit();
		if (server) server.requests.length = 0;
	});
}

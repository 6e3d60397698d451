import type { ServiceContext } from '../transport/serviceContext';
import { getCatalog, resultKeysOf } from '../capabilities/catalog';

/**
 * Capability name → result key from the live catalog, for per-plot rows (Wait for
 * Completion, Get Results, the trigger). An unreachable catalog just means the defaults
 * (`DEFAULT_RESULT_KEYS` in results/flatten.ts): the rows are still made, never lost.
 * `timeoutMs` shortens the read's deadline (what is left of Wait for Completion's Max Wait).
 */
export async function catalogResultKeys(
	ctx: ServiceContext,
	timeoutMs?: number,
): Promise<Record<string, string>> {
	try {
		return resultKeysOf(await getCatalog.call(ctx, timeoutMs !== undefined ? { timeoutMs } : {}));
	} catch {
		return {};
	}
}

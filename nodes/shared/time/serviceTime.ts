/**
 * Service time, both ways (pure): the one place that reads a timestamp the service wrote and
 * writes one it reads. `created_at` / `updated_at` (and the times of analysis runs) are
 * "ISO-8601 style without zone" (e.g. `2026-03-01T12:00:00.123000`), meaning UTC. A bound sent
 * back (`created_at_from`) uses the same style, so that a service comparing naive timestamps
 * never meets a zone it does not expect; it is floored to the second, so it stays inclusive.
 */

/**
 * How far before its own clock the node looks for what a request may have created: the
 * clocks of n8n and of the service may differ (clock skew), and a bound that is too late
 * would hide what was created.
 */
export const CLOCK_SKEW_MARGIN_MS = 5 * 60_000;

/** `ms` floored to the whole second: the earliest time `serviceTimestamp(ms)` stands for. */
export function floorToSecond(ms: number): number {
	return Math.floor(ms / 1000) * 1000;
}

/** `ms` as the service writes a timestamp: UTC, no zone, floored to the second. */
export function serviceTimestamp(ms: number): string {
	return new Date(floorToSecond(ms)).toISOString().slice(0, 19);
}

/**
 * A service timestamp in ms, or undefined when the value is not one. No zone means UTC (also
 * with a space instead of the `T`, and for a bare date); an explicit zone (`Z`, `+02:00`) is
 * honoured; fractions beyond milliseconds are cut, never rounded up, so a lower bound built
 * from it stays inclusive.
 */
export function parseServiceTimestamp(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	let text = value.trim().replace(' ', 'T');
	text = text.replace(/(\.\d{3})\d+/, '$1');
	if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00';
	if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
	const ms = Date.parse(text);
	return Number.isFinite(ms) ? ms : undefined;
}

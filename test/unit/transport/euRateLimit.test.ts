import {
	EU_CALLS_PER_SECOND,
	START_SPACING_MS,
	resetEuRateLimit,
	waitForEuSlot,
} from '../../../nodes/shared/transport/euRateLimit';

/** A clock that moves only when someone sleeps. */
function fakeTiming() {
	let now = 1_000_000;
	const sleeps: number[] = [];
	return {
		sleeps,
		timing: {
			now: () => now,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				now += ms;
			},
		},
		get now() {
			return now;
		},
	};
}

describe('EU rate limit', () => {
	beforeEach(() => resetEuRateLimit());

	it('starts at most 5 calls in any second per origin, with a margin for the network', async () => {
		const t = fakeTiming();
		const starts: number[] = [];
		for (let i = 0; i < 12; i++) {
			await waitForEuSlot('https://a.example', undefined, t.timing);
			starts.push(t.now);
		}
		for (let i = EU_CALLS_PER_SECOND; i < starts.length; i++)
			expect(starts[i] - starts[i - EU_CALLS_PER_SECOND]).toBeGreaterThanOrEqual(1100);
		for (let i = 1; i < starts.length; i++)
			expect(starts[i] - starts[i - 1]).toBe(START_SPACING_MS);
	});

	it('callers started at once are paced one after the other (the slot is taken before waiting)', async () => {
		let now = 0;
		const sleeps: number[] = [];
		const timing = {
			now: () => now,
			sleep: async (ms: number) => {
				sleeps.push(ms);
			},
		};
		await Promise.all(
			Array.from({ length: 6 }, () => waitForEuSlot('https://a.example', undefined, timing)),
		);
		expect(sleeps).toEqual([220, 440, 660, 880, 1100]);
		now = 5000;
		await waitForEuSlot('https://a.example', undefined, timing);
		expect(sleeps).toHaveLength(5);
	});

	it('counts each origin apart, and is shared by every caller of the process', async () => {
		const t = fakeTiming();
		await waitForEuSlot('https://a.example', undefined, t.timing);
		await waitForEuSlot('https://b.example', undefined, t.timing);
		expect(t.sleeps).toEqual([]);
		await waitForEuSlot('https://a.example', undefined, t.timing);
		expect(t.sleeps).toEqual([START_SPACING_MS]);
	});
});

import {
	EU_CALLS_PER_SECOND,
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
		starts: [] as number[],
		get now() {
			return now;
		},
	};
}

describe('EU rate limit', () => {
	beforeEach(() => resetEuRateLimit());

	it('starts at most 5 calls per rolling second per origin', async () => {
		const t = fakeTiming();
		const starts: number[] = [];
		for (let i = 0; i < 12; i++) {
			await waitForEuSlot('https://a.example', undefined, t.timing);
			starts.push(t.now);
		}
		for (let i = EU_CALLS_PER_SECOND; i < starts.length; i++)
			expect(starts[i] - starts[i - EU_CALLS_PER_SECOND]).toBeGreaterThanOrEqual(1000);
		expect(starts.slice(0, 5).every((s) => s === starts[0])).toBe(true);
		expect(starts[5]).toBe(starts[0] + 1000);
	});

	it('counts each origin apart, and is shared by every caller of the process', async () => {
		const t = fakeTiming();
		for (let i = 0; i < 5; i++) await waitForEuSlot('https://a.example', undefined, t.timing);
		await waitForEuSlot('https://b.example', undefined, t.timing);
		expect(t.sleeps).toEqual([]);
		await waitForEuSlot('https://a.example', undefined, t.timing);
		expect(t.sleeps).toEqual([1000]);
	});
});

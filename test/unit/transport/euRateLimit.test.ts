import {
	EU_CALLS_PER_SECOND,
	MAX_PAUSE_MS,
	MAX_SLOWDOWN,
	RECOVERY,
	SLOWDOWN,
	START_SPACING_MS,
	euCallAccepted,
	euCallRefused,
	euSlowdown,
	resetEuRateLimit,
	spacingFor,
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

	it('callers started at once start one after the other, in order, each one spacing after the start before it', async () => {
		const t = fakeTiming();
		const starts = await Promise.all(
			Array.from({ length: 6 }, () => waitForEuSlot('https://a.example', undefined, t.timing)),
		);
		const from = starts[0];
		expect(starts.map((s) => s - from)).toEqual([0, 220, 440, 660, 880, 1100]);
		expect(t.sleeps).toEqual([220, 220, 220, 220, 220]);
		// long after: at once
		const sleeps = t.sleeps.length;
		await t.timing.sleep(5000);
		await waitForEuSlot('https://a.example', undefined, t.timing);
		expect(t.sleeps).toHaveLength(sleeps + 1);
	});

	it('spaces the ACTUAL starts: a wait that ended late (a busy machine) does not let the next call start early', async () => {
		let now = 0;
		const sleeps: number[] = [];
		// every sleep ends 500 ms late
		const timing = {
			now: () => now,
			sleep: async (ms: number) => {
				sleeps.push(ms);
				now += ms + 500;
			},
		};
		const starts = await Promise.all(
			Array.from({ length: 4 }, () => waitForEuSlot('https://a.example', undefined, timing)),
		);
		for (let i = 1; i < starts.length; i++)
			expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(START_SPACING_MS);
	});

	it('a refusal slows down the callers already waiting, not only the later ones', async () => {
		const t = fakeTiming();
		const o = 'https://a.example';
		const first = await waitForEuSlot(o, undefined, t.timing);
		const waiting = Array.from({ length: 3 }, () => waitForEuSlot(o, undefined, t.timing));
		euCallRefused(o, first, t.now);
		const starts = [first, ...(await Promise.all(waiting))];
		expect(starts.slice(1).map((s, i) => s - starts[i])).toEqual([440, 440, 440]);
	});

	it('a caller cancelled while waiting its turn leaves the order of the others', async () => {
		const t = fakeTiming();
		const o = 'https://a.example';
		await waitForEuSlot(o, undefined, t.timing);
		const cancel = new AbortController();
		cancel.abort();
		const second = waitForEuSlot(o, undefined, t.timing);
		const cancelled = waitForEuSlot(o, cancel.signal, t.timing);
		const third = waitForEuSlot(o, undefined, t.timing);
		await expect(cancelled).rejects.toThrow(/cancelled/);
		const [a, b] = await Promise.all([second, third]);
		expect(b - a).toBe(START_SPACING_MS);
	});

	it('counts each origin apart, and is shared by every caller of the process', async () => {
		const t = fakeTiming();
		await waitForEuSlot('https://a.example', undefined, t.timing);
		await waitForEuSlot('https://b.example', undefined, t.timing);
		expect(t.sleeps).toEqual([]);
		await waitForEuSlot('https://a.example', undefined, t.timing);
		expect(t.sleeps).toEqual([START_SPACING_MS]);
	});

	it('slows down after a refusal (the spacing doubles) and no call starts before one new spacing', async () => {
		const t = fakeTiming();
		const o = 'https://a.example';
		const started = await waitForEuSlot(o, undefined, t.timing);
		expect(started).toBe(t.now);
		euCallRefused(o, started, t.now);
		expect(euSlowdown(o)).toBe(SLOWDOWN);
		const gaps: number[] = [];
		let last = t.now;
		for (let i = 0; i < 3; i++) {
			await waitForEuSlot(o, undefined, t.timing);
			gaps.push(t.now - last);
			last = t.now;
		}
		expect(gaps).toEqual([2 * START_SPACING_MS, 2 * START_SPACING_MS, 2 * START_SPACING_MS]);
	});

	it('reacts once to the refusals of calls started before the slowdown (sent at the old pace)', async () => {
		const t = fakeTiming();
		const o = 'https://a.example';
		const starts = await Promise.all(
			Array.from({ length: 4 }, () => waitForEuSlot(o, undefined, t.timing)),
		);
		await t.timing.sleep(100);
		for (const s of starts) euCallRefused(o, s, t.now);
		expect(euSlowdown(o)).toBe(SLOWDOWN);
		// a call started after the slowdown and refused again: slower still
		const later = await waitForEuSlot(o, undefined, t.timing);
		await t.timing.sleep(10);
		euCallRefused(o, later, t.now);
		expect(euSlowdown(o)).toBe(SLOWDOWN * SLOWDOWN);
	});

	it(`grows at most to ${MAX_SLOWDOWN} times the base`, () => {
		const o = 'https://a.example';
		for (let i = 0; i < 10; i++) euCallRefused(o, i * 100_000, i * 100_000);
		expect(euSlowdown(o)).toBe(MAX_SLOWDOWN);
	});

	it('comes back gradually after accepted calls: from 2× to the base in 7 calls, from the cap in 27', async () => {
		const o = 'https://a.example';
		euCallRefused(o, 0, 0);
		const factors: number[] = [];
		for (let i = 0; i < 7; i++) {
			euCallAccepted(o);
			factors.push(euSlowdown(o));
		}
		expect(factors.slice(0, 6).every((f) => f > 1)).toBe(true);
		expect(factors[0]).toBeCloseTo(2 * (1 - RECOVERY));
		expect(factors[6]).toBe(1);
		for (let i = 0; i < 10; i++) euCallRefused(o, (i + 1) * 100_000, (i + 1) * 100_000);
		let calls = 0;
		while (euSlowdown(o) > 1) {
			euCallAccepted(o);
			calls++;
		}
		expect(calls).toBe(27);
		// and the spacing is the base again
		const t = fakeTiming();
		await waitForEuSlot(o, undefined, t.timing);
		await waitForEuSlot(o, undefined, t.timing);
		expect(t.sleeps[t.sleeps.length - 1]).toBe(START_SPACING_MS);
	});

	it("spaces by the credential's Calls per Second when it is below 5 (a tenth of margin)", async () => {
		expect(spacingFor(5)).toBe(START_SPACING_MS);
		expect(spacingFor(2.5)).toBe(440);
		expect(spacingFor(1)).toBe(1100);
		const t = fakeTiming();
		for (let i = 0; i < 3; i++) await waitForEuSlot('https://a.example', undefined, t.timing, 440);
		expect(t.sleeps).toEqual([440, 440]);
		euCallRefused('https://a.example', t.now, t.now, 440);
		await waitForEuSlot('https://a.example', undefined, t.timing, 440);
		expect(t.sleeps[t.sleeps.length - 1]).toBe(880);
	});

	it('a Retry-After holds every call of the process off for that long (bounded), not only the refused one', async () => {
		const t = fakeTiming();
		const o = 'https://a.example';
		const first = await waitForEuSlot(o, undefined, t.timing);
		await t.timing.sleep(10); // the refusal arrives 10 ms after the start
		euCallRefused(o, first, t.now, START_SPACING_MS, 1000);
		const next = await waitForEuSlot(o, undefined, t.timing);
		expect(next - first).toBe(1010);
		// a later refusal of a call started before the slowdown still holds, without slowing more
		euCallRefused(o, first, t.now, START_SPACING_MS, 3_600_000);
		expect(euSlowdown(o)).toBe(SLOWDOWN);
		const after = await waitForEuSlot(o, undefined, t.timing);
		expect(after - next).toBe(MAX_PAUSE_MS);
	});
});

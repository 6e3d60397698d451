import {
	maxRounds,
	maxWaitMessage,
	nextDelay,
	pollDelay,
} from '../../../nodes/shared/jobs/waitScheduler';

const schedule = { firstDelayMs: 2000, capMs: 30000 };

describe('waitScheduler', () => {
	it('first check after the first delay, then exponential backoff up to the cap', () => {
		const mid = () => 0.5;
		expect([0, 1, 2, 3, 4, 5, 6].map((r) => pollDelay(r, schedule, mid))).toEqual([
			2000, 4000, 8000, 16000, 30000, 30000, 30000,
		]);
	});

	it('jitter stays within ±20 % and never above the cap or below the first delay', () => {
		expect(pollDelay(1, schedule, () => 0)).toBe(3200);
		expect(pollDelay(1, schedule, () => 1)).toBe(4800);
		expect(pollDelay(10, schedule, () => 1)).toBe(30000);
		expect(pollDelay(10, schedule, () => 0)).toBe(24000);
		expect(pollDelay(0, schedule, () => 0)).toBe(2000);
		expect(pollDelay(1, { firstDelayMs: 1000, capMs: 1000 }, () => 0)).toBe(1000);
		expect(pollDelay(1000, schedule, () => 0.5)).toBe(30000);
	});

	it('a Retry-After longer than the backoff wins', () => {
		expect(nextDelay(1, { firstDelayMs: 500, capMs: 30000 }, 3000, () => 0.5)).toBe(3000);
		expect(nextDelay(4, schedule, 3000, () => 0.5)).toBe(30000);
		expect(nextDelay(0, schedule, undefined)).toBe(2000);
	});

	it('bounds the number of rounds whatever happens', () => {
		expect(maxRounds(600_000, schedule)).toBe(302);
		expect(maxRounds(60_000, { firstDelayMs: 0, capMs: 0 })).toBe(60_002);
	});

	// Moved: reading Retry-After off an error → transport/serviceFailure.test.ts (serviceErrorOf, from
	// what the transport attached, never from the wording); which poll failures are tried again →
	// the policy table in transport/retry.test.ts (the wait loop uses the transport's predicate).

	it('names the jobs still running', () => {
		expect(maxWaitMessage([{ job_id: '7001', status: 'pending' }], 600_000)).toBe(
			'Job still running after the Max Wait of 10 min: 7001 (pending)',
		);
		expect(
			maxWaitMessage(
				[
					{ job_id: '1', status: 'incomplete' },
					{ job_id: '2', status: '' },
				],
				90_000,
			),
		).toBe('Jobs still running after the Max Wait of 1.5 min: 1 (incomplete), 2 (unknown)');
	});
});

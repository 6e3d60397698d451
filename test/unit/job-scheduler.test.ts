import {
	maxRounds,
	maxWaitMessage,
	nextDelay,
	pollDelay,
	retryAfterFromError,
	isTransientPollError,
	setWaitTimingForTests,
	waitTiming,
} from '../../nodes/shared/jobs/waitScheduler';

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

	it('reads Retry-After from the transport error wording', () => {
		expect(
			retryAfterFromError({
				description: 'The service is limiting requests (retry after 3 s). Wait…',
			}),
		).toBe(3000);
		expect(retryAfterFromError({ description: 'limited' })).toBeUndefined();
		expect(retryAfterFromError(undefined)).toBeUndefined();
	});

	it('classifies poll failures', () => {
		for (const code of [429, '429', 500, 502, 503, 504, undefined, null, 0])
			expect(isTransientPollError(code)).toBe(true);
		for (const code of [400, 401, 403, 404, '404']) expect(isTransientPollError(code)).toBe(false);
	});

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

	it('the test seam overrides and restores the timing', async () => {
		const real = { now: () => 1, sleep: async () => undefined, random: () => 0.1 };
		expect(waitTiming(real).now()).toBe(1);
		setWaitTimingForTests({ now: () => 42 });
		expect(waitTiming(real).now()).toBe(42);
		expect(waitTiming(real).random()).toBe(0.1);
		setWaitTimingForTests(undefined);
		expect(waitTiming(real).now()).toBe(1);
	});
});

describe('retryAfterFromError', () => {
	it('prefers the Retry-After the transport keeps on the error', () => {
		const { retryAfterFromError } = require('../../nodes/shared/jobs/waitScheduler');
		expect(
			retryAfterFromError({
				errorResponse: { retry_after_ms: 4000 },
				description: 'retry after 9 s',
			}),
		).toBe(4000);
		expect(
			retryAfterFromError({ description: 'The service is limiting requests (retry after 9 s).' }),
		).toBe(9000);
		expect(retryAfterFromError({ message: 'nothing' })).toBeUndefined();
	});
});

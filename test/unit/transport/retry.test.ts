import {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	MAX_REFUSALS,
	isTransient,
	mayHaveArrived,
	neverSent,
	parseRetryAfter,
	refusalDelay,
	retryDelay,
} from '../../../nodes/shared/transport/retry';

const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };
const mid = () => 0.5;

describe('retry policy', () => {
	it.each([429, 502, 503, 504])('retries an idempotent request on %s', (status) => {
		expect(retryDelay({ status }, 1, true, policy, mid)).toBeGreaterThan(0);
	});

	it.each([400, 401, 403, 404, 405, 406, 415, 500])('does not retry %s', (status) => {
		expect(retryDelay({ status }, 1, true, policy, mid)).toBeUndefined();
	});

	it.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ECONNREFUSED'])(
		'retries an idempotent request on connection error %s',
		(networkCode) => {
			expect(retryDelay({ networkCode }, 1, true, policy, mid)).toBeGreaterThan(0);
		},
	);

	it.each([502, 503, 504])(
		'never retries a non-idempotent request (POST) on %s: it may have arrived',
		(status) => {
			expect(retryDelay({ status }, 1, false, policy, mid)).toBeUndefined();
		},
	);

	it('retries a POST on 429 (refused before anything was processed), honouring Retry-After, bounded', () => {
		expect(retryDelay({ status: 429 }, 1, false, policy, mid)).toBeGreaterThan(0);
		expect(retryDelay({ status: 429, retryAfter: '2' }, 1, false, policy, mid)).toBe(2000);
		expect(retryDelay({ status: 429 }, policy.maxAttempts, false, policy, mid)).toBeUndefined();
	});

	it.each(['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE'])(
		'never retries a POST after %s: the request may have reached the service',
		(networkCode) => {
			expect(retryDelay({ networkCode }, 1, false, policy, mid)).toBeUndefined();
		},
	);

	it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])(
		'retries a POST on %s: it never left',
		(networkCode) => {
			expect(retryDelay({ networkCode }, 1, false, policy, mid)).toBeGreaterThan(0);
		},
	);

	it('stops after maxAttempts', () => {
		expect(retryDelay({ status: 503 }, 3, true, policy, mid)).toBeGreaterThan(0);
		expect(retryDelay({ status: 503 }, 4, true, policy, mid)).toBeUndefined();
	});

	it('backs off exponentially with jitter, capped', () => {
		const low = (attempt: number) => backoffDelay(attempt, 500, 8000, () => 0);
		const high = (attempt: number) => backoffDelay(attempt, 500, 8000, () => 1);
		expect([1, 2, 3, 4, 5, 6].map(low)).toEqual([250, 500, 1000, 2000, 4000, 4000]);
		expect([1, 2, 3, 4, 5, 6].map(high)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
	});

	it('honours Retry-After in seconds on 429', () => {
		expect(retryDelay({ status: 429, retryAfter: '3' }, 1, true, policy, mid)).toBe(3000);
	});

	it('honours Retry-After as an HTTP date', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:05 GMT', now)).toBe(5000);
		expect(
			retryDelay(
				{ status: 429, retryAfter: 'Sun, 22 Nov 2026 10:00:05 GMT' },
				1,
				true,
				policy,
				mid,
				() => now,
			),
		).toBe(5000);
	});

	it('caps an absurd Retry-After', () => {
		expect(retryDelay({ status: 429, retryAfter: '86400' }, 1, true, policy, mid)).toBe(
			policy.maxRetryAfterMs,
		);
	});

	it('ignores an unparsable Retry-After and backs off instead', () => {
		expect(retryDelay({ status: 429, retryAfter: 'soon' }, 1, true, policy, mid)).toBe(
			backoffDelay(1, 500, 8000, mid),
		);
	});
});

/**
 * The one policy table: the transport's retries and Job → Wait for Completion's status checks
 * both ask `isTransient` (the wait loop through ServiceFailure.transient).
 */
describe('retry policy table (transport and wait loop alike)', () => {
	it.each([
		[429, true],
		[502, true],
		[503, true],
		[504, true],
		[400, false],
		[401, false],
		[402, false],
		[403, false],
		[404, false],
		[405, false],
		[406, false],
		[409, false],
		[415, false],
		// 500 is the contract's "unhandled server error … logged (ID …)": the service's own
		// failure, not an overload. Repeating it repeats the error; the user needs its ID.
		[500, false],
	])('status %s → transient: %s', (status, transient) => {
		expect(isTransient({ status })).toBe(transient);
		const delay = retryDelay({ status }, 1, true, policy, mid);
		if (transient) expect(delay).toBeGreaterThan(0);
		else expect(delay).toBeUndefined();
	});

	it.each([
		'ECONNRESET',
		'ETIMEDOUT',
		'ECONNABORTED',
		'EPIPE',
		'ESOCKETTIMEDOUT',
		'UND_ERR_SOCKET',
		'ECONNREFUSED',
		'ENOTFOUND',
		'EAI_AGAIN',
		'EHOSTUNREACH',
	])('connection error %s → transient', (networkCode) => {
		expect(isTransient({ networkCode })).toBe(true);
	});

	it('a network failure without a code is transient; an unknown code is not', () => {
		expect(isTransient({})).toBe(true);
		expect(isTransient({ networkCode: 'EWHATEVER' })).toBe(false);
	});

	it.each([
		['ECONNREFUSED', true],
		['ENOTFOUND', true],
		['EAI_AGAIN', true],
		['EHOSTUNREACH', true],
		['ENETUNREACH', true],
		['ECONNRESET', false],
		['ETIMEDOUT', false],
	])('%s: never sent → %s; may have arrived → the opposite', (networkCode, never) => {
		expect(neverSent({ networkCode })).toBe(never);
		expect(mayHaveArrived({ networkCode })).toBe(!never);
	});

	it.each([
		[502, true],
		[504, true],
		[500, false],
		[503, false],
		[429, false],
		[400, false],
		[404, false],
	])('an answer %s: may have been carried out → %s', (status, arrived) => {
		expect(mayHaveArrived({ status })).toBe(arrived);
		expect(neverSent({ status })).toBe(false);
	});

	it('honours Retry-After on a 503 too', () => {
		expect(retryDelay({ status: 503, retryAfter: '3' }, 1, true, policy, mid)).toBe(3000);
	});

	it('a Retry-After does not make a failure retryable', () => {
		expect(retryDelay({ status: 500, retryAfter: '1' }, 1, true, policy, mid)).toBeUndefined();
		expect(retryDelay({ status: 503, retryAfter: '1' }, 1, false, policy, mid)).toBeUndefined();
	});
});

describe('the wait after a refusal for the rate limit (refusalDelay)', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');
	const deadline = now + 60_000;

	it('waits the Retry-After the EU gave, in seconds or as an HTTP date', () => {
		expect(refusalDelay({ retryAfter: '1', refusals: 1, now, deadline }, policy, mid)).toBe(1000);
		expect(refusalDelay({ retryAfter: '0', refusals: 1, now, deadline }, policy, mid)).toBe(0);
		expect(
			refusalDelay(
				{ retryAfter: 'Sun, 22 Nov 2026 10:00:07 GMT', refusals: 1, now, deadline },
				policy,
				mid,
			),
		).toBe(7000);
		// a date already past: at once
		expect(
			refusalDelay(
				{ retryAfter: 'Sun, 22 Nov 2026 09:59:00 GMT', refusals: 1, now, deadline },
				policy,
				mid,
			),
		).toBe(0);
		// as read by the transport (EuFailure's retryAfterMs)
		expect(refusalDelay({ retryAfterMs: 2500, refusals: 1, now, deadline }, policy, mid)).toBe(
			2500,
		);
	});

	it('waits the backoff when no (readable) Retry-After was given', () => {
		expect(refusalDelay({ refusals: 1, now, deadline }, policy, mid)).toBe(
			backoffDelay(1, 500, 8000, mid),
		);
		expect(refusalDelay({ retryAfter: 'soon', refusals: 3, now, deadline }, policy, mid)).toBe(
			backoffDelay(3, 500, 8000, mid),
		);
	});

	it("never waits past the call's deadline, nor longer than maxRetryAfterMs", () => {
		expect(
			refusalDelay({ retryAfter: '5', refusals: 1, now, deadline: now + 4999 }, policy, mid),
		).toBeUndefined();
		expect(
			refusalDelay({ retryAfter: '5', refusals: 1, now, deadline: now + 5000 }, policy, mid),
		).toBe(5000);
		expect(
			refusalDelay(
				{
					retryAfter: String(policy.maxRetryAfterMs / 1000 + 1),
					refusals: 1,
					now,
					deadline: Infinity,
				},
				policy,
				mid,
			),
		).toBeUndefined();
	});

	it(`gives up at the ${MAX_REFUSALS}th refusal of one call, which maxAttempts does not limit`, () => {
		expect(
			refusalDelay(
				{ retryAfter: '1', refusals: policy.maxAttempts + 1, now, deadline },
				policy,
				mid,
			),
		).toBe(1000);
		expect(
			refusalDelay({ retryAfter: '1', refusals: MAX_REFUSALS - 1, now, deadline }, policy, mid),
		).toBe(1000);
		expect(
			refusalDelay({ retryAfter: '1', refusals: MAX_REFUSALS, now, deadline }, policy, mid),
		).toBeUndefined();
	});
});

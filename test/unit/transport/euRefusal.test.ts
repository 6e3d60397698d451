import type { EuFailure } from '../../../nodes/shared/transport/euFailure';
import { attachEuFailure } from '../../../nodes/shared/transport/euFailure';
import { resendAfterRateRefusal } from '../../../nodes/shared/transport/euRefusal';
import { MAX_REFUSALS } from '../../../nodes/shared/transport/retry';
import type { ServiceContext } from '../../../nodes/shared/transport/serviceContext';
import { WaitCancelledError } from '../../../nodes/shared/time/sleep';

const failure = (over: Partial<EuFailure>): EuFailure => ({
	kind: 'throttled',
	mayHaveArrived: false,
	status: 429,
	errors: [],
	requestId: null,
	...over,
});
const failed = (over: Partial<EuFailure>) => attachEuFailure(new Error('refused'), failure(over));

/** A clock that moves only when someone sleeps; the sleeps are recorded. */
function timing() {
	let now = Date.parse('2026-11-22T10:00:00Z');
	const sleeps: number[] = [];
	return {
		sleeps,
		timing: {
			now: () => now,
			sleep: async (ms: number, signal?: AbortSignal) => {
				if (signal?.aborted) throw new WaitCancelledError();
				sleeps.push(ms);
				now += ms;
			},
			random: () => 0.5,
		},
	};
}

function context(timeoutSeconds?: number, signal?: AbortSignal): ServiceContext {
	return {
		getNodeParameter: (name: string, _i: number, fallback: unknown) =>
			name === 'options.requestTimeout' && timeoutSeconds !== undefined ? timeoutSeconds : fallback,
		getInputData: () => [],
		getExecutionCancelSignal: () => signal,
		getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
	} as unknown as ServiceContext;
}

describe('resendAfterRateRefusal: a change refused for the rate limit is sent again only after the wait and the check', () => {
	it('waits the Retry-After, asks the check, then sends again', async () => {
		const t = timing();
		const order: string[] = [];
		let sends = 0;
		const result = await resendAfterRateRefusal(
			context(),
			async () => {
				order.push('send');
				if (sends++ === 0) throw failed({ retryAfterMs: 1000 });
				return 'withdrawn';
			},
			async () => {
				order.push(`check after ${t.sleeps.join('+')} ms`);
				return { resend: true };
			},
			t.timing,
		);
		expect(result).toBe('withdrawn');
		expect(order).toEqual(['send', 'check after 1000 ms', 'send']);
	});

	it('a Retry-After and the throttling fault (no Retry-After: the backoff) are waited too', async () => {
		const t = timing();
		const answers = [
			failed({ retryAfterMs: 3000 }),
			failed({ status: 500, faultName: 'BusinessRulesValidationException' }),
		];
		const result = await resendAfterRateRefusal(
			context(),
			async () => {
				const next = answers.shift();
				if (next) throw next;
				return 'ok';
			},
			async () => ({ resend: true }),
			t.timing,
		);
		expect(result).toBe('ok');
		expect(t.sleeps[0]).toBe(3000);
		expect(t.sleeps[1]).toBeGreaterThan(0);
	});

	it('returns what the check found instead of sending again (e.g. already WITHDRAWN)', async () => {
		const t = timing();
		let sends = 0;
		const result = await resendAfterRateRefusal(
			context(),
			async () => {
				sends++;
				throw failed({ retryAfterMs: 1000 });
			},
			async () => ({ done: 'already withdrawn' }),
			t.timing,
		);
		expect(result).toBe('already withdrawn');
		expect(sends).toBe(1);
	});

	it('sends nothing again when the check throws', async () => {
		const t = timing();
		let sends = 0;
		await expect(
			resendAfterRateRefusal(
				context(),
				async () => {
					sends++;
					throw failed({ retryAfterMs: 1000 });
				},
				async () => {
					throw new Error('the statement changed since it was read');
				},
				t.timing,
			),
		).rejects.toThrow('the statement changed since it was read');
		expect(sends).toBe(1);
	});

	it.each([
		['a fault of the EU', failure({ kind: 'fault', status: 500 })],
		['a 503 (may have arrived)', failure({ status: 503, mayHaveArrived: true })],
		['a lost answer', failure({ kind: 'network', status: undefined, mayHaveArrived: true })],
	])('never sends again after %s', async (_label, f) => {
		const t = timing();
		let sends = 0;
		const error = attachEuFailure(new Error('failed'), f);
		await expect(
			resendAfterRateRefusal(
				context(),
				async () => {
					sends++;
					throw error;
				},
				async () => ({ resend: true }),
				t.timing,
			),
		).rejects.toBe(error);
		expect(sends).toBe(1);
		expect(t.sleeps).toEqual([]);
	});

	it('gives up when the wait would pass the Request Timeout from the first refusal', async () => {
		const t = timing();
		let sends = 0;
		const error = failed({ retryAfterMs: 4000 });
		await expect(
			resendAfterRateRefusal(
				context(10),
				async () => {
					sends++;
					throw error;
				},
				async () => ({ resend: true }),
				t.timing,
			),
		).rejects.toBe(error);
		// 4 s + 4 s fit into 10 s, a third 4 s does not
		expect(t.sleeps).toEqual([4000, 4000]);
		expect(sends).toBe(3);
	});

	it(`gives up at the ${MAX_REFUSALS}th refusal`, async () => {
		const t = timing();
		let sends = 0;
		await expect(
			resendAfterRateRefusal(
				context(3600),
				async () => {
					sends++;
					throw failed({ retryAfterMs: 1000 });
				},
				async () => ({ resend: true }),
				t.timing,
			),
		).rejects.toThrow('refused');
		expect(sends).toBe(MAX_REFUSALS);
	});

	it('ends the wait when the execution is cancelled', async () => {
		const t = timing();
		const cancel = new AbortController();
		cancel.abort();
		await expect(
			resendAfterRateRefusal(
				context(undefined, cancel.signal),
				async () => {
					throw failed({ retryAfterMs: 1000 });
				},
				async () => ({ resend: true }),
				t.timing,
			),
		).rejects.toBeInstanceOf(WaitCancelledError);
	});
});

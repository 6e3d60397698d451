/**
 * The fake EU Information System of a jest test file, over loopback HTTP:
 *
 *   const eu = useFakeEu({ availableAfterMs: 0 });
 *   test('…', async () => { eu.fake.url; eu.fake.clock.advance(…); });
 *
 * Starts before all tests of the enclosing describe block (or file) and stops after them.
 * `fake` is assigned in beforeAll: read it inside tests and hooks only.
 */
import type { FakeEu, FakeEuOptions } from '../fake-eu';
import { startFakeEu } from '../fake-eu';

export interface UsedFakeEu {
	/** The running fake (assigned in beforeAll). */
	fake: FakeEu;
}

export function useFakeEu(options: FakeEuOptions = {}): UsedFakeEu {
	const used = {} as UsedFakeEu;
	beforeAll(async () => {
		used.fake = await startFakeEu(options);
	});
	afterAll(async () => {
		await used.fake?.stop();
	});
	return used;
}

/**
 * Shared setup of the Plot operations' integration tests (one file per operation). `fake` and
 * `store` are live bindings set in the hooks usePlotService() adds; read them inside tests only.
 */
import type { CredentialStore } from '../../helpers/engine';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

export { fake };

/** Alice's API-key credential. */
export let store: CredentialStore;

/** A fake with alice's API-key credential; its request log is cleared before every test. */
export function usePlotService(): void {
	useFakeService();
	beforeAll(() => {
		store = storeWithApiKey(fake);
	});
	beforeEach(() => fake.log.clear());
}

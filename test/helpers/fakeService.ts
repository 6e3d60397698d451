/**
 * The fake service and credentials of an integration test file, over loopback HTTP.
 *
 * `fake` is a live binding: useFakeService() assigns it in the enclosing describe block's
 * beforeAll, so read it inside tests and hooks only. Each jest test file has its own module
 * registry, so test files never share a fake; describe blocks of one file that each call
 * useFakeService() run one after another, each with its own fake.
 */
import type { FakeService, FakeServiceOptions } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore } from './engine';

/** The fake of the describe block that called useFakeService(). */
export let fake: FakeService;

/** Starts a fake before the enclosing describe block's tests and closes it after them. */
export function useFakeService(options?: FakeServiceOptions): void {
	beforeAll(async () => {
		fake = await startFakeService(options);
	});
	afterAll(async () => await fake.close());
}

type User = keyof FakeService['users'];

/** A credential store holding the user's API-key credential for the fake. */
export function storeWithApiKey(service: FakeService, user: User = 'alice'): CredentialStore {
	return new CredentialStore({
		geospatialAnalysisApi: { baseUrl: service.url, apiKey: service.users[user].apiKey },
	});
}

/** A credential store holding the user's username and password credential (no JWT yet). */
export function storeWithLogin(service: FakeService, user: User = 'alice'): CredentialStore {
	return new CredentialStore({
		geospatialAnalysisLoginApi: {
			baseUrl: service.url,
			username: service.users[user].username,
			password: service.users[user].password,
		},
	});
}

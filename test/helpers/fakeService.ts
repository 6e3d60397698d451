/**
 * The fake service and credentials of an integration test file, over loopback HTTP: every
 * test file starts its fakes through useFakeService (or useFakeServicePerTest when each test
 * needs a fake with options of its own), never by hand.
 *
 * `fake` is a live binding: useFakeService() assigns it in the enclosing describe block's
 * beforeAll, so read it inside tests and hooks only (or take the fake from `use`). Each jest
 * test file has its own module registry, so test files never share a fake; describe blocks of
 * one file that each call useFakeService() run one after another, each with its own fake.
 */
import type { FakeService, FakeServiceOptions } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore } from './engine';

/** The (first) fake of the describe block that called useFakeService(). */
export let fake: FakeService;

export interface UseFakeServiceOptions extends FakeServiceOptions {
	/** How many fakes to start, each with these options (two services, e.g. for a credential change). Default 1. */
	count?: number;
	/** Date.now, the trigger's clock, follows the fakes' clock (followFakeClock) until the block ends. */
	followClock?: boolean;
	/**
	 * Before each test (before the block's own beforeEach hooks): every fake reset and its clock
	 * stopped (scale 0), further fakes set to the first one's time, and the followed clock synced.
	 */
	resetBeforeEach?: boolean;
}

/** What `use` receives besides the first fake. */
export interface FakeSetup {
	/** Every fake started, the first one first. */
	fakes: FakeService[];
	/** The clock Date.now follows (with `followClock`), else undefined. */
	clock: SharedClock | undefined;
}

/**
 * Starts the fake(s) before the enclosing describe block's tests (or the file's, at the top
 * level) and closes them after them; `use` receives them once they exist (its first argument
 * is also the live binding `fake`).
 */
export function useFakeService(
	options: UseFakeServiceOptions = {},
	use?: (fake: FakeService, setup: FakeSetup) => void,
): void {
	const { count = 1, followClock, resetBeforeEach, ...fakeOptions } = options;
	const setup: FakeSetup = { fakes: [], clock: undefined };
	beforeAll(async () => {
		for (let i = 0; i < count; i++) setup.fakes.push(await startFakeService(fakeOptions));
		fake = setup.fakes[0];
		if (followClock) setup.clock = followFakeClock(...setup.fakes);
		use?.(setup.fakes[0], setup);
	});
	afterAll(async () => {
		setup.clock?.restore();
		for (const started of setup.fakes.splice(0)) await started.close();
	});
	if (resetBeforeEach)
		beforeEach(() => {
			const [first, ...others] = setup.fakes;
			for (const each of setup.fakes) {
				each.reset();
				each.clock.setScale(0);
			}
			for (const other of others) {
				other.clock.set(first.clock.now());
				other.clock.setScale(0);
			}
			setup.clock?.sync();
		});
}

/**
 * For a describe block whose tests each need a fake with options of their own: returns
 * `start(options)`, and every fake it started is closed after its test.
 */
export function useFakeServicePerTest(): (options?: FakeServiceOptions) => Promise<FakeService> {
	const started: FakeService[] = [];
	afterEach(async () => {
		for (const each of started.splice(0)) await each.close();
	});
	return async (options) => {
		const each = await startFakeService(options);
		started.push(each);
		return each;
	};
}

/** The clock of fakes that the trigger's clock (Date.now) follows; see followFakeClock. */
export interface SharedClock {
	/** Advances every fake's clock, and Date.now with them. */
	advance(ms: number): void;
	/** Sets Date.now to the fakes' time again (after fake.reset(), setScale(0), set()). */
	sync(): void;
	/** Date.now as it was. */
	restore(): void;
}

/**
 * Makes Date.now, the trigger's clock, follow the fakes' clock, as n8n's clock and the
 * service's agree in production (otherwise the fakes run ahead of the trigger by every
 * `advance`). The fakes must run at scale 0, all set to the first one's time.
 */
export function followFakeClock(...fakes: FakeService[]): SharedClock {
	let now = Date.now();
	const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
	// At scale 0 a fake's time does not depend on Date.now, so reading it here cannot recurse.
	const sync = () => {
		now = fakes[0].clock.now().getTime();
	};
	sync();
	return {
		advance(ms: number) {
			for (const fake of fakes) fake.clock.advance(ms);
			sync();
		},
		sync,
		restore: () => spy.mockRestore(),
	};
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

/**
 * Shared setup of the Analysis Run operations' integration tests (one file per operation): a
 * fake holding a small history of analysis runs. The exports are live bindings set in the
 * hooks useRunHistory() adds; read them inside tests only.
 */
import type { CredentialStore } from '../../helpers/engine';
import { makeJob, makePlots } from '../../helpers/fakeSetup';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

export { fake };

/** API-key credentials of alice (who owns the plots) and bob. */
export let alice: CredentialStore;
export let bob: CredentialStore;
/** Alice's plots: A has three runs, B two, and `idle` none. */
export let plotA: string;
export let plotB: string;
export let idle: string;

/**
 * A fake (plots take 1 s each, its clock frozen) where alice ran two jobs over plot A
 * (eudr + deforestation with plot B, then deforestation again), both finished.
 */
export function useRunHistory(): void {
	useFakeService({ perPlotDurationMs: 1000 });
	beforeAll(async () => {
		fake.clock.setScale(0);
		alice = storeWithApiKey(fake, 'alice');
		bob = storeWithApiKey(fake, 'bob');
		[plotA, plotB, idle] = await makePlots(fake, fake.users.alice.apiKey, [
			'Run plot A',
			'Run plot B',
			'Never analysed',
		]);
		// Two jobs over plot A (eudr + deforestation, then deforestation again): three runs.
		await makeJob(
			fake,
			fake.users.alice.apiKey,
			[plotA, plotB],
			[{ type: 'eudr' }, { type: 'deforestation' }],
		);
		fake.clock.advance(10_000);
		await makeJob(fake, fake.users.alice.apiKey, [plotA], [{ type: 'deforestation' }]);
		fake.clock.advance(10_000);
	});
}

/**
 * Shared setup of the Job operations' integration tests (one file per operation): the fake,
 * alice's credential, and the seeding and log helpers the tests call. `fake` and `store` are
 * live bindings set in the hooks useJobService() adds; read them inside tests only.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CredentialStore } from '../../helpers/engine';
import { runNode } from '../../helpers/engine';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

export { fake };

/** Alice's API-key credential, new for every test. */
export let store: CredentialStore;

/**
 * A fake whose plots take 1 s each, reset before every test with its clock frozen (jobs move
 * only when a test advances it), and a fresh API-key credential for alice.
 */
export function useJobService(): void {
	useFakeService({ perPlotDurationMs: 1000 });
	beforeEach(() => {
		fake.reset();
		fake.clock.setScale(0);
		store = storeWithApiKey(fake);
	});
}

export const seed = (n: number, prefix = 'Plot') =>
	fake.seedPlots('alice', n, { commodity: 'soy', namePrefix: prefix });
export const makeJobs = () =>
	fake.log.entries().filter((e) => e.method === 'POST' && e.path === '/jobs/make_job');
export const statusGets = () =>
	fake.log.entries().filter((e) => e.method === 'GET' && e.path.startsWith('/jobs/job/'));

export type Job = IDataObject & { job_id: string; token_cost: number };

/** Job → Create through the engine; fails the test when the node fails. */
export async function create(plotIds: string[], extra: IDataObject = {}): Promise<Job> {
	const { items, error } = await runNode({
		parameters: { resource: 'job', operation: 'create', plotIds: plotIds.join(','), ...extra },
		store,
	});
	expect(error).toBeUndefined();
	return items[0].json as Job;
}

/** Job → Get Many (Return All) through the engine; fails the test when the node fails. */
export async function listJobs(): Promise<IDataObject[]> {
	const { items, error } = await runNode({
		parameters: { resource: 'job', operation: 'getMany', returnAll: true },
		store,
	});
	expect(error).toBeUndefined();
	return items.map((i) => i.json);
}

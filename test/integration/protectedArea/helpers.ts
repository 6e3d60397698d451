/**
 * Shared setup of the Protected Area operations' integration tests (one file per operation).
 * `fake` is a live binding set in the hooks useProtectedAreaService() adds; read it inside
 * tests only.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CredentialStore } from '../../helpers/engine';
import { runNode } from '../../helpers/engine';
import { fake, storeWithApiKey, useFakeService } from '../../helpers/fakeService';

export { fake };

export const CHECKS = { method: 'POST', path: '/protected-areas/checks' };

/** A closed square polygon of side d degrees with six-decimal corners. */
export function square(lon: number, lat: number, d = 0.01): IDataObject {
	const r = (n: number) => Number(n.toFixed(6)) + 0.0000011;
	const ring = [
		[r(lon), r(lat)],
		[r(lon + d), r(lat)],
		[r(lon + d), r(lat + d)],
		[r(lon), r(lat + d)],
		[r(lon), r(lat)],
	];
	return { type: 'Polygon', coordinates: [ring] };
}

let store: CredentialStore;

/** A fake with alice's API-key credential; its request log is cleared before every test. */
export function useProtectedAreaService(): void {
	useFakeService();
	beforeAll(() => {
		store = storeWithApiKey(fake);
	});
	beforeEach(() => fake.log.clear());
}

/** Runs a Protected Area operation through the engine with alice's credential. */
export const run = async (parameters: IDataObject, input: IDataObject[], continueOnFail = false) =>
	await runNode({
		parameters: { resource: 'protectedArea', ...parameters },
		input,
		store,
		continueOnFail,
	});

/**
 * The credential's Web Service Client ID is the field `webServiceClientId` (n8n's editor
 * relabels a field named `clientId` "Client ID"); a credential saved before the rename carries
 * only `clientId`, and keeps working: in a run of the node, in the credential test and in the
 * trigger's poll. The credential is loaded as n8n loads it (the stored values of declared
 * fields, the defaults of the others; CredentialStore.loadAsN8n), so a field no longer declared
 * would be dropped and the default eudr-test sent instead: the fake's user here has another
 * client id, which the fake checks on every call.
 */
import type { IDataObject, IHttpRequestHelper } from 'n8n-workflow';
// n8n's own request helper (the one n8n hands preAuthentication in a credential test)
import { httpRequest } from 'n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions';

import { EuInformationSystemApi } from '../../../credentials/EuInformationSystemApi.credentials';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { CredentialStore } from '../../helpers/engine';
import { useFakeEu } from '../../helpers/fakeEu';
import { EU_TRIGGER } from '../euTrigger/helpers';
import { runPoll } from '../../helpers/poll';
import { EU_CREDENTIAL, runEu } from './helpers';

const CLIENT_ID = 'operator-client-7';
const helper = { helpers: { httpRequest } } as unknown as IHttpRequestHelper;

describe('the Web Service Client ID: webServiceClientId, and clientId of a credential saved before', () => {
	const eu = useFakeEu({
		ratePerSecond: 0,
		securityFaults: 'named',
		users: [{ username: 'client-id-user', clientId: CLIENT_ID }],
	});
	beforeEach(() => resetEuRateLimit());

	/** The credential as stored: the fake's user, its client id under `field` (or none). */
	const stored = (field: 'webServiceClientId' | 'clientId' | null, value = CLIENT_ID) => {
		const user = eu.fake.users[0];
		const data: IDataObject = {
			environment: 'custom',
			customUrl: eu.fake.url,
			username: user.username,
			authKey: user.key,
			checkedAt: '2026-01-01T00:00:00.000Z',
		};
		if (field) data[field] = value;
		const store = new CredentialStore({ [EU_CREDENTIAL]: data as never });
		store.loadAsN8n = true;
		return store;
	};
	/** A Get of a UUID no one filed: an authenticated call answers "not visible". */
	const get = async (store: CredentialStore) =>
		await runEu({
			parameters: { operation: 'get', uuids: '00000000-0000-4000-8000-000000000001' },
			store,
		});
	const ACCEPTED = /^No statement with UUID 00000000-0000-4000-8000-000000000001 is visible/;

	it('a run sends the client id of webServiceClientId', async () => {
		const run = await get(stored('webServiceClientId'));
		expect(run.error?.message).toMatch(ACCEPTED);
	});

	it('a run of a credential saved with only clientId sends that client id (not eudr-test)', async () => {
		const run = await get(stored('clientId'));
		expect(run.error?.message).toMatch(ACCEPTED);
	});

	it('the check can fail: with neither, eudr-test is sent and refused, naming the field', async () => {
		const run = await get(stored(null));
		expect(run.error?.message).toMatch(
			/^The EU Information System did not accept the Web Service Client ID of the credential \("eudr-test"\)/,
		);
	});

	it('the credential test of a credential saved with only clientId passes', async () => {
		const type = new EuInformationSystemApi();
		const user = eu.fake.users[0];
		const saved = {
			environment: 'custom',
			customUrl: eu.fake.url,
			username: user.username,
			authKey: user.key,
		};
		await expect(
			type.preAuthentication.call(helper, { ...saved, clientId: CLIENT_ID, checkedAt: '' }),
		).resolves.toEqual({ checkedAt: expect.any(String) });
		// and a wrong one in the renamed field is refused, in plain words
		await expect(
			type.preAuthentication.call(helper, {
				...saved,
				webServiceClientId: 'eudr-tset',
				clientId: CLIENT_ID,
				checkedAt: '',
			}),
		).rejects.toThrow(/did not accept the Web Service Client ID of the credential \("eudr-tset"\)/);
	});

	it("the trigger's poll of a credential saved with only clientId succeeds", async () => {
		const result = await runPoll({
			parameters: { internalReferencePrefix: 'CID-' },
			store: stored('clientId'),
			trigger: EU_TRIGGER,
		});
		expect(result.error).toBeUndefined();
		const wrong = await runPoll({
			parameters: { internalReferencePrefix: 'CID-' },
			store: stored('clientId', 'eudr-tset'),
			trigger: EU_TRIGGER,
		});
		expect(String(wrong.error?.message)).toMatch(/Web Service Client ID/);
	});
});

/**
 * The Authentication Key appears nowhere in a run of the EU Information System node against
 * the EU fake: not in outputs, errors (message, description, context) or the run data, in any
 * form (as typed, Base64, Base64URL, URL-encoded), whether the key is right or wrong.
 */
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, keyLeaks, runEu } from './helpers';

describe('the Authentication Key never shows in a run', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());

	it('not in the outputs of a lookup', async () => {
		const user = eu.fake.users[0];
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'NOTHING-FILED' },
			store: euStore(eu.fake.url, user),
		});
		expect(result.error).toBeUndefined();
		expect(keyLeaks(result, user.key)).toEqual([]);
	});

	it('not in the error when the key is wrong', async () => {
		const wrong = {
			...eu.fake.users[0],
			key: ['wrong', 'authentication', 'value', '42'].join('-'),
		};
		const result = await runEu({
			parameters: { operation: 'get', uuids: '00000000-0000-4000-8000-000000000001' },
			store: euStore(eu.fake.url, wrong),
		});
		expect(result.error).toBeDefined();
		expect(keyLeaks(result, wrong.key)).toEqual([]);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});
});

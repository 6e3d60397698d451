/**
 * Due Diligence Statement → Withdraw through n8n's engine against the EU fake: inside the
 * 72-hour window it is sent after a fresh look at the statement; outside it (a fake whose
 * lifecycle clock started 73 hours ago filed it then) it is refused before anything is sent.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readSubmitAnswer } from '../../../nodes/shared/dds/answers';
import { submitDdsBody } from '../../../nodes/shared/dds/requests';
import { soapRequest } from '../../../nodes/shared/transport/soapRequest';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { plainHttp } from '../../helpers/plainHttp';
import { euStore, jsonOf, keyLeaks, runEu } from './helpers';

const HOUR = 3_600_000;

/** The withdraw tests, against a fake whose lifecycle clock starts `hoursAgo` hours ago. */
function withdrawTests(
	hoursAgo: number,
	tests: (eu: ReturnType<typeof useFakeEu>, filed: (ref: string) => Promise<string>) => void,
) {
	const eu = useFakeEu({
		ratePerSecond: 0,
		availableAfterMs: 1000,
		startTime: Date.now() - hoursAgo * HOUR,
	});
	beforeEach(() => resetEuRateLimit());

	/** Files a statement straight through the transport and lets the fake make it AVAILABLE. */
	async function filed(ref: string): Promise<string> {
		const store = euStore(eu.fake.url, eu.fake.users[0]);
		const ctx = {
			helpers: { httpRequest: plainHttp().httpRequest },
			getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
			getNodeParameter: (_n: string, _i: number, fallback: unknown) => fallback,
			getCredentials: async () => store.data.euInformationSystemApi,
		} as unknown as IExecuteFunctions;
		const ok = await soapRequest.call(ctx, {
			service: 'dds',
			operation: 'submitDds',
			body: submitDdsBody('OPERATOR', {
				internalReferenceNumber: ref,
				activityType: 'IMPORT',
				commodities: [
					{
						descriptors: { descriptionOfGoods: 'Soy beans', goodsMeasure: { netWeight: '300' } },
						hsHeading: '1201',
						producers: [
							{
								country: 'BR',
								geometryGeojson: JSON.stringify({
									type: 'Point',
									coordinates: [-55.512345, -6.712345],
								}),
							},
						],
					},
				],
				geoLocationConfidential: false,
			}),
			idempotent: false,
		});
		eu.fake.clock.advance(2000);
		return readSubmitAnswer(ok.element).uuid;
	}

	tests(eu, filed);
}

const withdrawals = (eu: ReturnType<typeof useFakeEu>) =>
	eu.fake.requests().filter((r) => r.operation === 'withdrawDds').length;

describe('Due Diligence Statement → Withdraw inside the 72-hour window (EU fake)', () => {
	withdrawTests(0, (eu, filed) => {
		it('withdraws inside the 72-hour window', async () => {
			const uuid = await filed('WD-0001');
			const result = await runEu({
				parameters: { operation: 'withdraw', uuid },
				store: euStore(eu.fake.url, eu.fake.users[0]),
			});
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([expect.objectContaining({ uuid, status: 'WITHDRAWN' })]);
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('WITHDRAWN');
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		});
	});
});

describe('Due Diligence Statement → Withdraw after the 72-hour window (EU fake filed it 73 hours ago)', () => {
	withdrawTests(73, (eu, filed) => {
		it('refuses outside the 72-hour window before sending the withdrawal', async () => {
			const uuid = await filed('WD-0002');
			const before = withdrawals(eu);
			const result = await runEu({
				parameters: { operation: 'withdraw', uuid },
				store: euStore(eu.fake.url, eu.fake.users[0]),
			});
			expect(result.error?.message).toMatch(
				new RegExp(`^The statement ${uuid} cannot be withdrawn: `),
			);
			expect(result.error?.description).toMatch(/^Nothing was sent\./);
			expect(withdrawals(eu)).toBe(before);
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('AVAILABLE');
		});
	});
});

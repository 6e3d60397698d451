/**
 * Due Diligence Statement → Withdraw through n8n's engine against the EU fake: sent after a
 * fresh look at the statement. A SUBMITTED statement is sent too (live acceptance withdrew one,
 * pack §12: the EU decides; a fake keeping the V3 text refuses it, and the node says so). The
 * 72 hours are the EU's to judge: no answer carries the submission date, so past them (a fake
 * whose lifecycle clock started 73 hours ago filed it then) the withdrawal is sent and the EU's
 * refusal says when the statement was last updated — never "submitted on" that date.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { readSubmitAnswer } from '../../../nodes/shared/dds/answers';
import { submitDdsBody } from '../../../nodes/shared/dds/requests';
import { soapRequest } from '../../../nodes/shared/transport/soapRequest';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import type { FakeEuOptions } from '../../fake-eu';
import { useFakeEu } from '../../helpers/fakeEu';
import { plainHttp } from '../../helpers/plainHttp';
import { euStore, jsonOf, keyLeaks, runEu } from './helpers';

const HOUR = 3_600_000;

type Filed = (ref: string, o?: { available?: boolean }) => Promise<string>;

/** The withdraw tests, against a fake whose lifecycle clock starts `hoursAgo` hours ago. */
function withdrawTests(
	hoursAgo: number,
	tests: (eu: ReturnType<typeof useFakeEu>, filed: Filed) => void,
	options: FakeEuOptions = {},
) {
	const eu = useFakeEu({
		ratePerSecond: 0,
		availableAfterMs: 1000,
		startTime: Date.now() - hoursAgo * HOUR,
		...options,
	});
	beforeEach(() => resetEuRateLimit());

	/** Files a statement straight through the transport and (unless told) lets the fake make it AVAILABLE. */
	async function filed(ref: string, o: { available?: boolean } = {}): Promise<string> {
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
		if (o.available !== false) eu.fake.clock.advance(2000);
		return readSubmitAnswer(ok.element).uuid;
	}

	tests(eu, filed);
}

type Eu = ReturnType<typeof useFakeEu>;
const withdrawRequests = (eu: Eu) =>
	eu.fake.requests().filter((r) => r.operation === 'withdrawDds');
const withdrawals = (eu: Eu) => withdrawRequests(eu).length;
/** What the fake answered the last withdrawDds (its error code, or its outcome). */
const lastWithdrawal = (eu: Eu) => withdrawRequests(eu).at(-1)?.outcome;

/** Withdraws `uuid` through n8n's engine as the fake's first user. */
const withdraw = async (eu: Eu, uuid: string) =>
	await runEu({
		parameters: { operation: 'withdraw', uuid },
		store: euStore(eu.fake.url, eu.fake.users[0]),
	});

describe('Due Diligence Statement → Withdraw inside the 72-hour window (EU fake)', () => {
	withdrawTests(0, (eu, filed) => {
		it('withdraws inside the 72-hour window', async () => {
			const uuid = await filed('WD-0001');
			const result = await withdraw(eu, uuid);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([expect.objectContaining({ uuid, status: 'WITHDRAWN' })]);
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('WITHDRAWN');
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		});
	});
});

describe('Due Diligence Statement → Withdraw of a SUBMITTED statement (EU fake as seen live)', () => {
	withdrawTests(0, (eu, filed) => {
		it('is sent, not refused before: the EU withdraws it (pack §12), and no numbers are promised', async () => {
			const uuid = await filed('WD-SUB-1', { available: false });
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('SUBMITTED');
			const before = withdrawals(eu);
			const result = await withdraw(eu, uuid);
			expect(result.error).toBeUndefined();
			expect(withdrawals(eu)).toBe(before + 1);
			const [out] = jsonOf(result);
			expect(out).toMatchObject({ uuid, status: 'WITHDRAWN', referenceNumber: null });
			expect(String(out.numbersNote)).not.toMatch(/once the statement is AVAILABLE/);
			eu.fake.clock.advance(60_000);
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('WITHDRAWN');
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		});
	});
});

describe('Due Diligence Statement → Withdraw of a SUBMITTED statement (EU fake keeping the V3 text)', () => {
	withdrawTests(
		0,
		(eu, filed) => {
			it('is sent once; the EU refuses it and the node says so, naming the status', async () => {
				const uuid = await filed('WD-SUB-2', { available: false });
				const before = withdrawals(eu);
				const result = await withdraw(eu, uuid);
				expect(withdrawals(eu)).toBe(before + 1);
				expect(lastWithdrawal(eu)).toBe('EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS');
				expect(result.error).toBeDefined();
				expect(result.error?.message).toMatch(
					/cannot be amended or withdrawn in its current status/,
				);
				expect(result.error?.description).toMatch(
					/The statement was SUBMITTED when read just before: the EU Information System did not take its withdrawal before processing it\. Wait until it is AVAILABLE/,
				);
				expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('SUBMITTED');
			});
		},
		{ withdrawSubmitted: false },
	);
});

describe('Due Diligence Statement → Withdraw after the 72-hour window (EU fake filed it 73 hours ago)', () => {
	withdrawTests(73, (eu, filed) => {
		it('is sent (the EU judges the 72 hours); its refusal says when the statement was last updated, never "submitted on"', async () => {
			const uuid = await filed('WD-0002');
			// the fake's lifecycle clock catches up with this machine's: filed 73 hours ago on both
			eu.fake.clock.advance(73 * HOUR);
			const before = withdrawals(eu);
			const result = await withdraw(eu, uuid);
			expect(withdrawals(eu)).toBe(before + 1);
			expect(lastWithdrawal(eu)).toBe('EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE');
			const text = `${result.error?.message} ${result.error?.description}`;
			expect(text).toMatch(/no longer be amended or withdrawn/);
			expect(text).toMatch(
				/The EU Information System gives no submission date; the statement was last updated on \S+ \(7[23] hours ago\), and submitted on or before that\./,
			);
			expect(text).toMatch(
				/More than 72 hours have passed since then, so also since its submission/,
			);
			expect(text).not.toMatch(/submitted on \d/);
			expect(eu.fake.statements().find((s) => s.uuid === uuid)?.status).toBe('AVAILABLE');
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		});
	});
});

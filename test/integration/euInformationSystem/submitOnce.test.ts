/**
 * Exactly-once Submit against the EU fake (issue 29's acceptance), at the level of
 * submitOnce (the function Submit's batches call) until the items part's statement fields
 * are merged and the node's Submit can be run through the engine: the fake processes the
 * submission and loses its answer; the run recovers the statement by lookup, and a second
 * run returns it instead of filing again: ONE statement on the fake.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { submitDdsBody } from '../../../nodes/shared/dds/requests';
import type { Statement } from '../../../nodes/shared/dds/statement';
import { FILED_BY, submitOnce } from '../../../nodes/shared/dds/submitOnce';
import type { SubmitOnce } from '../../../nodes/shared/dds/submitOnce';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { plainHttp } from '../../helpers/plainHttp';
import { euStore, keyForms } from './helpers';

const statement = (ref: string): Statement => ({
	internalReferenceNumber: ref,
	activityType: 'IMPORT',
	commodities: [
		{
			descriptors: { descriptionOfGoods: 'Soy beans', goodsMeasure: { netWeight: '300' } },
			hsHeading: '1201',
			producers: [
				{
					country: 'BR',
					geometryGeojson: JSON.stringify({ type: 'Point', coordinates: [-55.512345, -6.712345] }),
				},
			],
		},
	],
	geoLocationConfidential: false,
});

describe('Submit exactly once against the EU fake', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});

	function context(): IExecuteFunctions {
		const store = euStore(eu.fake.url, eu.fake.users[0]);
		const { httpRequest } = plainHttp();
		return {
			helpers: { httpRequest },
			getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
			getNodeParameter: (_n: string, _i: number, fallback: unknown) => fallback,
			getCredentials: async () => store.data.euInformationSystemApi,
		} as unknown as IExecuteFunctions;
	}

	const order = (ref: string, over: Partial<SubmitOnce> = {}): SubmitOnce => ({
		internalReference: ref,
		body: submitDdsBody('OPERATOR', statement(ref)),
		itemIndex: 0,
		ifAlreadyFiled: 'returnExisting',
		simplify: true,
		itemsLabel: 'items 0, 1',
		...over,
	});
	const filed = (ref: string) =>
		eu.fake.statements().filter((s) => s.internalReferenceNumber === ref);
	const submissions = () => eu.fake.requests().filter((r) => r.operation === 'submitDds').length;

	it('recovers a submission whose answer was lost, and a re-run files nothing more', async () => {
		eu.fake.faults.loseAnswers('submitDds', 1);
		const first = await submitOnce(context(), order('LOST-0001'));
		expect(first).toEqual([
			expect.objectContaining({
				filedBy: FILED_BY.recovered,
				internalReferenceNumber: 'LOST-0001',
			}),
		]);
		const again = await submitOnce(context(), order('LOST-0001'));
		expect(again).toEqual([
			expect.objectContaining({ uuid: first[0].uuid, filedBy: FILED_BY.earlier }),
		]);
		expect(filed('LOST-0001')).toHaveLength(1);
		expect(submissions()).toBe(1);
		const text = JSON.stringify([first, again]);
		for (const form of keyForms(eu.fake.users[0].key)) expect(text).not.toContain(form);
	});

	it('If Already Filed: Fail names the statement and sends nothing', async () => {
		await submitOnce(context(), order('FAIL-0001'));
		const before = submissions();
		const error = (await submitOnce(
			context(),
			order('FAIL-0001', { ifAlreadyFiled: 'fail' }),
		).catch((e: unknown) => e)) as Error;
		expect(error.message).toMatch(
			/^A statement with Internal Reference "FAIL-0001" \(items 0, 1\) is already filed: UUID [0-9a-f-]+, status SUBMITTED, reference number \(none yet\)$/,
		);
		expect(submissions()).toBe(before);
		expect(filed('FAIL-0001')).toHaveLength(1);
	});

	it('a statement whose reference only contains another is not taken for it', async () => {
		await submitOnce(context(), order('PART-00011'));
		const out = await submitOnce(context(), order('PART-0001'));
		expect(out).toEqual([expect.objectContaining({ filedBy: FILED_BY.now })]);
		expect(filed('PART-0001')).toHaveLength(1);
	});
});

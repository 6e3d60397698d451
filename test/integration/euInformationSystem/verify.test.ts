/**
 * Declaration → Verify through n8n's engine against the EU fake (its Verify service, any
 * operator's DDS or SD): one output item per input item, paired, in input order; usable,
 * not usable (with the status), NON_EXISTENT an answer and not an error; the numbers checked
 * before any request; a 5xx retried (a read); the key nowhere in the run.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_AVAILABLE_AFTER_MS } from '../../fake-eu';
import { submit } from '../../fake-eu/contract/harness';
import { availableSd } from '../../fake-eu/contract/sdHarness';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, jsonOf, keyLeaks, runEu } from './helpers';

const START = Date.parse('2026-05-20T10:00:00Z');

describe('Declaration → Verify (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0, startTime: START });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const verifyRows = async (input: IDataObject[], extra: { continueOnFail?: boolean } = {}) =>
		await runEu({
			parameters: {
				resource: 'declaration',
				operation: 'verify',
				referenceNumber: '={{ $json.ref }}',
				verificationNumber: '={{ $json.ver }}',
			},
			input,
			store: store(),
			...extra,
		});
	const verifies = () => eu.fake.requests().filter((r) => r.operation === 'verifyDeclaration');

	async function availableDds(internalReference: string) {
		const uuid = await submit(eu.fake, { internalReference });
		eu.fake.clock.advance(DEFAULT_AVAILABLE_AFTER_MS);
		return eu.fake.statements().find((s) => s.uuid === uuid)!;
	}

	it('answers each row: usable, not usable with its status, not found — in input order, paired', async () => {
		const a = await availableDds('VER-A');
		const b = await availableDds('VER-B');
		eu.fake.events.setStatus(b.uuid, 'WITHDRAWN');
		const sd = await availableSd(eu.fake);
		const before = verifies().length;
		const result = await verifyRows([
			{ ref: a.referenceNumber, ver: a.verificationNumber },
			{ ref: b.referenceNumber, ver: b.verificationNumber },
			{ ref: a.referenceNumber, ver: b.verificationNumber },
			{ ref: sd.referenceNumber, ver: sd.verificationNumber },
		]);
		expect(result.error).toBeUndefined();
		const now = new Date(eu.fake.clock.now()).toISOString();
		expect(jsonOf(result)).toEqual([
			{
				referenceNumber: a.referenceNumber,
				verificationNumber: a.verificationNumber,
				result: 'EXISTING_USABLE',
				usable: true,
				status: 'AVAILABLE',
				checkedAt: now,
				message: `The statement with reference number ${a.referenceNumber} and verification number ${a.verificationNumber} exists and can be used (status AVAILABLE).`,
			},
			{
				referenceNumber: b.referenceNumber,
				verificationNumber: b.verificationNumber,
				result: 'EXISTING_NON_USABLE',
				usable: false,
				status: 'WITHDRAWN',
				checkedAt: now,
				message: `The statement with reference number ${b.referenceNumber} and verification number ${b.verificationNumber} exists but cannot be used: its status is WITHDRAWN (it was withdrawn by the operator who filed it). Ask the supplier for a valid statement.`,
			},
			{
				referenceNumber: a.referenceNumber,
				verificationNumber: b.verificationNumber,
				result: 'NON_EXISTENT',
				usable: false,
				status: null,
				checkedAt: now,
				message: `No statement matches reference number ${a.referenceNumber} with verification number ${b.verificationNumber}. Check both numbers with the supplier: the verification number must be the one given with this reference number.`,
			},
			expect.objectContaining({ result: 'EXISTING_USABLE', usable: true, status: 'AVAILABLE' }),
		]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(verifies().length - before).toBe(4);
		expect(
			verifies()
				.slice(before)
				.every((r) => r.status === 200),
		).toBe(true);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('passes a status the node does not know through (an event of the EU side)', async () => {
		const c = await availableDds('VER-C');
		eu.fake.events.setStatus(c.uuid, 'QUARANTINED');
		const [out] = jsonOf(await verifyRows([{ ref: c.referenceNumber, ver: c.verificationNumber }]));
		expect(out).toMatchObject({
			result: 'EXISTING_NON_USABLE',
			usable: false,
			status: 'QUARANTINED',
		});
		expect(out.message).toMatch(/its status is QUARANTINED\. Ask the supplier/);
	});

	it('refuses numbers that cannot be valid before any request, naming every item and field', async () => {
		const before = eu.fake.requests().length;
		const result = await verifyRows([
			{ ref: '25FRAB12CD34EF9', ver: 'K7R8LA90' },
			{ ref: '25FRAB12CD34EF', ver: 'K7R8' },
			{ ref: '', ver: 'K7R8LA90' },
		]);
		expect(result.error?.message).toBe(
			'Item 0, field "Reference Number": "25FRAB12CD34EF9" has 15 characters; a reference number has at most 14 (e.g. 25NLSN6LX69730). Check that the reference number, not the verification number or the internal reference, is mapped here. (and 2 more problems in 3 items)',
		);
		expect(result.error?.description).toMatch(/^Nothing was sent to the service\./);
		expect(result.error?.description).toMatch(
			/Item 1, field "Verification Number": "K7R8" has 4 characters/,
		);
		expect(result.error?.description).toMatch(
			/Item 2, field "Reference Number": no reference number was given/,
		);
		expect(eu.fake.requests().length).toBe(before);
	});

	it('with Continue On Fail, a bad row is an error item and the others are verified', async () => {
		const d = await availableDds('VER-D');
		const result = await verifyRows(
			[
				{ ref: d.referenceNumber, ver: d.verificationNumber },
				{ ref: d.referenceNumber, ver: '' },
			],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const [ok, bad] = jsonOf(result);
		expect(ok).toMatchObject({ result: 'EXISTING_USABLE', usable: true });
		expect(bad.error).toMatch(
			/^Item 1, field "Verification Number": no verification number was given/,
		);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('retries a 5xx (Verify only reads) and answers', async () => {
		const e = await availableDds('VER-E');
		eu.fake.faults.failNext('verifyDeclaration', { count: 1, status: 503 });
		const before = verifies().length;
		const result = await verifyRows([{ ref: e.referenceNumber, ver: e.verificationNumber }]);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ result: 'EXISTING_USABLE' });
		expect(verifies().length - before).toBe(2);
	});

	it("says the EU's refusal of a number's format in its words, per item with Continue On Fail", async () => {
		const result = await verifyRows([{ ref: 'lowercase1234a', ver: 'K7R8LA90' }], {
			continueOnFail: true,
		});
		const [item] = jsonOf(result);
		expect(String(item.error)).toMatch(/Reference number format is invalid/);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});
});

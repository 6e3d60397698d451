/**
 * Due Diligence Statement → Amend through n8n's engine against the EU fake: the output carries
 * the numbers the statement has — read again after the amendment (its new version), or, when
 * that read fails (the amendment is done all the same), as read just before it, saying so —
 * and a note on the numbers only when they are absent. Past the 72 hours (the fake's clock
 * and this machine's agree: filed 73 hours ago on both) the amendment is sent and the EU's
 * refusal says when the statement was last updated: the EU gives no submission date.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { ddsSubmitParameters, euStore, jsonOf, keyLeaks, runEu, squarePlot } from './helpers';

const HOUR = 3_600_000;

const plot = (x: number) => ({
	geometry: squarePlot(x, 6.5),
	country: 'CI',
	producer: 'Coop A',
});

const parameters = (over: INodeParameters = {}): INodeParameters => ddsSubmitParameters('po', over);

function amendTests(hoursAgo: number, tests: (eu: ReturnType<typeof useFakeEu>) => void) {
	const eu = useFakeEu({
		ratePerSecond: 0,
		availableAfterMs: 60_000,
		startTime: Date.now() - hoursAgo * HOUR,
	});
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	tests(eu);
}

const run = async (
	eu: ReturnType<typeof useFakeEu>,
	over: INodeParameters,
	po: string,
	rows: IDataObject[] = [plot(-5.3)],
) =>
	await runEu({
		parameters: parameters(over),
		input: rows.map((r) => ({ ...r, po })),
		store: euStore(eu.fake.url, eu.fake.users[0]),
	});

const stored = (eu: ReturnType<typeof useFakeEu>, uuid: unknown) =>
	eu.fake.statements().find((s) => s.uuid === uuid)!;

describe('Due Diligence Statement → Amend: the numbers it has (EU fake)', () => {
	amendTests(0, (eu) => {
		it('outputs the reference and verification numbers of the amended statement, read again, without a note', async () => {
			const [filed] = jsonOf(await run(eu, {}, 'AM-0001'));
			eu.fake.clock.advance(2 * 60_000);
			const result = await run(eu, { operation: 'amend', uuid: String(filed.uuid) }, 'AM-0001', [
				plot(-5.3),
				plot(-5.29),
			]);
			expect(result.error).toBeUndefined();
			const s = stored(eu, filed.uuid);
			expect(s.version).toBe(2);
			const [out] = jsonOf(result);
			expect(out).toMatchObject({
				uuid: filed.uuid,
				status: 'AVAILABLE',
				referenceNumber: s.referenceNumber,
				verificationNumber: s.verificationNumber,
				internalReferenceNumber: 'AM-0001',
				amended: true,
			});
			expect(s.referenceNumber).toMatch(/^\d{2}FR[A-Z0-9]{10}$/);
			expect(out.numbersNote).toBeUndefined();
			// the read after the amendment: getDds once before (the check) and once after
			const calls = eu.fake.requests().map((r) => r.operation);
			expect(calls.slice(calls.lastIndexOf('amendDds'))).toEqual(['amendDds', 'getDds']);
			expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		});

		it('when the read after the amendment fails, the numbers read just before it, said so (the amendment stands)', async () => {
			const [filed] = jsonOf(await run(eu, {}, 'AM-0002'));
			eu.fake.clock.advance(2 * 60_000);
			const hold = eu.fake.faults.hold('amendDds');
			const running = run(eu, { operation: 'amend', uuid: String(filed.uuid) }, 'AM-0002');
			await hold.arrived;
			eu.fake.faults.failNext('getDds', { status: 400 });
			hold.release();
			const result = await running;
			expect(result.error).toBeUndefined();
			const s = stored(eu, filed.uuid);
			expect(s.version).toBe(2);
			const [out] = jsonOf(result);
			expect(out).toMatchObject({
				status: 'AVAILABLE',
				referenceNumber: s.referenceNumber,
				verificationNumber: s.verificationNumber,
				amended: true,
			});
			expect(out.numbersNote).toMatch(
				/^The reference and verification numbers are those the EU Information System showed just before the amendment \(an amendment keeps the reference number\); reading it again failed \(.+\)\. Get the statement to confirm them\.$/,
			);
			expect(out.numbersNote).not.toMatch(/once the statement is AVAILABLE/);
		});
	});
});

describe('Due Diligence Statement → Amend after the 72 hours (EU fake filed it 73 hours ago)', () => {
	amendTests(73, (eu) => {
		it('is sent (the EU judges the 72 hours); its refusal says when the statement was last updated', async () => {
			const [filed] = jsonOf(await run(eu, {}, 'AM-LATE-1'));
			eu.fake.clock.advance(73 * HOUR);
			const before = eu.fake.requests().filter((r) => r.operation === 'amendDds').length;
			const result = await run(eu, { operation: 'amend', uuid: String(filed.uuid) }, 'AM-LATE-1');
			const amends = eu.fake.requests().filter((r) => r.operation === 'amendDds');
			expect(amends).toHaveLength(before + 1);
			expect(amends.at(-1)?.outcome).toBe('EUDR_API_AMEND_OR_WITHDRAW_DDS_NOT_POSSIBLE');
			const text = `${result.error?.message} ${result.error?.description}`;
			expect(text).toMatch(/no longer be amended or withdrawn/);
			expect(text).toMatch(
				/gives no submission date; the statement was last updated on \S+ \(7[23] hours ago\), and submitted on or before that/,
			);
			expect(text).not.toMatch(/submitted on \d/);
			expect(stored(eu, filed.uuid).version).toBe(1);
		});
	});
});

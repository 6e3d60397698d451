/**
 * Grouped declarations end to end (issue 30, reference pack §5–§6), through n8n's engine
 * against the EU fake: a due-diligence statement and a simplified declaration filed and made
 * AVAILABLE; a second statement filed with Grouped Declarations naming both reference numbers
 * (a DDS may group DDS and SD); both shown GROUPED by Get; Amend and Withdraw of the grouped
 * statement, and Withdraw of the grouped SD, refused before anything is sent. Every body the
 * node sent validated against the EU's XSDs (the fake refuses others as SCHEMA).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	ddsParameters,
	ddsPlotRow as ddsRow,
	jsonOf,
	runEu,
	sdParameters,
	sdPlotRow as sdRow,
	useEuFake,
} from './helpers';

const { eu, store, sent } = useEuFake();
const HOUR = 3_600_000;

async function run(parameters: INodeParameters, input: IDataObject[] = [{}]) {
	return await runEu({ parameters, input, store: store() });
}

describe('Grouped declarations', () => {
	it('a DDS groups an earlier DDS and an SD: both GROUPED, and their changes refused before sending', async () => {
		const member = await run(ddsParameters(), [ddsRow('GRP-MEMBER-1')]);
		expect(member.error).toBeUndefined();
		const sd = await run(sdParameters(), [sdRow('SD-GRP-MEM-1')]);
		expect(sd.error).toBeUndefined();
		eu.fake.clock.advance(HOUR);

		const [ddsMember] = jsonOf(
			await run({
				resource: 'dueDiligenceStatement',
				operation: 'get',
				uuids: String(jsonOf(member)[0].uuid),
			}),
		);
		const [sdMember] = jsonOf(
			await run({
				resource: 'simplifiedDeclaration',
				operation: 'get',
				uuids: String(jsonOf(sd)[0].uuid),
			}),
		);
		expect([ddsMember.status, sdMember.status]).toEqual(['AVAILABLE', 'AVAILABLE']);
		expect(ddsMember.referenceNumber).toEqual(expect.any(String));
		expect(sdMember.referenceNumber).toMatch(/^S/);

		// the grouping statement names both reference numbers (one wrapper each on the wire)
		const group = await run(
			ddsParameters({
				statementOptions: {
					groupedDeclarations: `${String(ddsMember.referenceNumber)}, ${String(sdMember.referenceNumber)}`,
				},
			}),
			[ddsRow('GRP-GROUP-1', -5.2)],
		);
		expect(group.error).toBeUndefined();
		const stored = eu.fake.statements().find((s) => s.internalReferenceNumber === 'GRP-GROUP-1');
		expect(stored?.groups.sort()).toEqual(
			[String(ddsMember.referenceNumber), String(sdMember.referenceNumber)].sort(),
		);

		// Get shows the members GROUPED
		const [ddsAfter] = jsonOf(
			await run({
				resource: 'dueDiligenceStatement',
				operation: 'get',
				uuids: String(ddsMember.uuid),
			}),
		);
		const [sdAfter] = jsonOf(
			await run({
				resource: 'simplifiedDeclaration',
				operation: 'get',
				uuids: String(sdMember.uuid),
			}),
		);
		expect([ddsAfter.status, sdAfter.status]).toEqual(['GROUPED', 'GROUPED']);

		// a grouped statement is not amended or withdrawn alone: said before anything is sent
		const counts = () =>
			['amendDds', 'withdrawDds', 'withdrawSd', 'updateSd'].map((op) => sent(op).length);
		const before = counts();
		const amend = await run(ddsParameters({ operation: 'amend', uuid: String(ddsMember.uuid) }), [
			ddsRow('GRP-MEMBER-1'),
		]);
		expect(`${amend.error?.message} ${amend.error?.description ?? ''}`).toMatch(/GROUPED/);
		const withdraw = await run({
			resource: 'dueDiligenceStatement',
			operation: 'withdraw',
			uuid: String(ddsMember.uuid),
		});
		expect(`${withdraw.error?.message} ${withdraw.error?.description ?? ''}`).toMatch(/GROUPED/);
		const sdWithdraw = await run({
			resource: 'simplifiedDeclaration',
			operation: 'withdraw',
			uuid: String(sdMember.uuid),
		});
		expect(`${sdWithdraw.error?.message} ${sdWithdraw.error?.description ?? ''}`).toMatch(
			/GROUPED/,
		);
		expect(counts()).toEqual(before);
	});

	it('an SD may group SDs only: a DDS reference in its Grouped Declarations is refused before sending', async () => {
		const member = await run(ddsParameters(), [ddsRow('GRP-MEMBER-2', -5.1)]);
		eu.fake.clock.advance(HOUR);
		const [dds] = jsonOf(
			await run({
				resource: 'dueDiligenceStatement',
				operation: 'get',
				uuids: String(jsonOf(member)[0].uuid),
			}),
		);
		const submits = sent('submitSd').length;
		const refused = await run(
			sdParameters({ statementOptions: { groupedDeclarations: String(dds.referenceNumber) } }),
			[sdRow('SD-GRP-BAD-1')],
		);
		expect(`${refused.error?.message} ${refused.error?.description ?? ''}`).toMatch(
			/may group simplified declarations only/,
		);
		expect(sent('submitSd')).toHaveLength(submits);
	});
});

/**
 * The Simplified Declaration resource through n8n's engine against the EU fake (written from
 * the EU's documents), CF-style (reference pack §10, "Add for V3: SD submit/update/withdraw/
 * get, grouping"): Submit from rows located by geolocation, postal address and cadastral
 * identifier → AVAILABLE with an S reference number → Get, Get by Internal Reference, Get
 * Content; Update → version 2 (version 1 read back); Withdraw; the refusals said before any
 * request; a lost answer resolved by a lookup, never by sending again. Every body the node
 * sent validated against the EU's SD XSD (the fake refuses others as SCHEMA).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	jsonOf,
	keyLeaks,
	runEu,
	sdParameters,
	squarePlot,
	useEuFake,
} from '../euInformationSystem/helpers';

const { eu, store, sent } = useEuFake();
const HOUR = 3_600_000;

const plot = (x: number, producer = 'Ferme A') => ({
	geometry: squarePlot(x, 44.5, 0.002),
	country: 'FR',
	producer,
});

async function run(parameters: INodeParameters, input: IDataObject[] = [{}]) {
	return await runEu({ parameters, input, store: store() });
}

async function submit(ref: string, rows: IDataObject[] = [plot(2.5), plot(2.51)], over = {}) {
	return await run(
		sdParameters(over),
		rows.map((r) => ({ ...r, ref })),
	);
}

const stored = (ref: string) =>
	eu.fake.statements().filter((s) => s.internalReferenceNumber === ref && s.kind === 'sd');

describe('Simplified Declaration: submit → AVAILABLE → get, get content', () => {
	it('files one declaration per Internal Reference from plot rows, exactly once', async () => {
		const result = await submit('SD-GEO-01');
		expect(result.error).toBeUndefined();
		const out = jsonOf(result);
		expect(out).toHaveLength(1);
		expect(out[0]).toMatchObject({ status: 'SUBMITTED', internalReferenceNumber: 'SD-GEO-01' });
		expect(out[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
		expect(stored('SD-GEO-01')).toHaveLength(1);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
		// a second run finds it by its Internal Reference and files nothing
		const before = sent('submitSd').length;
		const again = await submit('SD-GEO-01');
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: out[0].uuid, filedBy: 'before this run' }),
		]);
		expect(sent('submitSd')).toHaveLength(before);
	});

	it('locates producers by postal address and by cadastral identifiers, rows adding up', async () => {
		const rows = [
			{ producer: 'Ferme B', country: 'FR', street: '1 Chemin', postal: '12000', city: 'Rodez' },
			{ producer: 'Ferme B', country: 'FR', postal: '12100', city: 'Millau' },
		];
		const byAddress = await submit('SD-ADR-01', rows, {
			geolocationSource: 'postalAddress',
			producerStreet: '={{ $json.street }}',
			producerPostalCode: '={{ $json.postal }}',
			producerCity: '={{ $json.city }}',
		});
		expect(byAddress.error).toBeUndefined();
		const [declaration] = stored('SD-ADR-01');
		expect(declaration.xml.match(/postalAddress>/g)).toHaveLength(4);
		expect(declaration.xml).toContain('Millau');
		const byParcel = await submit(
			'SD-CAD-01',
			[
				{ producer: 'Ferme C', country: 'FR', parcels: '12202000AB0042, 12202000AB0043' },
				{ producer: 'Ferme C', country: 'FR', parcels: '12202000AB0044' },
			],
			{ geolocationSource: 'cadastralIdentifier', cadastralIdentifiers: '={{ $json.parcels }}' },
		);
		expect(byParcel.error).toBeUndefined();
		expect(stored('SD-CAD-01')[0].xml.match(/<[^/>]*cadastralIdentifier>/g)).toHaveLength(3);
	});

	it('after processing: Get shows AVAILABLE with an S reference number, then Get Content', async () => {
		const [filed] = jsonOf(await submit('SD-GET-01'));
		eu.fake.clock.advance(HOUR);
		const got = await run({
			resource: 'simplifiedDeclaration',
			operation: 'get',
			uuids: String(filed.uuid),
		});
		expect(got.error).toBeUndefined();
		const [overview] = jsonOf(got);
		expect(overview).toMatchObject({ uuid: String(filed.uuid), status: 'AVAILABLE' });
		expect(overview.referenceNumber).toMatch(/^S.{13}$/);
		const byReference = await run({
			resource: 'simplifiedDeclaration',
			operation: 'getByInternalReference',
			internalReference: 'SD-GET',
		});
		expect(jsonOf(byReference).map((o) => o.uuid)).toEqual([filed.uuid]);
		// a DDS lookup does not see the SD
		const asDds = await run({ operation: 'getByInternalReference', internalReference: 'SD-GET' });
		expect(jsonOf(asDds)).toEqual([]);
		const content = await run({
			resource: 'simplifiedDeclaration',
			operation: 'getContent',
			referenceNumber: String(overview.referenceNumber),
			verificationNumber: String(overview.verificationNumber),
		});
		expect(content.error).toBeUndefined();
		const [json] = jsonOf(content);
		expect(json.internalReferenceNumber).toBe('SD-GET-01');
		const [commodity] = json.commodities as IDataObject[];
		const [producer] = commodity.producers as IDataObject[];
		expect(producer).toMatchObject({ producerCountry: 'FR', producerName: 'Ferme A' });
		expect((producer.producerLocation as IDataObject).geometryGeojson).toMatchObject({
			type: 'FeatureCollection',
		});
	});
});

describe('Simplified Declaration: update → version 2, withdraw', () => {
	it('update makes version 2; version 1 is read back; withdraw; then no more update', async () => {
		const [filed] = jsonOf(await submit('SD-UPD-01'));
		eu.fake.clock.advance(HOUR);
		const updated = await run(
			sdParameters({ operation: 'update', uuid: String(filed.uuid), netWeight: '26000' }),
			[plot(2.5), plot(2.51)].map((r) => ({ ...r, ref: 'SD-UPD-01' })),
		);
		expect(updated.error).toBeUndefined();
		expect(jsonOf(updated)).toEqual([
			expect.objectContaining({
				uuid: String(filed.uuid),
				status: 'AVAILABLE',
				version: '2',
				updated: true,
			}),
		]);
		expect(stored('SD-UPD-01')[0].version).toBe(2);
		// the numbers it has: the declaration read again after the update (version 2), no note
		const [out] = jsonOf(updated);
		expect(out).toMatchObject({
			referenceNumber: stored('SD-UPD-01')[0].referenceNumber,
			verificationNumber: stored('SD-UPD-01')[0].verificationNumber,
		});
		expect(out.referenceNumber).toMatch(/^S.{13}$/);
		expect(out.numbersNote).toBeUndefined();
		const versions = await run({
			resource: 'simplifiedDeclaration',
			operation: 'get',
			uuids: String(filed.uuid),
			simplify: false,
			options: { version: 1 },
		});
		expect(jsonOf(versions)).toEqual([
			expect.objectContaining({ uuid: String(filed.uuid), version: '1' }),
		]);
		const current = await run({
			resource: 'simplifiedDeclaration',
			operation: 'get',
			uuids: String(filed.uuid),
			simplify: false,
		});
		expect(jsonOf(current)).toEqual([
			expect.objectContaining({ version: '2', status: 'AVAILABLE' }),
		]);
		const withdrawn = await run({
			resource: 'simplifiedDeclaration',
			operation: 'withdraw',
			uuid: String(filed.uuid),
		});
		expect(withdrawn.error).toBeUndefined();
		expect(jsonOf(withdrawn)).toEqual([expect.objectContaining({ status: 'WITHDRAWN' })]);
		const updates = sent('updateSd').length;
		const late = await run(
			sdParameters({ operation: 'update', uuid: String(filed.uuid) }),
			[plot(2.5)].map((r) => ({ ...r, ref: 'SD-UPD-01' })),
		);
		expect(late.error?.message).toMatch(/cannot be updated: the declaration's status is WITHDRAWN/);
		expect(sent('updateSd')).toHaveLength(updates);
	});
});

describe('Simplified Declaration: refusals before anything is sent', () => {
	it('an Internal Reference over 14 characters, a DDS in Grouped Declarations: nothing sent', async () => {
		const before = eu.fake.requests().length;
		const result = await submit('SD-TOO-LONG-REF-1', undefined, {
			statementOptions: { groupedDeclarations: '26FRXXXXXXXXXX' },
		});
		expect(result.error?.message).toMatch(
			/^Declaration "SD-TOO-LONG-REF-1" \(items 0, 1\), field "Internal Reference": it has 17 characters; at most 14/,
		);
		expect(String(result.error?.description)).toMatch(/simplified declarations only/);
		expect(eu.fake.requests()).toHaveLength(before);
	});

	it('a representative without the operator it represents, an address without its city: nothing sent', async () => {
		const before = eu.fake.requests().length;
		const rows = [{ producer: 'Ferme D', country: 'FR', postal: '12000' }];
		const result = await submit('SD-REP-01', rows, {
			operatorRole: 'REPRESENTATIVE_MSPO',
			geolocationSource: 'postalAddress',
			producerPostalCode: '={{ $json.postal }}',
			producerCity: '={{ $json.city }}',
		});
		expect(result.error?.message).toMatch(
			/Item 0, field "Producer City": the production place has no city/,
		);
		expect(eu.fake.requests()).toHaveLength(before);
		const represented = await submit('SD-REP-01', [{ ...rows[0], city: 'Rodez' }], {
			operatorRole: 'REPRESENTATIVE_MSPO',
			geolocationSource: 'postalAddress',
			producerPostalCode: '={{ $json.postal }}',
			producerCity: '={{ $json.city }}',
		});
		expect(represented.error?.message).toMatch(
			/^Declaration "SD-REP-01" \(item 0\), field "Represented Operator": an authorised representative files for another operator/,
		);
		expect(eu.fake.requests()).toHaveLength(before);
		const filed = await submit('SD-REP-01', [{ ...rows[0], city: 'Rodez' }], {
			operatorRole: 'REPRESENTATIVE_MSPO',
			geolocationSource: 'postalAddress',
			producerPostalCode: '={{ $json.postal }}',
			producerCity: '={{ $json.city }}',
			statementOptions: {
				representedName: 'Ferme D',
				representedVat: 'FR12345678901',
				representedStreet: '2 Chemin',
				representedPostalCode: '12000',
				representedCity: 'Rodez',
				representedCountry: 'FR',
			},
		});
		expect(filed.error).toBeUndefined();
		expect(stored('SD-REP-01')).toEqual([expect.objectContaining({ role: 'REPRESENTATIVE_MSPO' })]);
	});

	it('update of a SUBMITTED declaration, withdraw of a grouped one: said before sending', async () => {
		const [young] = jsonOf(await submit('SD-YOUNG-1'));
		const updates = sent('updateSd').length;
		const withdrawals = sent('withdrawSd').length;
		const update = await run(
			sdParameters({ operation: 'update', uuid: String(young.uuid) }),
			[plot(2.5)].map((r) => ({ ...r, ref: 'SD-YOUNG-1' })),
		);
		expect(update.error?.message).toMatch(/status is SUBMITTED: only an AVAILABLE declaration/);
		// grouping: an AVAILABLE SD grouped into another turns GROUPED and cannot be withdrawn alone
		eu.fake.clock.advance(HOUR);
		const [member] = jsonOf(
			await run({ resource: 'simplifiedDeclaration', operation: 'get', uuids: String(young.uuid) }),
		);
		const group = await submit(
			'SD-GROUP-1',
			[{ producer: 'Ferme A', country: 'FR', parcels: 'P1' }],
			{
				geolocationSource: 'cadastralIdentifier',
				cadastralIdentifiers: '={{ $json.parcels }}',
				statementOptions: { groupedDeclarations: String(member.referenceNumber) },
			},
		);
		expect(group.error).toBeUndefined();
		const withdraw = await run({
			resource: 'simplifiedDeclaration',
			operation: 'withdraw',
			uuid: String(young.uuid),
		});
		expect(withdraw.error?.message).toMatch(
			/is grouped into another declaration \(status GROUPED\)/,
		);
		expect(sent('updateSd')).toHaveLength(updates);
		expect(sent('withdrawSd')).toHaveLength(withdrawals);
	});

	it('withdraw of a SUBMITTED declaration is sent (the EU decides; a DDS was withdrawn so live): the fake keeps the SD text and refuses it, the node says to wait', async () => {
		const [young] = jsonOf(await submit('SD-YOUNG-2'));
		const withdrawals = sent('withdrawSd').length;
		const withdraw = await run({
			resource: 'simplifiedDeclaration',
			operation: 'withdraw',
			uuid: String(young.uuid),
		});
		expect(sent('withdrawSd')).toHaveLength(withdrawals + 1);
		expect(sent('withdrawSd').at(-1)?.outcome).toBe(
			'EUDR_API_AMEND_OR_WITHDRAW_NOT_ALLOWED_FOR_STATUS',
		);
		expect(withdraw.error?.description).toMatch(
			/The declaration was SUBMITTED when read just before: .* Wait until it is AVAILABLE/,
		);
		expect(stored('SD-YOUNG-2')[0].status).toBe('SUBMITTED');
	});

	it('a domestic net weight without a percentage is not refused before sending (the rule is the DDS’s): filed', async () => {
		const result = await submit('SD-DOM-01', [plot(2.6)], { netWeight: '900' });
		expect(result.error).toBeUndefined();
		expect(stored('SD-DOM-01')).toEqual([expect.objectContaining({ activityType: 'DOMESTIC' })]);
	});
});

describe('Simplified Declaration: exactly once after a lost answer', () => {
	it('the submission is processed but its answer lost: found by lookup, never sent again', async () => {
		eu.fake.faults.loseAnswers('submitSd', 1);
		const before = sent('submitSd').length;
		const first = await submit('SD-LOST-01');
		expect(first.error).toBeUndefined();
		expect(jsonOf(first)).toEqual([
			expect.objectContaining({
				filedBy: 'this run, answer lost',
				internalReferenceNumber: 'SD-LOST-01',
			}),
		]);
		const again = await submit('SD-LOST-01');
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: jsonOf(first)[0].uuid, filedBy: 'before this run' }),
		]);
		expect(sent('submitSd')).toHaveLength(before + 1);
		expect(stored('SD-LOST-01')).toHaveLength(1);
	});
});

/**
 * Output "Input Rows with Statement Fields" (issue 34, rows in, rows out) through n8n's engine
 * against the EU fake: a sheet of plot rows goes into Submit and comes back row by row, in
 * order and paired, each with its statement's dds_* fields first and its own fields unchanged;
 * Get over those rows asks each distinct UUID once and puts the statement's numbers on every
 * row that names it; failed rows keep their fields and get their error (dds_error); the filing gate of
 * the AI tool refuses as before. Every body sent validated against the EU's XSDs (the fake
 * refuses others as SCHEMA).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { businessFault, faultEnvelope } from '../../fake-eu/faults';
import { runNode } from '../../helpers/engine';
import {
	EU_CREDENTIAL,
	EU_TOOL_TYPE,
	ddsParameters,
	ddsPlotRow,
	jsonOf,
	keyLeaks,
	runEu,
	sdParameters,
	sdPlotRow,
	useEuFake,
} from './helpers';

const { eu, store, sent } = useEuFake();
const HOUR = 3_600_000;

const DDS_FIELDS = [
	'dds_status',
	'dds_reference_number',
	'dds_verification_number',
	'dds_uuid',
	'dds_internal_reference',
	'dds_filed_by',
	'dds_updated_at',
	'dds_environment',
	'dds_note',
	'dds_error',
];
const SD_FIELDS = DDS_FIELDS.map((f) => f.replace(/^dds_/, 'sd_'));

async function run(parameters: INodeParameters, input: IDataObject[], continueOnFail = false) {
	return await runEu({ parameters, input, store: store(), continueOnFail });
}

/** A sheet's plot row: the plot, its statement's reference, and columns of the sheet's own. */
const sheetRow = (ref: string, n: number): IDataObject => ({
	...ddsPlotRow(ref, -5.3 + n * 0.01),
	plot_id: `P-${n}`,
	supplier_note: `row ${n}`,
});

/** The row's own fields, after the statement's: the input row exactly. */
const ownFields = (json: IDataObject, prefix = 'dds_') =>
	Object.fromEntries(Object.entries(json).filter(([k]) => !k.startsWith(prefix)));

describe('Output "Input Rows with Statement Fields"', () => {
	it('Submit: 5 plot rows of 2 statements come back as 5 rows, in order, paired, the statement fields first; Get asks each UUID once', async () => {
		const refs = ['ROWS-A-1', 'ROWS-B-1', 'ROWS-A-1', 'ROWS-A-1', 'ROWS-B-1'];
		const sheet = refs.map((ref, n) => sheetRow(ref, n));
		const submitsBefore = sent('submitDds').length;
		const submitted = await run(ddsParameters({ outputMode: 'inputRows' }), sheet);
		expect(submitted.error).toBeUndefined();
		expect(sent('submitDds').length - submitsBefore).toBe(2);

		expect(submitted.items).toHaveLength(5);
		expect(submitted.items.map((i) => i.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		const rows = jsonOf(submitted);
		for (const [n, row] of rows.entries()) {
			expect(Object.keys(row).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			expect(ownFields(row)).toEqual(sheet[n]);
			expect(row).toMatchObject({
				dds_status: 'SUBMITTED',
				dds_reference_number: null,
				dds_verification_number: null,
				dds_internal_reference: refs[n],
				dds_filed_by: 'this run',
				dds_environment: 'custom',
			});
			expect(row.dds_note).toMatch(/only once the statement is AVAILABLE/);
		}
		// each row carries its own statement's UUID: the fake's, by internal reference
		const uuidOf = (ref: string) =>
			eu.fake.statements().find((s) => s.internalReferenceNumber === ref)?.uuid;
		expect(rows.map((r) => r.dds_uuid)).toEqual(refs.map(uuidOf));
		expect(new Set(rows.map((r) => r.dds_uuid)).size).toBe(2);

		// before the statements are AVAILABLE: Get says SUBMITTED (what an IF loops on)
		const early = await run(
			{ operation: 'get', uuids: '={{ $json.dds_uuid }}', outputMode: 'inputRows' },
			rows,
		);
		expect(early.error).toBeUndefined();
		expect(jsonOf(early).map((r) => r.dds_status)).toEqual(Array(5).fill('SUBMITTED'));

		eu.fake.clock.advance(HOUR);
		const getsBefore = sent('getDds').length;
		const got = await run(
			{ operation: 'get', uuids: '={{ $json.dds_uuid }}', outputMode: 'inputRows' },
			rows,
		);
		expect(got.error).toBeUndefined();
		// 5 rows naming 2 UUIDs: each UUID asked once, both in one getDds call (at most 100 a call)
		expect(sent('getDds').length - getsBefore).toBe(1);
		expect(got.items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		const after = jsonOf(got);
		for (const [n, row] of after.entries()) {
			expect(Object.keys(row).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			const stored = eu.fake.statements().find((s) => s.internalReferenceNumber === refs[n])!;
			expect(row).toMatchObject({
				dds_status: 'AVAILABLE',
				dds_reference_number: stored.referenceNumber,
				dds_verification_number: stored.verificationNumber,
				dds_uuid: stored.uuid,
				dds_internal_reference: refs[n],
				// Get keeps who filed it from the row (the same statement)
				dds_filed_by: 'this run',
				dds_environment: 'custom',
				dds_note: null,
			});
			expect(row.dds_reference_number).toEqual(expect.any(String));
			expect(row.dds_updated_at).toEqual(expect.any(String));
			// the row's own fields unchanged, the old dds_* replaced (not duplicated)
			expect(ownFields(row)).toEqual(sheet[n]);
			expect(Object.keys(row).filter((k) => k.startsWith('dds_'))).toEqual(DDS_FIELDS);
		}
		expect(keyLeaks(got, eu.fake.users[0].key)).toEqual([]);

		// a rerun of Submit over the same rows files nothing: the rows get the filed statements
		const again = await run(ddsParameters({ outputMode: 'inputRows' }), sheet);
		expect(again.error).toBeUndefined();
		expect(sent('submitDds').length - submitsBefore).toBe(2);
		expect(jsonOf(again).map((r) => [r.dds_uuid, r.dds_status, r.dds_filed_by])).toEqual(
			refs.map((ref) => [uuidOf(ref), 'AVAILABLE', 'before this run']),
		);
		expect(jsonOf(again).map((r) => r.dds_reference_number)).toEqual(
			after.map((r) => r.dds_reference_number),
		);
	});

	it('Get: many rows naming the same UUIDs make one call per 100 distinct UUIDs; unknown UUIDs fail on their rows only', async () => {
		const filed = await run(ddsParameters({ outputMode: 'inputRows' }), [
			sheetRow('ROWS-GET-1', 0),
		]);
		expect(filed.error).toBeUndefined();
		const known = String(jsonOf(filed)[0].dds_uuid);
		const unknown = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
		// 250 rows: the known UUID on every second row, 119 distinct unknown ones in between
		const rows = Array.from({ length: 250 }, (_, n) => ({
			plot_id: `P-${n}`,
			uuid: n % 2 === 0 ? known : unknown(n % 238),
		}));
		const distinct = new Set(rows.map((r) => r.uuid)).size;
		expect(distinct).toBe(120);
		const before = sent('getDds').length;
		const got = await run(
			{ operation: 'get', uuids: '={{ $json.uuid }}', outputMode: 'inputRows' },
			rows,
			true,
		);
		expect(got.error).toBeUndefined();
		expect(sent('getDds').length - before).toBe(2);
		expect(got.items).toHaveLength(250);
		for (const [n, item] of got.items.entries()) {
			expect(item.pairedItem).toEqual({ item: n });
			expect(Object.keys(item.json).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			expect(ownFields(item.json)).toEqual(rows[n]);
			if (n % 2 === 0) {
				expect(item.json.dds_uuid).toBe(known);
				expect(item.json.dds_error).toBeNull();
			} else {
				expect(item.json.dds_status).toBeNull();
				expect(item.json.dds_error).toMatch(
					`No statement with UUID ${rows[n].uuid} is visible to this account in the EU Information System. Check the Statement UUID`,
				);
			}
		}
	});

	it('Get by Internal Reference: each reference looked up once, the row gets the statement with exactly its reference', async () => {
		const refs = ['ROWS-REF-1', 'ROWS-REF-10', 'ROWS-REF-1', 'ROWS-REF-10', 'ROWS-REF-1'];
		const sheet = refs.map((ref, n) => sheetRow(ref, n));
		expect((await run(ddsParameters(), sheet)).error).toBeUndefined();
		const before = sent('getDdsByInternalReference').length;
		const got = await run(
			{
				operation: 'getByInternalReference',
				internalReference: '={{ $json.ref }}',
				outputMode: 'inputRows',
			},
			sheet,
		);
		expect(got.error).toBeUndefined();
		expect(sent('getDdsByInternalReference').length - before).toBe(2);
		const uuidOf = (ref: string) =>
			eu.fake.statements().find((st) => st.internalReferenceNumber === ref)?.uuid;
		// "ROWS-REF-1" also finds ROWS-REF-10 (the EU's search matches substrings): only the exact one
		expect(jsonOf(got).map((r) => [r.dds_internal_reference, r.dds_uuid])).toEqual(
			refs.map((ref) => [ref, uuidOf(ref)]),
		);
		for (const [n, row] of jsonOf(got).entries()) {
			expect(Object.keys(row).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			expect(ownFields(row)).toEqual(sheet[n]);
		}
	});

	it('Get failing with Continue On Fail: each row keeps the UUID Submit gave it, for the next Get', async () => {
		const sheet = [sheetRow('ROWS-GETFAIL-1', 0), sheetRow('ROWS-GETFAIL-1', 1)];
		const filed = jsonOf(await run(ddsParameters({ outputMode: 'inputRows' }), sheet));
		const refusal = businessFault([
			{ id: 'EUDR_API_TEST_REFUSAL', message: 'Refused by the test', field: null },
		]);
		eu.fake.faults.answerNext('getDds', {
			status: 500,
			body: faultEnvelope(refusal, 'test-request', new Date(), 'underscore'),
		});
		const got = await run(
			{ operation: 'get', uuids: '={{ $json.dds_uuid }}', outputMode: 'inputRows' },
			filed,
			true,
		);
		expect(got.error).toBeUndefined();
		for (const [n, row] of jsonOf(got).entries()) {
			expect(Object.keys(row).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			expect(row).toMatchObject({
				dds_uuid: filed[n].dds_uuid,
				dds_status: 'SUBMITTED',
				dds_filed_by: 'this run',
			});
			expect(String(row.dds_error)).toMatch(/Refused by the test/);
			expect(ownFields(row)).toEqual(sheet[n]);
		}
		// the next Get asks again with the rows as they came back
		eu.fake.clock.advance(HOUR);
		const again = await run(
			{ operation: 'get', uuids: '={{ $json.dds_uuid }}', outputMode: 'inputRows' },
			jsonOf(got),
		);
		expect(again.error).toBeUndefined();
		expect(jsonOf(again).map((r) => [r.dds_status, r.dds_error])).toEqual([
			['AVAILABLE', null],
			['AVAILABLE', null],
		]);
	});

	it('Get: a row naming two statements is refused before any request', async () => {
		const before = eu.fake.requests().length;
		const got = await run(
			{ operation: 'get', uuids: '={{ $json.uuids }}', outputMode: 'inputRows' },
			[
				{
					uuids: '00000000-0000-4000-8000-000000000001, 00000000-0000-4000-8000-000000000002',
				},
			],
		);
		expect(got.error?.message).toMatch(
			/^Item 0, field "Statement UUIDs": the row names 2 statements; with Output "Input Rows with Statement Fields" each row names one statement/,
		);
		expect(eu.fake.requests().length).toBe(before);
	});

	it('Continue On Fail: a row refused in the pre-flight keeps its fields and its error; the others are filed', async () => {
		const sheet = [
			sheetRow('ROWS-COF-1', 0),
			sheetRow('XY', 1), // an Internal Reference of 2 characters: refused before sending
			sheetRow('ROWS-COF-1', 2),
		];
		const before = sent('submitDds').length;
		const result = await run(ddsParameters({ outputMode: 'inputRows' }), sheet, true);
		expect(result.error).toBeUndefined();
		expect(sent('submitDds').length - before).toBe(1);
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		const [first, failed, third] = jsonOf(result);
		expect(first.dds_status).toBe('SUBMITTED');
		expect(third.dds_uuid).toBe(first.dds_uuid);
		expect(Object.keys(failed).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
		expect(DDS_FIELDS.slice(0, -1).map((f) => failed[f])).toEqual(
			DDS_FIELDS.slice(0, -1).map(() => null),
		);
		expect(ownFields(failed)).toEqual(sheet[1]);
		expect(failed.dds_error).toMatch(
			/Internal Reference.* Nothing was sent for this statement\. Fix the input and run again\.$/,
		);
	});

	it('On Error "Continue (using error output)": a failed row stays whole on the main output, never cut down to its error', async () => {
		const sheet = [sheetRow('ROWS-EO-1', 0), sheetRow('XY', 1)];
		const result = await runEu({
			parameters: ddsParameters({ outputMode: 'inputRows' }),
			input: sheet,
			store: store(),
			onError: 'continueErrorOutput',
		});
		expect(result.error).toBeUndefined();
		const main = result.run.data.resultData.runData['Geospatial Analysis'][0].data?.main ?? [];
		expect(main[1] ?? []).toEqual([]);
		expect(main[0]?.map((i) => [i.pairedItem, i.json.dds_status, i.json.plot_id])).toEqual([
			[{ item: 0 }, 'SUBMITTED', 'P-0'],
			[{ item: 1 }, null, 'P-1'],
		]);
		const failed = main[0]![1].json;
		expect(Object.keys(failed).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
		expect(ownFields(failed)).toEqual(sheet[1]);
		expect(failed.dds_error).toMatch(/Internal Reference/);
	});

	it('Continue On Fail: a statement the EU refuses fails on each of its rows, the rows kept', async () => {
		const sheet = [sheetRow('ROWS-EU-1', 0), sheetRow('ROWS-EU-2', 1), sheetRow('ROWS-EU-2', 2)];
		// the EU refuses one of the two submissions (a business rule: nothing filed)
		const refusal = businessFault([
			{ id: 'EUDR_API_TEST_REFUSAL', message: 'Refused by the test', field: null },
		]);
		eu.fake.faults.answerNext('submitDds', {
			status: 500,
			body: faultEnvelope(refusal, 'test-request', new Date(), 'underscore'),
		});
		const result = await run(ddsParameters({ outputMode: 'inputRows' }), sheet, true);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		const rows = jsonOf(result);
		const byRef = (ref: string) => rows.filter((r) => r.ref === ref);
		const [refused, filed] =
			byRef('ROWS-EU-1')[0].dds_error === null
				? ['ROWS-EU-2', 'ROWS-EU-1']
				: ['ROWS-EU-1', 'ROWS-EU-2'];
		for (const row of byRef(filed)) expect(row.dds_status).toBe('SUBMITTED');
		for (const row of byRef(refused)) {
			expect(DDS_FIELDS.slice(0, -1).map((f) => row[f])).toEqual(
				DDS_FIELDS.slice(0, -1).map(() => null),
			);
			expect(String(row.dds_error)).toMatch(/Refused by the test/);
		}
		for (const [n, row] of rows.entries()) expect(ownFields(row)).toEqual(sheet[n]);
		expect(eu.fake.statements().some((s) => s.internalReferenceNumber === refused)).toBe(false);
	});

	it('the default output stays one item per statement', async () => {
		const result = await run(ddsParameters(), [
			sheetRow('ROWS-DEF-1', 0),
			sheetRow('ROWS-DEF-1', 1),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(Object.keys(result.items[0].json)[0]).toBe('status');
	});

	it('Simplified Declaration: Submit and Get put the sd_ fields on each row', async () => {
		const sheet = [sdPlotRow('SD-ROWS-1'), { ...sdPlotRow('SD-ROWS-1'), plot_id: 'P-2' }];
		const submitted = await run(sdParameters({ outputMode: 'inputRows' }), sheet);
		expect(submitted.error).toBeUndefined();
		const rows = jsonOf(submitted);
		expect(rows).toHaveLength(2);
		for (const [n, row] of rows.entries()) {
			expect(Object.keys(row).slice(0, SD_FIELDS.length)).toEqual(SD_FIELDS);
			expect(ownFields(row, 'sd_')).toEqual(sheet[n]);
			expect(row).toMatchObject({ sd_status: 'SUBMITTED', sd_filed_by: 'this run' });
		}
		eu.fake.clock.advance(HOUR);
		const got = await run(
			{
				resource: 'simplifiedDeclaration',
				operation: 'get',
				uuids: '={{ $json.sd_uuid }}',
				outputMode: 'inputRows',
			},
			rows,
		);
		expect(got.error).toBeUndefined();
		for (const row of jsonOf(got)) {
			expect(Object.keys(row).slice(0, SD_FIELDS.length)).toEqual(SD_FIELDS);
			expect(row.sd_status).toBe('AVAILABLE');
			expect(row.sd_reference_number).toMatch(/^S/);
			expect(row.sd_uuid).toBe(rows[0].sd_uuid);
		}
	});

	it('Amend: the rows of a statement, amended, come back with its fields (who filed it kept)', async () => {
		const sheet = [sheetRow('ROWS-AM-1', 0), sheetRow('ROWS-AM-1', 1)];
		const filed = jsonOf(await run(ddsParameters({ outputMode: 'inputRows' }), sheet));
		eu.fake.clock.advance(2 * 60_000);
		const before = sent('amendDds').length;
		const amended = await run(
			ddsParameters({ operation: 'amend', uuid: '={{ $json.dds_uuid }}', outputMode: 'inputRows' }),
			filed,
		);
		expect(amended.error).toBeUndefined();
		expect(sent('amendDds').length - before).toBe(1);
		const stored = eu.fake.statements().find((st) => st.internalReferenceNumber === 'ROWS-AM-1')!;
		expect(amended.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const [n, row] of jsonOf(amended).entries()) {
			expect(Object.keys(row).slice(0, DDS_FIELDS.length)).toEqual(DDS_FIELDS);
			expect(row).toMatchObject({
				dds_uuid: filed[0].dds_uuid,
				dds_status: stored.status,
				dds_reference_number: stored.referenceNumber,
				dds_filed_by: 'this run',
			});
			expect(ownFields(row)).toEqual(sheet[n]);
		}
	});

	it('Simplified Declaration: Update puts the sd_ fields on each row', async () => {
		const sheet = [sdPlotRow('SD-ROWS-UP')];
		const filed = jsonOf(await run(sdParameters({ outputMode: 'inputRows' }), sheet));
		eu.fake.clock.advance(HOUR);
		const updated = await run(
			sdParameters({ operation: 'update', uuid: '={{ $json.sd_uuid }}', outputMode: 'inputRows' }),
			filed,
		);
		expect(updated.error).toBeUndefined();
		const [row] = jsonOf(updated);
		expect(Object.keys(row).slice(0, SD_FIELDS.length)).toEqual(SD_FIELDS);
		expect(row).toMatchObject({ sd_uuid: filed[0].sd_uuid, sd_filed_by: 'this run' });
		expect(row.sd_status).toEqual(expect.any(String));
		expect(ownFields(row, 'sd_')).toEqual(sheet[0]);
	});

	it('as an AI Agent tool, Submit with rows output is refused as before, nothing sent', async () => {
		const before = eu.fake.requests().length;
		const result = await runNode({
			parameters: {
				...ddsParameters({ outputMode: 'inputRows' }),
				hsHeading: '1801',
				descriptionOfGoods: 'Cocoa beans',
			},
			input: [sheetRow('ROWS-TOOL-1', 0)],
			nodeType: EU_TOOL_TYPE,
			credentialType: EU_CREDENTIAL,
			typeVersion: 1,
			store: store(),
		});
		expect(result.error?.message).toMatch(/^Item 0, field "Allow Filing Statements": it is off/);
		expect(eu.fake.requests().length).toBe(before);
	});
});

/** Output "Input Rows with Statement Fields": the pure mapping of statements onto input rows. */
import type { IDataObject, INodeExecutionData, INodeTypeDescription } from 'n8n-workflow';

import { EuInformationSystem } from '../../../../nodes/EuInformationSystem/EuInformationSystem.node';
import {
	ROW_FIELDS,
	errorText,
	isErrorItem,
	readOutputMode,
	rowsOut,
	statementFieldsOf,
} from '../../../../nodes/EuInformationSystem/v1/actions/statements/rowsOut';
import { rowStatements } from '../../../../nodes/EuInformationSystem/v1/actions/statements/reads';
import type { StatementOverview } from '../../../../nodes/shared/dds/statement';
import { NUMBERS_NOT_YET } from '../../../../nodes/shared/dds/statementOutput';

const DDS = ROW_FIELDS.map((f) => `dds_${f}`);
const UUID_A = '1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90';
const UUID_B = '2a6d3d5f-1e8b-4a8c-8b3f-4d2e3c7f9a01';
const context = { prefix: 'dds' as const, environment: 'acceptance' };

/** A statement as Get outputs it with Simplify on. */
const simplified = (over: IDataObject = {}): IDataObject => ({
	status: 'AVAILABLE',
	referenceNumber: '25NLSN6LX69730',
	verificationNumber: 'K7R8LA90',
	uuid: UUID_A,
	internalReferenceNumber: 'PO-1',
	rejectionReason: null,
	communication: null,
	communicationDate: null,
	date: '2026-05-20T09:55:01.000Z',
	...over,
});

/** The same statement as read (Simplify off). */
const raw = (over: IDataObject = {}): IDataObject => ({
	uuid: UUID_A,
	internalReferenceNumber: 'PO-1',
	referenceNumber: '25NLSN6LX69730',
	verificationNumber: 'K7R8LA90',
	status: 'AVAILABLE',
	rejectionReason: null,
	communicationToOperator: null,
	date: '2026-05-20T09:55:01.000Z',
	updatedBy: 'User3 User3',
	version: null,
	somethingNew: 'passed through',
	...over,
});

const item = (json: IDataObject, pairedItem: INodeExecutionData['pairedItem']) => ({
	json,
	pairedItem,
});

describe('statementFieldsOf', () => {
	it('puts the statement fields in their order, the same from a simplified or a raw output', () => {
		const expected = {
			dds_status: 'AVAILABLE',
			dds_reference_number: '25NLSN6LX69730',
			dds_verification_number: 'K7R8LA90',
			dds_uuid: UUID_A,
			dds_internal_reference: 'PO-1',
			dds_filed_by: null,
			dds_updated_at: '2026-05-20T09:55:01.000Z',
			dds_environment: 'acceptance',
			dds_note: null,
			dds_error: null,
		};
		for (const statement of [simplified(), raw()]) {
			const fields = statementFieldsOf(statement, {}, context);
			expect(fields).toEqual(expected);
			expect(Object.keys(fields)).toEqual(DDS);
		}
	});

	it("says why the numbers are null, from the output's note or, read raw, from the status", () => {
		const submitted = { referenceNumber: null, verificationNumber: null, status: 'SUBMITTED' };
		expect(
			statementFieldsOf(simplified({ ...submitted, numbersNote: 'Said by Submit.' }), {}, context)
				.dds_note,
		).toBe('Said by Submit.');
		expect(statementFieldsOf(raw(submitted), {}, context).dds_note).toBe(NUMBERS_NOT_YET);
	});

	it("keeps the EU's rejection reason and the authority's communication in the note", () => {
		const rejected = statementFieldsOf(
			simplified({
				status: 'REJECTED',
				referenceNumber: null,
				rejectionReason: 'Geolocation invalid',
				communication: 'Please file again',
			}),
			{},
			context,
		);
		expect(rejected.dds_status).toBe('REJECTED');
		expect(rejected.dds_note).toBe(
			"Rejection reason: Geolocation invalid The authority's communication: Please file again",
		);
		expect(
			statementFieldsOf(
				raw({ communicationToOperator: { date: null, content: 'Raw words' } }),
				{},
				context,
			).dds_note,
		).toBe("The authority's communication: Raw words");
	});

	it('takes filed_by from the output, else from the row when the row names the same statement', () => {
		expect(statementFieldsOf(simplified({ filedBy: 'this run' }), {}, context).dds_filed_by).toBe(
			'this run',
		);
		const row = { dds_uuid: UUID_A.toUpperCase(), dds_filed_by: 'this run' };
		expect(statementFieldsOf(simplified(), row, context).dds_filed_by).toBe('this run');
		expect(
			statementFieldsOf(simplified(), { ...row, dds_uuid: UUID_B }, context).dds_filed_by,
		).toBeNull();
		expect(
			statementFieldsOf(simplified({ filedBy: 'before this run' }), row, context).dds_filed_by,
		).toBe('before this run');
	});

	it('outputs null, never a made-up value, for what the statement does not carry', () => {
		const fields = statementFieldsOf(
			{ uuid: UUID_A, status: 'SUBMITTED' },
			{},
			{
				prefix: 'sd',
				environment: null,
			},
		);
		expect(Object.keys(fields)).toEqual(ROW_FIELDS.map((f) => `sd_${f}`));
		expect(fields).toMatchObject({
			sd_status: 'SUBMITTED',
			sd_uuid: UUID_A,
			sd_reference_number: null,
			sd_internal_reference: null,
			sd_updated_at: null,
			sd_environment: null,
		});
	});
});

describe('rowsOut', () => {
	const rows: INodeExecutionData[] = [
		{ json: { plot: 'P-1', ref: 'PO-1' } },
		{ json: { plot: 'P-2', ref: 'PO-2', dds_status: 'SUBMITTED', dds_uuid: UUID_B } },
		{
			json: { plot: 'P-3', ref: 'PO-1' },
			binary: { map: { data: 'AA==', mimeType: 'image/png' } },
		},
	];

	it('outputs every input row in order, paired, the statement fields first and the row unchanged after', () => {
		const output = [
			item(simplified({ uuid: UUID_B, internalReferenceNumber: 'PO-2' }), { item: 1 }),
			item(simplified(), [{ item: 0 }, { item: 2 }]),
		];
		const out = rowsOut(rows, output, context);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out.map((o) => Object.keys(o.json))).toEqual([
			[...DDS, 'plot', 'ref'],
			[...DDS, 'plot', 'ref'],
			[...DDS, 'plot', 'ref'],
		]);
		expect(out.map((o) => o.json.dds_uuid)).toEqual([UUID_A, UUID_B, UUID_A]);
		// the row's old statement fields are replaced, not kept beside the new ones
		expect(out[1].json.dds_status).toBe('AVAILABLE');
		expect(out[2].binary).toEqual(rows[2].binary);
		expect(out[0].binary).toBeUndefined();
	});

	it('a failed row keeps its fields and gets its error in dds_error, the statement fields null', () => {
		const output = [
			item(simplified(), [{ item: 0 }, { item: 2 }]),
			item({ error: 'The EU refused it', description: 'Fix the HS heading.' }, { item: 0 }),
		];
		const [failed] = rowsOut(rows, output, context);
		expect(Object.keys(failed.json)).toEqual([...DDS, 'plot', 'ref']);
		expect(DDS.slice(0, -1).map((f) => failed.json[f])).toEqual(DDS.slice(0, -1).map(() => null));
		expect(failed.json).toMatchObject({
			plot: 'P-1',
			ref: 'PO-1',
			dds_error: 'The EU refused it. Fix the HS heading.',
		});
	});

	it("never touches a row's own error or description columns", () => {
		const sheet = [{ json: { description: 'Cocoa beans, grade A', error: 'none' } }];
		const [ok] = rowsOut(sheet, [item(simplified(), { item: 0 })], context);
		expect(ok.json).toMatchObject({ description: 'Cocoa beans, grade A', error: 'none' });
		const [failed] = rowsOut(sheet, [item({ error: 'Refused' }, { item: 0 })], context);
		expect(failed.json).toMatchObject({
			description: 'Cocoa beans, grade A',
			error: 'none',
			dds_error: 'Refused',
		});
	});

	it('a failed row keeps the statement fields it carried (its UUID for the next Get)', () => {
		const output = [
			item(simplified(), [{ item: 0 }, { item: 2 }]),
			item({ error: 'The EU did not answer' }, { item: 1 }),
		];
		const [, failed] = rowsOut(rows, output, context);
		expect(Object.keys(failed.json)).toEqual([...DDS, 'plot', 'ref']);
		expect(failed.json).toMatchObject({
			dds_status: 'SUBMITTED',
			dds_uuid: UUID_B,
			dds_reference_number: null,
			dds_error: 'The EU did not answer',
		});
	});

	it('a row with several statements (or none) gets null fields and says why', () => {
		const output = [
			item(simplified(), [{ item: 0 }, { item: 2 }]),
			item(simplified({ uuid: UUID_B, status: 'SUBMITTED', referenceNumber: null }), [{ item: 0 }]),
		];
		const [several, none] = rowsOut(rows.slice(0, 2), output, context);
		expect(several.json.dds_status).toBeNull();
		expect(several.json.dds_uuid).toBeNull();
		expect(several.json.dds_note).toBe(
			`2 statements are output for this row: UUID ${UUID_A} (status AVAILABLE, reference number 25NLSN6LX69730); UUID ${UUID_B} (status SUBMITTED, reference number none yet). Which one the row belongs to is not known: use Output "One Item per Statement", or Get each by its UUID.`,
		);
		expect(none.json.dds_note).toBe('The node output no statement for this row.');
		expect(none.json.plot).toBe('P-2');
	});

	it('joins an error and its description into one sentence', () => {
		expect(errorText({ error: 'No statement with UUID x', description: 'Check it.' })).toBe(
			'No statement with UUID x. Check it.',
		);
		expect(errorText({ error: 'Refused.', description: 'Fix it.' })).toBe('Refused. Fix it.');
		expect(errorText({ error: 'Refused' })).toBe('Refused');
	});

	it('tells error items from statements by their shape', () => {
		expect(isErrorItem({ error: 'x' })).toBe(true);
		expect(isErrorItem({ error: 'x', description: 'y' })).toBe(true);
		expect(isErrorItem(simplified())).toBe(false);
		expect(isErrorItem({ ...raw(), error: 'an unknown field the EU sent' })).toBe(false);
	});
});

describe('rowStatements (Get by Internal Reference, one row)', () => {
	const overview = (ref: string, status: string, uuid = UUID_A) =>
		({ ...raw({ internalReferenceNumber: ref, status, uuid }) }) as unknown as StatementOverview;

	it('keeps the statements with exactly the reference; of several, those still standing', () => {
		const found = [
			overview('PO-10', 'AVAILABLE'),
			overview('po-1', 'AVAILABLE'),
			overview('PO-1', 'SUBMITTED'),
		];
		expect(rowStatements(found, 'PO-1').map((o) => o.internalReferenceNumber)).toEqual(['PO-1']);
		const refiled = [overview('PO-1', 'WITHDRAWN'), overview('PO-1', 'AVAILABLE', UUID_B)];
		expect(rowStatements(refiled, 'PO-1').map((o) => o.uuid)).toEqual([UUID_B]);
		const twice = [overview('PO-1', 'AVAILABLE'), overview('PO-1', 'AVAILABLE', UUID_B)];
		expect(rowStatements(twice, 'PO-1')).toHaveLength(2);
		const gone = [overview('PO-1', 'REJECTED'), overview('PO-1', 'WITHDRAWN', UUID_B)];
		expect(rowStatements(gone, 'PO-1')).toHaveLength(2);
		expect(rowStatements([], 'PO-1')).toEqual([]);
	});
});

describe('the Output parameter', () => {
	it('reads the two choices, empty as the default, anything else as undefined', () => {
		expect(readOutputMode(undefined)).toBe('statement');
		expect(readOutputMode('')).toBe('statement');
		expect(readOutputMode('statement')).toBe('statement');
		expect(readOutputMode('inputRows')).toBe('inputRows');
		expect(readOutputMode('rows')).toBeUndefined();
	});

	it('shows on Submit, Amend/Update and Get of both resources, defaulting to one item per statement, after the statement fields', () => {
		const v1 = new EuInformationSystem().nodeVersions[1].description as INodeTypeDescription;
		const outputs = v1.properties.filter((p) => p.name === 'outputMode');
		const shown = outputs.map((p) => [
			p.displayOptions?.show?.resource?.[0],
			p.displayOptions?.show?.operation,
		]);
		expect(shown).toEqual(
			expect.arrayContaining([
				['dueDiligenceStatement', ['submit']],
				['dueDiligenceStatement', ['amend']],
				['dueDiligenceStatement', ['get']],
				['simplifiedDeclaration', ['submit']],
				['simplifiedDeclaration', ['update']],
				['simplifiedDeclaration', ['get']],
			]),
		);
		for (const p of outputs) {
			expect(p.default).toBe('statement');
			expect(p.noDataExpression).toBe(true);
			expect(p.displayName).toBe('Output');
			expect(
				(p.options as Array<{ name: string; value: string }>).map((o) => [o.name, o.value]),
			).toEqual([
				['One Item per Statement', 'statement'],
				['Input Rows with Statement Fields', 'inputRows'],
			]);
		}
		// Simplify does not apply to rows: hidden there, shown otherwise
		const simplifies = v1.properties.filter(
			(p) =>
				p.name === 'simplify' &&
				p.displayOptions?.show?.resource?.[0] !== undefined &&
				p.displayOptions?.show?.resource?.[0] !== 'declaration',
		);
		expect(simplifies.length).toBeGreaterThanOrEqual(6);
		for (const p of simplifies)
			expect(p.displayOptions?.hide).toEqual({ outputMode: ['inputRows'] });
		// Submit's Output comes after the statement's fields (with Simplify and Options)
		const at = (name: string) =>
			v1.properties.findIndex(
				(p) =>
					p.name === name &&
					p.displayOptions?.show?.resource?.[0] === 'dueDiligenceStatement' &&
					(p.displayOptions?.show?.operation ?? []).includes('submit'),
			);
		expect(at('outputMode')).toBeGreaterThan(at('statementOptions'));
		expect(at('outputMode')).toBeGreaterThan(at('options'));
	});
});

import type { StatementOverview } from '../../../nodes/shared/dds/statement';
import {
	activeStatements,
	describeStatement,
	exactReferenceMatches,
	overviewOutput,
	simplifyOverview,
} from '../../../nodes/shared/dds/statementOutput';

const overview = (over: Partial<StatementOverview> = {}): StatementOverview => ({
	uuid: 'u-1',
	internalReferenceNumber: 'PO-42',
	referenceNumber: '25NLSN6LX69730',
	verificationNumber: 'K7R8LA90',
	status: 'AVAILABLE',
	rejectionReason: null,
	communicationToOperator: { date: '2026-11-28T08:00:00Z', content: 'Check the plots' },
	date: '2026-11-27T08:00:00Z',
	updatedBy: 'someone',
	version: '1',
	...over,
});

describe('statementOutput', () => {
	it('simplifies: status and the numbers first, then uuid, reference, rejection, communication', () => {
		const out = simplifyOverview(overview());
		expect(Object.keys(out).slice(0, 6)).toEqual([
			'status',
			'referenceNumber',
			'verificationNumber',
			'uuid',
			'internalReference',
			'rejectionReason',
		]);
		expect(out).toMatchObject({
			communication: 'Check the plots',
			communicationDate: '2026-11-28T08:00:00Z',
		});
		expect(out.numbersNote).toBeUndefined();
	});

	it("names its fields as the panel does (internalReference, updatedAt) and keeps the names before (internalReferenceNumber, date) last, for saved workflows' expressions", () => {
		const out = simplifyOverview(overview(), true);
		expect(out).toMatchObject({
			internalReference: 'PO-42',
			updatedAt: '2026-11-27T08:00:00Z',
			internalReferenceNumber: 'PO-42',
			date: '2026-11-27T08:00:00Z',
		});
		expect(Object.keys(out).slice(-2)).toEqual(['internalReferenceNumber', 'date']);
		expect(Object.keys(out).indexOf('updatedAt')).toBeLessThan(Object.keys(out).indexOf('version'));
		// right after Submit the EU gave no update time: null under both names
		const submitted = simplifyOverview(overview({ status: 'SUBMITTED', date: null }));
		expect(submitted.updatedAt).toBeNull();
		expect(submitted.date).toBeNull();
		// not simplified: the overview as the EU's answer names it (no renamed fields added)
		expect(overviewOutput(overview(), false)).not.toHaveProperty('internalReference');
	});

	it('says why the numbers are null before AVAILABLE', () => {
		const out = simplifyOverview(
			overview({ status: 'SUBMITTED', referenceNumber: null, verificationNumber: null }),
		);
		expect(out.referenceNumber).toBeNull();
		expect(String(out.numbersNote)).toMatch(/only once the statement is AVAILABLE/);
	});

	it('says the numbers are absent only when they are, and promises them only while SUBMITTED', () => {
		expect(simplifyOverview(overview({ status: 'WITHDRAWN' })).numbersNote).toBeUndefined();
		const withdrawnEarly = simplifyOverview(
			overview({ status: 'WITHDRAWN', referenceNumber: null, verificationNumber: null }),
		);
		expect(withdrawnEarly.numbersNote).toBe(
			'The EU Information System shows no reference or verification number for this statement (status WITHDRAWN).',
		);
		expect(
			simplifyOverview(overview({ status: 'REJECTED', referenceNumber: null })).numbersNote,
		).toBeUndefined();
	});

	it('passes unknown fields through when not simplified', () => {
		expect(overviewOutput(overview({ somethingNew: 'kept' }), false)).toMatchObject({
			somethingNew: 'kept',
			updatedBy: 'someone',
		});
	});

	it('keeps exact internal references only (the EU matches substrings in any case)', () => {
		const list = [
			overview({ uuid: 'a', internalReferenceNumber: 'PO-42' }),
			overview({ uuid: 'b', internalReferenceNumber: 'po-42' }),
			overview({ uuid: 'c', internalReferenceNumber: 'PO-421' }),
			overview({ uuid: 'd', internalReferenceNumber: null }),
		];
		expect(exactReferenceMatches(list, 'PO-42').map((o) => o.uuid)).toEqual(['a']);
	});

	it('treats rejected and withdrawn statements as not standing; unknown statuses stand', () => {
		const list = ['REJECTED', 'WITHDRAWN', 'SUBMITTED', 'AVAILABLE', 'DRAFT'].map((status) =>
			overview({ uuid: status, status }),
		);
		expect(activeStatements(list).map((o) => o.uuid)).toEqual(['SUBMITTED', 'AVAILABLE', 'DRAFT']);
	});

	it('describes a statement by UUID, status and reference number', () => {
		expect(describeStatement(overview({ referenceNumber: null }))).toBe(
			'UUID u-1, status AVAILABLE, reference number (none yet)',
		);
	});
});

/**
 * What a lookup by Internal Reference proves (referenceMatch.ts), the run's prefix lookups
 * (referenceLookups.ts) and the process's memory of what was sent (submitMemory.ts): pure,
 * without n8n or HTTP.
 */
import { RunLookups } from '../../../nodes/shared/dds/referenceLookups';
import type { ReferenceLookup } from '../../../nodes/shared/dds/referenceMatch';
import {
	LOOKUP_CAP,
	caseCollisions,
	commonPrefix,
	foldCase,
	searchFor,
	verdictOf,
} from '../../../nodes/shared/dds/referenceMatch';
import type { StatementOverview } from '../../../nodes/shared/dds/statement';
import {
	MAX_REMEMBERED,
	REMEMBER_MS,
	memoryKey,
	recall,
	remember,
	resetSubmitMemory,
} from '../../../nodes/shared/dds/submitMemory';

const ov = (ref: string, status = 'AVAILABLE', uuid = `u-${ref}`): StatementOverview => ({
	uuid,
	internalReferenceNumber: ref,
	referenceNumber: null,
	verificationNumber: null,
	status,
	rejectionReason: null,
	communicationToOperator: null,
	date: null,
	updatedBy: null,
	version: null,
});
const answer = (refs: string[]): ReferenceLookup => ({
	overviews: refs.map((r) => ov(r)),
	listed: refs.length,
});
const range = (prefix: string, from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);

describe('verdictOf', () => {
	it('complete and without the reference in any case: not filed (substrings do not count)', () => {
		expect(verdictOf(answer(['PO-10', 'PO-11']), 'PO-1')).toEqual({ kind: 'notFiled' });
	});

	it(`${LOOKUP_CAP} entries without the reference: capped, never "not filed"`, () => {
		const v = verdictOf(answer(range('PO-', 10, 109)), 'PO-1');
		expect(v.kind).toBe('capped');
	});

	it('the count as listed decides, even when fewer entries could be read', () => {
		expect(verdictOf({ overviews: [], listed: LOOKUP_CAP }, 'PO-1').kind).toBe('capped');
	});

	it('an exact standing match wins, even in a capped answer; rejected and withdrawn ones do not stand', () => {
		const a = answer([...range('PO-', 10, 108), 'PO-1']);
		expect(verdictOf(a, 'PO-1')).toEqual({ kind: 'standing', statements: [ov('PO-1')] });
		expect(
			verdictOf(
				{ overviews: [ov('PO-1', 'REJECTED'), ov('PO-1', 'WITHDRAWN')], listed: 2 },
				'PO-1',
			),
		).toEqual({ kind: 'notFiled' });
	});

	it('a standing case variant is its own verdict, complete or capped', () => {
		expect(verdictOf(answer(['po-1']), 'PO-1')).toMatchObject({
			kind: 'caseVariant',
			complete: true,
		});
		expect(verdictOf(answer([...range('PO-', 10, 108), 'po-1']), 'PO-1')).toMatchObject({
			kind: 'caseVariant',
			complete: false,
		});
		expect(verdictOf(answer(['po-1', 'PO-1']), 'PO-1').kind).toBe('standing');
	});

	it('folds case both ways (ß and SS alike)', () => {
		expect(foldCase('STRASSE-1')).toBe(foldCase('straße-1'));
		expect(verdictOf(answer(['STRASSE-1']), 'straße-1').kind).toBe('caseVariant');
	});
});

describe('caseCollisions', () => {
	it('groups references that differ only in letter case', () => {
		const groups = [
			{ internalReference: 'PO-7' },
			{ internalReference: 'PO-8' },
			{ internalReference: 'po-7' },
		];
		expect(caseCollisions(groups)).toEqual([[groups[0], groups[2]]]);
		expect(caseCollisions([{ internalReference: 'A-1' }, { internalReference: 'A-1' }])).toEqual(
			[],
		);
	});
});

describe('commonPrefix and searchFor', () => {
	it('the longest prefix, compared case-blindly, at most 50 characters, never cutting a surrogate pair', () => {
		expect(commonPrefix(['PO-2026-05001', 'po-2026-05100'])).toBe('PO-2026-05');
		expect(commonPrefix(['X'.repeat(60), 'X'.repeat(60)])).toHaveLength(50);
		expect(commonPrefix(['a\u{1F600}', 'a\u{1F601}'])).toBe('a');
	});

	it('one search for the whole run when the prefix is usable', () => {
		const refs = range('BATCH-00', 10, 21);
		expect(searchFor('BATCH-0013', refs, new Set(), 2)).toEqual({
			search: 'BATCH-00',
			covers: refs,
		});
	});

	it('a prefix shorter than 3 characters splits by the next character; a lone reference is searched alone', () => {
		expect(searchFor('AB-1', ['AB-1', 'AB-2', 'XY-1'], new Set(), 2)).toEqual({
			search: 'AB-',
			covers: ['AB-1', 'AB-2'],
		});
		expect(searchFor('XY-1', ['AB-1', 'AB-2', 'XY-1'], new Set(), 2)).toEqual({
			search: 'XY-1',
			covers: ['XY-1'],
		});
	});

	it('a capped prefix splits into longer prefixes, and after the limit into the reference alone', () => {
		const refs = ['PO-100', 'PO-101', 'PO-110', 'PO-111'];
		expect(searchFor('PO-100', refs, new Set(['po-1']), 2)).toEqual({
			search: 'PO-10',
			covers: ['PO-100', 'PO-101'],
		});
		expect(searchFor('PO-100', refs, new Set(['po-1', 'po-10']), 2)).toEqual({
			search: 'PO-100',
			covers: ['PO-100'],
		});
		expect(searchFor('PO-100', refs, new Set(['po-1']), 1)).toEqual({
			search: 'PO-100',
			covers: ['PO-100'],
		});
	});

	it('a reference that is the prefix of the others is searched alone once the prefix is capped', () => {
		expect(searchFor('PO-1', ['PO-1', 'PO-10'], new Set(['po-1']), 2)).toEqual({
			search: 'PO-1',
			covers: ['PO-1'],
		});
	});
});

describe('RunLookups', () => {
	/** A scripted EU: `existing` references; a search lists those that contain it, at most the cap. */
	function eu(existing: string[]) {
		const searched: string[] = [];
		const search = async (_ctx: unknown, s: string): Promise<ReferenceLookup> => {
			searched.push(s);
			const hits = existing.filter((r) => r.toLowerCase().includes(s.toLowerCase()));
			return answer(hits.slice(0, LOOKUP_CAP));
		};
		return { searched, search };
	}

	it('one search answers for every reference of the run', async () => {
		const refs = range('BATCH-00', 10, 21);
		const { searched, search } = eu(['BATCH-0015']);
		const lookups = new RunLookups(refs, () => 0);
		const verdicts = [];
		for (const r of refs) verdicts.push((await lookups.verdict({}, search, r, 0)).kind);
		expect(searched).toEqual(['BATCH-00']);
		expect(verdicts.filter((k) => k === 'standing')).toHaveLength(1);
		expect(verdicts.filter((k) => k === 'notFiled')).toHaveLength(11);
	});

	it('a capped prefix: what it shows settles, the rest splits; a capped lone reference is refused', async () => {
		const { searched, search } = eu(['PO-12', ...range('PO-1', 0, 99).map((x) => `${x}-OLD`)]);
		const lookups = new RunLookups(['PO-12', 'PO-13', 'PO-1'], () => 0);
		expect((await lookups.verdict({}, search, 'PO-12', 0)).kind).toBe('standing');
		expect((await lookups.verdict({}, search, 'PO-13', 0)).kind).toBe('notFiled');
		expect((await lookups.verdict({}, search, 'PO-1', 0)).kind).toBe('capped');
		expect(searched).toEqual(['PO-1', 'PO-13']);
	});

	it('an answer older than a minute is not used: the rest are looked up again', async () => {
		let now = 0;
		const { searched, search } = eu([]);
		const lookups = new RunLookups(['REF-01', 'REF-02', 'REF-03'], () => now);
		await lookups.verdict({}, search, 'REF-01', 0);
		now = 61_000;
		await lookups.verdict({}, search, 'REF-02', 0);
		await lookups.verdict({}, search, 'REF-03', 0);
		expect(searched).toEqual(['REF-0', 'REF-0']);
	});
});

describe('the memory of what was sent', () => {
	beforeEach(() => resetSubmitMemory());
	const who = { origin: 'https://eu.example', username: 'u', operatorAccessIdentifier: '' };

	it('keyed by case-folded reference, per user, origin, operator identifier and service', () => {
		expect(memoryKey(who, 'dds', 'PO-7')).toBe(memoryKey(who, 'dds', 'po-7'));
		expect(memoryKey(who, 'dds', 'PO-7')).not.toBe(memoryKey(who, 'sd', 'PO-7'));
		expect(memoryKey(who, 'dds', 'PO-7')).not.toBe(
			memoryKey({ ...who, operatorAccessIdentifier: 'op-2' }, 'dds', 'PO-7'),
		);
		expect(memoryKey(who, 'dds', 'PO-7')).not.toBe(
			memoryKey({ ...who, username: 'v' }, 'dds', 'PO-7'),
		);
	});

	it(`remembers for ${REMEMBER_MS / 60_000} minutes, then forgets`, () => {
		const key = memoryKey(who, 'dds', 'PO-7');
		remember(key, { reference: 'PO-7', sentAt: 1000, state: 'filed', uuid: 'x' });
		expect(recall(key, 1000 + REMEMBER_MS - 1)).toMatchObject({ uuid: 'x' });
		expect(recall(key, 1000 + REMEMBER_MS)).toBeUndefined();
	});

	it(`holds at most ${MAX_REMEMBERED} entries, the oldest forgotten first`, () => {
		for (let i = 0; i <= MAX_REMEMBERED; i++)
			remember(memoryKey(who, 'dds', `R-${i}`), {
				reference: `R-${i}`,
				sentAt: 5000,
				state: 'sending',
			});
		expect(recall(memoryKey(who, 'dds', 'R-0'), 5000)).toBeUndefined();
		expect(recall(memoryKey(who, 'dds', 'R-1'), 5000)).toBeDefined();
		expect(recall(memoryKey(who, 'dds', `R-${MAX_REMEMBERED}`), 5000)).toBeDefined();
	});
});

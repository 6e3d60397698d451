import type { IdNoun } from '../../../nodes/shared/input';
import { idPath, missingIdReason, readId, readIdList } from '../../../nodes/shared/input';

const NOUNS: IdNoun[] = ['plot', 'job', 'area', 'run'];
const ids = (...value: string[]) => ({ kind: 'value', value });

describe('readIdList', () => {
	it.each([
		['100001', ['100001']],
		[' 100001 ', ['100001']],
		[100001, ['100001']],
		['100001,100002', ['100001', '100002']],
		['100001, 100002;100003\n100004\t100005', ['100001', '100002', '100003', '100004', '100005']],
		['[100001, 100002]', ['100001', '100002']],
		['[100001, "100002"]', ['100001', '100002']],
		['["1","2"]', ['1', '2']],
		['[a, b]', ['a', 'b']],
		["['a', 'b']", ['a', 'b']],
		['"100001"', ['100001']],
		[
			['100001', 100002],
			['100001', '100002'],
		],
		[
			[['1', ['2']], [3]],
			['1', '2', '3'],
		],
		[
			['1, 2', '3'],
			['1', '2', '3'],
		],
		[['100001', '', null, undefined, '  '], ['100001']],
		['100001,100001, 100002 ,100001', ['100001', '100002']],
		[
			['2', '1', 2, '1'],
			['2', '1'],
		],
		['1(', ['1(']],
		['abc-1_2.x', ['abc-1_2.x']],
		[BigInt('12345678901234567890'), ['12345678901234567890']],
		['12345678901234567890', ['12345678901234567890']],
		// a byte order mark is white space to JavaScript, so it is trimmed like a space
		['\ufeff100001', ['100001']],
	])('reads %p as %p', (input, expected) => {
		expect(readIdList(input, 'plot')).toEqual(ids(...expected));
	});

	it('reads objects by the key of the noun, else id', () => {
		expect(readIdList([{ plot_id: '7' }, { plot_id: 8 }, { id: 9 }], 'plot')).toEqual(
			ids('7', '8', '9'),
		);
		expect(readIdList({ job_id: 7001, plot_ids: ['1'] }, 'job')).toEqual(ids('7001'));
		expect(readIdList([{ area_id: '351814' }], 'area')).toEqual(ids('351814'));
		expect(readIdList({ run_id: '500001', plot_id: '1', job_id: '2' }, 'run')).toEqual(
			ids('500001'),
		);
		expect(readIdList('{"plot_id": 5}', 'plot')).toEqual(ids('5'));
		expect(readIdList('[{"plot_id": 5}, {"plot_id": "6"}]', 'plot')).toEqual(ids('5', '6'));
	});

	it('treats nothing given as missing', () => {
		for (const v of [undefined, null, '', '   ', [], [''], [null, ''], '[]', ' , ; '])
			expect(readIdList(v, 'plot')).toEqual({ kind: 'missing' });
	});

	it.each([
		['.', '"." is not a plot id: an id made only of dots would change the address'],
		['..', '".." is not a plot id: an id made only of dots'],
		['1, ..', '".." is not a plot id'],
		['a/b', '"a/b" is not a plot id: it contains "/", which cannot be part of an id'],
		['plots/1', '"plots/1" is not a plot id'],
		['a\\b', '"a\\b" is not a plot id: it contains "\\"'],
		['1?x=2', 'it contains "?"'],
		['1#2', 'it contains "#"'],
		['100%', 'it contains "%"'],
		['%2F', 'it contains "%"'],
		[['1\u0000'], '"1\\u0000" is not a plot id: it contains the invisible character U+0000'],
		[
			'100\u2060001',
			'"100\\u2060001" is not a plot id: it contains the invisible character U+2060',
		],
		['100\u200b001', 'invisible character U+200B'],
		[1.5, '1.5 is a number with a fraction, not a plot id'],
		[NaN, 'NaN is not a plot id'],
		[2 ** 60, 'is too large to be an exact number'],
		[true, 'an entry is a boolean, not a plot id'],
		[[{}], 'an entry is an object, not text, and it has no plot_id field'],
		[{ job_id: '7001' }, 'has no plot_id field (it has job_id, so it is not a plot)'],
		[{ plot_id: '' }, 'an entry has an empty plot_id'],
		[{ plot_id: { x: 1 } }, 'the plot_id of an entry is an object, not a plot id'],
		['{{ $json.plot_id }}', 'is an expression that was not evaluated'],
		['[object Object]', 'is an object turned into text'],
		['{plot_id: 1}', 'is neither valid JSON nor a plot id'],
		[new Date(0), 'an entry is a date, not a plot id'],
	])('refuses %p, naming the bad id', (input, reason) => {
		const r = readIdList(input, 'plot');
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toContain(reason);
		// every reason is a sentence that says what to give instead
		expect(r.kind === 'invalid' && r.reason).toMatch(/\. [A-Z][^]*\.$/);
	});

	it('refuses nested lists beyond a sane depth instead of recursing without end', () => {
		let deep: unknown = '1';
		for (let i = 0; i < 20; i++) deep = [deep];
		expect(readIdList(deep, 'plot')).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(/^the lists are nested more than 8 deep/),
		});
	});

	it('applies the same check to every noun, naming the noun', () => {
		for (const noun of NOUNS) {
			expect(readIdList('[100001, "100002"]', noun)).toEqual(ids('100001', '100002'));
			const r = readIdList('x/y', noun);
			expect(r.kind).toBe('invalid');
			expect(r.kind === 'invalid' && r.reason).toMatch(
				/^"x\/y" is not (a plot|a job|a protected area|an analysis run) id/,
			);
		}
		expect(readIdList('x/y', 'job')).toEqual({
			kind: 'invalid',
			reason:
				'"x/y" is not a job id: it contains "/", which cannot be part of an id. Give the job_id only, e.g. 7001.',
		});
	});

	it('reads statement UUIDs (EU Information System) from lists, text and Submit outputs', () => {
		const a = '1f5c2c4e-0d7a-4f7b-9a2e-3c1d2b6e8f90';
		const b = '7c0e8b1a-5d2f-4e3b-8a6c-9f1d2e3b4c5a';
		expect(readIdList(`${a}, ${b}`, 'statement')).toEqual(ids(a, b));
		expect(readIdList([{ uuid: a, status: 'SUBMITTED' }, b], 'statement')).toEqual(ids(a, b));
		expect(missingIdReason('statement')).toBe(
			'no statement UUID was given. Map the uuid of the due-diligence statement, e.g. {{ $json.uuid }}.',
		);
		expect(readIdList('x/y', 'statement')).toEqual({
			kind: 'invalid',
			reason: `"x/y" is not a statement UUID: it contains "/", which cannot be part of an id. Give the uuid only, e.g. ${a}.`,
		});
	});

	it('reads 10,000 ids with repeats quickly enough to stay linear', () => {
		const text = Array.from({ length: 20000 }, (_, i) => String(100000 + (i % 10000))).join(',');
		const r = readIdList(text, 'plot');
		expect(r.kind === 'value' && r.value.length).toBe(10000);
		expect(r.kind === 'value' && r.value[9999]).toBe('109999');
	});

	it('keeps ids such as __proto__ as typed (the service decides whether they exist)', () => {
		expect(readIdList('__proto__, constructor, __proto__', 'plot')).toEqual(
			ids('__proto__', 'constructor'),
		);
	});
});

describe('readId', () => {
	it('reads exactly one id the same way as readIdList', () => {
		for (const v of [
			100001,
			' 100001 ',
			'[100001]',
			['100001'],
			{ plot_id: 100001 },
			'100001,100001',
		])
			expect(readId(v, 'plot')).toEqual({ kind: 'value', value: '100001' });
		expect(readId('', 'plot')).toEqual({ kind: 'missing' });
		expect(readId('..', 'run')).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(/^"\.\." is not an analysis run id: an id made only of dots/),
		});
	});

	it('refuses several ids, saying to use one per item', () => {
		expect(readId('[100001, 100002]', 'job')).toEqual({
			kind: 'invalid',
			reason:
				'it holds 2 job ids (100001, 100002), but this field takes one. Give one job id per item; to use several, give each its own input item.',
		});
		expect(readId('1 2 3 4 5 6 7', 'plot')).toEqual({
			kind: 'invalid',
			reason: expect.stringContaining('it holds 7 plot ids (1, 2, 3, 4, 5, …)'),
		});
	});
});

describe('missingIdReason and idPath', () => {
	it('says which field to map', () => {
		expect(missingIdReason('plot')).toBe(
			'no plot id was given. Map the plot_id of the plot, e.g. {{ $json.plot_id }}.',
		);
		expect(missingIdReason('area')).toBe(
			'no protected area id was given. Map the area_id of the protected area, e.g. {{ $json.area_id }}.',
		);
	});

	it('encodes an id as one path segment', () => {
		expect(idPath('100001')).toBe('100001');
		expect(idPath('a b')).toBe('a%20b');
		expect(idPath('1(')).toBe('1(');
		expect(idPath('é')).toBe('%C3%A9');
	});
});

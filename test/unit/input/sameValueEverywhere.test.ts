/**
 * The same value behaves the same in every field that takes it: each value is fed to every
 * reader of its kind, and all must give the same reading or all refuse it.
 */
import type { DateOrder, IdNoun, Reading } from '../../../nodes/shared/input';
import {
	COMMODITY_OPTIONS,
	DATE_ORDERS,
	readCommodity,
	readDate,
	readId,
	readIdList,
	readLooseNumber,
	readHectares,
	readNumber,
	readTimestamp,
} from '../../../nodes/shared/input';

/** Point Area (Hectares) as Register reads it: a number (the range is checked by the geometry layer). */
const readPointHa = (value: unknown) => readHectares(value);

type Outcome<T> = { value: T } | 'missing' | 'refused';

function outcome<T>(read: Reading<T>): Outcome<T> {
	if (read.kind === 'value') return { value: read.value };
	if (read.kind === 'invalid') {
		// a refusal always says what to fix
		expect(read.reason).toMatch(/\. [A-Z"][^]*\.$/);
		return 'refused';
	}
	return 'missing';
}

describe('ids: every id field reads a value the same way', () => {
	const NOUNS: IdNoun[] = ['plot', 'job', 'area', 'run'];
	const cases: Array<[string, unknown, Outcome<string[]>]> = [
		['a number', 100001, { value: ['100001'] }],
		['text with spaces around', ' 100001 ', { value: ['100001'] }],
		['a JSON array typed as text', '[100001, 100002]', { value: ['100001', '100002'] }],
		['JSON array text with mixed types', '[100001, "100002"]', { value: ['100001', '100002'] }],
		['comma text', '100001,100002', { value: ['100001', '100002'] }],
		['semicolon and newline text', '100001;\n100002', { value: ['100001', '100002'] }],
		['a list', ['100001', '100002'], { value: ['100001', '100002'] }],
		['a list of numbers', [100001, 100002], { value: ['100001', '100002'] }],
		['a nested list', [[100001], ['100002', [100001]]], { value: ['100001', '100002'] }],
		['a number in a list', [100001], { value: ['100001'] }],
		['parentheses', '1(', { value: ['1('] }],
		['a dot', '.', 'refused'],
		['two dots', '..', 'refused'],
		['a slash', 'a/b', 'refused'],
		['a backslash', 'a\\b', 'refused'],
		['a percent sign', '10%', 'refused'],
		['a fraction', 1.5, 'refused'],
		['a boolean', true, 'refused'],
		['empty text', '', 'missing'],
		['only separators', ' ,; ', 'missing'],
		['an empty list', [], 'missing'],
	];

	it.each(cases)('%s (%p)', (_label, input, expected) => {
		for (const noun of NOUNS) {
			expect({ noun, list: outcome(readIdList(input, noun)) }).toEqual({ noun, list: expected });
			const single: Outcome<string> =
				typeof expected === 'string'
					? expected
					: expected.value.length === 1
						? { value: expected.value[0] }
						: 'refused';
			expect({ noun, single: outcome(readId(input, noun)) }).toEqual({ noun, single });
		}
	});

	it('refusals name the bad id in every field', () => {
		for (const noun of NOUNS)
			for (const bad of ['.', '..', 'a/b']) {
				const r = readIdList(`100001, ${bad}`, noun);
				expect(r.kind === 'invalid' && r.reason.startsWith(`"${bad}" is not a`)).toBe(true);
				expect(readId(bad, noun)).toEqual(r);
			}
	});
});

describe('commodities: every commodity field reads a value the same way', () => {
	// Register and Create both call readCommodity (test/integration/input/sameValueEverywhere.test.ts
	// checks it through the engine, field by field).
	const readers = { readCommodity };
	it.each([
		['Palm Oil', { value: 'palm_oil' }],
		['palm-oil', { value: 'palm_oil' }],
		['palm_oil', { value: 'palm_oil' }],
		['PALM OIL', { value: 'palm_oil' }],
		[' Cocoa ', { value: 'cocoa' }],
		['banana', 'refused'],
		[3, 'refused'],
		['', 'missing'],
	] as Array<[unknown, Outcome<string>]>)('%p', (input, expected) => {
		for (const [name, read] of Object.entries(readers))
			expect({ name, got: outcome(read(input)) }).toEqual({ name, got: expected });
	});

	it('every UI option value is read as itself', () => {
		for (const { value } of COMMODITY_OPTIONS)
			expect(outcome(readCommodity(value))).toEqual({ value });
	});
});

describe('dates: every date field reads a value the same way, under each Date Order', () => {
	const readers: Record<string, (v: unknown, order: DateOrder) => Reading<string>> = {
		readDate,
		readTimestamp,
	};
	const cases: Array<[unknown, Record<DateOrder, Outcome<string>>]> = [
		['2024-03-15', all({ value: '2024-03-15' })],
		['15.03.2024', all({ value: '2024-03-15' })],
		['15 March 2024', all({ value: '2024-03-15' })],
		['45366', all({ value: '2024-03-15' })],
		[45366, all({ value: '2024-03-15' })],
		['2025-02-30', all('refused')],
		['31.04.2024', all('refused')],
		['30/02/2024', all('refused')],
		[
			'03/04/2024',
			{ reject: 'refused', dayFirst: { value: '2024-04-03' }, monthFirst: { value: '2024-03-04' } },
		],
		['15/03/2024', all({ value: '2024-03-15' })],
		['', all('missing')],
	];

	function all(o: Outcome<string>): Record<DateOrder, Outcome<string>> {
		return { reject: o, dayFirst: o, monthFirst: o };
	}

	it.each(cases)('%p', (input, expected) => {
		for (const order of DATE_ORDERS) {
			const reasons = new Set<string>();
			for (const [name, read] of Object.entries(readers)) {
				const r = read(input, order);
				expect({ name, order, got: outcome(r) }).toEqual({ name, order, got: expected[order] });
				if (r.kind === 'invalid') reasons.add(r.reason);
			}
			// and a refusal is worded the same in every field
			expect(reasons.size).toBeLessThanOrEqual(1);
		}
	});
});

describe('numbers: every number field reads a value the same way', () => {
	it.each([
		[2.5, 2.5],
		['2.5', 2.5],
		['2,5', 2.5],
		[' 2,5 ', 2.5],
		['\u22122', -2],
	])('%p', (input, expected) => {
		expect(readLooseNumber(input)).toEqual({ kind: 'number', value: expected });
		expect(readNumber(input)).toEqual({ kind: 'value', value: expected });
		expect(readPointHa(input)).toEqual({ kind: 'value', value: expected });
	});

	it.each(['2.5 ha', 'x', NaN, true])('%p is refused by every number reader', (input) => {
		expect(readLooseNumber(input).kind).toBe('invalid');
		expect(readNumber(input).kind).toBe('invalid');
		expect(readPointHa(input).kind).toBe('invalid');
	});
});

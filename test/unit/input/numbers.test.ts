import { readHectares, readLooseNumber, readNumber } from '../../../nodes/shared/input';
import { readLooseNumber as fromGeometry } from '../../../nodes/shared/geometry';

describe('readLooseNumber', () => {
	it.each([
		[2.5, 2.5],
		[' 2,5 ', 2.5],
		['-3,4567', -3.4567],
		['\u22125', -5],
		['1e3', 1000],
		['.5', 0.5],
		[BigInt(7), 7],
	])('reads %p as %p', (input, expected) => {
		expect(readLooseNumber(input)).toEqual({ kind: 'number', value: expected });
	});

	it('is the reader the geometry layer re-exports', () => {
		expect(fromGeometry).toBe(readLooseNumber);
	});

	it.each([
		['2.5 ha', /^"2.5 ha" is not a number$/],
		['1,000.5', /is not a number/],
		[NaN, /^NaN is not a finite number$/],
		[Infinity, /not a finite number/],
		[`15°47'38"S`, /degrees\/minutes\/seconds; convert it to decimal degrees/],
		[true, /^it is a boolean, not a number$/],
		[[1], /^it is a list, not a number$/],
	])('refuses %p', (input, reason) => {
		const r = readLooseNumber(input);
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toMatch(reason);
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '  '])
			expect(readLooseNumber(v)).toEqual({ kind: 'missing' });
	});
});

describe('readNumber', () => {
	it('reads numbers, numeric text and comma decimals', () => {
		expect(readNumber('2,5')).toEqual({ kind: 'value', value: 2.5 });
		expect(readNumber(10, { min: 1, max: 60, integer: true })).toEqual({
			kind: 'value',
			value: 10,
		});
		expect(readNumber('60', { min: 1, max: 60 })).toEqual({ kind: 'value', value: 60 });
		expect(readNumber(1, { min: 1 })).toEqual({ kind: 'value', value: 1 });
		expect(readNumber('')).toEqual({ kind: 'missing' });
		expect(readNumber(undefined, { min: 1 })).toEqual({ kind: 'missing' });
	});

	it.each([
		[
			0,
			{ min: 1, max: 60, integer: true, label: 'the recovery window' },
			'0 is below the smallest allowed value, 1. Give the recovery window as a whole number from 1 to 60.',
		],
		[
			61,
			{ min: 1, max: 60, integer: true, label: 'the recovery window' },
			'61 is above the largest allowed value, 60. Give the recovery window as a whole number from 1 to 60.',
		],
		[
			'2,5',
			{ min: 1, integer: true, label: 'the limit' },
			'2.5 is not a whole number. Give the limit as a whole number of 1 or more.',
		],
		[-1, { min: 0 }, '-1 is below the smallest allowed value, 0. Give a number of 0 or more.'],
		[5, { max: 4 }, '5 is above the largest allowed value, 4. Give a number of 4 or less.'],
		['abc', {}, '"abc" is not a number. Give a number.'],
		[
			'ten',
			{ min: 0, label: 'Max Tokens' },
			'"ten" is not a number. Give Max Tokens as a number of 0 or more.',
		],
	])('refuses %p under %p with one wording', (input, rule, reason) => {
		expect(readNumber(input, rule)).toEqual({ kind: 'invalid', reason });
	});

	// Degrees/minutes/seconds are a coordinate's business: an option in seconds or hours, a
	// count or an area typed with a unit mark is not told to convert it to decimal degrees.
	it.each([
		['30 s', { min: 0.1, label: 'the seconds before the first check' }],
		["5'", { min: 0 }],
		['2°', { min: 0, label: 'the plot area in hectares' }],
	])('refuses %p as not a number, without the coordinate hint', (input, rule) => {
		const read = readNumber(input, rule);
		expect(read).toMatchObject({ kind: 'invalid' });
		expect(read.kind === 'invalid' && read.reason).toMatch(
			new RegExp(`^"${input}" is not a number\\. Give `),
		);
		expect(read.kind === 'invalid' && read.reason).not.toMatch(/degrees/);
		// the coordinate reader keeps its hint
		expect(readLooseNumber(input)).toMatchObject({
			kind: 'invalid',
			reason: expect.stringMatching(/degrees\/minutes\/seconds/),
		});
	});
});

describe('readHectares: Point Area (Hectares) and Area of Points (Hectares), one reader and wording', () => {
	it.each([
		[2.5, 2.5],
		['2,5', 2.5],
		[' 0.75 ', 0.75],
		['4', 4],
		[-1, -1],
	])('reads %p as %p (without a range)', (input, expected) => {
		expect(readHectares(input)).toEqual({ kind: 'value', value: expected });
	});

	it.each([undefined, null, '', '  '])('%p is missing', (input) => {
		expect(readHectares(input)).toEqual({ kind: 'missing' });
	});

	it('refuses what is not a number, saying to give the plot area in hectares', () => {
		expect(readHectares('big')).toEqual({
			kind: 'invalid',
			reason: '"big" is not a number. Give the plot area in hectares as a number.',
		});
		expect(readHectares('2.5 ha')).toEqual({
			kind: 'invalid',
			reason: '"2.5 ha" is not a number. Give the plot area in hectares as a number.',
		});
		expect(readHectares(true)).toEqual({
			kind: 'invalid',
			reason: 'it is a boolean, not a number. Give the plot area in hectares as a number.',
		});
	});

	it("keeps a field's own range, in the same wording", () => {
		expect(readHectares('4', { min: 0, max: 4 })).toEqual({ kind: 'value', value: 4 });
		expect(readHectares(5, { min: 0, max: 4 })).toEqual({
			kind: 'invalid',
			reason:
				'5 is above the largest allowed value, 4. Give the plot area in hectares as a number from 0 to 4.',
		});
		expect(readHectares('big', { min: 0, max: 4 })).toEqual({
			kind: 'invalid',
			reason: '"big" is not a number. Give the plot area in hectares as a number from 0 to 4.',
		});
	});
});

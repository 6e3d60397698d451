import { readText } from '../../../nodes/shared/input';

describe('readText', () => {
	it.each([
		['Farm A', 'Farm A'],
		['  Farm A  ', 'Farm A'],
		[12, '12'],
		[0, '0'],
		[true, 'true'],
	])('reads %p as %p', (input, expected) => {
		expect(readText(input)).toEqual({ kind: 'value', value: expected });
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '   ', '\n'])
			expect(readText(v)).toEqual({ kind: 'missing' });
	});

	it.each([
		[{}, 'it is an object, not text. Map a text value.'],
		[['a'], 'it is a list, not text. Map a text value.'],
		[new Date(0), 'it is a date, not text. Map a text value.'],
	])('refuses %p', (input, reason) => {
		expect(readText(input)).toEqual({ kind: 'invalid', reason });
	});
});

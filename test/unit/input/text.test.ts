import { readText, readXmlText, xmlTextProblem } from '../../../nodes/shared/input';

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

describe('readXmlText and xmlTextProblem: the one check of text that goes into XML', () => {
	test.each([
		['\u0000', '0000'],
		['\u0001', '0001'],
		['\u0007', '0007'],
		['\u000B', '000B'],
		['\u001B', '001B'],
		['\uD83D', 'D83D'], // the first half of an emoji, alone
		['\uDE00', 'DE00'], // the second half, alone
		['\uFFFE', 'FFFE'],
		['\uFFFF', 'FFFF'],
	])('refuses %j (U+%s), naming the character and where it is', (bad, code) => {
		const read = readXmlText(`PO-1${bad}2`);
		expect(read).toEqual({
			kind: 'invalid',
			reason: `it contains the character U+${code} at position 5, which XML cannot carry; remove it (it comes right after "PO-1"; such characters are often left over from a copied cell or a file export).`,
		});
	});

	test('tab, line feed, carriage return, emoji and accents are text XML carries', () => {
		for (const text of ['a\tb', 'a\nb', 'a\r\nb', 'Café 😀', '中文', '\u00A0x'])
			expect(xmlTextProblem(text)).toBeUndefined();
		expect(readXmlText('  Cocoa\tbeans  ')).toEqual({ kind: 'value', value: 'Cocoa\tbeans' });
	});

	test('the position counts characters (an emoji before is one), the context is at most 20 of them', () => {
		expect(xmlTextProblem('😀\u0001')).toMatch(/at position 2, .*right after "😀"/);
		expect(xmlTextProblem(`${'x'.repeat(30)}\u0001`)).toMatch(
			new RegExp(`at position 31, .*right after "…${'x'.repeat(20)}"`),
		);
		expect(xmlTextProblem('\u0001abc')).toMatch(/at position 1, .*it is the first character/);
	});

	test('empty and missing read as readText reads them', () => {
		expect(readXmlText('  ')).toEqual({ kind: 'missing' });
		expect(readXmlText(undefined)).toEqual({ kind: 'missing' });
		expect(readXmlText(12.5)).toEqual({ kind: 'value', value: '12.5' });
	});
});

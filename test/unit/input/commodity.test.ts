import {
	COMMODITIES,
	COMMODITY_OPTIONS,
	commodityName,
	readCommodity,
} from '../../../nodes/shared/input';

describe('COMMODITIES and COMMODITY_OPTIONS', () => {
	it('are the contract enum', () => {
		expect([...COMMODITIES]).toEqual([
			'wood',
			'soy',
			'cocoa',
			'coffee',
			'palm_oil',
			'beef',
			'rubber',
		]);
	});

	it('give one UI option per commodity, derived from the constant and sorted by name', () => {
		expect(COMMODITY_OPTIONS).toEqual([
			{ name: 'Beef', value: 'beef' },
			{ name: 'Cocoa', value: 'cocoa' },
			{ name: 'Coffee', value: 'coffee' },
			{ name: 'Palm Oil', value: 'palm_oil' },
			{ name: 'Rubber', value: 'rubber' },
			{ name: 'Soy', value: 'soy' },
			{ name: 'Wood', value: 'wood' },
		]);
		expect(COMMODITY_OPTIONS.map((o) => o.value).sort()).toEqual([...COMMODITIES].sort());
	});

	it('reads every option name and value back as its value', () => {
		for (const option of COMMODITY_OPTIONS) {
			expect(readCommodity(option.name)).toEqual({ kind: 'value', value: option.value });
			expect(readCommodity(option.value)).toEqual({ kind: 'value', value: option.value });
			expect(commodityName(option.value)).toBe(option.name);
		}
	});
});

describe('readCommodity', () => {
	it.each([
		['cocoa', 'cocoa'],
		[' COFFEE ', 'coffee'],
		['Palm Oil', 'palm_oil'],
		['palm-oil', 'palm_oil'],
		['palm_oil', 'palm_oil'],
		['PALM OIL', 'palm_oil'],
		['Palm  Oil', 'palm_oil'],
		['palm - oil', 'palm_oil'],
		['palm__oil', 'palm_oil'],
	])('reads %p as %p (any case; spaces, hyphens and underscores alike)', (input, expected) => {
		expect(readCommodity(input)).toEqual({ kind: 'value', value: expected });
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '  '])
			expect(readCommodity(v)).toEqual({ kind: 'missing' });
	});

	it('refuses anything else, listing the allowed values', () => {
		expect(readCommodity('banana')).toEqual({
			kind: 'invalid',
			reason:
				'"banana" is not a commodity the service knows. Use one of: wood, soy, cocoa, coffee, palm_oil, beef, rubber (any letter case; "Palm Oil" and "palm-oil" work too).',
		});
		expect(readCommodity('palmoil').kind).toBe('invalid');
		expect(readCommodity(3)).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(/^it is a number, not a commodity name. Use one of: wood,/),
		});
		expect(readCommodity(['cocoa'])).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(/^it is a list, not a commodity name/),
		});
	});
});

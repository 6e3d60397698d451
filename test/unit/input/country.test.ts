/**
 * The one country reader (Expected Country of Plot → Register and Validate, Producer Country
 * of Plot → Export EU): codes, ISO names and the names in common use, one wording for a value
 * it cannot read. The geometry layer's country boxes are found through it (findCountry).
 */
import { findCountry } from '../../../nodes/shared/geometry';
import { countryCodeProblem, readCountry } from '../../../nodes/shared/input';

describe('readCountry', () => {
	it.each([
		['BR', 'BR'],
		[' br ', 'BR'],
		['BRA', 'BR'],
		['civ', 'CI'],
		['Brazil', 'BR'],
		['Brasil', 'BR'],
		["Côte d'Ivoire", 'CI'],
		['cote d’ivoire', 'CI'],
		['Cote dIvoire', 'CI'],
		['Ivory Coast', 'CI'],
		['Congo', 'CG'],
		['Congo Brazzaville', 'CG'],
		['DRC', 'CD'],
		['Congo-Kinshasa', 'CD'],
		['Democratic Republic of the Congo', 'CD'],
		['Viet Nam', 'VN'],
		['Vietnam', 'VN'],
		['Laos', 'LA'],
		['Tanzania', 'TZ'],
		['Deutschland', 'DE'],
		['Iceland', 'IS'],
		['Perú', 'PE'],
		['México', 'MX'],
		['Panamá', 'PA'],
		['Plurinational State of Bolivia', 'BO'],
		['Venezuela', 'VE'],
	])('%p is %s', (input, code) => {
		expect(readCountry(input)).toEqual({ kind: 'value', value: code });
	});

	it.each([undefined, null, '', '  '])('%p is missing', (input) => {
		expect(readCountry(input)).toEqual({ kind: 'missing' });
	});

	it.each([
		['Narnia', '"Narnia" is not a country name or an ISO 3166-1 code.'],
		['XX', '"XX" is not a country name or an ISO 3166-1 code.'],
		['XYZ', '"XYZ" is not a country name or an ISO 3166-1 code.'],
		[12, '"12" is not a country name or an ISO 3166-1 code.'],
		[{ code: 'CI' }, 'it is an object, not a country name or code.'],
		[['BR'], 'it is a list, not a country name or code.'],
		[true, 'it is a boolean, not a country name or code.'],
	])('%p is refused, saying what to give', (input, start) => {
		expect(readCountry(input)).toEqual({
			kind: 'invalid',
			reason: `${start} Give the alpha-2 code (e.g. CI, BR), the alpha-3 code or the English name.`,
		});
	});

	it('shortens a long value in the reason', () => {
		const read = readCountry('x'.repeat(100));
		expect(read.kind === 'invalid' && read.reason).toMatch(/^"x{40}…" is not a country/);
	});

	it('findCountry finds the box of every value readCountry reads to a boxed country, and none otherwise', () => {
		for (const name of ['Brasil', 'BRA', 'Ivory Coast', 'DRC', 'Congo', 'Viet Nam', 'Laos'])
			expect(findCountry(name)?.iso2).toBe((readCountry(name) as { value: string }).value);
		// a country without a box, and a value that is no country
		expect(findCountry('Iceland')).toBeUndefined();
		expect(findCountry('Narnia')).toBeUndefined();
	});
});

describe('countryCodeProblem (a producer country as the EU takes it, from any geolocation source)', () => {
	it('takes an assigned alpha-2 code in capitals', () => {
		for (const code of ['BR', 'CI', 'CD', 'FR']) expect(countryCodeProblem(code)).toBeUndefined();
	});
	it('refuses two capital letters that are no ISO 3166-1 code (the XSD would let them pass)', () => {
		expect(countryCodeProblem('ZZ')).toBe(
			'"ZZ" is not an ISO 3166-1 alpha-2 country code (two capital letters, e.g. CI or BR).',
		);
		expect(countryCodeProblem('UK')).toMatch(/not an ISO 3166-1 alpha-2 country code/);
	});
	it('names the code to write for a name, an alpha-3 code or small letters', () => {
		expect(countryCodeProblem('Brazil')).toBe(
			'"Brazil" is not written as an ISO 3166-1 alpha-2 code: write BR.',
		);
		expect(countryCodeProblem('CIV')).toMatch(/write CI\.$/);
		expect(countryCodeProblem('br')).toMatch(/write BR\.$/);
	});
	it('agrees with readCountry on every code it reads', () => {
		for (const text of ['Ivory Coast', 'DRC', 'Brasil', 'bra'])
			expect(countryCodeProblem((readCountry(text) as { value: string }).value)).toBeUndefined();
	});
});

import {
	DATE_ORDERS,
	DATE_ORDER_OPTIONS,
	readDate,
	readDateOrder,
	readTimestamp,
} from '../../../nodes/shared/input';

const date = (value: string) => ({ kind: 'value', value });

describe('readDate', () => {
	it.each([
		['2024-03-15', '2024-03-15'],
		['2024-3-5', '2024-03-05'],
		['2024-03-15T23:30:00-05:00', '2024-03-15'],
		['2024-03-15 10:00', '2024-03-15'],
		['2024-03-15T10:00:00.123Z', '2024-03-15'],
		['2024/03/15', '2024-03-15'],
		['2024.03.15', '2024-03-15'],
		['20240315', '2024-03-15'],
		['15.03.2024', '2024-03-15'],
		['5.3.24', '2024-03-05'],
		['15/03/2024', '2024-03-15'],
		['03/15/2024', '2024-03-15'],
		['15-03-2024', '2024-03-15'],
		['04/04/2024', '2024-04-04'],
		['15 March 2024', '2024-03-15'],
		['15-Mar-2024', '2024-03-15'],
		['1st Sept 2024', '2024-09-01'],
		['March 15, 2024', '2024-03-15'],
		['45366', '2024-03-15'],
		['2024-02-29', '2024-02-29'],
	])('reads %p as %p', (input, expected) => {
		expect(readDate(input)).toEqual(date(expected));
	});

	it('reads serial numbers, Dates and Luxon-like DateTimes', () => {
		expect(readDate(45366)).toEqual(date('2024-03-15'));
		expect(readDate(new Date('2024-03-15T23:59:00Z'))).toEqual(date('2024-03-15'));
		expect(readDate({ toISODate: () => '2024-03-15' })).toEqual(date('2024-03-15'));
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '   ']) expect(readDate(v)).toEqual({ kind: 'missing' });
	});

	it('reads ambiguous day/month dates only with a Date Order', () => {
		expect(readDate('03/04/2024')).toEqual({
			kind: 'invalid',
			reason:
				'"03/04/2024" is ambiguous: it can be day 3 of month 4 or month 3, day 4. Write it as YYYY-MM-DD, e.g. 2024-03-15 (where a node has the option "Date Order", as Plot → Register does, it can say how your dates are written).',
		});
		expect(readDate('03/04/2024', 'dayFirst')).toEqual(date('2024-04-03'));
		expect(readDate('03/04/2024', 'monthFirst')).toEqual(date('2024-03-04'));
	});

	it.each([
		['2025-02-30', '"2025-02-30" has the day 30, which does not exist in 2025-02'],
		['2023-02-29', 'has the day 29, which does not exist in 2023-02'],
		['31.04.2024', '"31.04.2024" has the day 31, which does not exist in 2024-04'],
		['2024-13-01', 'has the month 13, which does not exist'],
		['2024-00-10', 'has the month 0, which does not exist'],
		['30/02/2024', 'has the day 30, which does not exist in 2024-02'],
		['31 June 2024', 'has the day 31, which does not exist in 2024-06'],
		['20250230', 'has the day 30'],
		['2024-03-15T25:00', '"2024-03-15T25:00" has the time 25:00, which does not exist'],
		['2024-03-15T10:60:00Z', 'has the time 10:60:00, which does not exist'],
		['2024-03-15T10:00:00+15:00', 'has the time zone +15:00, which does not exist'],
		['1066-10-14', 'has the year 1066, which is not plausible here (1900 to 2200)'],
		['last spring', '"last spring" is not a date this node can read. Write it as YYYY-MM-DD'],
		['15 Marzo 2024', 'is not a date this node can read'],
		[1.5, '1.5 is a number but not a spreadsheet date'],
		[NaN, 'NaN is not a date'],
		[[2024, 3, 15], 'it is a list, not a date'],
		[true, 'it is a boolean, not a date'],
		[new Date(NaN), 'the date is invalid'],
		[{ toISODate: () => null }, 'the date is invalid'],
	])('refuses %p', (input, reason) => {
		const r = readDate(input);
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toContain(reason);
		expect(r.kind === 'invalid' && r.reason).toMatch(/Write it as YYYY-MM-DD, e.g. 2024-03-15/);
	});
});

describe('readTimestamp', () => {
	it.each([
		['2024-03-15T10:00:00Z', '2024-03-15T10:00:00Z'],
		['2024-03-15T10:00:00z', '2024-03-15T10:00:00Z'],
		['2024-03-15 10:00', '2024-03-15T10:00'],
		['2024-3-5T9:05', '2024-03-05T09:05'],
		['2024-03-15T10:00:00.123456', '2024-03-15T10:00:00.123456'],
		['2024-03-15T10:00:00,5+0100', '2024-03-15T10:00:00.5+01:00'],
		['2024-03-15T10:00:00-05', '2024-03-15T10:00:00-05:00'],
		['2024-03-15T10:00 +01:00', '2024-03-15T10:00+01:00'],
		['2000-01-01T00:00:00', '2000-01-01T00:00:00'],
		['2024-03-15', '2024-03-15'],
		['15.03.2024', '2024-03-15'],
		['15 March 2024', '2024-03-15'],
	])('reads %p as %p', (input, expected) => {
		expect(readTimestamp(input)).toEqual(date(expected));
	});

	it('reads Dates and Luxon-like DateTimes as full ISO times', () => {
		expect(readTimestamp(new Date('2026-03-01T12:00:00Z'))).toEqual(
			date('2026-03-01T12:00:00.000Z'),
		);
		expect(readTimestamp({ toISO: () => '2026-03-01T12:00:00.000+01:00', isValid: true })).toEqual(
			date('2026-03-01T12:00:00.000+01:00'),
		);
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '  '])
			expect(readTimestamp(v)).toEqual({ kind: 'missing' });
	});

	it.each([
		['2025-02-30T10:00:00Z', 'has the day 30, which does not exist in 2025-02'],
		['2025-02-30', 'has the day 30, which does not exist in 2025-02'],
		['2024-03-15T24:00', 'has the time 24:00, which does not exist'],
		[
			'last week',
			'"last week" is not an ISO-8601 date or time, nor a date this node can read. Write it as YYYY-MM-DD or as an ISO-8601 time such as 2024-03-15T10:00:00Z (without a zone it is UTC).',
		],
		['2024-03-15T10', 'is not an ISO-8601 date or time'],
		[new Date(NaN), 'the date is invalid'],
		[{ toISO: () => null, isValid: false }, 'the date is invalid'],
		[{ a: 1 }, 'it is an object, not a date'],
		[true, 'it is a boolean, not a date'],
	])('refuses %p', (input, reason) => {
		const r = readTimestamp(input);
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toContain(reason);
	});
});

describe('Date Order', () => {
	it('derives the UI options from DATE_ORDERS', () => {
		expect(DATE_ORDER_OPTIONS.map((o) => o.value)).toEqual([...DATE_ORDERS]);
		expect(DATE_ORDER_OPTIONS.map((o) => o.name)).toEqual([
			'Reject Ambiguous Dates',
			'Day First (DD/MM/YYYY)',
			'Month First (MM/DD/YYYY)',
		]);
	});

	it('reads the option value; anything unknown is reject', () => {
		expect(readDateOrder('dayFirst')).toBe('dayFirst');
		expect(readDateOrder('monthFirst')).toBe('monthFirst');
		expect(readDateOrder('reject')).toBe('reject');
		for (const v of [undefined, '', 'DAYFIRST', 3]) expect(readDateOrder(v)).toBe('reject');
	});
});

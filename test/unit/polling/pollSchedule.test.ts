import {
	cronLongestGapMs,
	firstPollGraceMs,
	GRACE_MARGIN_MS,
	pollGapMs,
	pollTimeGapMs,
	UNKNOWN_SCHEDULE_GAP_MS,
} from '../../../nodes/shared/polling/pollSchedule';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('trigger schedule: the longest time between two polls', () => {
	it('reads every mode of n8n\'s "Poll Times"', () => {
		expect(pollTimeGapMs({ mode: 'everyMinute' })).toBe(MIN);
		expect(pollTimeGapMs({ mode: 'everyHour', minute: 5 })).toBe(HOUR);
		expect(pollTimeGapMs({ mode: 'everyX', value: 20, unit: 'minutes' })).toBe(20 * MIN);
		expect(pollTimeGapMs({ mode: 'everyX', value: '7', unit: 'minutes' })).toBe(7 * MIN);
		// */90 in the minute field runs once an hour
		expect(pollTimeGapMs({ mode: 'everyX', value: 90, unit: 'minutes' })).toBe(HOUR);
		expect(pollTimeGapMs({ mode: 'everyX', value: 5, unit: 'hours' })).toBe(5 * HOUR);
		expect(pollTimeGapMs({ mode: 'everyX', value: 30, unit: 'hours' })).toBe(DAY);
		expect(pollTimeGapMs({ mode: 'everyX', value: 0, unit: 'minutes' })).toBeUndefined();
		expect(pollTimeGapMs({ mode: 'everyDay', hour: 3, minute: 0 })).toBe(DAY);
		expect(pollTimeGapMs({ mode: 'everyWeek', weekday: 1, hour: 3, minute: 0 })).toBe(7 * DAY);
		expect(pollTimeGapMs({ mode: 'everyMonth', dayOfMonth: 1, hour: 3, minute: 0 })).toBe(31 * DAY);
		expect(pollTimeGapMs({ mode: 'everyMonth', dayOfMonth: 31, hour: 3, minute: 0 })).toBe(
			62 * DAY,
		);
		expect(pollTimeGapMs({ mode: 'custom', cronExpression: '0 */15 * * * *' })).toBe(15 * MIN);
		expect(pollTimeGapMs({ mode: 'nope' })).toBeUndefined();
	});

	it('reads cron expressions (5 or 6 fields, ranges, steps, lists, names)', () => {
		expect(cronLongestGapMs('* * * * *')).toBe(MIN);
		expect(cronLongestGapMs('30 * * * * *')).toBe(MIN); // seconds do not matter
		expect(cronLongestGapMs('*/7 * * * *')).toBe(7 * MIN);
		expect(cronLongestGapMs('0,30 9-17 * * *')).toBe(15 * HOUR + 30 * MIN); // 17:30 → 9:00
		expect(cronLongestGapMs('0 9 * * MON-FRI')).toBe(3 * DAY); // Friday → Monday
		expect(cronLongestGapMs('0 9 * * 1-5')).toBe(3 * DAY);
		expect(cronLongestGapMs('0 9 * * 0,7')).toBe(7 * DAY); // 0 and 7: Sunday
		expect(cronLongestGapMs('0 0 1 * *')).toBe(31 * DAY);
		expect(cronLongestGapMs('0 0 1 JAN *')).toBe(366 * DAY); // once a year (a leap year)
		// day of month and day of week both restricted: either
		expect(cronLongestGapMs('0 0 1 * 1')).toBeLessThanOrEqual(7 * DAY);
		expect(cronLongestGapMs('10/25 * * * *')).toBe(35 * MIN); // 10, 35, then 10 past the next hour
		expect(cronLongestGapMs('not a cron')).toBeUndefined();
		expect(cronLongestGapMs('61 * * * *')).toBeUndefined();
		expect(cronLongestGapMs('0 0 30 2 *')).toBeUndefined(); // never runs
		expect(cronLongestGapMs('@daily')).toBeUndefined();
	});

	it('takes the whole "Poll Times" value: the default, several entries, unreadable ones', () => {
		expect(pollGapMs(undefined)).toBe(MIN);
		expect(pollGapMs({})).toBe(MIN);
		expect(pollGapMs({ item: [] })).toBe(MIN);
		expect(pollGapMs({ item: [{ mode: 'everyMinute' }] })).toBe(MIN);
		// a poll of any entry counts: the shortest of their longest gaps
		expect(
			pollGapMs({
				item: [
					{ mode: 'everyDay', hour: 3, minute: 0 },
					{ mode: 'everyX', value: 2, unit: 'hours' },
				],
			}),
		).toBe(2 * HOUR);
		expect(pollGapMs({ item: [{ mode: 'custom', cronExpression: '@hourly' }] })).toBe(
			UNKNOWN_SCHEDULE_GAP_MS,
		);
	});

	it('gives a poll without state two poll gaps plus a margin', () => {
		expect(GRACE_MARGIN_MS).toBe(5 * MIN);
		expect(firstPollGraceMs(undefined)).toBe(7 * MIN);
		expect(firstPollGraceMs({ item: [{ mode: 'everyX', value: 20, unit: 'minutes' }] })).toBe(
			45 * MIN,
		);
		expect(firstPollGraceMs({ item: [{ mode: 'everyHour', minute: 0 }] })).toBe(2 * HOUR + 5 * MIN);
	});
});

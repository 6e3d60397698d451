import type { Feature } from '../../../nodes/shared/geometry';
import { parseServiceTimestamp, serviceTimestamp } from '../../../nodes/shared/time/serviceTime';
import type { Plot, SentRequest } from '../../../nodes/shared/plots/matchPlots';
import { geometryLevel, pairRows, rowLevel } from '../../../nodes/shared/plots/matchPlots';
import { RegistrationLedger, itemList } from '../../../nodes/shared/plots/registerOnce';

const RING = [
	[-47.882778, -15.793889],
	[-47.872778, -15.793889],
	[-47.872778, -15.783889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];

const polygon = (ring: number[][] = RING): Feature => ({
	type: 'Feature',
	properties: {},
	geometry: { type: 'Polygon', coordinates: [ring] },
});
const point = (lon: number, lat: number, pointHa?: number): Feature => ({
	type: 'Feature',
	properties: pointHa === undefined ? {} : { point_ha: pointHa },
	geometry: { type: 'Point', coordinates: [lon, lat] },
});

/** A plot as the service lists it, storing `geometry`. */
const plot = (id: string, geometry: unknown, extra: Plot = {}): Plot => ({
	plot_id: id,
	plot_name: `Plot ${id}`,
	geojson_features: [{ type: 'Feature', geometry, properties: {} }],
	harvest_dates: [],
	commodity: null,
	notes: '',
	additional_info: {},
	...extra,
});

/** A buffered circle of about `ha` hectares around a point, as the service stores points. */
function circle(lon: number, lat: number, ha = 3.99): Plot['geojson_features'] {
	const r = Math.sqrt((ha * 10_000) / Math.PI) / 111_320;
	const ring = Array.from({ length: 65 }, (_, k) => {
		const a = (2 * Math.PI * (k % 64)) / 64;
		return [lon + (r * Math.cos(a)) / Math.cos((lat * Math.PI) / 180), lat + r * Math.sin(a)];
	});
	return { type: 'Polygon', coordinates: [ring] };
}

const request = (features: Feature[], fields: SentRequest['fields'] = {}): SentRequest => ({
	rows: features.map((feature, k) => ({
		itemIndex: k,
		featureIndex: 0,
		itemFeatureCount: 1,
		feature,
	})),
	fields,
});

describe('service timestamps (ISO-8601 style without zone, UTC)', () => {
	it('writes a lower bound the way the service writes created_at, floored to the second', () => {
		expect(serviceTimestamp(Date.parse('2026-03-01T12:00:00.987Z'))).toBe('2026-03-01T12:00:00');
	});

	it('reads the service style (no zone = UTC, microseconds cut) and zoned forms', () => {
		expect(parseServiceTimestamp('2026-03-01T12:00:00.123456')).toBe(
			Date.parse('2026-03-01T12:00:00.123Z'),
		);
		expect(parseServiceTimestamp('2026-03-01 12:00:00')).toBe(Date.parse('2026-03-01T12:00:00Z'));
		expect(parseServiceTimestamp('2026-03-01T12:00:00+01:00')).toBe(
			Date.parse('2026-03-01T11:00:00Z'),
		);
		expect(parseServiceTimestamp('soon')).toBeUndefined();
		expect(parseServiceTimestamp(undefined)).toBeUndefined();
	});
});

describe('matching a listed plot to a sent row', () => {
	it('a polygon comes back rounded, rewound, unclosed-and-closed, with z: the same', () => {
		const stored = {
			type: 'Polygon',
			coordinates: [
				[...RING]
					.reverse()
					.slice(0, -1)
					.map(([lon, lat]) => [Number(lon.toFixed(5)), Number(lat.toFixed(5)), 12.5]),
			],
		};
		expect(geometryLevel(polygon(), plot('1', stored))).toBe('same');
	});

	it('a polygon whose box differs by metres is possible, by kilometres different', () => {
		const shifted = (d: number) => ({
			type: 'Polygon',
			coordinates: [RING.map(([lon, lat]) => [lon + d, lat])],
		});
		expect(geometryLevel(polygon(), plot('1', shifted(0.0002)))).toBe('possible');
		expect(geometryLevel(polygon(), plot('1', shifted(0.05)))).toBe('different');
	});

	it('same box but other vertices (e.g. densified by the service) is only possible', () => {
		const densified = {
			type: 'Polygon',
			coordinates: [[RING[0], [-47.877778, -15.793889], ...RING.slice(1)]],
		};
		expect(geometryLevel(polygon(), plot('1', densified))).toBe('possible');
	});

	it('a point stored as a circle is matched by its centre and area, with the decimals the service gave', () => {
		const row = point(-50.123456, -10.123456);
		const stored = circle(-50.123456, -10.123456);
		expect(
			geometryLevel(
				row,
				plot('1', stored, { lat: '-10.123456', lon: '-50.123456', area_ha: 3.99 }),
			),
		).toBe('same');
		// lat/lon written with 4 decimals: within their rounding
		expect(
			geometryLevel(row, plot('1', stored, { lat: '-10.1235', lon: '-50.1235', area_ha: 3.99 })),
		).toBe('same');
		// a neighbour 30 m away: possible; 2 km away: different
		expect(geometryLevel(row, plot('1', stored, { lat: '-10.123700', lon: '-50.123456' }))).toBe(
			'possible',
		);
		expect(geometryLevel(row, plot('1', stored, { lat: '-10.143456', lon: '-50.123456' }))).toBe(
			'different',
		);
		// a circle of 1 ha when 4 ha were asked for: not certain
		expect(
			geometryLevel(row, plot('1', stored, { lat: '-10.123456', lon: '-50.123456', area_ha: 1 })),
		).toBe('possible');
		expect(
			geometryLevel(
				point(-50.123456, -10.123456, 1),
				plot('1', stored, { lat: '-10.123456', lon: '-50.123456', area_ha: 0.99 }),
			),
		).toBe('same');
	});

	it('fields sent must agree: a different commodity, harvest date, notes or info is another plot', () => {
		const sent = request([polygon()], {
			commodity: 'palm_oil',
			harvest_date: '2024-03-15',
			notes: 'north  block',
			additional_info: { farm: 'A' },
		});
		const stored = { type: 'Polygon', coordinates: [RING] };
		const good = plot('1', stored, {
			commodity: 'Palm Oil',
			harvest_dates: ['2024-03-15T00:00:00'],
			notes: 'north block',
			additional_info: { farm: 'A' },
		});
		expect(rowLevel(sent, 0, good)).toBe('same');
		expect(rowLevel(sent, 0, { ...good, commodity: 'cocoa' })).toBe('different');
		expect(rowLevel(sent, 0, { ...good, harvest_dates: ['2024-03-16'] })).toBe('different');
		expect(rowLevel(sent, 0, { ...good, notes: 'south block' })).toBe('different');
		expect(rowLevel(sent, 0, { ...good, additional_info: { farm: 'B' } })).toBe('different');
		// missing on the plot although sent: cannot be sure
		expect(rowLevel(sent, 0, { ...good, commodity: null })).toBe('possible');
		// present on the plot although not sent: cannot be sure
		expect(
			rowLevel(request([polygon()]), 0, {
				...good,
				harvest_dates: [],
				additional_info: {},
				notes: '',
			}),
		).toBe('possible');
	});

	it('names: a named request must give its name, numbered when it held several features', () => {
		const stored = { type: 'Polygon', coordinates: [RING] };
		expect(
			rowLevel(
				request([polygon()], { plot_name: 'Farm A' }),
				0,
				plot('1', stored, { plot_name: 'Farm A' }),
			),
		).toBe('same');
		expect(
			rowLevel(
				request([polygon()], { plot_name: 'Farm A' }),
				0,
				plot('1', stored, { plot_name: 'Farm B' }),
			),
		).toBe('different');
		const two = request([polygon(), polygon(RING.map(([x, y]) => [x + 1, y]))], {
			plot_name: 'Farm',
		});
		expect(rowLevel(two, 0, plot('1', stored, { plot_name: 'Farm 1' }))).toBe('same');
		expect(rowLevel(two, 0, plot('1', stored, { plot_name: 'Farm 2' }))).toBe('possible');
	});
});

describe('pairing rows with plots, one to one', () => {
	const stored = (dx = 0) => ({
		type: 'Polygon',
		coordinates: [RING.map(([x, y]) => [x + dx, y])],
	});

	it('each row its own plot; a row with no plot at all is missing (may be sent again)', () => {
		const sent = request([polygon(), polygon(RING.map(([x, y]) => [x + 0.1, y]))]);
		const findings = pairRows(sent, [plot('7', stored(0))]);
		expect(findings[0]).toEqual({ kind: 'found', plot: expect.objectContaining({ plot_id: '7' }) });
		expect(findings[1]).toEqual({ kind: 'missing' });
	});

	it('identical rows get as many identical plots, in the order of their ids; never one plot for two rows', () => {
		const sent = request([polygon(), polygon(), polygon()]);
		const findings = pairRows(sent, [
			plot('12', stored()),
			plot('10', stored()),
			plot('11', stored()),
		]);
		expect(findings.map((f) => (f.kind === 'found' ? f.plot.plot_id : f.kind))).toEqual([
			'10',
			'11',
			'12',
		]);
	});

	it('more identical plots than rows (one registered earlier): unsure, naming them all', () => {
		const findings = pairRows(request([polygon()]), [plot('5', stored()), plot('4', stored())]);
		expect(findings).toEqual([{ kind: 'unsure', plotIds: ['4', '5'] }]);
	});

	it('fewer identical plots than identical rows: unsure for all of them (not missing: nothing is sent again)', () => {
		const findings = pairRows(request([polygon(), polygon()]), [plot('5', stored())]);
		expect(findings.map((f) => f.kind)).toEqual(['unsure', 'unsure']);
	});

	it('a plot that only resembles a row makes it unsure, and the plot is not given to another row', () => {
		const sent = request([polygon(), polygon(RING.map(([x, y]) => [x + 0.0002, y]))]);
		const findings = pairRows(sent, [plot('9', stored())]);
		// row 0 is the same as plot 9, but row 1 resembles it too: neither is certain
		expect(findings.map((f) => f.kind)).toEqual(['unsure', 'unsure']);
	});
});

describe('RegistrationLedger', () => {
	it('a lookup waits for the requests under way and holds new ones back until it is done', async () => {
		const ledger = new RegistrationLedger();
		const events: string[] = [];
		let finishRequest: () => void = () => {};
		const request = ledger.shared(async () => {
			events.push('request starts');
			await new Promise<void>((resolve) => (finishRequest = resolve));
			events.push('request ends');
		});
		await Promise.resolve();
		const lookup = ledger.exclusive(async () => {
			events.push('lookup');
		});
		const later = ledger.shared(async () => {
			events.push('later request');
		});
		await Promise.resolve();
		expect(events).toEqual(['request starts']);
		finishRequest();
		await Promise.all([request, lookup, later]);
		expect(events).toEqual(['request starts', 'request ends', 'lookup', 'later request']);
	});

	it('says what exists when the run stops; "No plot was registered" only when nothing may exist', () => {
		const ledger = new RegistrationLedger();
		expect(ledger.report(new Error('400')).description).toBe('No plot was registered.');
		const row = (itemIndex: number) => ({
			itemIndex,
			featureIndex: 0,
			itemFeatureCount: 1,
			feature: polygon(),
		});
		ledger.exists([{ row: row(0), plot: { plot_id: '1' } }]);
		const named = new Error('named in the message');
		ledger.mayExist([row(1)], '2026-03-01T12:00:00', named);
		ledger.mayExist([row(2)], '2026-03-01T11:59:00', new Error('another batch'));
		const report = ledger.report(named);
		expect(report.description).toBe(
			'Item 0 was registered before the failure (its plots exist now); remove it from the input before running again, or it will be registered twice. Item 2 may have been registered too: check with Plot → Get Many, Filters → Created After 2026-03-01T11:59:00 (UTC) before running it again.',
		);
		expect(report.context).toEqual({
			registeredBeforeFailure: [{ item: 0, plot_ids: ['1'] }],
			mayHaveBeenRegistered: [1, 2],
		});
		expect(ledger.claimed.has('1')).toBe(true);
	});

	it('lists items compactly', () => {
		expect(itemList([3])).toBe('Item 3');
		expect(itemList([2, 0, 1, 1])).toBe('Items 0, 1, 2');
		expect(itemList(Array.from({ length: 35 }, (_, i) => i))).toMatch(/, 29 and 5 more$/);
	});
});

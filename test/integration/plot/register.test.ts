import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { useFakeService } from '../../helpers/fakeService';
import { fake, store, usePlotService } from './helpers';
import { type Case, CASES, GOOD } from '../../helpers/registerCases';

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };

describe('Plot → Register (through the n8n engine, against the fake)', () => {
	usePlotService();

	const register = async (input: IDataObject[], extra: IDataObject = {}, continueOnFail = false) =>
		await runNode({
			parameters: { resource: 'plot', operation: 'register', ...extra },
			input,
			store,
			continueOnFail,
		});

	it('registers 45 latitude/longitude rows as 45 plots in exactly 3 make_plot requests, each paired with its row', async () => {
		const rows = Array.from({ length: 45 }, (_, i) => ({
			row: i,
			latitude: (-10.123456 - i * 0.01).toFixed(6),
			longitude: String(-50.123456 - i * 0.01).replace('.', ','),
		}));
		const { items, error } = await register(rows, { geometrySource: 'latLon' });
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(3);
		const sizes = fake.log
			.entries()
			.filter((e) => e.path === MAKE_PLOT.path)
			.map((e) => ((e.body as IDataObject).geojson as { features: unknown[] }).features.length)
			.sort((a, b) => b - a);
		expect(sizes).toEqual([20, 20, 5]);
		expect(items).toHaveLength(45);
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			const plot = fake.getPlot(String(item.json.plot_id)) as unknown as IDataObject;
			expect(plot).toBeDefined();
			// The plot's centre is the row's point (the fake buffers points into circles around it).
			expect(Number(item.json.lat)).toBeCloseTo(Number(rows[i].latitude), 4);
			expect(Number(item.json.lon)).toBeCloseTo(Number(rows[i].longitude.replace(',', '.')), 4);
		});
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(45);
	});

	const RING = [
		[-47.882778, -15.793889],
		[-47.872778, -15.793889],
		[-47.872778, -15.783889],
		[-47.882778, -15.783889],
	];
	const closed = (ring: number[][]) => [...ring, ring[0]];
	const REPAIRABLE: Array<[string, IDataObject, RegExp, RegExp]> = [
		[
			'unclosed ring',
			{ type: 'Polygon', coordinates: [RING] },
			/the polygon ring is not closed/,
			/closed ring 0/,
		],
		[
			'duplicate consecutive vertices',
			{ type: 'Polygon', coordinates: [closed([RING[0], RING[1], RING[1], RING[2], RING[3]])] },
			/duplicate consecutive vertex/,
			/duplicate/,
		],
	];

	it.each(REPAIRABLE)(
		'with Repair Geometry off, %s fails with the validation message and nothing is sent',
		async (_n, geometry, message) => {
			const { error } = await register([{ geojson: geometry }], {
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
			});
			expect(String(error?.message)).toMatch(message);
			expect(fake.log.count()).toBe(0);
		},
	);

	it.each(REPAIRABLE)(
		'with Repair Geometry on, %s registers and lists its repairs',
		async (_n, geometry, _m, repair) => {
			const { items, error } = await register([{ geojson: geometry }], {
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				options: { repairGeometry: true },
			});
			expect(error).toBeUndefined();
			expect(fake.log.count(MAKE_PLOT)).toBe(1);
			expect(items).toHaveLength(1);
			const repairs = items[0].json.repairs as string[];
			expect(repairs.some((r) => repair.test(r))).toBe(true);
			expect(repairs.every((r) => r.startsWith('Item 0, feature 0: '))).toBe(true);
			const sent = (fake.log.entries()[0].body as IDataObject).geojson as {
				features: Array<{ geometry: { coordinates: number[][][] } }>;
			};
			const ring = sent.features[0].geometry.coordinates[0];
			expect(ring[0]).toEqual(ring[ring.length - 1]);
		},
	);

	it('with Repair Geometry on, a valid polygon drops z and is listed; with it off z is passed through untouched', async () => {
		const withZ = { type: 'Polygon', coordinates: [closed(RING).map(([x, y]) => [x, y, 812.5])] };
		const on = await register([{ geojson: withZ }], {
			geometrySource: 'geoJson',
			geoJson: '={{ $json.geojson }}',
			options: { repairGeometry: true },
		});
		expect(on.error).toBeUndefined();
		expect((on.items[0].json.repairs as string[]).join(' ')).toMatch(/z/i);
		fake.log.clear();
		const off = await register([{ geojson: withZ }], {
			geometrySource: 'geoJson',
			geoJson: '={{ $json.geojson }}',
		});
		expect(off.error).toBeUndefined();
		expect(off.items[0].json.repairs).toBeUndefined();
		const sent = (fake.log.entries()[0].body as IDataObject).geojson as {
			features: Array<{ geometry: { coordinates: number[][][] } }>;
		};
		expect(sent.features[0].geometry.coordinates[0][0]).toEqual([-47.882778, -15.793889, 812.5]);
	});

	it('with Continue On Fail, invalid items become error items and valid items are still registered', async () => {
		const input = [
			{ latitude: '-15.793889', longitude: '-47.882778' },
			{ latitude: 'abc', longitude: '-47.882778' },
			{ latitude: '-15.783889', longitude: '-47.872778' },
		];
		const { items, error } = await register(input, { geometrySource: 'latLon' }, true);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.plot_id).toBeDefined();
		expect(items[1].json.error).toMatch(/^Item 1: the latitude is not a number/);
		expect(items[2].json.plot_id).toBeDefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
	});

	it('sends per-plot fields correctly: shared fields share a request, named items get their own, dates and commodities normalised', async () => {
		const input = [
			{ lat: -15.793889, lon: -47.882778, commodity: 'Cocoa', date: '15/03/2024' },
			{ lat: -15.783889, lon: -47.872778, commodity: 'COCOA', date: '2024-03-15T08:00:00Z' },
			{ lat: -15.773889, lon: -47.862778, commodity: 'Palm Oil', date: 45366 },
			{ lat: -15.763889, lon: -47.852778, name: 'Fazenda Boa Vista', commodity: 'soy' },
			{ lat: -15.753889, lon: -47.842778, name: 'Fazenda Esperança', commodity: 'soy' },
		];
		const { items, error } = await register(input, {
			geometrySource: 'latLon',
			latitude: '={{ $json.lat }}',
			longitude: '={{ $json.lon }}',
			plotFields: {
				plotName: '={{ $json.name }}',
				commodity: '={{ $json.commodity }}',
				harvestDate: '={{ $json.date }}',
				notes: 'from the supplier sheet',
				additionalInfo: { pairs: [{ key: 'row', value: '={{ $itemIndex }}' }] },
			},
		});
		expect(error).toBeUndefined();
		const bodies = fake.log
			.entries()
			.filter((e) => e.path === MAKE_PLOT.path)
			.map((e) => e.body as IDataObject);
		// additional_info differs per row (row number), so every item has its own request here
		expect(bodies).toHaveLength(5);
		expect(items.map((i) => [i.json.plot_name, i.json.commodity, i.json.harvest_dates])).toEqual([
			[expect.any(String), 'cocoa', ['2024-03-15']],
			[expect.any(String), 'cocoa', ['2024-03-15']],
			[expect.any(String), 'palm_oil', ['2024-03-15']],
			['Fazenda Boa Vista', 'soy', []],
			['Fazenda Esperança', 'soy', []],
		]);
		expect(items.every((i) => i.json.notes === 'from the supplier sheet')).toBe(true);
		expect(items.map((i) => (i.json.additional_info as IDataObject).row)).toEqual([
			'0',
			'1',
			'2',
			'3',
			'4',
		]);
	});

	it('packs items with equal request-level fields together and keeps named items apart', async () => {
		const input = [
			{ lat: -15.793889, lon: -47.882778, commodity: 'cocoa' },
			{ lat: -15.783889, lon: -47.872778, commodity: 'coffee' },
			{ lat: -15.773889, lon: -47.862778, commodity: 'cocoa' },
			{ lat: -15.763889, lon: -47.852778, commodity: 'cocoa', name: 'Named' },
		];
		const { items, error } = await register(input, {
			geometrySource: 'latLon',
			latitude: '={{ $json.lat }}',
			longitude: '={{ $json.lon }}',
			plotFields: { plotName: '={{ $json.name }}', commodity: '={{ $json.commodity }}' },
			options: { parallelRequests: 1 },
		});
		expect(error).toBeUndefined();
		const bodies = fake.log
			.entries()
			.filter((e) => e.path === MAKE_PLOT.path)
			.map((e) => e.body as IDataObject);
		expect(
			bodies.map((b) => [
				b.commodity,
				b.plot_name,
				(b.geojson as { features: unknown[] }).features.length,
			]),
		).toEqual([
			['cocoa', undefined, 2],
			['coffee', undefined, 1],
			['cocoa', 'Named', 1],
		]);
		expect(items.map((i) => [i.pairedItem, i.json.commodity])).toEqual([
			[{ item: 0 }, 'cocoa'],
			[{ item: 1 }, 'coffee'],
			[{ item: 2 }, 'cocoa'],
			[{ item: 3 }, 'cocoa'],
		]);
		expect(items[3].json.plot_name).toBe('Named');
	});

	it('registers a FeatureCollection item as one plot per feature, each paired with the item and its feature index', async () => {
		const fc = {
			type: 'FeatureCollection',
			features: [0, 1, 2].map((k) => ({
				type: 'Feature',
				properties: {},
				geometry: {
					type: 'Polygon',
					coordinates: [closed(RING.map(([x, y]) => [Number((x + k * 0.02).toFixed(6)), y]))],
				},
			})),
		};
		const { items, error } = await register(
			[{ geojson: { type: 'Point', coordinates: [-47.912345, -15.712345] } }, { geojson: fc }],
			{
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
			},
		);
		expect(error).toBeUndefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(items.map((i) => [i.pairedItem, i.json.input_feature_index])).toEqual([
			[{ item: 0 }, 0],
			[{ item: 1 }, 0],
			[{ item: 1 }, 1],
			[{ item: 1 }, 2],
		]);
		const lons = items.slice(1).map((i) => Number(i.json.lon));
		expect(lons[1] - lons[0]).toBeCloseTo(0.02, 3);
		expect(lons[2] - lons[1]).toBeCloseTo(0.02, 3);
	});

	it('lists low-precision warnings on the output without failing', async () => {
		const { items, error } = await register([{ latitude: '-15.79', longitude: '-47.88' }], {
			geometrySource: 'latLon',
		});
		expect(error).toBeUndefined();
		expect(items[0].json.warnings).toEqual([
			expect.stringMatching(/^Item 0, feature 0 \(warning\): .*fewer than 6 decimal places/),
		]);
	});

	it('never retries a failed make_plot and says which items were already registered', async () => {
		const rows = Array.from({ length: 25 }, (_, i) => ({
			latitude: (-10.123456 - i * 0.01).toFixed(6),
			longitude: '-50.123456',
		}));
		fake.faults.add({
			kind: 'status',
			status: 503,
			times: 5,
			match: { method: 'POST', path: MAKE_PLOT.path },
		});
		const { error } = await register(rows, {
			geometrySource: 'latLon',
			options: { parallelRequests: 1 },
		});
		fake.faults.clear();
		expect(error).toBeDefined();
		expect(fake.log.count(MAKE_PLOT)).toBe(1);
		expect(String(error?.description)).toMatch(/No plot was registered/);
	});

	// Parallel Requests used to be clamped silently (0 → 1, 11 → 10, 2.5 → 2, "x" → 1); it is
	// now read as its range in the panel says, and anything else refuses every item, naming it.
	it.each([
		[
			0,
			/0 is below the smallest allowed value, 1\. Give how many requests to send at the same time as a whole number from 1 to 10\./,
		],
		[11, /11 is above the largest allowed value, 10\./],
		[2.5, /2\.5 is not a whole number\./],
		['x', /"x" is not a number\./],
	])(
		'Parallel Requests %p refuses every item naming the option; nothing is sent',
		async (value, reason) => {
			const rows = [
				{ latitude: '-15.793889', longitude: '-47.882778' },
				{ latitude: '-15.783889', longitude: '-47.872778' },
			];
			const { error } = await register(rows, {
				geometrySource: 'latLon',
				options: { parallelRequests: value },
			});
			const message = String(error?.message);
			expect(message).toMatch(
				/^Item 0, field "Parallel Requests": .*\(and 1 more problem in 2 items\)$/,
			);
			expect(String(error?.description)).toMatch(/Item 1, field "Parallel Requests": /);
			expect(message).toMatch(reason);
			expect(fake.log.count()).toBe(0);
			// with Continue On Fail, each item is an error item naming the option
			const kept = await register(
				rows,
				{ geometrySource: 'latLon', options: { parallelRequests: value } },
				true,
			);
			expect(kept.error).toBeUndefined();
			expect(kept.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			for (const item of kept.items)
				expect(String(item.json.error)).toMatch(/field "Parallel Requests"/);
			expect(fake.log.count()).toBe(0);
		},
	);

	it('Parallel Requests 1 and 10 (its range) register as before', async () => {
		for (const parallelRequests of [1, 10, '3']) {
			const { items, error } = await register(
				[{ latitude: '-15.763889', longitude: '-47.852778' }],
				{ geometrySource: 'latLon', options: { parallelRequests } },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
		}
	});

	// Expected Country is read by the one country reader (as Export's Producer Country): a
	// value it cannot read used to skip the country check silently; now it refuses the item.
	it("Expected Country it cannot read refuses the item naming the field, in Export's wording; nothing is sent", async () => {
		const rows = [
			{ latitude: '-15.793889', longitude: '-47.882778', country: 'Brasil' },
			{ latitude: '-15.783889', longitude: '-47.872778', country: 'Narnia' },
		];
		const plotFields = { country: '={{ $json.country }}' };
		const { error } = await register(rows, { geometrySource: 'latLon', plotFields });
		expect(error?.message).toBe(
			'Item 1, field "Expected Country": "Narnia" is not a country name or an ISO 3166-1 code. Give the alpha-2 code (e.g. CI, BR), the alpha-3 code or the English name.',
		);
		expect(fake.log.count()).toBe(0);
		// a name, an alpha-3 code and a name in common use are read as their country
		const ok = await register(
			[
				{ latitude: '-15.793889', longitude: '-47.882778', country: 'Brasil' },
				{ latitude: '6.702345', longitude: '-5.307654', country: 'Ivory Coast' },
				{ latitude: '-15.773889', longitude: '-47.862778', country: 'BRA' },
			],
			{ geometrySource: 'latLon', plotFields },
		);
		expect(ok.error).toBeUndefined();
		expect(ok.items).toHaveLength(3);
	});

	it('Expected Country read as a country still catches swapped latitude/longitude ("Ivory Coast")', async () => {
		const { error } = await register([{ latitude: '-5.307654', longitude: '6.702345' }], {
			geometrySource: 'latLon',
			plotFields: { country: 'Ivory Coast' },
		});
		expect(String(error?.message)).toMatch(/^Item 0, feature 0: .*(swapped|outside)/i);
		expect(fake.log.count()).toBe(0);
	});
});

/**
 * Plot → Register pre-flight validation through the n8n engine: every malformed input
 * (test/fixtures/plot/register, one file per case, read by test/helpers/registerCases.ts)
 * gets its own message naming the item (and feature) and saying what to do, and the fake's
 * request log shows that nothing was sent.
 */
describe('Plot → Register pre-flight validation (through the n8n engine, against the fake)', () => {
	usePlotService();

	const defaults = {
		geoJson: '={{ $json.geojson }}',
		latitude: '={{ $json.latitude }}',
		longitude: '={{ $json.longitude }}',
		wkt: '={{ $json.wkt }}',
	};

	it('has a table of at least 40 malformed inputs', () => {
		expect(CASES.length).toBeGreaterThanOrEqual(40);
	});

	it.each(CASES.map((c) => [c.name, c] as const))(
		'%s: fails with its own message and sends nothing',
		async (_name, c) => {
			const { error, items } = await runNode({
				parameters: { resource: 'plot', operation: 'register', ...defaults, ...c.params },
				input: [GOOD, c.json],
				store,
			});
			expect(items).toHaveLength(0);
			expect(error).toBeDefined();
			// the second item (index 1) is the malformed one: re-index the expected message
			const message = String(error?.message).replace(/^Item 1\b/, 'Item 0');
			expect(message).toMatch(c.message);
			expect(String(error?.message)).toMatch(/^Item 1[,:]/);
			expect(error?.description).toMatch(/Nothing was sent to the service/);
			expect(fake.log.count()).toBe(0);
		},
	);

	it('with Continue On Fail, each malformed item becomes an error item with its message and nothing is sent for it', async () => {
		const groups = new Map<string, Case[]>();
		for (const c of CASES) {
			const key = JSON.stringify(c.params ?? {});
			groups.set(key, [...(groups.get(key) ?? []), c]);
		}
		let checked = 0;
		for (const cases of groups.values()) {
			const { items, error } = await runNode({
				parameters: { resource: 'plot', operation: 'register', ...defaults, ...cases[0].params },
				input: cases.map((c) => c.json),
				store,
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(cases.length);
			items.forEach((item, i) => {
				expect(item.pairedItem).toEqual({ item: i });
				const text = String(item.json.error).replace(new RegExp(`^Item ${i}\\b`), 'Item 0');
				expect(text).toMatch(cases[i].message);
				checked++;
			});
		}
		expect(checked).toBe(CASES.length);
		expect(fake.log.count()).toBe(0);
	});
});

/**
 * Geometry fields holding a plain `{{ $json.field }}` are read straight from the item;
 * anything else goes through n8n's expression engine. Both must give the same plots.
 */
describe('Plot → Register: geometry fields as plain field references and as expressions', () => {
	useFakeService();

	const rows = [
		{ 'Lat (deg)': '-10.123456', lon: -50.654321, pair: '-10.123456;-50.654321' },
		{ 'Lat (deg)': '-11,223344', lon: -51.554433, pair: '-11.223344;-51.554433' },
	];
	const centres = async (latitude: string, longitude: string) => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		const { items, error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'latLon',
				latitude,
				longitude,
			},
			input: rows,
			store,
		});
		expect(error).toBeUndefined();
		return items.map((i) => [
			Number((i.json as IDataObject).lat).toFixed(4),
			Number((i.json as IDataObject).lon).toFixed(4),
		]);
	};

	it('gives the same plots either way', async () => {
		const direct = await centres('={{ $json["Lat (deg)"] }}', '={{ $json.lon }}');
		const computed = await centres(
			"={{ $json.pair.split(';')[0] }}",
			"={{ Number($json.pair.split(';')[1]) }}",
		);
		expect(direct).toEqual([
			['-10.1235', '-50.6543'],
			['-11.2233', '-51.5544'],
		]);
		expect(computed).toEqual(direct);
	});

	it('reports a missing field by its name', async () => {
		const store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		const { error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'latLon',
				latitude: '={{ $json.latitude }}',
				longitude: '={{ $json.lon }}',
			},
			input: rows,
			store,
		});
		expect(error?.message).toMatch(/Item 0.*latitude/i);
	});
});

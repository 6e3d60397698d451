import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };

describe('Plot → Register (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	beforeAll(async () => {
		fake = await startFakeService();
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
	});
	afterAll(async () => await fake.close());
	beforeEach(() => fake.log.clear());

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
});

describe('Plot → Get and Get Many (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	beforeAll(async () => {
		fake = await startFakeService();
		store = new CredentialStore({
			geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
		});
		fake.seedPlots('alice', 2500, { commodity: 'cocoa' });
	});
	afterAll(async () => await fake.close());
	beforeEach(() => fake.log.clear());

	const getMany = async (extra: IDataObject) =>
		await runNode({ parameters: { resource: 'plot', operation: 'getMany', ...extra }, store });

	it('Return All traverses 2,500 plots exactly once', async () => {
		const { items, error } = await getMany({ returnAll: true, simplify: false });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2500);
		expect(new Set(items.map((i) => i.json.plot_id)).size).toBe(2500);
		expect(fake.log.count({ method: 'GET', path: '/plots' })).toBe(3);
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('Limit 150 makes only the request needed for 150 plots', async () => {
		const { items, error } = await getMany({ returnAll: false, limit: 150 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(150);
		const requests = fake.log.entries().filter((e) => e.path === '/plots');
		expect(requests).toHaveLength(1);
		expect(requests[0].query.limit).toBe('150');
	});

	it('Simplify gives a flat spreadsheet row; filters and lite are sent', async () => {
		const all = fake.log;
		const { items, error } = await getMany({
			returnAll: false,
			limit: 5,
			filters: { createdAtFrom: '2000-01-01T00:00:00', createdAtUntil: '2100-01-01' },
			options: { lite: true },
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		const query = all.entries()[0].query;
		expect(query).toMatchObject({
			created_at_from: '2000-01-01T00:00:00',
			created_at_until: '2100-01-01',
			lite: 'true',
		});
		expect(items[0].json).toMatchObject({
			plot_id: expect.any(String),
			commodity: 'cocoa',
			country: expect.anything(),
		});
		expect(Object.values(items[0].json).every((v) => v === null || typeof v !== 'object')).toBe(
			true,
		);
	});

	it('an unreadable Created After fails before any request', async () => {
		const { error } = await getMany({ returnAll: true, filters: { createdAtFrom: 'last week' } });
		expect(String(error?.message)).toMatch(
			/^Item 0, field "Created After": "last week" is not an ISO-8601 date/,
		);
		expect(fake.log.count()).toBe(0);
	});

	it('Get returns one plot, simplified with lat/lon as numbers, or raw', async () => {
		const [id] = fake.seedPlots('alice', 1, { namePrefix: 'Single' });
		const simple = await runNode({
			parameters: { resource: 'plot', operation: 'get', plotId: id },
			store,
		});
		expect(simple.error).toBeUndefined();
		expect(simple.items[0].json).toMatchObject({
			plot_id: id,
			lat: expect.any(Number),
			lon: expect.any(Number),
		});
		const raw = await runNode({
			parameters: { resource: 'plot', operation: 'get', plotId: id, simplify: false },
			store,
		});
		expect(Array.isArray(raw.items[0].json.geojson_features)).toBe(true);
	});

	it("Get on another user's plot gives the service's 403 message", async () => {
		const [id] = fake.seedPlots('bob', 1);
		const { error } = await runNode({
			parameters: { resource: 'plot', operation: 'get', plotId: id },
			store,
		});
		expect(String(error?.message)).toMatch(/Unauthorized access to entity retrieved/);
	});
});

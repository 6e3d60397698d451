import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };

/** A square of side `d` degrees with six-decimal corners, inside Brazil. */
function square(lon: number, lat: number, d = 0.002): number[][][] {
	const r = (n: number) => Math.round(n * 1e6) / 1e6 + 0.0000001;
	const a = [r(lon), r(lat)];
	const b = [r(lon + d), r(lat)];
	const c = [r(lon + d), r(lat + d)];
	const e = [r(lon), r(lat + d)];
	return [[a, b, c, e, a]];
}

describe('Plot → Register (through the n8n engine, against the fake)', () => {
	let fake: FakeService;
	let store: CredentialStore;
	beforeAll(async () => {
		fake = await startFakeService();
		store = new CredentialStore({ geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey } });
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
});

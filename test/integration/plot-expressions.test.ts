import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../fake-service';
import { startFakeService } from '../fake-service';
import { CredentialStore, runNode } from '../helpers/engine';

/**
 * Geometry fields holding a plain `{{ $json.field }}` are read straight from the item;
 * anything else goes through n8n's expression engine. Both must give the same plots.
 */
describe('Plot → Register: geometry fields as plain field references and as expressions', () => {
	let fake: FakeService;
	beforeAll(async () => {
		fake = await startFakeService();
	});
	afterAll(async () => await fake.close());

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

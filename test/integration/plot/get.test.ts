import { runNode } from '../../helpers/engine';
import { fake, store, usePlotService } from './helpers';

/** Plot → Get through the n8n engine, against the fake over loopback HTTP. */
describe('Plot → Get and Get Many (through the n8n engine, against the fake)', () => {
	usePlotService();

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

/**
 * Plot → Draw Map through n8n's engine: the plots of all input items — Read File's, Validate's,
 * Register's and Get's outputs alike — become one picture (PNG by default, which n8n's binary
 * viewer shows on both majors), colored by validity or by the analysis outcome; nothing is sent
 * and no credential is needed.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { unzlibSync } from 'fflate';

import { riskOutcome } from '../../../nodes/shared/plots/plotMap';
import { CredentialStore, runNode } from '../../helpers/engine';
import { fileItem } from '../../helpers/geoFileTests';
import { squarePlot } from '../../helpers/square';
import { fake, seed, store, useJobService } from '../job/helpers';

const drawMap = async (
	input: { json?: IDataObject[]; items?: INodeExecutionData[] },
	extra: IDataObject = {},
	typeVersion = 3,
) =>
	await runNode({
		parameters: { resource: 'plot', operation: 'drawMap', ...extra },
		input: input.json,
		inputItems: input.items,
		store: new CredentialStore(),
		withCredential: false,
		typeVersion,
	});

/** The PNG's width and height, after checking its signature and that its pixels inflate. */
function pngSize(item: INodeExecutionData, field = 'data'): [number, number] {
	const binary = item.binary?.[field];
	expect(binary?.mimeType).toBe('image/png');
	const bytes = Buffer.from(binary!.data, 'base64');
	expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
	const width = bytes.readUInt32BE(16);
	const height = bytes.readUInt32BE(20);
	const idatLength = bytes.readUInt32BE(33);
	expect(bytes.subarray(37, 41).toString('latin1')).toBe('IDAT');
	expect(unzlibSync(bytes.subarray(41, 41 + idatLength)).length).toBe(height * (1 + width * 3));
	return [width, height];
}

const square = (lon: number, lat: number, d = 0.01) => squarePlot(lon, lat, d);
const bowTie = {
	type: 'Polygon',
	coordinates: [
		[
			[-47.95, -15.8],
			[-47.94, -15.79],
			[-47.94, -15.8],
			[-47.95, -15.79],
			[-47.95, -15.8],
		],
	],
};

describe('Plot → Draw Map (through the n8n engine)', () => {
	useJobService();

	it('Read File → Draw Map (version 3, Geometry Source found in the item): one PNG of every feature, without a credential, paired with every item', async () => {
		const read = await runNode({
			parameters: { resource: 'plot', operation: 'readFile' },
			inputItems: [fileItem('cooperativa-nested-folders.kmz')],
			store: new CredentialStore(),
			withCredential: false,
			typeVersion: 3,
		});
		expect(read.error).toBeUndefined();
		const { items, error } = await drawMap({ items: read.items.map((i) => ({ json: i.json })) });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(pngSize(items[0])).toEqual([960, 720]);
		expect(items[0].binary?.data.fileName).toBe('plots-map.png');
		// the KMZ's third placemark has no coordinates (Read File passes it on, empty)
		expect(read.items[2].json.geometry).toBeNull();
		expect(items[0].json).toMatchObject({
			file_name: 'plots-map.png',
			format: 'png',
			color_by: 'validity',
			items: read.items.length,
			plots_drawn: read.items.length - 1,
			plots_not_drawn: 1,
			not_drawn: [{ item: 2, reason: expect.stringContaining('"geometry" is empty') }],
		});
		expect(items[0].pairedItem).toEqual(read.items.map((_, item) => ({ item })));
		expect(fake.log.entries()).toEqual([]);
	});

	it('Validate → Draw Map: colored by what Validate said, overlaps found, an item without geometry listed with the reason', async () => {
		const rows = [
			{ name: 'A', geojson: square(-47.9, -15.8) },
			{ name: 'B (overlaps A)', geojson: square(-47.895, -15.795) },
			{ name: 'Bow tie', geojson: bowTie },
			{ name: 'No geometry' },
		];
		const validated = await runNode({
			parameters: { resource: 'plot', operation: 'validate' },
			input: rows,
			store: new CredentialStore(),
			withCredential: false,
			typeVersion: 3,
		});
		expect(validated.error).toBeUndefined();
		expect(validated.items.map((i) => i.json.valid)).toEqual([true, true, false, false]);
		const { items, error } = await drawMap({ json: validated.items.map((i) => i.json) });
		expect(error).toBeUndefined();
		const json = items[0].json;
		// A and B: valid with the overlap as a warning (Validate's default); the bow tie invalid
		expect(json.outcomes).toEqual({ problem: 2, invalid: 1 });
		expect(json.plots_drawn).toBe(3);
		expect(json.plots_not_drawn).toBe(1);
		expect(json.not_drawn).toEqual([{ item: 3, reason: expect.stringContaining('no geometry') }]);
		pngSize(items[0]);
	});

	it('Register → Draw Map: the service\'s plots (geojson_features) drawn; Color By "None" draws them grey', async () => {
		const registered = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'latLon',
				plotFields: { plotName: '={{ $json.name }}', pointHa: '2' },
			},
			input: [
				{ name: 'Kouassi farm', latitude: '6.812345', longitude: '-5.287654' },
				{ name: 'Asante farm', latitude: '6.612345', longitude: '-1.587654' },
			],
			store,
		});
		expect(registered.error).toBeUndefined();
		const { items, error } = await drawMap(
			{ json: registered.items.map((i) => i.json) },
			{ colorBy: 'none' },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			plots_drawn: 2,
			outcomes: { unknown: 2 },
			color_by: 'none',
		});
	});

	it('Get → Draw Map colored by risk: each plot as the risk rule reads it; the full plot (Simplify off) as its outline, the flat row at its center', async () => {
		const ids = seed(3, 'Farm');
		const created = await runNode({
			parameters: { resource: 'job', operation: 'create', plotIds: ids.join(',') },
			store,
		});
		expect(created.error).toBeUndefined();
		fake.clock.advance(600_000);
		const get = async (simplify: boolean) => {
			const got = await runNode({
				parameters: {
					resource: 'plot',
					operation: 'get',
					plotId: '={{ $json.plot_id }}',
					simplify,
				},
				input: ids.map((plot_id) => ({ plot_id })),
				store,
			});
			expect(got.error).toBeUndefined();
			return got.items.map((i) => i.json);
		};
		for (const simplify of [false, true]) {
			const plots = await get(simplify);
			expect(
				plots.every((p) =>
					simplify ? typeof p.risk_level === 'string' : typeof p.analysis === 'object',
				),
			).toBe(true);
			const expected: Record<string, number> = {};
			for (const p of plots) {
				const { outcome } = riskOutcome(p);
				expected[outcome] = (expected[outcome] ?? 0) + 1;
			}
			expect(expected.unknown).toBeUndefined();
			const { items, error } = await drawMap(
				{ json: plots },
				{ colorBy: 'risk', options: { format: 'svg' } },
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				outcomes: expected,
				plots_drawn: 3,
				plots_not_drawn: 0,
			});
			const svg = Buffer.from(items[0].binary!.data.data, 'base64').toString('utf8');
			// outlines (paths) from the full plot, points (circles) at the flat row's center
			const outlines = svg.match(/<path [^>]*><title>/g) ?? [];
			const points = svg.match(/<circle [^>]*r="5"[^>]*><title>/g) ?? [];
			expect([outlines.length, points.length]).toEqual(simplify ? [0, 3] : [3, 0]);
			expect(svg.includes('center only')).toBe(simplify);
		}
	});

	it('SVG, a title, a size and another binary field, as asked', async () => {
		const { items, error } = await drawMap(
			{ json: [{ geojson: square(-47.9, -15.8), plot_name: 'Fazenda <1>' }] },
			{
				options: {
					format: 'svg',
					title: 'Shipment 14',
					width: 600,
					height: 400,
					binaryPropertyName: 'map',
					fileName: 'farm.svg',
				},
			},
		);
		expect(error).toBeUndefined();
		const binary = items[0].binary?.map;
		expect(binary?.mimeType).toBe('image/svg+xml');
		expect(binary?.fileName).toBe('farm.svg');
		const svg = Buffer.from(binary!.data, 'base64').toString('utf8');
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="600" height="400"/);
		expect(svg).toContain('>Shipment 14<');
		expect(svg).toContain('Fazenda &lt;1&gt;');
		expect(items[0].json).toMatchObject({ format: 'svg', width: 600, height: 400 });
	});

	it('a size that cannot be used is refused before anything is drawn, naming the field', async () => {
		const { error } = await drawMap(
			{ json: [{ geojson: square(-47.9, -15.8) }] },
			{ options: { width: '10 cm' } },
		);
		expect(error?.message ?? '').toMatch(/Width \(Pixels\)/);
		const small = await drawMap(
			{ json: [{ geojson: square(-47.9, -15.8) }] },
			{ options: { height: 50 } },
		);
		expect(small.error?.message ?? '').toMatch(/Height \(Pixels\)/);
	});

	it("a sheet of latitude/longitude rows (found in the item): points, amber for Validate's warnings (fewer than six decimals, no area)", async () => {
		const { items, error } = await drawMap({
			json: [
				{ latitude: '-15.79', longitude: '-47.88' },
				{ latitude: '-15.8', longitude: '-47.87' },
			],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ plots_drawn: 2, outcomes: { problem: 2 } });
	});

	it('no items with a geometry: still one picture, saying so, with every item listed', async () => {
		const { items, error } = await drawMap({
			json: [{ name: 'a' }, { geojson: '{"type":"Polygon"' }],
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ plots_drawn: 0, plots_not_drawn: 2 });
		expect((items[0].json.notes as string[])[0]).toBe('No plots to draw');
		expect((items[0].json.not_drawn as IDataObject[]).map((n) => n.item)).toEqual([0, 1]);
	});
});

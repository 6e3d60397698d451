/**
 * Plot → Export for EU Information System through n8n's engine: plots registered on the fake
 * (Register's output) or geometries from the input become EU Information System GeoJSON
 * files; nothing is sent, no credential is needed; what cannot be exported is refused before
 * any file is written, naming the item and the field.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { parseGeoJsonValue } from '../../../nodes/shared/geometry';
import { CredentialStore, runNode } from '../../helpers/engine';
import { fake, store, usePlotService } from './helpers';

interface EuFeature {
	type: 'Feature';
	properties: Record<string, unknown>;
	geometry: { type: string; coordinates: unknown };
}

function fileOf(item: INodeExecutionData, field = 'data') {
	const binary = item.binary?.[field];
	expect(binary).toBeDefined();
	const text = Buffer.from(binary!.data, 'base64').toString('utf8');
	return {
		binary: binary!,
		text,
		json: JSON.parse(text) as { type: string; features: EuFeature[] },
	};
}

const exportEu = async (input: IDataObject[], extra: IDataObject = {}, continueOnFail = false) =>
	await runNode({
		parameters: { resource: 'plot', operation: 'exportEu', ...extra },
		input,
		store: new CredentialStore(),
		withCredential: false,
		continueOnFail,
	});

describe('Plot → Export for EU Information System (through the n8n engine)', () => {
	usePlotService();

	let plots: IDataObject[];
	beforeAll(async () => {
		const rows = [
			{ name: 'Kouassi farm', latitude: '6.812345', longitude: '-5.287654' },
			{ name: 'Fazenda Boa Vista', latitude: '-6.512345', longitude: '-52.987654' },
			{ name: 'Asante farm', latitude: '6.612345', longitude: '-1.587654' },
		];
		const { items, error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'latLon',
				plotFields: { plotName: '={{ $json.name }}', pointHa: '2' },
			},
			input: rows,
			store,
		});
		expect(error).toBeUndefined();
		plots = items.map((i) => i.json);
		expect(plots.map((p) => p.country)).toEqual(["Côte d'Ivoire", 'Brazil', 'Ghana']);
	});

	it('plots from Register: one FeatureCollection, EU properties from the plot fields, nothing sent, no credential', async () => {
		fake.log.clear();
		const { items, error } = await exportEu(plots);
		expect(error).toBeUndefined();
		expect(fake.log.count()).toBe(0);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const { binary, text, json } = fileOf(items[0]);
		expect(binary.fileName).toBe('eudr-geolocation.geojson');
		// a media type n8n's editor offers View for (ViewableMimeTypes of @n8n/api-types in
		// n8n 1.123.5 and 2.40.7: application/json is; application/geo+json, the type this said
		// before, is not), the .geojson name kept
		expect(binary.mimeType).toBe('application/json');
		// a file type n8n's binary viewer shows (it shows json, not an unknown type)
		expect(binary.fileType).toBe('json');
		expect(binary.fileExtension).toBe('geojson');
		expect(json.type).toBe('FeatureCollection');
		expect(json).not.toHaveProperty('crs');
		expect(json.features.map((f) => f.properties)).toEqual([
			{ ProducerCountry: 'CI', ProductionPlace: 'Kouassi farm' },
			{ ProducerCountry: 'BR', ProductionPlace: 'Fazenda Boa Vista' },
			{ ProducerCountry: 'GH', ProductionPlace: 'Asante farm' },
		]);
		// the plots' own geometries (the service's circles), every coordinate kept
		const stored = plots.map(
			(p) => (p.geojson_features as Array<{ geometry: { coordinates: unknown } }>)[0].geometry,
		);
		expect(json.features.map((f) => f.geometry)).toEqual(
			stored.map((g) => ({ type: 'Polygon', coordinates: g.coordinates })),
		);
		// through the node's own parser: the same features back
		const parsed = parseGeoJsonValue(text);
		expect(parsed.features).toHaveLength(3);
		expect(items[0].json).toMatchObject({
			file_name: 'eudr-geolocation.geojson',
			file_number: 1,
			file_count: 1,
			features: 3,
			bytes: Buffer.byteLength(text),
			max_bytes: 25_000_000,
			plots_per_country: { CI: 1, BR: 1, GH: 1 },
			items: [0, 1, 2],
		});
		for (const n of text.match(/-?\d+\.\d+(?=[,\]])/g) ?? [])
			expect(n.split('.')[1].length).toBeGreaterThanOrEqual(6);
	});

	it('splits into files under Maximum File Size: none empty, every plot in exactly one file, each paired with its plots', async () => {
		const many = Array.from({ length: 60 }, (_, i) => ({
			...plots[i % 3],
			plot_name: `Plot ${i}`,
		}));
		const single = await exportEu([many[0]]);
		const oneBytes = Number(single.items[0].json.bytes);
		const limit = oneBytes * 7;
		const { items, error } = await exportEu(many, {
			options: { maxFileMb: limit / 1e6, fileName: 'statement', binaryPropertyName: 'geojson' },
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThanOrEqual(9);
		const seen: number[] = [];
		items.forEach((item, k) => {
			const { binary, json, text } = fileOf(item, 'geojson');
			expect(binary.fileName).toBe(`statement-${k + 1}-of-${items.length}.geojson`);
			expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
			expect(json.features.length).toBeGreaterThan(0);
			const its = item.json.items as number[];
			expect(item.pairedItem).toEqual(its.map((i) => ({ item: i })));
			expect(json.features.map((f) => f.properties.ProductionPlace)).toEqual(
				its.map((i) => `Plot ${i}`),
			);
			seen.push(...its);
		});
		expect(seen).toEqual(many.map((_p, i) => i));
	});

	it('File Name and Put Output File in Field are read as text: trimmed, and a list refused naming the option', async () => {
		const { items, error } = await exportEu([plots[0]], {
			options: { fileName: ' statement.geojson ', binaryPropertyName: ' geojson ' },
		});
		expect(error).toBeUndefined();
		expect(fileOf(items[0], 'geojson').binary.fileName).toBe('statement.geojson');
		const refused = await exportEu([plots[0]], {
			options: { fileName: '={{ ["a", "b"] }}' },
		});
		expect(refused.items).toHaveLength(0);
		expect(refused.error?.message).toBe(
			'Item 0, field "File Name": it is a list, not text. Map a text value.',
		);
	});

	it('refuses before writing anything: a country it cannot map, an item that is not a plot — naming item and field', async () => {
		const { items, error } = await exportEu([
			plots[0],
			{ ...plots[1], country: 'Narnia' },
			{ plot_id: '1', plot_name: 'simplified row' },
		]);
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(/^Item 1, field "Producer Country": "Narnia" is not a country/);
		expect(error?.description).toMatch(
			/Item 2: the item holds no plot \(no "geojson_features" list\)/,
		);
		// with Continue On Fail the others are exported, the bad ones become error items
		const kept = await exportEu([plots[0], { ...plots[1], country: 'Narnia' }, plots[2]], {}, true);
		expect(kept.items).toHaveLength(2);
		expect(kept.items[0].json).toMatchObject({
			items: [0, 2],
			plots_per_country: { CI: 1, GH: 1 },
		});
		expect(kept.items[1]).toMatchObject({
			pairedItem: { item: 1 },
			json: { error: expect.stringMatching(/Narnia/) },
		});
	});

	describe('geometries from the input', () => {
		const geometry = (extra: IDataObject = {}) => ({
			exportInput: 'geometry',
			geometrySource: 'geoJson',
			geoJson: '={{ $json.geojson }}',
			producerCountry: '={{ $json.country }}',
			productionPlace: '={{ $json.place }}',
			producerName: '={{ $json.producer }}',
			pointArea: '={{ $json.ha }}',
			...extra,
		});
		const ring = [
			[-5.282778, 6.793889],
			[-5.272778, 6.793889],
			[-5.272778, 6.803889],
			[-5.282778, 6.803889],
			[-5.282778, 6.793889],
		];
		const hole = [
			[-5.28, 6.796],
			[-5.28, 6.8],
			[-5.276, 6.8],
			[-5.276, 6.796],
			[-5.28, 6.796],
		];

		it('points with Area, polygons, country names and ISO3 codes; six decimals written', async () => {
			const { items, error } = await exportEu(
				[
					{
						geojson: { type: 'Point', coordinates: [-5.2, 6.8] },
						country: 'Ivory Coast',
						ha: '1,5',
						place: 'A',
						producer: 'Kouassi Yao',
					},
					{ geojson: { type: 'Polygon', coordinates: [ring] }, country: 'civ', place: 'B' },
				],
				geometry(),
			);
			expect(error).toBeUndefined();
			const { json, text } = fileOf(items[0]);
			expect(json.features).toEqual([
				{
					type: 'Feature',
					properties: {
						ProducerName: 'Kouassi Yao',
						ProducerCountry: 'CI',
						ProductionPlace: 'A',
						Area: 1.5,
					},
					geometry: { type: 'Point', coordinates: [-5.2, 6.8] },
				},
				{
					type: 'Feature',
					properties: { ProducerCountry: 'CI', ProductionPlace: 'B' },
					geometry: { type: 'Polygon', coordinates: [ring] },
				},
			]);
			expect(text).toContain('[-5.200000,6.800000]');
			expect(items[0].json.coordinates_padded_to_6_decimals).toBe(2);
			expect(items[0].json.warnings).toEqual([
				expect.stringMatching(/^Item 0, feature 0 \(warning\): .*fewer than 6 decimal places/),
			]);
		});

		it('refuses a point without an area or above 4 ha, a hole, and an invalid geometry (the Validate checks)', async () => {
			const { error } = await exportEu(
				[
					{ geojson: { type: 'Point', coordinates: [-5.282778, 6.793889] }, country: 'CI' },
					{ geojson: { type: 'Point', coordinates: [-5.282778, 6.793889] }, country: 'CI', ha: 5 },
					{ geojson: { type: 'Polygon', coordinates: [ring, hole] }, country: 'CI' },
					{ geojson: { type: 'Polygon', coordinates: [ring.slice(0, 4)] }, country: 'CI' },
				],
				geometry(),
			);
			const text = `${error?.message}\n${error?.description}`;
			expect(text).toMatch(
				/Item 0, field "Area of Points \(Hectares\)": feature 0 is a point without an area/,
			);
			expect(text).toMatch(
				/Item 1, field "Area of Points \(Hectares\)": 5 is above the largest allowed value, 4/,
			);
			expect(text).toMatch(
				/Item 2, feature 0: the polygon has 1 hole; the EU Information System reads only the outer boundary/,
			);
			expect(text).toMatch(/Item 3, feature 0: the polygon ring is not closed/);
			expect(fake.log.count()).toBe(0);
		});

		it('"Export the Outer Boundary Only" leaves the holes out and counts them; Repair Geometry closes rings', async () => {
			const { items, error } = await exportEu(
				[
					{ geojson: { type: 'Polygon', coordinates: [ring, hole] }, country: 'CI' },
					{ geojson: { type: 'Polygon', coordinates: [ring.slice(0, 4)] }, country: 'CI' },
				],
				geometry({ options: { holes: 'drop', repairGeometry: true } }),
			);
			expect(error).toBeUndefined();
			const { json } = fileOf(items[0]);
			expect(json.features.map((f) => (f.geometry.coordinates as unknown[]).length)).toEqual([
				1, 1,
			]);
			expect(json.features[0].geometry.coordinates).toEqual([ring]);
			const closed = (json.features[1].geometry.coordinates as number[][][])[0];
			expect(closed[0]).toEqual(closed[closed.length - 1]);
			expect(items[0].json.holes_left_out).toBe(1);
			expect((items[0].json.warnings as string[]).join(' ')).toMatch(/closed ring 0/);
		});
	});
});

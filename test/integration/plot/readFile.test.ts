/**
 * Plot → Read File through n8n's engine: a file in a binary field (as Read/Write Files,
 * Gmail, Google Drive and HTTP Request give it) becomes one item per feature, paired with
 * the file's item; nothing is sent and no credential is needed; its output feeds
 * Plot → Validate unchanged ({{ $json.geometry }}). A file that cannot be read fails the
 * item with what is wrong and what to do (or, with Continue On Fail, an error item).
 */

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { fileItem } from '../../helpers/geoFileTests';

const readFile = async (
	inputItems: INodeExecutionData[],
	extra: IDataObject = {},
	continueOnFail = false,
) =>
	await runNode({
		parameters: { resource: 'plot', operation: 'readFile', ...extra },
		inputItems,
		store: new CredentialStore(),
		withCredential: false,
		continueOnFail,
	});

describe('Plot → Read File (through the n8n engine)', () => {
	it('one item per feature, paired with the file item, without a credential', async () => {
		const { items, error } = await readFile([
			fileItem('fazendas-utm22s-latin1.zip', { supplier: 'A' }),
			fileItem('cooperativa-nested-folders.kmz', { supplier: 'B' }),
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3 + 5);
		expect(items.slice(0, 3).map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 0 },
		]);
		expect(items.slice(3).every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
		const first = items[0].json;
		expect(first.properties).toMatchObject({ Name: 'Fazenda São João', owner: 'José Araújo' });
		expect(first.source).toEqual({
			fileName: 'fazendas-utm22s-latin1.zip',
			format: 'shapefile',
			layer: 'fazendas_utm22s',
			featureIndex: 0,
		});
		expect((first.geometry as IDataObject).type).toBe('Polygon');
		expect(first.warnings).toEqual([]);
		expect(items[3].json.source).toMatchObject({
			format: 'kmz',
			layer: 'Cooperativa Norte / Fazenda São João',
		});
	});

	it("a file's warnings are said once, on its first item; each item keeps its own (issue 28)", async () => {
		const { items, error } = await readFile([
			fileItem('broken-missing-dbf.zip'),
			fileItem('shx-padded-after-last-record.zip'),
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3 + 3);
		expect(items.map((i) => i.json.warnings)).toEqual([
			['Layer "fazendas" has no .dbf: its features have no attributes'],
			[],
			[],
			[],
			[],
			[],
		]);
		// the padded .shp read at its .shx offsets
		expect(items.slice(3).map((i) => (i.json.properties as IDataObject).Name)).toEqual([
			'Fazenda São João',
			'Sítio Boa Esperança',
			'Lote Três Irmãos',
		]);
	});

	it('the binary field is named in Input Binary Field', async () => {
		const { items, error } = await readFile([fileItem('plots.geojson', {}, 'attachment_0')], {
			binaryPropertyName: 'attachment_0',
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
	});

	it('a missing binary field fails before any file is read, naming the item and the field', async () => {
		const { error } = await readFile([fileItem('plots.geojson'), { json: { a: 1 } }]);
		expect(error?.message).toMatch(
			/Item 1, field "Input Binary Field": the item has no binary field "data" \(it has no file at all\)/,
		);
	});

	it('a file that cannot be read: the error says what is wrong and what to do', async () => {
		const { error } = await readFile([fileItem('broken-unknown-prj.zip')]);
		expect(error?.message).toMatch(
			/Item 0: The \.prj of layer "fazendas" names the coordinate system "Fazenda_Local_Grid"/,
		);
		expect(error?.description).toMatch(/Reproject the layer to WGS84 \(EPSG:4326\)/);
	});

	it('Continue On Fail: the bad file becomes an error item, the good one is read', async () => {
		const { items, error } = await readFile(
			[fileItem('hostile-zip-bomb.zip'), fileItem('plots.ndjson')],
			{},
			true,
		);
		expect(error).toBeUndefined();
		expect(items[0].json.error).toMatch(/would unpack to more than 250 MB/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items.slice(1).map((i) => (i.json.properties as IDataObject).Name)).toEqual([
			'Fazenda São João',
			'Sítio Boa Esperança',
			'Lote Três Irmãos',
		]);
	});

	it('options: closed GPX tracks as polygons, file size limit', async () => {
		const polygons = await readFile([fileItem('walked-boundary.gpx')], {
			options: { closedLinesAsPolygons: true, closingDistanceM: 10 },
		});
		expect((polygons.items[0].json.geometry as IDataObject).type).toBe('Polygon');
		const tooBig = await readFile([fileItem('plots.geojson')], { options: { maxFileMb: 0.001 } });
		expect(tooBig.error?.message).toMatch(
			/Item 0, field "Input Binary Field": the file "plots\.geojson" in binary field "data" is declared as 0\.002292 MB, over the 0\.001 MB this node reads \(Maximum File Size\)/,
		);
	});

	it('Maximum File Size: a file whose binary states a size over it is refused before it is read, naming the item and the field', async () => {
		// The bytes are a small, valid file: only the stated size (as n8n writes it) can refuse it.
		const big = fileItem('plots.geojson', {}, 'attachment_0');
		(big.binary as IDataObject).attachment_0 = {
			...(big.binary?.attachment_0 as object),
			fileSize: '60.2 MB',
		};
		const { items, error } = await readFile([fileItem('plots.ndjson', {}, 'attachment_0'), big], {
			binaryPropertyName: 'attachment_0',
		});
		expect(items).toHaveLength(0);
		expect(error?.message).toMatch(
			/Item 1, field "Input Binary Field": the file "plots\.geojson" in binary field "attachment_0" is declared as 59\.899 MB, over the 50 MB this node reads \(Maximum File Size\): refused without reading it/,
		);
		// Within pretty-bytes' rounding of the limit ("60.2 MB" may be 59.9 MB): loaded and
		// checked on its real bytes.
		const within = await readFile([big], {
			binaryPropertyName: 'attachment_0',
			options: { maxFileMb: 60 },
		});
		expect(within.error).toBeUndefined();
		expect(within.items).toHaveLength(3);
	});

	it.each([
		['maxFileMb', 0, 'Maximum File Size (MB)', /0 is below the smallest allowed value, 0\.001/],
		[
			'maxUncompressedMb',
			0,
			'Maximum Uncompressed Size (MB)',
			/0 is below the smallest allowed value, 0\.001/,
		],
		['maxFeatures', 0, 'Maximum Features', /0 is below the smallest allowed value, 1/],
		['maxFeatures', 2.5, 'Maximum Features', /2\.5 is not a whole number/],
		[
			'closingDistanceM',
			-1,
			'Closing Distance (Meters)',
			/-1 is below the smallest allowed value, 0/,
		],
	])(
		'option %s = %s: the item is refused naming the option',
		async (name, value, label, reason) => {
			const { items, error } = await readFile([fileItem('plots.geojson')], {
				options: { [name]: value },
			});
			expect(items).toHaveLength(0);
			expect(error?.message).toContain(`Item 0, field "${label}": `);
			expect(error?.message).toMatch(reason);
		},
	);

	it('a property nested 50,000 levels deep: left out with a warning naming it; the output can be saved (JSON.stringify)', async () => {
		const deep = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
		const text = `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"Name":"Fazenda A","deep":${deep}},"geometry":{"type":"Point","coordinates":[-47.9,-15.8]}}]}`;
		const bytes = Buffer.from(text);
		const { items, error } = await readFile([
			{
				json: {},
				binary: {
					data: {
						data: bytes.toString('base64'),
						mimeType: 'application/geo+json',
						fileName: 'deep.geojson',
						fileSize: String(bytes.length),
					},
				},
			},
		]);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.properties).toEqual({ Name: 'Fazenda A' });
		expect(items[0].json.warnings).toEqual([
			expect.stringMatching(
				/^The property "deep" of the file\.features\[0\] nests more than 100 levels deep/,
			),
		]);
		expect(() => JSON.stringify(items)).not.toThrow();
	});

	it('the output feeds Plot → Validate unchanged ({{ $json.geometry }}, {{ $json.properties.Name }})', async () => {
		const read = await readFile([fileItem('sirgas2000-two-layers.zip')]);
		expect(read.error).toBeUndefined();
		const { items, error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geometry }}',
				plotFields: { plotName: '={{ $json.properties.Name }}', country: 'BR' },
			},
			input: read.items.map((i) => i.json),
			store: new CredentialStore(),
			withCredential: false,
		});
		expect(error).toBeUndefined();
		const validation = items.map((i) => i.json.validation as IDataObject);
		expect(validation.map((v) => v.valid)).toEqual([true, true, true, true, true]);
	});

	it('the output feeds Plot → Export for EU Information System unchanged (Geometry Fields)', async () => {
		const read = await readFile([fileItem('fazendas-utm22s-latin1.zip')]);
		expect(read.error).toBeUndefined();
		const { items, error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'exportEu',
				exportInput: 'geometry',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geometry }}',
				producerCountry: 'BR',
				productionPlace: '={{ $json.properties.Name }}',
				options: { holes: 'drop' },
			},
			input: read.items.map((i) => i.json),
			store: new CredentialStore(),
			withCredential: false,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const file = JSON.parse(Buffer.from(items[0].binary!.data.data, 'base64').toString('utf8')) as {
			features: Array<{ properties: IDataObject; geometry: { type: string } }>;
		};
		expect(file.features.map((f) => f.properties.ProductionPlace)).toEqual([
			'Fazenda São João',
			'Sítio Boa Esperança',
			'Lote Três Irmãos',
		]);
		expect(file.features.every((f) => f.geometry.type === 'Polygon')).toBe(true);
	});
});

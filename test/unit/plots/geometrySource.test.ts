/** Register's harvest-date reading (the input layer's `readDate`), with the date under `date`. */
function readHarvestDate(value: unknown, order?: Parameters<typeof readDate>[1]) {
	const read = readDate(value, order);
	return read.kind === 'value' ? { kind: 'date' as const, value: read.value } : read;
}
import {
	readKeyValuePairs as readAdditionalInfo,
	readCommodity,
	readDate,
	readHectares,
	readText,
} from '../../../nodes/shared/input';
import {
	checkItemGeometry,
	findItemGeometry,
	readItemGeometry,
} from '../../../nodes/shared/plots/geometrySource';

/** Point Area (Hectares) as Register reads it: a number (the range is checked by the geometry layer). */
const readPointHa = (value: unknown) => readHectares(value);

describe('readHarvestDate', () => {
	it.each([
		['2024-03-15', '2024-03-15'],
		['2024-3-5', '2024-03-05'],
		['2024-03-15T23:30:00-05:00', '2024-03-15'],
		['2024-03-15 10:00', '2024-03-15'],
		['2024-03-15T10:00:00.123Z', '2024-03-15'],
		['2024/03/15', '2024-03-15'],
		['20240315', '2024-03-15'],
		['15.03.2024', '2024-03-15'],
		['05.03.2024', '2024-03-05'],
		['15/03/2024', '2024-03-15'],
		['03/15/2024', '2024-03-15'],
		['15-03-2024', '2024-03-15'],
		['04/04/2024', '2024-04-04'],
		['15/03/24', '2024-03-15'],
		['15 March 2024', '2024-03-15'],
		['15-Mar-2024', '2024-03-15'],
		['1st Sept 2024', '2024-09-01'],
		['March 15, 2024', '2024-03-15'],
		['Mar 15 2024', '2024-03-15'],
		['45366', '2024-03-15'],
		['  2024-02-29 ', '2024-02-29'],
	])('reads %p as %p', (input, expected) => {
		expect(readHarvestDate(input)).toEqual({ kind: 'date', value: expected });
	});

	it('reads spreadsheet serial numbers, Dates and Luxon-like DateTimes', () => {
		expect(readHarvestDate(45366)).toEqual({ kind: 'date', value: '2024-03-15' });
		expect(readHarvestDate(new Date('2024-03-15T12:00:00Z'))).toEqual({
			kind: 'date',
			value: '2024-03-15',
		});
		expect(readHarvestDate({ toISODate: () => '2024-03-15' })).toEqual({
			kind: 'date',
			value: '2024-03-15',
		});
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '   '])
			expect(readHarvestDate(v)).toEqual({ kind: 'missing' });
	});

	it('rejects ambiguous day/month dates unless an order is chosen', () => {
		const r = readHarvestDate('03/04/2024');
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toMatch(/ambiguous.*YYYY-MM-DD.*"Date Order"/);
		expect(readHarvestDate('03/04/2024', 'dayFirst')).toEqual({
			kind: 'date',
			value: '2024-04-03',
		});
		expect(readHarvestDate('03/04/2024', 'monthFirst')).toEqual({
			kind: 'date',
			value: '2024-03-04',
		});
	});

	it.each([
		['2024-02-30', /day 30, which does not exist/],
		['2023-02-29', /day 29, which does not exist/],
		['2024-13-01', /month 13/],
		['1066-10-14', /year 1066/],
		['last spring', /not a date this node can read/],
		['15 Marzo 2024', /not a date this node can read/],
		['13/13/2024', /month 13/],
		[1.5, /not a spreadsheet date/],
		[-3, /not a spreadsheet date/],
		[NaN, /not a date/],
		[[2024, 3, 15], /a list, not a date/],
		[true, /boolean, not a date/],
	])('rejects %p', (input, reason) => {
		const r = readHarvestDate(input);
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toMatch(reason);
	});
});

describe('readCommodity', () => {
	it.each([
		['cocoa', 'cocoa'],
		['Cocoa', 'cocoa'],
		[' COFFEE ', 'coffee'],
		['Palm Oil', 'palm_oil'],
		['palm-oil', 'palm_oil'],
		['PALM_OIL', 'palm_oil'],
	])('matches %p case-insensitively', (input, expected) => {
		expect(readCommodity(input)).toEqual({ kind: 'value', value: expected });
	});

	it('names the allowed values for anything else', () => {
		const r = readCommodity('cacao');
		expect(r).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(
				/^"cacao" is not a commodity the service knows. Use one of: wood, soy, cocoa, coffee, palm_oil, beef, rubber/,
			),
		});
		expect(readCommodity(3).kind).toBe('invalid');
		expect(readCommodity('').kind).toBe('missing');
	});
});

describe('other fields', () => {
	it('reads text, point_ha and additional info', () => {
		expect(readText(12)).toEqual({ kind: 'value', value: '12' });
		expect(readText('  ')).toEqual({ kind: 'missing' });
		expect(readText({}).kind).toBe('invalid');
		expect(readPointHa('2,5')).toEqual({ kind: 'value', value: 2.5 });
		expect(readPointHa('x').kind).toBe('invalid');
		expect(
			readAdditionalInfo([
				{ key: 'a', value: 1 },
				{ key: ' b ', value: { x: 1 } },
				{ key: 'c', value: null },
			]),
		).toEqual({
			kind: 'value',
			value: { a: '1', b: '{"x":1}', c: '' },
		});
		expect(readAdditionalInfo([])).toEqual({ kind: 'missing' });
		expect(readAdditionalInfo([{ key: 'a' }, { key: '' }])).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(/^pair 2 has no key/),
		});
	});
});

describe('readItemGeometry', () => {
	it('returns features for a valid source and problem lines naming the item and feature otherwise', () => {
		const ok = readItemGeometry(4, 'latLon', { latitude: '-15,793889', longitude: -47.882778 });
		expect(ok.errors).toEqual([]);
		expect(ok.features[0].geometry).toEqual({
			type: 'Point',
			coordinates: [-47.882778, -15.793889],
		});

		const bad = readItemGeometry(7, 'geoJson', {
			geoJson: {
				type: 'Polygon',
				coordinates: [
					[
						[0.1234567, 0.1234567],
						[1.1234567, 0.1234567],
						[1.1234567, 1.1234567],
					],
				],
			},
		});
		expect(bad.features).toEqual([]);
		expect(bad.errors[0]).toMatch(/^Item 7, feature 0: /);

		const wkt = readItemGeometry(2, 'wkt', { wkt: 'nonsense' });
		expect(wkt.errors).toEqual([
			expect.stringMatching(/^Item 2: the value could not be read as WKT/),
		]);
	});

	it('repairs on request and lists each repair', () => {
		const ring = [
			[-47.882778, -15.793889],
			[-47.872778, -15.793889],
			[-47.872778, -15.783889],
			[-47.882778, -15.783889],
		];
		const off = readItemGeometry(0, 'geoJson', {
			geoJson: { type: 'Polygon', coordinates: [ring] },
		});
		expect(off.errors.join()).toMatch(/not closed/);
		const on = readItemGeometry(
			0,
			'geoJson',
			{ geoJson: { type: 'Polygon', coordinates: [ring] } },
			{ repair: true },
		);
		expect(on.errors).toEqual([]);
		expect(on.repairs).toEqual(
			expect.arrayContaining([expect.stringMatching(/^Item 0, feature 0: closed ring 0/)]),
		);
	});

	it('allows more features per item when asked (protected-area checks take up to 100)', () => {
		const features = Array.from({ length: 30 }, (_, i) => ({
			type: 'Feature',
			properties: {},
			geometry: { type: 'Point', coordinates: [-47.882778 + i * 0.001, -15.793889] },
		}));
		const fc = { type: 'FeatureCollection', features };
		expect(readItemGeometry(0, 'geoJson', { geoJson: fc }).errors[0]).toMatch(
			/holds 30 features; one item may hold at most 20/,
		);
		expect(
			readItemGeometry(0, 'geoJson', { geoJson: fc }, { maxFeatures: 100 }).features,
		).toHaveLength(30);
	});
});

describe('Geometry Source "Found in the Item" (version 3): findItemGeometry', () => {
	const polygon = {
		type: 'Polygon',
		coordinates: [
			[
				[-47.1, -15.1],
				[-47.0, -15.1],
				[-47.0, -15.0],
				[-47.1, -15.1],
			],
		],
	};
	// Read File's item: { geometry, properties, source, warnings }
	const readFileItem = {
		geometry: polygon,
		properties: { name: 'Talhão 1', area_ha: 3 },
		source: { fileName: 'a.kmz', format: 'kmz', layer: 'Plots', featureIndex: 0 },
		warnings: [],
	};

	it.each([
		["Read File's geometry", readFileItem, 'geoJson', 'geometry'],
		['a GeoJSON column', { geojson: JSON.stringify(polygon) }, 'geoJson', 'geojson'],
		[
			"a registered plot's features",
			{ plot_id: 'p1', geojson_features: [{ type: 'Feature', properties: {}, geometry: polygon }] },
			'geoJson',
			'geojson_features',
		],
		['a WKT column', { wkt: 'POINT (-47.1 -15.1)' }, 'wkt', 'wkt'],
		['a sheet row', { latitude: '-15,793889', longitude: -47.882778 }, 'latLon', 'latitude'],
		['geometry first', { geometry: polygon, latitude: 1, longitude: 2 }, 'geoJson', 'geometry'],
		[
			'an empty field is passed over',
			{ geometry: '', latitude: 1, longitude: 2 },
			'latLon',
			'latitude',
		],
		[
			"a sheet's headers in other letter case",
			{ Latitude: '6.8', LONGITUDE: '-5.2' },
			'latLon',
			'Latitude',
		],
		["a GIS export's WKT column", { WKT: 'POINT (-47.1 -15.1)' }, 'wkt', 'WKT'],
		[
			'WKT text in "geometry"',
			{ geometry: 'SRID=4326;POLYGON ((0 0, 1 0, 1 1, 0 0))' },
			'wkt',
			'geometry',
		],
	])('%s', (_, item, source, field) => {
		const found = findItemGeometry(item);
		expect(found.source).toBe(source);
		expect(found).toMatchObject({ field });
	});

	it("reads the geometry alone (not the item's properties), as a mapped $json.geometry would", () => {
		const found = findItemGeometry(readFileItem);
		expect(found.source === 'geoJson' && found.values).toEqual({ geoJson: polygon });
		const checked = checkItemGeometry('item', { item: readFileItem });
		const mapped = checkItemGeometry('geoJson', { geoJson: polygon });
		expect(checked).toEqual({ ...mapped, source: 'geoJson' });
	});

	it('a sheet row reads as the Latitude/Longitude source does, swapped-value checks included', () => {
		const row = { latitude: '-47.882778', longitude: '-15.793889' };
		expect(checkItemGeometry('item', { item: row }, { country: 'BR' })).toEqual({
			...checkItemGeometry('latLon', row, { country: 'BR' }),
			source: 'latLon',
		});
	});

	it('only latitude: read as latitude/longitude, so the error names the empty longitude', () => {
		const line = readItemGeometry(2, 'item', { item: { latitude: '6.8' } }).errors.join('\n');
		expect(line).toMatch(/^Item 2/);
		expect(line).toMatch(/longitude/i);
	});

	it.each([
		[{ name: 'no geometry' }, /and the item has none of them\./],
		[{ geometry: null, wkt: '  ' }, /and "geometry", "wkt" are empty\./],
		[{ latitude: '' }, /and "latitude" is empty\./],
		[[1, 2], /and the item has none of them\./],
		['text', /and the item has none of them\./],
	])('nothing to read in %j: the error names what was looked for', (item, empty) => {
		const checked = checkItemGeometry('item', { item });
		expect(checked.kind).toBe('unreadable');
		const line = describe_(checked);
		expect(line).toMatch(
			/the item has no geometry: Geometry Source "Found in the Item" looks for the field "geometry" \(as Read File outputs it\), "geojson" \(GeoJSON\), "geojson_features" \(a registered plot\), "wkt" \(Well-Known Text\), or "latitude" and "longitude" \(decimal degrees\)/,
		);
		expect(line).toMatch(empty);
		expect(line).toMatch(
			/choose another Geometry Source and map the field that holds the geometry/,
		);
		expect(readItemGeometry(4, 'item', { item }).errors).toEqual([
			expect.stringMatching(/^Item 4: the item has no geometry/),
		]);
	});

	it('two fields differing only in letter case: neither is guessed', () => {
		const found = findItemGeometry({ Latitude: '6.8', LATITUDE: '7.1', longitude: '-5.2' });
		// read as latitude/longitude with the latitude empty, so the error names it
		expect(found).toEqual({
			source: 'latLon',
			field: 'longitude',
			values: { latitude: undefined, longitude: '-5.2' },
		});
	});

	it("a field inherited from Object.prototype is not the item's own", () => {
		const item = Object.create({ geometry: polygon }) as object;
		expect(findItemGeometry(item).source).toBeUndefined();
		expect(findItemGeometry(JSON.parse('{"__proto__": {"latitude": 1}}')).source).toBeUndefined();
	});
});

function describe_(checked: ReturnType<typeof checkItemGeometry>): string {
	return checked.kind === 'unreadable' ? checked.failure.message : '';
}

/**
 * Plot → Validate through n8n's engine: every geometry defect fixture reaches the output with
 * its code and location, plot fields are checked like Register's, duplicates and overlaps are
 * found across rows, and nothing at all is sent (the fake's request log stays empty), with no
 * credential selected.
 */
import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';

import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { type DefectCase, loadDefectCases } from '../../helpers/geometryDefects';
import { fake, store, usePlotService } from './helpers';

interface Problem {
	code: string;
	message: string;
	where: {
		feature: number | null;
		polygon?: number;
		ring?: number;
		position?: number;
		near?: number[];
		field?: string;
		other_item?: number;
		other_feature?: number;
	};
}

interface Validation {
	valid: boolean;
	problems: Problem[];
	warnings: Problem[];
	problem_summary: string;
	geometry_type: string | null;
	is_point: boolean;
	feature_count: number;
	vertex_count: number;
	area_ha: number | null;
	meets_4ha_rule: boolean | null;
	duplicates: Array<{ feature: number; other_item: number; other_feature: number }>;
	overlaps: Array<{
		feature: number;
		other_item: number;
		other_feature: number;
		overlap_ha: number;
		overlap_percent_of_this: number;
		overlap_percent_of_other: number;
	}>;
	repairs?: Array<{ code: string; message: string; feature: number }>;
	repaired_geojson?: { type: string; features: Array<{ geometry: { coordinates: unknown } }> };
}

const validationOf = (json: IDataObject) => json.validation as unknown as Validation;

const P = (lon: number, lat: number) => [lon, lat];
/** A square of `side` degrees with its south-west corner at (lon, lat), counter-clockwise. */
const square = (lon: number, lat: number, side: number) => [
	P(lon, lat),
	P(+(lon + side).toFixed(6), lat),
	P(+(lon + side).toFixed(6), +(lat + side).toFixed(6)),
	P(lon, +(lat + side).toFixed(6)),
	P(lon, lat),
];
const polygon = (ring: number[][]) => ({ type: 'Polygon', coordinates: [ring] });

const GEOJSON = { geometrySource: 'geoJson', geoJson: '={{ $json.geojson }}' };

describe('Plot → Validate (through the n8n engine; nothing is sent)', () => {
	usePlotService();

	const validate = async (input: IDataObject[], extra: IDataObject = {}, credential = true) =>
		await runNode({
			parameters: { resource: 'plot', operation: 'validate', ...extra },
			input,
			store: credential ? store : new CredentialStore(),
			withCredential: credential,
		});

	it('runs without a credential, reads none and sends nothing: one item per row, paired, input kept', async () => {
		const empty = new CredentialStore();
		const rows = [
			{ name: 'A', latitude: '-15,793889', longitude: '-47.882778', commodity: 'Palm Oil' },
			{ name: 'B', latitude: '95', longitude: '10' },
		];
		const { items, error } = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'latLon',
				plotFields: { commodity: '={{ $json.commodity }}', pointHa: '2.5' },
			},
			input: rows,
			store: empty,
			withCredential: false,
		});
		expect(error).toBeUndefined();
		expect(fake.log.count()).toBe(0);
		expect(empty.reads).toBe(0);
		expect(items).toHaveLength(2);
		items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json).toMatchObject(rows[i]);
		});
		expect(validationOf(items[0].json)).toMatchObject({
			valid: true,
			problems: [],
			geometry_type: 'Point',
			is_point: true,
			feature_count: 1,
			vertex_count: 1,
			area_ha: 2.5,
			meets_4ha_rule: true,
		});
		const second = validationOf(items[1].json);
		expect(second.valid).toBe(false);
		expect(second.problems.map((p) => p.code)).toEqual(['swapped_lat_lon']);
		expect(second.problem_summary).toMatch(/latitude and longitude look swapped/);
	});

	describe('every defect fixture of the pre-flight, with its code and location', () => {
		const CASES = loadDefectCases();

		/** How a case reaches the node: its parameters and its input item. */
		function asNodeInput(c: DefectCase): { params: IDataObject; json: IDataObject } {
			// the same parameters for every case of a run: country and point area per item
			const plotFields = { country: '={{ $json.country }}', pointHa: '={{ $json.pointHa }}' };
			const json: IDataObject = {};
			if (c.options.country !== undefined) json.country = c.options.country;
			if (c.options.pointHa !== undefined) json.pointHa = c.options.pointHa as IDataObject[string];
			let params: IDataObject;
			if (c.source === 'geojson' || c.source === 'features') {
				params = { ...GEOJSON };
				json.geojson = (
					c.source === 'features' ? { type: 'FeatureCollection', features: c.input } : c.input
				) as IDataObject[string];
			} else if (c.source === 'latlon') {
				const [latitude, longitude] = c.input as [unknown, unknown];
				params = {
					geometrySource: 'latLon',
					latitude: '={{ $json.latitude }}',
					longitude: '={{ $json.longitude }}',
				};
				Object.assign(json, { latitude, longitude });
			} else {
				params = { geometrySource: 'wkt', wkt: '={{ $json.wkt }}' };
				json.wkt = c.input as IDataObject[string];
			}
			return { params: { ...params, plotFields }, json };
		}

		/**
		 * Features given as they are reach the node inside a FeatureCollection; an empty one is
		 * refused by the parser, so the "no features" case shows as an empty FeatureCollection.
		 */
		const THROUGH_THE_NODE: Record<string, string> = { no_features: 'empty_feature_collection' };

		/** One engine run per source and Repair Geometry setting; each case one input row. */
		const groups = new Map<string, DefectCase[]>();
		for (const c of CASES) {
			const key = `${c.source}|${c.options.repair === true}`;
			groups.set(key, [...(groups.get(key) ?? []), c]);
		}

		const outputs = new Map<string, Validation>();
		beforeAll(async () => {
			for (const cases of groups.values()) {
				const inputs = cases.map(asNodeInput);
				const { items, error } = await validate(
					inputs.map((i) => i.json),
					{ ...inputs[0].params, options: { repairGeometry: cases[0].options.repair === true } },
					false,
				);
				expect(error).toBeUndefined();
				expect(items).toHaveLength(cases.length);
				items.forEach((item, i) => {
					expect(item.pairedItem).toEqual({ item: i });
					outputs.set(cases[i].file, validationOf(item.json));
				});
			}
			expect(fake.log.count()).toBe(0);
		});

		it.each(CASES.map((c) => [`${c.description} (${c.file})`, c] as const))('%s', (_name, c) => {
			const v = outputs.get(c.file)!;
			const code = THROUGH_THE_NODE[c.expected.code] ?? c.expected.code;
			expect(v.valid).toBe(false);
			const match = v.problems.find((p) => p.code === code);
			if (!match) throw new Error(`expected ${code}, got ${JSON.stringify(v.problems)}`);
			// (features given to the validator as they are reach the node inside a FeatureCollection,
			// which the parser reads first: the same code, in the parser's words)
			if (c.expected.message !== undefined && c.source !== 'features')
				expect(match.message).toContain(c.expected.message);
			// every problem says where it is: the feature (null: the whole row) and, when
			// narrower, polygon / ring / position / a point near it
			for (const p of v.problems) {
				expect(p.where).toHaveProperty('feature');
				if (p.where.feature !== null) expect(Number.isInteger(p.where.feature)).toBe(true);
			}
			expect(v.problem_summary).toContain(match.message);
		});

		it('locations: ring and position, polygon of a MultiPolygon, a point near a crossing', () => {
			const first = (file: string, code: string) =>
				outputs.get(file)!.problems.find((p) => p.code === code)!.where;
			expect(first('an-unclosed-ring.json', 'ring_not_closed')).toEqual({
				feature: 0,
				ring: 0,
				position: 3,
			});
			expect(
				first('an-unclosed-ring-in-polygon-1-of-a-multipolygon.json', 'ring_not_closed'),
			).toMatchObject({ feature: 0, polygon: 1, ring: 0 });
			expect(first('duplicate-consecutive-vertices.json', 'duplicate_vertices')).toMatchObject({
				feature: 0,
				ring: 0,
				position: expect.any(Number),
			});
			expect(first('a-ring-of-3-positions.json', 'ring_too_few_positions')).toMatchObject({
				ring: 0,
			});
			// a value that is not even well-formed is refused while reading: where is still known
			expect(
				first('a-text-coordinate-inside-a-polygon-ring.json', 'non_numeric_coordinate'),
			).toEqual({ feature: null, ring: 0, position: 2 });
			expect(first('a-bow-tie.json', 'self_intersection').near).toHaveLength(2);
			expect(first('projected-metres.json', 'projected_coordinates')).toMatchObject({
				feature: 0,
				position: 0,
			});
			expect(first('an-epsg-3857-crs-member.json', 'crs_not_wgs84')).toEqual({ feature: null });
		});

		it('covers every error code the geometry layer can give through the node', () => {
			const dir = join(__dirname, '../../../nodes/shared/geometry');
			const source = readdirSync(dir)
				.filter((f) => f.endsWith('.ts'))
				.map((f) => readFileSync(join(dir, f), 'utf8'))
				.join('\n');
			const codes = new Set<string>();
			for (const m of source.matchAll(/\bcode: '([a-z_]+)'/g)) codes.add(m[1]);
			for (const m of source.matchAll(/\bfail\(\s*'([a-z_]+)'/g)) codes.add(m[1]);
			for (const m of source.matchAll(/\badd\(\s*'error',\s*'([a-z_]+)'/g)) codes.add(m[1]);
			for (const m of source.matchAll(/`\$\{name\}_([a-z_]+)`/g))
				for (const name of ['latitude', 'longitude']) codes.add(`${name}_${m[1]}`);
			// Repair codes are not problems; "no_features" cannot reach the node (see above).
			for (const repair of [
				'closed_ring',
				'dropped_z',
				'removed_duplicate_vertices',
				'rewound_ring',
			])
				codes.delete(repair);
			codes.delete('no_features');
			expect(codes.size).toBeGreaterThan(30);
			const seen = new Set([...outputs.values()].flatMap((v) => v.problems.map((p) => p.code)));
			expect([...codes].filter((c) => !seen.has(c)).sort()).toEqual([]);
		});
	});

	it('a plot field that cannot be used is a problem of the row naming the field; the run goes on', async () => {
		const { items, error } = await validate(
			[
				{ latitude: -15.793889, longitude: -47.882778, commodity: 'bananas' },
				{ latitude: -15.793889, longitude: -47.782778, commodity: 'cocoa', date: '31/02/2024' },
			],
			{
				geometrySource: 'latLon',
				plotFields: {
					commodity: '={{ $json.commodity }}',
					harvestDate: '={{ $json.date }}',
					pointHa: '1',
				},
			},
		);
		expect(error).toBeUndefined();
		const [a, b] = items.map((i) => validationOf(i.json));
		expect(a.valid).toBe(false);
		expect(a.problems).toEqual([
			expect.objectContaining({
				code: 'invalid_field',
				where: { feature: null, field: 'Commodity' },
			}),
		]);
		// the field is named as the user mapped it: its input column (here the same word), first
		expect(a.problem_summary).toMatch(/^commodity: "bananas" is not a commodity/);
		expect(b.problems).toEqual([
			expect.objectContaining({ where: { feature: null, field: 'Harvest Date' } }),
		]);
		expect(validationOf(items[1].json).problem_summary).toMatch(/^date \(Harvest Date\): /);
		expect(fake.log.count()).toBe(0);
	});

	it('the answer as columns: valid, problem_count and problem_summary beside the nested detail', async () => {
		const rows = [
			{ name: 'ok', latitude: '6.812345', longitude: '-5.287654', area: '1.5' },
			{ name: 'big', latitude: '6.702345', longitude: '-5.307654', area: '6' },
		];
		const { items } = await validate(rows, {
			geometrySource: 'latLon',
			plotFields: { pointHa: '={{ $json.area }}' },
		});
		expect(items.map((i) => Object.keys(i.json))).toEqual(
			// the decision first, then the input's columns (issue 28; order only, every version)
			rows.map((r) => [
				'valid',
				'problem_count',
				'problem_summary',
				...Object.keys(r),
				'validation',
			]),
		);
		for (const { json } of items) {
			const v = validationOf(json);
			expect(json.valid).toBe(v.valid);
			expect(json.problem_count).toBe(v.problems.length);
			expect(json.problem_summary).toBe(v.problem_summary);
		}
		expect(items[0].json).toMatchObject({ valid: true, problem_count: 0, problem_summary: '' });
		expect(items[1].json).toMatchObject({ valid: false, problem_count: 1 });
	});

	it("messages in the user's terms: the mapped columns, no feature 0 for one feature, a plain sentence first, then the detail; the codes stay", async () => {
		const rows = [
			{ lat: '-5.297654', lon: '6.802345', country: 'CI', ha: '2' },
			{ lat: '6.702345', lon: '-5.307654', country: 'CI', ha: '6' },
			{ lat: '6.702345', lon: '', country: 'CI', ha: '1' },
		];
		const { items } = await validate(rows, {
			geometrySource: 'latLon',
			latitude: '={{ $json.lat }}',
			longitude: '={{ $json["lon"] }}',
			plotFields: { country: '={{ $json.country }}', pointHa: '={{ $json.ha }}' },
		});
		const [swapped, big, empty] = items.map((i) => validationOf(i.json));
		expect(swapped.problems.map((p) => p.code)).toEqual(['swapped_lat_lon']);
		expect(big.problems.map((p) => p.code)).toEqual(['point_requires_polygon']);
		expect(empty.problems.map((p) => p.code)).toEqual(['longitude_missing']);
		expect(swapped.problem_summary).toMatch(
			/^lat \(Latitude\) and lon \(Longitude\) look swapped: swap the two values\. Detail: /,
		);
		expect(big.problem_summary).toMatch(
			/^ha \(Point Area \(Hectares\)\) is 6 ha: a plot of more than 4 ha needs its boundary \(a polygon\), not a single point\. Detail: /,
		);
		expect(empty.problem_summary).toMatch(/^lon \(Longitude\) is empty\. Detail: /);
		for (const v of [swapped, big, empty]) {
			expect(v.problem_summary).not.toMatch(/feature 0/);
			// the plain sentence says nothing of GeoJSON or the service's field names
			const plain = v.problem_summary.split(' Detail: ')[0];
			expect(plain).not.toMatch(/GeoJSON|point_ha|position|\[/);
			// the technical detail is still there
			expect(v.problem_summary.split(' Detail: ')[1].length).toBeGreaterThan(20);
			expect(v.problems[0].message).toBe(v.problem_summary);
		}
		// a field not mapped from a column is named by its label
		const { items: byLabel } = await validate([{ a: 1 }], {
			geometrySource: 'latLon',
			latitude: '95',
			longitude: '10',
		});
		expect(validationOf(byLabel[0].json).problem_summary).toMatch(
			/^Latitude and Longitude look swapped/,
		);
		// several features: the feature is named after the message
		const { items: many } = await validate(
			[
				{
					geojson: {
						type: 'FeatureCollection',
						features: [
							{
								type: 'Feature',
								properties: {},
								geometry: { type: 'Point', coordinates: [1.123456, 1.123456] },
							},
							{
								type: 'Feature',
								properties: {},
								geometry: { type: 'Point', coordinates: [200, 1.123456] },
							},
						],
					},
				},
			],
			GEOJSON,
		);
		expect(validationOf(many[0].json).problem_summary).toMatch(
			/^A coordinate is out of range .* Detail: .*\(at feature 1\)/,
		);
	});

	it("a point's area from the feature's own property is named as that property, not Point Area (Hectares)", async () => {
		const point = (properties: Record<string, unknown>) => ({
			geojson: {
				type: 'Feature',
				properties,
				geometry: { type: 'Point', coordinates: [-5.297654, 6.802345] },
			},
		});
		const { items } = await validate(
			[point({ AREA: 10 }), point({ Area: 4 }), point({ area_ha: 2 }), point({})],
			{ ...GEOJSON, plotFields: { pointHa: '={{ $json.ha }}' } },
		);
		const [ten, four, two, mapped] = items.map((i) => validationOf(i.json));
		expect(ten.problems.map((p) => p.code)).toEqual(['point_requires_polygon']);
		expect(ten.problems[0].message).toMatch(
			/^The plot's "AREA" property is 10 ha: a plot of more than 4 ha needs its boundary.* Detail: /,
		);
		expect(ten.problem_summary).not.toMatch(/Point Area \(Hectares\)[^.]* is 10 ha/);
		expect(four.problems.map((p) => p.code)).toEqual(['point_ha_not_below_4']);
		expect(four.problems[0].message).toMatch(
			/^The plot's "Area" property is 4 ha: the service registers a point only below 4 ha.* Detail: /,
		);
		expect(two.problems).toEqual([]);
		// without a property, the mapped field is named (here not a column: its label)
		expect(mapped.problems).toEqual([]);
		const { items: byField } = await validate([{ ...point({ AREA: 1 }), ha: '4' }], {
			...GEOJSON,
			plotFields: { pointHa: '={{ $json.ha }}' },
		});
		const field = validationOf(byField[0].json);
		expect(field.problems.map((p) => p.code)).toEqual(['point_ha_not_below_4']);
		expect(field.problems[0].message).toMatch(/^ha \(Point Area \(Hectares\)\) is 4 ha: /);
	});

	it('warnings: fewer than six decimals, a point without an area, a centre outside the country', async () => {
		const { items } = await validate(
			[
				{ geojson: polygon(square(-47.88, -15.79, 0.01)) },
				{ geojson: { type: 'Point', coordinates: [-47.882778, -15.793889] } },
				{ geojson: { type: 'Point', coordinates: [-5.282778, 6.793889] }, country: 'BR' },
			],
			{ ...GEOJSON, plotFields: { country: '={{ $json.country }}' } },
		);
		const [low, point, outside] = items.map((i) => validationOf(i.json));
		expect(low.valid).toBe(true);
		expect(low.warnings.map((w) => w.code)).toEqual(['low_precision']);
		expect(point.warnings.map((w) => w.code)).toEqual(['point_without_area']);
		expect(point.meets_4ha_rule).toBeNull();
		expect(point.area_ha).toBeNull();
		expect(outside.warnings.map((w) => w.code)).toContain('outside_country');
	});

	it('area, vertices and the 4 ha rule: a polygon of about 123 ha, a point of 4.5 ha refused', async () => {
		const ring = square(-47.882778, -15.793889, 0.01);
		const { items } = await validate(
			[
				{ geojson: polygon(ring) },
				{ geojson: { type: 'Point', coordinates: [-47.882778, -15.793889] }, ha: '4,5' },
			],
			{ ...GEOJSON, plotFields: { pointHa: '={{ $json.ha }}' } },
		);
		const [poly, big] = items.map((i) => validationOf(i.json));
		expect(poly).toMatchObject({
			valid: true,
			geometry_type: 'Polygon',
			is_point: false,
			vertex_count: 4,
			meets_4ha_rule: true,
		});
		// 0.01° × 0.01° at 15.8° S: 1113 m × 1071 m ≈ 119 ha (geodesic)
		expect(poly.area_ha).toBeGreaterThan(115);
		expect(poly.area_ha).toBeLessThan(125);
		expect(big.valid).toBe(false);
		expect(big.problems.map((p) => p.code)).toEqual(['point_requires_polygon']);
	});

	it('with Repair Geometry: the repaired geometry and the list of repairs; without: neither', async () => {
		const open = square(-47.882778, -15.793889, 0.001).slice(0, 4);
		const on = await validate([{ geojson: polygon(open) }], {
			...GEOJSON,
			options: { repairGeometry: true },
		});
		const repaired = validationOf(on.items[0].json);
		expect(repaired.valid).toBe(true);
		expect(repaired.repairs).toEqual([
			expect.objectContaining({ code: 'closed_ring', feature: 0 }),
		]);
		const ring = (repaired.repaired_geojson!.features[0].geometry.coordinates as number[][][])[0];
		expect(ring[0]).toEqual(ring[ring.length - 1]);
		const off = await validate([{ geojson: polygon(open) }], GEOJSON);
		const plain = validationOf(off.items[0].json);
		expect(plain.valid).toBe(false);
		expect(plain.repairs).toBeUndefined();
		expect(plain.repaired_geojson).toBeUndefined();
		expect(fake.log.count()).toBe(0);
	});

	it('Expected Country it cannot read is a problem of the row, worded as in Register and Export', async () => {
		const { items, error } = await validate(
			[
				{ latitude: '-15.793889', longitude: '-47.882778', country: 'Narnia' },
				{ latitude: '-15.793889', longitude: '-47.882778', country: 'Brasil' },
			],
			{ geometrySource: 'latLon', plotFields: { country: '={{ $json.country }}' } },
		);
		expect(error).toBeUndefined();
		const [narnia, brasil] = items.map((i) => validationOf(i.json));
		expect(narnia.valid).toBe(false);
		expect(narnia.problems).toEqual([
			expect.objectContaining({
				code: 'invalid_field',
				message: expect.stringContaining(
					'"Narnia" is not a country name or an ISO 3166-1 code. Give the alpha-2 code (e.g. CI, BR), the alpha-3 code or the English name.',
				),
			}),
		]);
		expect(brasil.problems).toEqual([]);
	});

	describe('duplicates and overlaps across rows', () => {
		const A = square(-47.9, -15.8, 0.01);
		it('touching is not overlapping; a plot inside another; a MultiPolygon part; exact duplicates', async () => {
			const rows = [
				{ geojson: polygon(A) }, // 0
				{ geojson: polygon(square(-47.89, -15.8, 0.01)) }, // 1: shares A's east edge
				{ geojson: polygon(square(-47.898, -15.798, 0.002)) }, // 2: inside A
				{
					// 3: a MultiPolygon whose second part reaches into A
					geojson: {
						type: 'MultiPolygon',
						coordinates: [[square(-47.95, -15.8, 0.01)], [square(-47.905, -15.795, 0.01)]],
					},
				},
				{ geojson: polygon(A) }, // 4: the same geometry as row 0
				{ geojson: { type: 'Point', coordinates: [-47.5, -15.5] } }, // 5
				{ geojson: { type: 'Point', coordinates: [-47.5, -15.5] } }, // 6: the same point
				{ geojson: polygon(square(-47.7, -15.6, 0.01)) }, // 7: far away
				{ geojson: polygon(square(-47.89, -15.79, 0.01)) }, // 8: touches A at one corner
			];
			const { items, error } = await validate(rows, {
				...GEOJSON,
				plotFields: { pointHa: '1' },
			});
			expect(error).toBeUndefined();
			const v = items.map((i) => validationOf(i.json));
			const overlapping = (row: number) => v[row].overlaps.map((o) => o.other_item).sort();
			// rows 0 and 4 (the same geometry) overlap rows 2 and 3 but not each other: a duplicate
			expect(overlapping(0)).toEqual([2, 3]);
			expect(overlapping(4)).toEqual([2, 3]);
			expect(overlapping(2)).toEqual([0, 4]);
			expect(overlapping(3)).toEqual([0, 4]);
			// sharing an edge or a corner is touching, not overlapping
			expect(overlapping(1)).toEqual([]);
			expect(overlapping(8)).toEqual([]);
			expect(overlapping(7)).toEqual([]);
			expect(v[4].duplicates).toEqual([{ feature: 0, other_item: 0, other_feature: 0 }]);
			expect(v[0].duplicates).toEqual([{ feature: 0, other_item: 4, other_feature: 0 }]);
			expect(v[4].warnings.map((w) => w.code)).toContain('duplicate_geometry');
			expect(v[0].warnings.map((w) => w.code)).not.toContain('duplicate_geometry');
			expect(v[6].duplicates).toEqual([{ feature: 0, other_item: 5, other_feature: 0 }]);
			// a plot inside another: 100 % of the small one, 4 % of the large one
			const inside = v[2].overlaps.find((o) => o.other_item === 0)!;
			expect(inside.overlap_percent_of_this).toBeCloseTo(100, 1);
			expect(inside.overlap_percent_of_other).toBeCloseTo(4, 1);
			expect(inside.overlap_ha).toBeCloseTo(v[2].area_ha!, 3);
			// the MultiPolygon's part overlaps A over 0.005° × 0.005° = a quarter of A
			const part = v[3].overlaps.find((o) => o.other_item === 0)!;
			expect(part.overlap_percent_of_other).toBeCloseTo(25, 0);
			expect(part.overlap_ha).toBeCloseTo(v[0].area_ha! / 4, 1);
			// warnings by default: the rows stay valid
			expect(v.every((r) => r.valid)).toBe(true);
			expect(v[0].warnings.filter((w) => w.code === 'overlapping_plots')).toHaveLength(2);
			expect(fake.log.count()).toBe(0);
		});

		it('as problems: the later duplicate and both overlapping rows become invalid; Only Invalid Rows keeps them', async () => {
			const rows = [
				{ geojson: polygon(A) },
				{ geojson: polygon(square(-47.895, -15.795, 0.01)) },
				{ geojson: polygon(A) },
				{ geojson: polygon(square(-47.7, -15.6, 0.01)) },
			];
			const { items } = await validate(rows, {
				...GEOJSON,
				output: 'invalidRows',
				options: { crossPlotSeverity: 'error' },
			});
			expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			const codes = items.map((i) =>
				validationOf(i.json)
					.problems.map((p) => p.code)
					.sort(),
			);
			expect(codes).toEqual([
				['overlapping_plots'],
				['overlapping_plots', 'overlapping_plots'],
				['duplicate_geometry', 'overlapping_plots'],
			]);
		});

		it('Check Overlaps off: duplicates only; Minimum Overlap leaves out small overlaps', async () => {
			const rows = [
				{ geojson: polygon(A) },
				{ geojson: polygon(square(-47.89005, -15.8, 0.01)) }, // a 5 m × 1.1 km strip ≈ 0.6 ha
				{ geojson: polygon(A) },
			];
			const off = await validate(rows, { ...GEOJSON, options: { checkOverlaps: false } });
			expect(off.items.flatMap((i) => validationOf(i.json).overlaps)).toEqual([]);
			expect(validationOf(off.items[2].json).duplicates).toHaveLength(1);
			const high = await validate(rows, { ...GEOJSON, options: { minOverlapM2: 10_000 } });
			expect(high.items.flatMap((i) => validationOf(i.json).overlaps)).toEqual([]);
			const low = await validate(rows, { ...GEOJSON, options: { minOverlapM2: 1_000 } });
			expect(validationOf(low.items[1].json).overlaps.map((o) => o.other_item)).toEqual([0, 2]);
		});

		it.each([
			[
				-1,
				/-1 is below the smallest allowed value, 0\. Give the smallest overlap to report in square meters as a number of 0 or more\./,
			],
			['1 ha', /"1 ha" is not a number\./],
		])(
			'Minimum Overlap %p refuses every row naming the option (a setting, not a row problem)',
			async (minOverlapM2, reason) => {
				const rows = [{ geojson: polygon(A) }, { geojson: polygon(A) }];
				const { items, error } = await validate(rows, { ...GEOJSON, options: { minOverlapM2 } });
				expect(items).toHaveLength(0);
				const message = String(error?.message);
				expect(message).toMatch(
					/^Item 0, field "Minimum Overlap \(Square Meters\)": .*\(and 1 more problem in 2 items\)$/,
				);
				expect(String(error?.description)).toMatch(
					/Item 1, field "Minimum Overlap \(Square Meters\)": /,
				);
				expect(message).toMatch(reason);
				expect(fake.log.count()).toBe(0);
			},
		);

		it('Minimum Overlap as numeric text reads as the number', async () => {
			const rows = [
				{ geojson: polygon(A) },
				{ geojson: polygon(square(-47.89005, -15.8, 0.01)) },
				{ geojson: polygon(A) },
			];
			const high = await validate(rows, { ...GEOJSON, options: { minOverlapM2: '10000' } });
			expect(high.error).toBeUndefined();
			expect(high.items.flatMap((i) => validationOf(i.json).overlaps)).toEqual([]);
		});
	});

	it('One Summary Item: counts, problems by code, invalid rows, overlaps; paired with every row', async () => {
		const { items } = await validate(
			[
				{ geojson: polygon(square(-47.9, -15.8, 0.01)) },
				{ geojson: polygon(square(-47.895, -15.795, 0.01)) },
				{ geojson: 'POINT (1 2)' },
				{ geojson: { type: 'Polygon', coordinates: [square(-47.7, -15.6, 0.01).slice(0, 4)] } },
			],
			{ ...GEOJSON, output: 'summary' },
		);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items[0].json).toMatchObject({
			items: 4,
			valid_items: 2,
			invalid_items: 2,
			invalid_item_indexes: [2, 3],
			problems_by_code: { looks_like_wkt: 1, ring_not_closed: 1 },
			overlapping_pairs: 1,
			overlaps: [expect.objectContaining({ item: 0, other_item: 1 })],
		});
	});

	it('a geometry source the node does not know is a problem of the row', async () => {
		const { items } = await validate([{}], { geometrySource: 'kml' });
		expect(validationOf(items[0].json).problems.map((p) => p.code)).toEqual([
			'unknown_geometry_source',
		]);
	});
});

/**
 * Validate and every pre-flight are bounded on any input (issue 20, "Bounded on any input"):
 * crossings are counted up to a limit within a budget of edge tests, JSON values are read with a
 * depth limit, and a plot across the antimeridian is a problem, not 425,667 ha. Behaviour only:
 * times and memory are measured in `npm run bench` (BENCHMARKS.md, "Worst cases of the crossing
 * check").
 */
import type { Position } from '../../../nodes/shared/geometry';
import { parseGeoJsonValue, validateFeatures } from '../../../nodes/shared/geometry';
import {
	CROSSING_LIMIT,
	crossingBudget,
	findCrossings,
	scanCrossings,
} from '../../../nodes/shared/geometry/crossings';
import {
	MAX_JSON_DEPTH,
	pathDeeperThan,
	readJsonObject,
	readKeyValuePairs,
	showPath,
} from '../../../nodes/shared/input';
import { checkItemGeometry } from '../../../nodes/shared/plots/geometrySource';
import { validateRows } from '../../../nodes/shared/plots/plotValidation';
import { saw, star } from '../../helpers/star';

/** A thin north–south strip of n vertices, its sides zigzagging a little in x. */
function strip(n: number): Position[] {
	const half = Math.floor(n / 2);
	const left: Position[] = [];
	const right: Position[] = [];
	for (let i = 0; i < half; i++) {
		const y = -15.8 + i * 1e-5;
		left.push([-47.9 + (i % 2) * 1e-6, y]);
		right.push([-47.8999 + (i % 3) * 1e-6, y]);
	}
	const ring = [...right, ...left.reverse()];
	ring.push([...ring[0]]);
	return ring;
}

const feature = (coordinates: Position[][]) => ({
	type: 'Feature',
	properties: {},
	geometry: { type: 'Polygon', coordinates },
});

/** Nested n levels deep: {"a": {"a": … "leaf" …}}. */
function nested(n: number): unknown {
	let value: unknown = 'leaf';
	for (let i = 0; i < n; i++) value = { a: value };
	return value;
}
const nestedText = (n: number) => `${'{"a":'.repeat(n)}"leaf"${'}'.repeat(n)}`;

describe('crossings: counted up to a limit, within a budget of edge tests', () => {
	it('a 100,000-vertex star: the count stops at the limit, the message says "at least", the check ends', () => {
		const ring = star(100_000);
		const scan = scanCrossings([[ring]], {
			limit: CROSSING_LIMIT,
			budget: crossingBudget(100_000),
		});
		expect(scan.capped).toBe(true);
		expect(scan.outOfBudget).toBe(false);
		expect(scan.crossings).toHaveLength(CROSSING_LIMIT);
		expect(scan.tests).toBeLessThan(crossingBudget(100_000));

		const result = validateFeatures([feature([ring])]);
		expect(result.valid).toBe(false);
		const errors = result.problems.filter((p) => p.severity === 'error');
		expect(errors.map((p) => p.code)).toEqual(['self_intersection']);
		expect(errors[0].message).toMatch(
			new RegExp(
				`crosses itself \\(self-intersection\\) at least ${CROSSING_LIMIT} times \\(the check stops counting there\\), first near \\[-?\\d+\\.\\d+, -?\\d+\\.\\d+\\]`,
			),
		);
		expect(errors[0].where?.near).toHaveLength(2);
	});

	it('a 4,001-vertex star (5 s and 640 MB before) in Validate: one row problem, the other rows checked', () => {
		const rows = [
			{ geojson: feature([star(4001)]) },
			{
				geojson: feature([
					[
						[-47.882778, -15.793889],
						[-47.872778, -15.793889],
						[-47.872778, -15.783889],
						[-47.882778, -15.793889],
					],
				]),
			},
		].map((r, row) => ({
			row,
			geometry: checkItemGeometry('geoJson', { geoJson: r.geojson }),
			fieldProblems: [],
		}));
		const { reports } = validateRows(rows, { repair: false, overlaps: true });
		expect(reports[0].valid).toBe(false);
		expect(reports[0].problems[0].message).toContain(`at least ${CROSSING_LIMIT} times`);
		expect(reports[1].valid).toBe(true);
	});

	it('below the limit the count is exact and says so (no "at least")', () => {
		const bowTie = [
			[0, 0],
			[1, 1],
			[1, 0],
			[0, 1],
			[0, 0],
		];
		const result = validateFeatures([feature([bowTie])]);
		expect(result.problems.find((p) => p.code === 'self_intersection')?.message).toMatch(
			/crosses itself \(self-intersection\) at 1 point, first near \[0\.5, 0\.5\]/,
		);
	});

	it('the limit and the budget: the scan stops where they say and tells which', () => {
		const ring = star(801);
		const all = findCrossings([[ring]]);
		expect(all.length).toBeGreaterThan(1000);
		const capped = scanCrossings([[ring]], { limit: 10 });
		expect(capped).toMatchObject({ capped: true, outOfBudget: false });
		expect(capped.crossings).toEqual(all.slice(0, 10));
		const poor = scanCrossings([[ring]], { budget: 1000 });
		expect(poor.outOfBudget).toBe(true);
		expect(poor.tests).toBeLessThanOrEqual(1000);
		expect(all.slice(0, poor.crossings.length)).toEqual(poor.crossings);
	});

	it('a boundary the budget cannot cover is a problem saying the check is incomplete, never "valid"', () => {
		const ring = saw(7000);
		expect(findCrossings([[ring]])).toEqual([]); // it does not cross itself, but that costs n²/2 tests
		const scan = scanCrossings([[ring]], { budget: crossingBudget(ring.length - 1) });
		expect(scan.outOfBudget).toBe(true);
		const result = validateFeatures([feature([ring])]);
		expect(result.valid).toBe(false);
		const problem = result.problems.find((p) => p.code === 'crossing_check_incomplete');
		expect(problem?.message).toMatch(
			/whether the polygon boundary crosses itself could not be checked: .* the check stops after [\d,]+ edge comparisons .* Simplify the boundary/,
		);
	});

	it('the budget is per feature: many parts that each fit do not add up to more than it', () => {
		// 20 saws of 2,500 teeth: each alone fits the floor of the budget (2,500²/2 tests), together
		// they would take 20 times that
		const parts = Array.from({ length: 20 }, (_, k) =>
			saw(2500).map(([x, y]) => [x, +(y + k * 0.001).toFixed(7)]),
		);
		expect(scanCrossings([[parts[0]]], { budget: crossingBudget(2503) }).outOfBudget).toBe(false);
		const result = validateFeatures([
			{
				type: 'Feature',
				properties: {},
				geometry: { type: 'MultiPolygon', coordinates: parts.map((ring) => [ring]) },
			},
		]);
		const problems = result.problems.filter((p) => p.code === 'crossing_check_incomplete');
		expect(problems.length).toBeGreaterThan(0);
		expect(problems[0].message).toMatch(
			/the plot has 50,\d{3} vertices .* stops after [\d,]+ edge comparisons for a plot of that size/,
		);
	});

	it('a thin north–south strip is swept from south to north: a few tests per edge, finished', () => {
		const ring = strip(40_000);
		const scan = scanCrossings([[ring]], { budget: crossingBudget(ring.length - 1) });
		expect(scan.outOfBudget).toBe(false);
		expect(scan.crossings).toEqual([]);
		expect(scan.tests).toBeLessThan(10 * ring.length);
		// the same strip lying east–west is swept from west to east: the same work
		const turned = ring.map(([x, y]) => [y, x]);
		expect(scanCrossings([[turned]]).tests).toBe(scan.tests);
		// a crossing in the strip is found at the same point either way
		const crossed = ring.map((p) => [...p]);
		crossed[5] = [-47.9001, crossed[5][1]]; // a vertex of the east side pulled across the west side
		const found = findCrossings([[crossed]]);
		expect(found).toHaveLength(2);
		expect(findCrossings([[crossed.map(([x, y]) => [y, x])]]).map(([x, y]) => [y, x])).toEqual(
			found,
		);
	});
});

describe('JSON values read with a depth limit', () => {
	it('pathDeeperThan: the path to the first value deeper than the limit, without recursion', () => {
		expect(pathDeeperThan({ a: [1, { b: 2 }] })).toBeUndefined();
		expect(pathDeeperThan(nested(MAX_JSON_DEPTH))).toBeUndefined();
		expect(pathDeeperThan(nested(MAX_JSON_DEPTH + 1))).toHaveLength(MAX_JSON_DEPTH);
		expect(pathDeeperThan({ x: [0, nested(3)] }, 3)).toEqual(['x', '1', 'a']);
		expect(showPath(['crs', 'properties', '0', 'a b'])).toBe('crs.properties[0]["a b"]');
		const deep = pathDeeperThan(nested(100_000));
		expect(showPath(deep!)).toBe('a.a.a.a.a.a.a.a…');
	});

	it.each([
		['a crs nested 5,000 deep (object)', { ...feature([[[0, 0]]]), crs: nested(5000) }, false],
		[
			'a crs nested 5,000 deep (JSON text)',
			`{"type":"Feature","properties":{},"crs":${nestedText(5000)},"geometry":{"type":"Point","coordinates":[1,2]}}`,
			false,
		],
		[
			'properties nested 5,000 deep, with Repair (object)',
			{
				type: 'Feature',
				properties: { x: nested(5000) },
				geometry: { type: 'Point', coordinates: [1, 2] },
			},
			true,
		],
		[
			'properties nested 5,000 deep, with Repair (JSON text)',
			`{"type":"Feature","properties":{"x":${nestedText(5000)}},"geometry":{"type":"Point","coordinates":[1,2]}}`,
			true,
		],
		[
			'a FeatureCollection crs nested 5,000 deep',
			{ type: 'FeatureCollection', crs: nested(5000), features: [] },
			true,
		],
	])("%s: the row's problem json_too_deep, naming where", (_name, geoJson, repair) => {
		const checked = checkItemGeometry('geoJson', { geoJson }, { repair });
		expect(checked.kind).toBe('unreadable');
		if (checked.kind !== 'unreadable') return;
		expect(checked.failure.code).toBe('json_too_deep');
		expect(checked.failure.message).toMatch(
			/^the GeoJSON value nests more than 100 levels deep \(at (crs|properties\.x)\.a\.a.*…\).*Remove or flatten/,
		);
		expect(() => parseGeoJsonValue(geoJson)).toThrow(/nests more than 100 levels deep/);
	});

	it('readJsonObject and readKeyValuePairs refuse a value nested too deep, with the place', () => {
		for (const v of [{ config: nested(5000) }, `{"config":${nestedText(5000)}}`]) {
			const read = readJsonObject(v);
			expect(read.kind).toBe('invalid');
			if (read.kind === 'invalid')
				expect(read.reason).toMatch(/^it nests more than 100 levels deep \(at config\.a\.a/);
		}
		const pairs = readKeyValuePairs([{ key: 'x', value: nested(5000) }]);
		expect(pairs.kind).toBe('invalid');
		if (pairs.kind === 'invalid')
			expect(pairs.reason).toMatch(/^it nests more than 100 levels deep \(at \[0\]\.value\.a/);
		// shallow values are unchanged
		expect(readJsonObject({ a: nested(20) }).kind).toBe('value');
		expect(readKeyValuePairs([{ key: 'x', value: { a: 1 } }])).toEqual({
			kind: 'value',
			value: { x: '{"a":1}' },
		});
	});
});

describe('the antimeridian', () => {
	// 111 m across 180° in Fiji: read as GeoJSON says, it goes the long way round the Earth
	const fiji = [
		[179.999512, -16.500488],
		[-179.999488, -16.500488],
		[-179.999488, -16.499512],
		[179.999512, -16.499512],
		[179.999512, -16.500488],
	];

	it('a polygon across 180° is a problem saying how to fix it, and has no area', () => {
		const result = validateFeatures([feature([fiji])]);
		expect(result.valid).toBe(false);
		const problem = result.problems.find((p) => p.code === 'crosses_antimeridian');
		expect(problem?.message).toMatch(
			/crosses the antimeridian \(180° longitude\): the edge from \[179\.999512, -16\.500488\] to \[-179\.999488, -16\.500488\] and 1 other edge jump .*Split the plot at 180° into two polygons of a MultiPolygon .*RFC 7946 \(§3\.1\.9\).*longitudes beyond ±180 are not valid either/,
		);
		expect(problem?.where).toEqual({ ring: 0, position: 0 });
		const { reports } = validateRows(
			[
				{
					row: 0,
					geometry: checkItemGeometry('geoJson', { geoJson: feature([fiji]) }),
					fieldProblems: [],
				},
			],
			{ repair: false, overlaps: true },
		);
		expect(reports[0]).toMatchObject({ valid: false, area_ha: null });
	});

	it('the same plot split at 180° into a MultiPolygon is valid, about 1.2 ha', () => {
		const split = {
			type: 'Feature',
			properties: {},
			geometry: {
				type: 'MultiPolygon',
				coordinates: [
					[
						[
							[179.999512, -16.500488],
							[180, -16.500488],
							[180, -16.499512],
							[179.999512, -16.499512],
							[179.999512, -16.500488],
						],
					],
					[
						[
							[-180, -16.500488],
							[-179.999488, -16.500488],
							[-179.999488, -16.499512],
							[-180, -16.499512],
							[-180, -16.500488],
						],
					],
				],
			},
		};
		const { reports } = validateRows(
			[{ row: 0, geometry: checkItemGeometry('geoJson', { geoJson: split }), fieldProblems: [] }],
			{ repair: false, overlaps: true },
		);
		expect(reports[0].problems).toEqual([]);
		expect(reports[0].area_ha).toBeGreaterThan(1.1);
		expect(reports[0].area_ha).toBeLessThan(1.3);
	});

	it('from WKT too', () => {
		const wkt = `POLYGON ((${fiji.map(([x, y]) => `${x} ${y}`).join(', ')}))`;
		const checked = checkItemGeometry('wkt', { wkt });
		expect(checked.kind === 'read' && checked.validation.problems.map((p) => p.code)).toContain(
			'crosses_antimeridian',
		);
	});
});

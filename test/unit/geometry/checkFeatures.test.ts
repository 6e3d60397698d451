import { readFileSync, readdirSync } from 'fs';
import { join } from 'path';
import { booleanClockwise } from '@turf/boolean-clockwise';
import sweeplineIntersections from 'sweepline-intersections';

import {
	describeProblem,
	parseGeoJsonValue,
	validateFeatures,
	type Position,
	type Problem,
} from '../../../nodes/shared/geometry';
import { readHectares } from '../../../nodes/shared/input';

// ---------------------------------------------------------------- fixtures

/** A valid plot near Brasília, counter-clockwise, six decimals. */
const SQUARE: Position[] = [
	[-47.882778, -15.793889],
	[-47.872778, -15.793889],
	[-47.872778, -15.783889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];

/** A hole inside SQUARE, clockwise. */
const HOLE: Position[] = [
	[-47.880001, -15.791001],
	[-47.880001, -15.786001],
	[-47.875001, -15.786001],
	[-47.875001, -15.791001],
	[-47.880001, -15.791001],
];

const BOW_TIE: Position[] = [
	[-47.882778, -15.793889],
	[-47.872778, -15.783889],
	[-47.872778, -15.793889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];

function polygon(...rings: Position[][]): Record<string, unknown> {
	return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: rings } };
}

function multiPolygon(...polygons: Position[][][]): Record<string, unknown> {
	return {
		type: 'Feature',
		properties: {},
		geometry: { type: 'MultiPolygon', coordinates: polygons },
	};
}

function point(
	position: Position,
	properties: Record<string, unknown> = {},
): Record<string, unknown> {
	return { type: 'Feature', properties, geometry: { type: 'Point', coordinates: position } };
}

function shift(ring: Position[], dx: number, dy: number): Position[] {
	return ring.map(([x, y]) => [Number((x + dx).toFixed(6)), Number((y + dy).toFixed(6))]);
}

function reversed(ring: Position[]): Position[] {
	return [...ring].reverse();
}

/** A closed, counter-clockwise circle of `n` distinct vertices with seven decimals. */
function circleRing(n: number, lon = -47.882778, lat = -15.793889, radius = 0.01): Position[] {
	const ring: Position[] = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * i) / n;
		ring.push([
			Number((lon + radius * Math.cos(a)).toFixed(7)),
			Number((lat + radius * Math.sin(a)).toFixed(7)),
		]);
	}
	ring.push([...ring[0]]);
	return ring;
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
		Object.freeze(value);
	}
	return value;
}

const errors = (problems: Problem[]) => problems.filter((p) => p.severity === 'error');
const codes = (problems: Problem[]) => problems.map((p) => p.code);

// ---------------------------------------------------------------- malformed inputs

// "This input → this error" cases are fixture files, one per defect, in
// test/fixtures/geometry/defects/, run by geometry/defects.test.ts.

// ---------------------------------------------------------------- valid inputs and warnings

describe('validateFeatures on valid input', () => {
	it('accepts a polygon, a polygon with a hole, a multipolygon and a point', () => {
		const features = [
			polygon(SQUARE),
			polygon(SQUARE, HOLE),
			multiPolygon([SQUARE], [shift(SQUARE, 0.1, 0)]),
			point([-47.882778, -15.793889], { point_ha: 2.5 }),
		];
		const result = validateFeatures(features, { country: 'Brazil' });
		expect(result.problems).toEqual([]);
		expect(result.repairs).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('does not treat clockwise winding as an error when repair is off, and leaves it alone', () => {
		const input = polygon(reversed(SQUARE), reversed(HOLE));
		const result = validateFeatures([input]);
		expect(result.problems).toEqual([]);
		expect(result.features[0]).toBe(input);
	});

	it('accepts z values and passes them through', () => {
		const input = polygon(SQUARE.map(([x, y]) => [x, y, 812.5]));
		const result = validateFeatures([input]);
		expect(result.problems).toEqual([]);
		expect(result.features[0]).toBe(input);
	});

	it.each([
		['EPSG:4326', { type: 'name', properties: { name: 'EPSG:4326' } }],
		['CRS84 urn', { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } }],
		['EPSG urn', { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } }],
		[
			'opengis URL',
			{ type: 'name', properties: { name: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' } },
		],
		['old EPSG code form', { type: 'EPSG', properties: { code: 4326 } }],
		['plain string', 'WGS84'],
		['null', null],
	])('accepts a WGS84 crs member (%s)', (_name, crs) => {
		expect(validateFeatures([polygon(SQUARE)], { crs }).problems).toEqual([]);
		expect(validateFeatures([{ ...polygon(SQUARE), crs }]).problems).toEqual([]);
	});

	it('warns (but does not fail) below six decimal places', () => {
		const result = validateFeatures([point([-47.88, -15.79])]);
		expect(result.valid).toBe(true);
		expect(result.problems).toEqual([
			expect.objectContaining({ severity: 'warning', code: 'low_precision', featureIndex: 0 }),
		]);
		expect(result.problems[0].message).toContain('as few as 2');
		expect(result.problems[0].message).toContain('six decimal digits');
	});

	it('does not warn when one coordinate merely lost a trailing zero', () => {
		expect(validateFeatures([point([-47.88278, -15.793889])]).problems).toEqual([]);
	});

	it('warns when the plot lies outside the given country (neither way round fits)', () => {
		const result = validateFeatures([point([9.993682, 53.551086])], { country: 'Brazil' });
		expect(result.valid).toBe(true);
		expect(codes(result.problems)).toEqual(['outside_country']);
	});

	it('ignores a country it has no bounding box for', () => {
		expect(
			validateFeatures([point([-15.793889, -47.882778])], { country: 'Atlantis' }).problems,
		).toEqual([]);
	});

	it('warns about exact duplicate features', () => {
		const result = validateFeatures([polygon(SQUARE), polygon(SQUARE)]);
		expect(result.valid).toBe(true);
		expect(result.problems).toEqual([
			expect.objectContaining({ code: 'duplicate_feature', featureIndex: 1, severity: 'warning' }),
		]);
		expect(result.problems[0].message).toContain('identical to feature 0');
	});

	it('the node option pointHa wins over properties.point_ha, and applies to points only', () => {
		expect(
			validateFeatures([point([-47.882778, -15.793889], { point_ha: 9 })], {
				pointHa: readHectares('2,5'),
			}).problems,
		).toEqual([]);
		expect(validateFeatures([polygon(SQUARE)], { pointHa: readHectares(9) }).problems).toEqual([]);
		expect(
			validateFeatures([point([-47.882778, -15.793889], { point_ha: 1 })], {
				pointHa: readHectares(''),
			}).problems,
		).toEqual([]);
	});

	it('reports each problem with the index of its feature', () => {
		const result = validateFeatures([
			polygon(SQUARE),
			polygon(BOW_TIE),
			point([-47.882778, -15.793889], { point_ha: 5 }),
		]);
		expect(errors(result.problems).map((p) => [p.featureIndex, p.code])).toEqual([
			[1, 'self_intersection'],
			[2, 'point_requires_polygon'],
		]);
		expect(result.valid).toBe(false);
	});

	it('reports a top-level crs once, for the whole input', () => {
		const result = validateFeatures([polygon(SQUARE), polygon(shift(SQUARE, 1, 0))], {
			crs: 'EPSG:3857',
		});
		expect(result.problems).toEqual([
			expect.objectContaining({ featureIndex: -1, code: 'crs_not_wgs84' }),
		]);
	});
});

// ---------------------------------------------------------------- self-intersections (sweep line)

describe('self-intersection detection', () => {
	it('the sweep line finds the crossing of a bow tie', () => {
		const found = sweeplineIntersections(
			{
				type: 'Feature',
				properties: {},
				geometry: {
					type: 'Polygon',
					coordinates: [
						[
							[0, 0],
							[1, 1],
							[1, 0],
							[0, 1],
							[0, 0],
						],
					],
				},
			},
			false,
		);
		expect(found).toEqual([[0.5, 0.5]]);
	});

	it('the sweep line finds no crossing in a valid 20,000-vertex circle', () => {
		const ring = circleRing(20_000);
		expect(ring).toHaveLength(20_001);
		expect(
			sweeplineIntersections(
				{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } },
				false,
			),
		).toEqual([]);
	});

	it('finds a single crossing hidden in a 20,000-vertex ring', () => {
		const ring = circleRing(20_000);
		[ring[5000], ring[5100]] = [ring[5100], ring[5000]];
		const result = validateFeatures([polygon(ring)]);
		expect(codes(result.problems)).toEqual(['self_intersection']);
		expect(result.problems[0].message).toContain('crosses itself');
	});

	it('a valid 20,000-vertex polygon validates clean', () => {
		const result = validateFeatures([polygon(circleRing(20_000))], { country: 'Brazil' });
		expect(result.problems).toEqual([]);
		expect(result.valid).toBe(true);
	});

	it('a valid 20,000-vertex polygon validates clean with repair on, unchanged', () => {
		const input = polygon(circleRing(20_000));
		const result = validateFeatures([input], { repair: true });
		expect(result.problems).toEqual([]);
		expect(result.repairs).toEqual([]);
		expect(result.features[0]).toEqual(input);
		expect(result.features[0]).not.toBe(input);
	});

	it('the geometry layer does not use the quadratic @turf/kinks', () => {
		const dir = join(__dirname, '../../../nodes/shared/geometry');
		for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
			expect(readFileSync(join(dir, file), 'utf8')).not.toMatch(
				/(from|require\()\s*'@turf\/kinks'/,
			);
		}
		// the sweep line moved from sweepline-intersections into crossings.ts (findCrossings);
		// checkFeatures.ts runs the polygon checks of polygonChecks.ts, which scan with it
		expect(readFileSync(join(dir, 'checkFeatures.ts'), 'utf8')).toMatch(/from '\.\/polygonChecks'/);
		expect(readFileSync(join(dir, 'polygonChecks.ts'), 'utf8')).toMatch(/from '\.\/crossings'/);
	});
});

// ---------------------------------------------------------------- repair

describe('repair', () => {
	const messages = (result: { repairs: Array<{ message: string }> }) =>
		result.repairs.map((r) => r.message);

	it('closes an unclosed ring, then validates', () => {
		const result = validateFeatures([polygon(SQUARE.slice(0, 4))], { repair: true });
		expect(result.repairs).toEqual([
			{ featureIndex: 0, code: 'closed_ring', message: 'closed ring 0 of polygon' },
		]);
		expect(result.problems).toEqual([]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
	});

	it('closes an unclosed three-corner ring into a valid triangle', () => {
		const result = validateFeatures([polygon(SQUARE.slice(0, 3))], { repair: true });
		expect(messages(result)).toEqual(['closed ring 0 of polygon']);
		expect(result.valid).toBe(true);
	});

	it('removes duplicate consecutive vertices', () => {
		const ring = [
			SQUARE[0],
			SQUARE[0],
			SQUARE[1],
			SQUARE[2],
			SQUARE[2],
			SQUARE[2],
			SQUARE[3],
			SQUARE[4],
		];
		const result = validateFeatures([polygon(ring)], { repair: true });
		expect(result.repairs).toEqual([
			{
				featureIndex: 0,
				code: 'removed_duplicate_vertices',
				message: 'removed 3 duplicate consecutive vertices',
			},
		]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
		expect(result.problems).toEqual([]);
	});

	it('rewinds the exterior to counter-clockwise and holes to clockwise', () => {
		const result = validateFeatures([polygon(reversed(SQUARE), reversed(HOLE))], { repair: true });
		expect(messages(result)).toEqual([
			'rewound exterior ring to counter-clockwise',
			'rewound hole (ring 1 of polygon) to clockwise',
		]);
		const [outer, hole] = (result.features[0].geometry as { coordinates: Position[][] })
			.coordinates;
		expect(booleanClockwise(outer)).toBe(false);
		expect(booleanClockwise(hole)).toBe(true);
		expect(result.problems).toEqual([]);
	});

	it('drops z values from polygons and points', () => {
		const result = validateFeatures(
			[polygon(SQUARE.map(([x, y]) => [x, y, 10])), point([-47.882778, -15.793889, 3])],
			{ repair: true },
		);
		expect(result.repairs).toEqual([
			{
				featureIndex: 0,
				code: 'dropped_z',
				message: 'dropped z values (third coordinate) from 5 positions',
			},
			{
				featureIndex: 1,
				code: 'dropped_z',
				message: 'dropped z values (third coordinate) from 1 position',
			},
		]);
		expect((result.features[0].geometry as { coordinates: Position[][] }).coordinates[0]).toEqual(
			SQUARE,
		);
		expect((result.features[1].geometry as { coordinates: Position }).coordinates).toEqual([
			-47.882778, -15.793889,
		]);
	});

	it('names the polygon of a MultiPolygon', () => {
		const result = validateFeatures(
			[multiPolygon([SQUARE], [reversed(shift(SQUARE, 1, 0)).slice(0, 4)])],
			{ repair: true },
		);
		expect(messages(result)).toEqual([
			'closed ring 0 of polygon 1',
			'rewound exterior ring of polygon 1 to counter-clockwise',
		]);
		expect(result.valid).toBe(true);
	});

	it('fixes everything repairable at once, and the result then validates with repair off', () => {
		const dirty = [...reversed(SQUARE).slice(0, 4)].flatMap((p, i) =>
			i === 1
				? [
						[...p, 5],
						[...p, 5],
					]
				: [[...p, 5]],
		);
		const result = validateFeatures([polygon(dirty)], { repair: true });
		expect(result.repairs.map((r) => r.code)).toEqual([
			'dropped_z',
			'removed_duplicate_vertices',
			'closed_ring',
			'rewound_ring',
		]);
		expect(messages(result)).toEqual([
			'dropped z values (third coordinate) from 5 positions',
			'removed 1 duplicate consecutive vertex',
			'closed ring 0 of polygon',
			'rewound exterior ring to counter-clockwise',
		]);
		expect(result.valid).toBe(true);
		const again = validateFeatures(result.features);
		expect(again.problems).toEqual([]);
	});

	it('the same defects are errors with repair off', () => {
		const dirty = [...reversed(SQUARE).slice(0, 4)].flatMap((p, i) => (i === 1 ? [p, p] : [p]));
		expect(codes(validateFeatures([polygon(dirty)]).problems).sort()).toEqual([
			'duplicate_vertices',
			'ring_not_closed',
		]);
	});

	// Defects that repair cannot fix: the after-repair-*.json cases in test/fixtures/geometry/defects/.

	it('lists nothing and still returns copies when there is nothing to repair', () => {
		const input = [
			polygon(SQUARE, HOLE),
			point([-47.882778, -15.793889], { point_ha: 1.5, name: 'A' }),
		];
		const result = validateFeatures(input, { repair: true });
		expect(result.repairs).toEqual([]);
		expect(result.features).toEqual(input);
		expect(result.features[0]).not.toBe(input[0]);
		expect(result.features[1].properties).not.toBe(input[1].properties);
	});

	it('keeps properties and other members on the repaired copy', () => {
		const input = {
			...polygon(SQUARE.slice(0, 4)),
			id: 'p-1',
			properties: { point_ha: 1, owner: 'Ana' },
		};
		const [repaired] = validateFeatures([input], { repair: true }).features;
		expect(repaired).toEqual({ ...input, geometry: { type: 'Polygon', coordinates: [SQUARE] } });
	});

	it('returns structurally invalid features as copies, untouched, with their error', () => {
		const result = validateFeatures([{ type: 'Feature', geometry: null }], { repair: true });
		expect(result.features).toEqual([{ type: 'Feature', geometry: null }]);
		expect(codes(result.problems)).toEqual(['missing_geometry']);
	});
});

// ---------------------------------------------------------------- immutability

describe('inputs are never mutated', () => {
	const inputs = () => [
		polygon(
			reversed(SQUARE)
				.slice(0, 4)
				.map(([x, y]) => [x, y, 1]),
		),
		polygon([SQUARE[0], SQUARE[0], ...SQUARE.slice(1)], reversed(HOLE)),
		multiPolygon([SQUARE.slice(0, 4)], [shift(SQUARE, 1, 0)]),
		point([-47.882778, -15.793889, 4], { point_ha: 2 }),
		polygon(BOW_TIE),
	];

	it.each([false, true])(
		'validateFeatures (repair %s) leaves frozen inputs as they were',
		(repair) => {
			const original = inputs();
			const frozen = deepFreeze(inputs());
			const result = validateFeatures(frozen, {
				repair,
				country: 'Brazil',
				pointHa: readHectares('1,5'),
			});
			expect(frozen).toEqual(original);
			if (repair) {
				expect(result.repairs.length).toBeGreaterThan(0);
				result.features.forEach((f, i) => expect(f).not.toBe(frozen[i]));
			} else {
				expect(result.repairs).toEqual([]);
				result.features.forEach((f, i) => expect(f).toBe(frozen[i]));
			}
		},
	);

	it('parseGeoJsonValue returns copies: changing them does not change the input', () => {
		const input = {
			type: 'FeatureCollection',
			crs: { type: 'name', properties: { name: 'EPSG:4326' } },
			features: inputs(),
		};
		const before = structuredClone(input);
		const parsed = parseGeoJsonValue(deepFreeze(input));
		(parsed.features[0].properties as Record<string, unknown>).point_ha = 3;
		(parsed.features[0].geometry as { coordinates: Position[][] }).coordinates[0].push([0, 0]);
		(parsed.crs as { type: string }).type = 'changed';
		expect(input).toEqual(before);
	});
});

// ---------------------------------------------------------------- messages

describe('describeProblem', () => {
	it('prefixes the item and feature', () => {
		const [problem] = validateFeatures(
			[polygon(SQUARE), polygon(SQUARE.slice(0, 4))].slice(1),
		).problems;
		expect(describeProblem(3, problem)).toBe(
			'Item 3, feature 0: the polygon ring is not closed (first and last positions differ) in ring 0: [-47.882778, -15.793889] vs [-47.882778, -15.783889]. Close the ring (repeat the first position at the end) or turn on "Repair Geometry".',
		);
	});

	it('marks warnings and omits the feature for whole-input problems', () => {
		expect(
			describeProblem(1, {
				severity: 'warning',
				featureIndex: 2,
				code: 'low_precision',
				message: 'x.',
			}),
		).toBe('Item 1, feature 2 (warning): x.');
		expect(
			describeProblem(0, {
				severity: 'error',
				featureIndex: -1,
				code: 'crs_not_wgs84',
				message: 'y.',
			}),
		).toBe('Item 0: y.');
	});
});

/**
 * The two 4 ha rules and where a point's area is read (nodes/shared/geometry/pointArea.ts), in
 * the geometry layer; the table through the engine for Validate and Export is in
 * test/integration/plot/pointArea.test.ts.
 */
import { meets4haRule, readPointArea, validateFeatures } from '../../../nodes/shared/geometry';
import { readHectares } from '../../../nodes/shared/input';

const point = (properties: Record<string, unknown> = {}) => ({
	type: 'Feature',
	properties,
	geometry: { type: 'Point', coordinates: [-47.882778, -15.793889] },
});
const codes = (features: unknown[], options = {}) =>
	validateFeatures(features, options)
		.problems.filter((p) => p.severity === 'error')
		.map((p) => p.code);

describe('readPointArea: the mapped field first, then point_ha, Area, area_ha, AREA', () => {
	it.each([
		[{ point_ha: 2 }, undefined, 2, { kind: 'property', name: 'point_ha' }],
		[{ Area: 3 }, undefined, 3, { kind: 'property', name: 'Area' }],
		[{ area_ha: 1.5 }, undefined, 1.5, { kind: 'property', name: 'area_ha' }],
		[{ AREA: 0.5 }, undefined, 0.5, { kind: 'property', name: 'AREA' }],
		[{ Area: 3, point_ha: 2 }, undefined, 2, { kind: 'property', name: 'point_ha' }],
		[{ AREA: 3, area_ha: 2 }, undefined, 2, { kind: 'property', name: 'area_ha' }],
		[{ Area: 3 }, '2,5', 2.5, { kind: 'field', name: 'Point Area (Hectares)' }],
		[{ Area: 3 }, '', 3, { kind: 'property', name: 'Area' }],
	])('%p with the field %p → %p', (properties, mapped, value, from) => {
		expect(readPointArea(properties, readHectares(mapped))).toEqual({ kind: 'value', value, from });
	});

	it('nothing given is missing; text in a property and a field that is not a number are invalid', () => {
		expect(readPointArea({}, undefined)).toEqual({ kind: 'missing' });
		expect(readPointArea(null, readHectares(''))).toEqual({ kind: 'missing' });
		expect(readPointArea({ Area: '2.5' }, undefined)).toMatchObject({ kind: 'invalid' });
		expect(readPointArea({}, readHectares('big'))).toMatchObject({ kind: 'invalid' });
	});

	it('meets4haRule: polygons true, a point up to 4 ha true, above false, without an area null', () => {
		expect(meets4haRule('Polygon', undefined)).toBe(true);
		expect(meets4haRule('MultiPolygon', undefined)).toBe(true);
		expect(meets4haRule('Point', 3.99)).toBe(true);
		expect(meets4haRule('Point', 4)).toBe(true);
		expect(meets4haRule('Point', 4.01)).toBe(false);
		expect(meets4haRule('Point', 10)).toBe(false);
		expect(meets4haRule('Point', undefined)).toBeNull();
	});
});

describe('validateFeatures: EUDR above 4 ha, the service from 4.0', () => {
	it.each([
		[3.99, [], []],
		[4, ['point_ha_not_below_4'], []],
		[4.01, ['point_requires_polygon'], ['point_requires_polygon']],
		[10, ['point_requires_polygon'], ['point_requires_polygon']],
	])('%p ha, every way of giving it', (ha, register, eudrOnly) => {
		for (const name of ['point_ha', 'Area', 'area_ha', 'AREA']) {
			expect(codes([point({ [name]: ha })])).toEqual(register);
			expect(codes([point({ [name]: ha })], { serviceLimits: false })).toEqual(eudrOnly);
		}
		expect(codes([point()], { pointHa: readHectares(String(ha)) })).toEqual(register);
		expect(codes([point()], { pointHa: readHectares(ha), serviceLimits: false })).toEqual(eudrOnly);
	});

	it('the messages name where the area came from and what to do', () => {
		const [exactly] = validateFeatures([point({ Area: 4 })]).problems;
		expect(exactly.message).toBe(
			'properties.Area is 4 ha: that meets the EUDR 4 ha rule (a point for a plot of up to 4 ha; Export writes it), but the service takes point_ha only below 4.0, so Plot → Register would be refused. Give the plot boundary as a polygon, or the real area if it is below 4 ha.',
		);
		const [above] = validateFeatures([point()], {
			pointHa: readHectares(4.01),
			pointHaField: 'Area of Points (Hectares)',
		}).problems;
		expect(above.message).toMatch(
			/^"Area of Points \(Hectares\)" is 4.01 ha: a plot of more than 4 ha must be given as a polygon \(EUDR/,
		);
	});
});

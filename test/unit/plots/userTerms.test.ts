/** Validate's messages in the user's terms (nodes/shared/plots/userTerms.ts). */
import { readFileSync } from 'fs';
import { join } from 'path';

import {
	WITHOUT_PLAIN_SENTENCE,
	columnOfExpression,
	fieldName,
	inUserTerms,
	plainSentence,
} from '../../../nodes/shared/plots/userTerms';

/** The files whose problems Validate reports (repair.ts emits repairs, not problems). */
const EMITTERS = [
	'nodes/shared/geometry/parse.ts',
	'nodes/shared/geometry/shape.ts',
	'nodes/shared/geometry/checkFeatures.ts',
	'nodes/shared/geometry/polygonChecks.ts',
	'nodes/shared/plots/geometrySource.ts',
	'nodes/shared/plots/plotOverlaps.ts',
	'nodes/shared/plots/plotValidation.ts',
	'nodes/shared/plots/crossReports.ts',
];

/**
 * Every problem code the emitters can produce, read from their source: `code: 'x'`,
 * `add('error' | 'warning', 'x', …)`, `fail('x', …)` and `fail(`${name}_x`, …)` (latitude and
 * longitude).
 */
function emittedCodes(): Set<string> {
	const codes = new Set<string>();
	const root = join(__dirname, '..', '..', '..');
	for (const file of EMITTERS) {
		const text = readFileSync(join(root, file), 'utf8');
		for (const re of [
			/\bcode:\s*'([a-z0-9_]+)'/g,
			/\badd\(\s*'(?:error|warning)',\s*'([a-z0-9_]+)'/g,
			/\bfail\(\s*'([a-z0-9_]+)'/g,
		]) {
			for (const m of text.matchAll(re)) codes.add(m[1]);
		}
		for (const m of text.matchAll(/\bfail\(\s*`\$\{name\}_([a-z0-9_]+)`/g)) {
			codes.add(`latitude_${m[1]}`);
			codes.add(`longitude_${m[1]}`);
		}
	}
	return codes;
}

describe('userTerms', () => {
	it('reads the column of a plain $json expression, nothing else', () => {
		expect(columnOfExpression('={{ $json.latitude }}')).toBe('latitude');
		expect(columnOfExpression('={{$json.area_ha}}')).toBe('area_ha');
		expect(columnOfExpression('={{ $json["Point area"] }}')).toBe('Point area');
		expect(columnOfExpression("={{ $json['lat'] }}")).toBe('lat');
		expect(columnOfExpression('={{ $json.a.b }}')).toBeUndefined();
		expect(columnOfExpression('={{ $json.lat * 1 }}')).toBeUndefined();
		expect(columnOfExpression("={{ $('Read').item.json.lat }}")).toBeUndefined();
		expect(columnOfExpression('6.5')).toBeUndefined();
		expect(columnOfExpression(6.5)).toBeUndefined();
	});

	it('names a field by its column, with the label when they differ', () => {
		const terms = { columns: { Latitude: 'latitude', 'Point Area (Hectares)': 'area_ha' } };
		expect(fieldName('Latitude', terms)).toBe('latitude');
		expect(fieldName('Point Area (Hectares)', terms)).toBe('area_ha (Point Area (Hectares))');
		expect(fieldName('Commodity', terms)).toBe('Commodity');
	});

	it('a plain sentence first, the technical message after it; a field reason after the field', () => {
		const terms = { source: 'latLon', columns: { Latitude: 'lat', Longitude: 'lon' } };
		const where = { feature: 0 };
		expect(inUserTerms({ code: 'swapped_lat_lon', message: 'technical.', where }, terms)).toBe(
			'lat (Latitude) and lon (Longitude) look swapped: swap the two values. Detail: technical.',
		);
		expect(
			inUserTerms(
				{ code: 'invalid_field', message: 'reason.', where: { feature: null, field: 'Latitude' } },
				terms,
			),
		).toBe('lat (Latitude): reason.');
		expect(inUserTerms({ code: 'not_geojson', message: 'as is.', where }, terms)).toBe('as is.');
		expect(
			plainSentence({ code: 'point_requires_polygon', message: '', where, pointHa: 4.5 }, {}),
		).toBe(
			'Point Area (Hectares) is 4.5 ha: a plot of more than 4 ha needs its boundary (a polygon), not a single point.',
		);
		expect(
			plainSentence({ code: 'swapped_lat_lon', message: '', where }, { source: 'geoJson' }),
		).toMatch(/^Latitude and longitude look swapped in the geometry/);
	});

	it('every code the validators emit has a plain sentence, or deliberately none', () => {
		const codes = emittedCodes();
		// the collector itself works: codes from each kind of emitter are found
		for (const known of [
			'invalid_field',
			'latitude_missing',
			'longitude_not_a_number',
			'not_json',
			'invalid_coordinates',
			'point_ha_not_below_4',
			'overlaps_not_measured',
			'overlap_not_computed',
			'unknown_geometry_source',
		])
			expect(codes).toContain(known);
		expect(codes.size).toBeGreaterThan(40);
		const missing: string[] = [];
		for (const code of codes) {
			if (code === 'invalid_field' || WITHOUT_PLAIN_SENTENCE.has(code)) continue;
			// both shapes a problem takes: about one feature with another item, and the whole row
			for (const where of [{ feature: 0, other_item: 1, other_feature: 0 }, { feature: null }]) {
				for (const source of ['latLon', 'geoJson', 'wkt']) {
					const plain = plainSentence({ code, message: 'technical.', where }, { source });
					if (plain === undefined || !/^[A-Z].*\.$/.test(plain))
						missing.push(`${code} (${source}, ${where.feature === null ? 'row' : 'feature'})`);
				}
			}
		}
		expect(missing).toEqual([]);
		// the deliberate list holds only codes that are emitted and have no sentence
		for (const code of WITHOUT_PLAIN_SENTENCE) {
			expect(codes).toContain(code);
			expect(plainSentence({ code, message: 'm.', where: { feature: 0 } }, {})).toBeUndefined();
		}
	});

	it('the capped overlap warnings get a plain sentence with their count', () => {
		const row = { feature: null };
		expect(
			inUserTerms(
				{
					code: 'overlapping_plots',
					message:
						'the plot overlaps 12 other plots; the 5 largest (in "overlaps"): item 1 by 2 ha (50 %).',
					where: row,
				},
				{},
			),
		).toBe(
			'The plot overlaps 12 other plots. Detail: the plot overlaps 12 other plots; the 5 largest (in "overlaps"): item 1 by 2 ha (50 %).',
		);
		expect(
			inUserTerms(
				{
					code: 'overlap_not_computed',
					message: 'the overlap with 3 more plots could not be computed either.',
					where: row,
				},
				{},
			),
		).toBe(
			'The overlap with 3 more plots could not be computed. Detail: the overlap with 3 more plots could not be computed either.',
		);
		expect(
			inUserTerms({ code: 'overlaps_not_measured', message: 'technical.', where: row }, {}),
		).toBe(
			'Some other plots that lie over this one were not checked for overlap with it. Detail: technical.',
		);
	});

	it('names the feature property the point area came from, else the mapped field', () => {
		const where = { feature: 0 };
		const terms = { source: 'geoJson', columns: { 'Point Area (Hectares)': 'area_ha' } };
		expect(
			plainSentence(
				{
					code: 'point_ha_not_below_4',
					message: '',
					where,
					pointHa: 10,
					pointHaFrom: { kind: 'property', name: 'AREA' },
				},
				terms,
			),
		).toBe(
			'The plot\'s "AREA" property is 10 ha: the service registers a point only below 4 ha, so Register would refuse it; give the boundary (a polygon) or the real area.',
		);
		expect(
			plainSentence(
				{
					code: 'point_requires_polygon',
					message: '',
					where,
					pointHa: 4.5,
					pointHaFrom: { kind: 'property', name: 'Area' },
				},
				terms,
			),
		).toMatch(/^The plot's "Area" property is 4\.5 ha: a plot of more than 4 ha needs/);
		expect(
			plainSentence(
				{
					code: 'point_requires_polygon',
					message: '',
					where,
					pointHa: 4.5,
					pointHaFrom: { kind: 'field', name: 'Point Area (Hectares)' },
				},
				terms,
			),
		).toMatch(/^area_ha \(Point Area \(Hectares\)\) is 4\.5 ha: /);
	});
});

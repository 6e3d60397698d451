/**
 * Validate's output item (nodes/shared/plots/validationOutput.ts): the decision first in every
 * version; from node version 3 (`compact`) the details in one field and one short text per
 * problem. And the supplier's text free of advice for the workflow builder (userTerms.ts).
 */
import type { Position } from '../../../nodes/shared/geometry';
import { checkItemGeometry } from '../../../nodes/shared/plots/geometrySource';
import { validateRows } from '../../../nodes/shared/plots/plotValidation';
import { shortText, validationItem } from '../../../nodes/shared/plots/validationOutput';
import { splitBuilderHints, WORKFLOW_WORDS } from '../../../nodes/shared/plots/userTerms';

const square = (x: number, y: number, s: number): Position[] => [
	[x, y],
	[x + s, y],
	[x + s, y + s],
	[x, y + s],
	[x, y],
];
const polygon = (ring: Position[]) => ({ type: 'Polygon', coordinates: [ring] });

function reportsOf(
	values: Array<{ source: 'geoJson' | 'latLon'; value: unknown; country?: string }>,
) {
	return validateRows(
		values.map(({ source, value, country }, row) => ({
			row,
			geometry:
				source === 'geoJson'
					? checkItemGeometry('geoJson', { geoJson: value }, { country })
					: checkItemGeometry('latLon', value as { latitude: unknown; longitude: unknown }, {
							country,
						}),
			fieldProblems: [],
		})),
		{ repair: false, overlaps: true },
	).reports;
}

describe('validationItem', () => {
	const [clean, open] = reportsOf([
		{ source: 'geoJson', value: polygon(square(-47.9, -15.8, 0.01)) },
		{ source: 'geoJson', value: polygon(square(-47.7, -15.8, 0.01).slice(0, 4)) },
	]);
	const input = { farm: 'F-1', valid: 'from the input', area_ha: 'x' };

	it('the decision comes first, then the input columns; the decision wins over input columns of its names', () => {
		for (const compact of [false, true]) {
			const json = validationItem(input, open, { compact });
			expect(Object.keys(json)).toEqual([
				'valid',
				'problem_count',
				'problem_summary',
				'farm',
				'area_ha',
				'validation',
			]);
			expect(json.valid).toBe(false);
			expect(json.problem_count).toBe(open.problems.length);
		}
	});

	it('versions 1 and 2 (not compact): validation is the report as before', () => {
		expect(validationItem(input, clean, { compact: false }).validation).toBe(clean);
	});

	it('version 3 (compact): figures as plain values, one short text per problem, every nested detail in `details`', () => {
		const v = validationItem({}, open, { compact: true }).validation as Record<string, unknown>;
		expect(v.problems).toEqual(open.problems.map(shortText));
		expect((v.problems as string[])[0]).toMatch(
			/^The plot boundary is not closed\. \(feature 0, ring 0\)$|^The plot boundary/,
		);
		expect(v).toMatchObject({
			area_ha: open.area_ha,
			vertex_count: open.vertex_count,
			warning_count: open.warnings.length,
			details: {
				problems: open.problems,
				warnings: open.warnings,
				features: open.features,
				duplicates: open.duplicates,
				overlaps: open.overlaps,
			},
		});
		// one level of nesting outside `details`: lists of short texts, never objects
		for (const [key, value] of Object.entries(v)) {
			if (key === 'details') continue;
			if (Array.isArray(value)) expect(value.every((x) => typeof x === 'string')).toBe(true);
			else expect(value === null || typeof value !== 'object').toBe(true);
		}
		expect(v).not.toHaveProperty('problem_summary');
		expect(v).not.toHaveProperty('features');
	});
});

describe("the supplier's text: no advice for the workflow builder", () => {
	it('swapped latitude and longitude: the fix list says to swap the values; mapping the fields the other way round is the hint', () => {
		// a plot in Brazil given as [lat, lon]
		const swapped = square(-15.8, -47.9, 0.01);
		const [r] = reportsOf([{ source: 'geoJson', value: polygon(swapped), country: 'BR' }]);
		const problem = [...r.problems, ...r.warnings].find((p) => p.code === 'swapped_lat_lon')!;
		expect(problem).toBeDefined();
		expect(r.problem_summary).not.toMatch(/other way round/);
		expect(r.problem_summary).not.toMatch(WORKFLOW_WORDS);
		expect(problem.message).toContain('swap the two values');
		expect(problem.hint).toBe('Or map the latitude and longitude fields the other way round.');
		expect(r.workflow_hints).toEqual([
			'Or map the latitude and longitude fields the other way round.',
		]);
	});

	it('every hint pattern is cut from the text and kept as the hint', () => {
		for (const [text, kept, hint] of [
			[
				'ring not closed. Close the ring (repeat the first position at the end) or turn on "Repair Geometry".',
				'ring not closed. Close the ring (repeat the first position at the end).',
				'Turn on "Repair Geometry" to have this fixed in the output.',
			],
			[
				'the value looks like WKT (POLYGON …), not GeoJSON. Set the geometry source to WKT, or give GeoJSON such as {…}.',
				'the value looks like WKT (POLYGON …), not GeoJSON. Give GeoJSON such as {…}.',
				'Set the geometry source to WKT.',
			],
			[
				"the latitude and the longitude are both empty. Map the fields holding the plot's latitude and longitude in decimal degrees.",
				'the latitude and the longitude are both empty.',
				"Map the fields holding the plot's latitude and longitude in decimal degrees.",
			],
			[
				'crosses itself. Redraw it. "Repair Geometry" cannot fix this.',
				'crosses itself. Redraw it.',
				'"Repair Geometry" cannot fix this.',
			],
		]) {
			const split = splitBuilderHints(text);
			expect(split).toEqual({ message: kept, hints: [hint] });
			expect(split.message).not.toMatch(WORKFLOW_WORDS);
		}
	});

	it('rows with the common defects: no problem_summary names the workflow', () => {
		const reports = reportsOf([
			{ source: 'geoJson', value: polygon(square(-47.9, -15.8, 0.01).slice(0, 4)) },
			{ source: 'geoJson', value: 'POLYGON ((1 1, 2 1, 2 2, 1 1))' },
			{
				source: 'geoJson',
				value: polygon([
					...square(-47.9, -15.8, 0.01).slice(0, 2),
					[-47.89, -15.8],
					...square(-47.9, -15.8, 0.01).slice(2),
				]),
			},
			{ source: 'latLon', value: { latitude: '', longitude: '' } },
			{ source: 'latLon', value: { latitude: -47.9, longitude: -15.8 }, country: 'BR' },
			{ source: 'geoJson', value: { type: 'Point', coordinates: [-47.9, -15.8] } },
		]);
		for (const r of reports) {
			expect(r.problem_summary.length).toBeGreaterThan(0);
			expect(r.problem_summary).not.toMatch(WORKFLOW_WORDS);
		}
		expect(reports.flatMap((r) => r.workflow_hints).length).toBeGreaterThanOrEqual(3);
	});
});

/**
 * Validate and the pre-flights of Register and Protected Area → Check are bounded on any input
 * (issue 20), through n8n's engine: a value nested 5,000 deep is that row's problem (the run
 * goes on, every row comes out), a self-crossing star is counted up to the limit ("at least"),
 * a plot across the antimeridian is a problem with its fix. Nothing is sent for a bad item.
 */
import type { IDataObject } from 'n8n-workflow';

import { CROSSING_LIMIT } from '../../../nodes/shared/geometry/crossings';
import { CredentialStore, runNode } from '../../helpers/engine';
import { star } from '../../helpers/star';
import { fake, store, usePlotService } from './helpers';

interface Validation {
	valid: boolean;
	problems: Array<{ code: string; message: string; where: IDataObject }>;
	problem_summary: string;
	area_ha: number | null;
}

function nested(n: number): IDataObject {
	let value: unknown = 'leaf';
	for (let i = 0; i < n; i++) value = { a: value };
	return value as IDataObject;
}
const nestedText = (n: number) => `${'{"a":'.repeat(n)}"leaf"${'}'.repeat(n)}`;

const square: number[][] = [
	[-47.882778, -15.793889],
	[-47.872778, -15.793889],
	[-47.872778, -15.783889],
	[-47.882778, -15.783889],
	[-47.882778, -15.793889],
];
const fiji = [
	[179.999512, -16.500488],
	[-179.999488, -16.500488],
	[-179.999488, -16.499512],
	[179.999512, -16.499512],
	[179.999512, -16.500488],
];
const polygon = (ring: number[][]) => ({ type: 'Polygon', coordinates: [ring] });
const GEOJSON = { geometrySource: 'geoJson', geoJson: '={{ $json.geojson }}' };

describe('bounded on any input (through the n8n engine)', () => {
	usePlotService();

	const rows = () => [
		{
			name: 'deep crs',
			geojson: { type: 'Feature', properties: {}, geometry: polygon(square), crs: nested(5000) },
		},
		{
			name: 'deep properties (text)',
			geojson: `{"type":"Feature","properties":{"x":${nestedText(5000)}},"geometry":${JSON.stringify(polygon(square))}}`,
		},
		{ name: 'star', geojson: polygon(star(20_000)) },
		{ name: 'fiji', geojson: polygon(fiji) },
		{ name: 'good', geojson: polygon(square) },
	];

	it.each([false, true])(
		'Validate (Repair %p): every row comes out; the deep, crossing and antimeridian rows have their problem',
		async (repairGeometry) => {
			const { items, error } = await runNode({
				parameters: {
					resource: 'plot',
					operation: 'validate',
					...GEOJSON,
					options: { repairGeometry },
				},
				input: rows(),
				store: new CredentialStore(),
				withCredential: false,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(5);
			const [crs, properties, crossing, antimeridian, good] = items.map(
				(i) => i.json.validation as unknown as Validation,
			);
			for (const [v, at] of [
				[crs, 'crs'],
				[properties, 'properties\\.x'],
			] as const) {
				expect(v.valid).toBe(false);
				expect(v.problems).toEqual([
					{
						code: 'json_too_deep',
						message: expect.stringMatching(
							new RegExp(
								`^The geometry value is nested too deeply to be read\\. Detail: the GeoJSON value nests more than 100 levels deep \\(at ${at}\\.a\\.a`,
							),
						),
						where: { feature: null },
						// the advice for the workflow builder, kept out of the supplier's text (issue 28)
						hint: 'Check what the geometry field is mapped to.',
					},
				]);
			}
			expect(crossing.problems.map((p) => p.code)).toEqual(['self_intersection']);
			expect(crossing.problems[0].message).toContain(`at least ${CROSSING_LIMIT} times`);
			expect(antimeridian).toMatchObject({ valid: false, area_ha: null });
			expect(antimeridian.problems.map((p) => p.code)).toEqual(['crosses_antimeridian']);
			expect(antimeridian.problem_summary).toMatch(
				/^The plot crosses the 180° meridian: split it there .* Detail: the polygon crosses the antimeridian.* \(at ring 0, position \d\)$/,
			);
			expect(good.valid).toBe(true);
			expect(fake.log.count()).toBe(0);
		},
	);

	it('Register: the pre-flight refuses them naming the item, before anything is sent', async () => {
		const { error } = await runNode({
			parameters: { resource: 'plot', operation: 'register', ...GEOJSON },
			input: rows(),
			store,
		});
		const text = `${error?.message}\n${error?.description}`;
		expect(text).toMatch(
			/Item 0: the GeoJSON value nests more than 100 levels deep \(at crs\.a\.a/,
		);
		expect(text).toMatch(
			/Item 1: the GeoJSON value nests more than 100 levels deep \(at properties\.x\.a/,
		);
		expect(text).toMatch(
			new RegExp(
				`Item 2, feature 0: the polygon boundary crosses itself \\(self-intersection\\) at least ${CROSSING_LIMIT} times`,
			),
		);
		expect(text).toMatch(/Item 3, feature 0: the polygon crosses the antimeridian/);
		expect(text).not.toMatch(/Item 4/);
		expect(fake.log.count()).toBe(0);
	});

	it('Register with Continue On Fail: the bad items become error items, the good one is registered', async () => {
		const { items, error } = await runNode({
			parameters: { resource: 'plot', operation: 'register', ...GEOJSON },
			input: rows(),
			store,
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		expect(items.slice(0, 4).map((i) => typeof i.json.error)).toEqual(Array(4).fill('string'));
		expect(items[4].json.error).toBeUndefined();
		expect(fake.log.count({ method: 'POST', path: '/plots/make_plot' })).toBe(1);
	});

	it('Protected Area → Check: the same pre-flight', async () => {
		const { error } = await runNode({
			parameters: {
				resource: 'protectedArea',
				operation: 'check',
				checkBy: 'geometry',
				...GEOJSON,
			},
			input: rows(),
			store,
		});
		const text = `${error?.message}\n${error?.description}`;
		expect(text).toMatch(/Item 0: the GeoJSON value nests more than 100 levels deep/);
		expect(text).toMatch(/Item 3, feature 0: the polygon crosses the antimeridian/);
		expect(fake.log.count()).toBe(0);
	});
});

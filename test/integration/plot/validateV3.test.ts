/**
 * Plot → Validate's output through n8n's engine (issue 28): the decision columns first in every
 * version; from node version 3 the compact `validation` (one short text per problem, the
 * figures as plain values, every nested detail in `validation.details`), so that a row of
 * n8n's Table view stays one line high. Version 3 of the action node is added beside this
 * change (issue 28, "the editor flows at defaults"): the version-3 cases run once it exists.
 */
import type { IDataObject } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { fake, usePlotService } from './helpers';

const square = (lon: number, lat: number, side: number) => [
	[lon, lat],
	[lon + side, lat],
	[lon + side, lat + side],
	[lon, lat + side],
	[lon, lat],
];
const polygon = (ring: number[][]) => ({ type: 'Polygon', coordinates: [ring] });

describe('Plot → Validate: decision first; compact details from version 3 (through the n8n engine)', () => {
	usePlotService();

	const rows = [
		{ farm: 'F-1', geojson: polygon(square(-47.9, -15.8, 0.01)) },
		// a ring not closed: a problem
		{ farm: 'F-2', geojson: polygon(square(-47.7, -15.8, 0.01).slice(0, 4)) },
		// swapped latitude and longitude (Brazil): the hint goes to the builder, not the supplier
		{ farm: 'F-3', country: 'BR', geojson: polygon(square(-15.8, -47.5, 0.01)) },
	];
	const validate = async (typeVersion: number) =>
		await runNode({
			parameters: {
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				plotFields: { country: '={{ $json.country }}' },
			},
			input: rows,
			store: new CredentialStore(),
			withCredential: false,
			typeVersion,
		});

	it.each([1, 2, 3])(
		'version %p: valid, problem_count and problem_summary come first, then the input columns',
		async (typeVersion) => {
			const { items, error } = await validate(typeVersion);
			expect(error).toBeUndefined();
			for (const item of items)
				expect(Object.keys(item.json)).toEqual([
					'valid',
					'problem_count',
					'problem_summary',
					'farm',
					...(item.json.country !== undefined ? ['country'] : []),
					'geojson',
					'validation',
				]);
			expect(items.map((i) => i.json.valid)).toEqual([true, false, false]);
			// the supplier's text holds no advice about the workflow
			const swapped = items[2].json;
			expect(swapped.problem_summary).toContain('swap');
			expect(swapped.problem_summary).not.toMatch(/other way round|map the/);
			expect(fake.log.count()).toBe(0);
		},
	);

	it('version 2 keeps the full validation object (problems as objects, features, overlaps)', async () => {
		const { items } = await validate(2);
		const v = items[1].json.validation as IDataObject;
		expect((v.problems as IDataObject[])[0]).toMatchObject({ code: 'ring_not_closed' });
		expect(v).toHaveProperty('features');
		expect(v).not.toHaveProperty('details');
	});

	// Runs once version 3 of the action node exists (added in parallel for issue 28).
	it('version 3: one short text per problem, plain values, the nested details in one field', async () => {
		const { items, error } = await validate(3);
		expect(error).toBeUndefined();
		const v = items[1].json.validation as IDataObject;
		expect(v.problems).toEqual([expect.stringMatching(/^The plot boundary is not closed\./)]);
		for (const [key, value] of Object.entries(v)) {
			if (key === 'details') continue;
			if (Array.isArray(value)) expect(value.every((x) => typeof x === 'string')).toBe(true);
			else expect(value === null || typeof value !== 'object').toBe(true);
		}
		const details = v.details as IDataObject;
		expect((details.problems as IDataObject[])[0]).toMatchObject({
			code: 'ring_not_closed',
			where: { feature: 0, ring: 0 },
		});
		expect(details).toHaveProperty('features');
		const swapped = items[2].json.validation as IDataObject;
		expect(swapped.workflow_hints).toEqual([
			'Or map the latitude and longitude fields the other way round.',
		]);
	});
});

/**
 * One 4 ha rule (issue 20, Deliver 4) through n8n's engine: a point of 3.99, 4, 4.01 and 10 ha,
 * its area given each way (the mapped field, `point_ha`, the EU `Area`, `area_ha`, `AREA`).
 * Validate: `meets_4ha_rule` true up to 4 ha, false above; exactly 4 ha meets EUDR but Register
 * would be refused (`point_ha_not_below_4`). Export writes `Area` exactly where Validate says
 * the rule is met, and refuses the others.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CredentialStore, runNode } from '../../helpers/engine';
import { fake, store, usePlotService } from './helpers';

const VALUES = [3.99, 4, 4.01, 10];
const WAYS = ['field', 'point_ha', 'Area', 'area_ha', 'AREA'] as const;

/** One row per way and value: a point in Brazil, its area where the way says. */
const rows = WAYS.flatMap((way) =>
	VALUES.map((ha) => ({
		way,
		ha: way === 'field' ? ha : undefined,
		country: 'BR',
		geojson: {
			type: 'Feature',
			properties: way === 'field' ? {} : { [way]: ha },
			geometry: { type: 'Point', coordinates: [-47.882778, -15.793889] },
		},
	})),
);

const expected = (ha: number) => ({
	meets: ha <= 4,
	// what Validate reports (Validate checks as Register would)
	codes: ha > 4 ? ['point_requires_polygon'] : ha >= 4 ? ['point_ha_not_below_4'] : [],
});

interface Validation {
	valid: boolean;
	problems: Array<{ code: string; message: string }>;
	area_ha: number | null;
	meets_4ha_rule: boolean | null;
	features: Array<{
		area_ha: number | null;
		area_from: string | null;
		meets_4ha_rule: boolean | null;
	}>;
}

describe('the 4 ha rule at 3.99 / 4 / 4.01 / 10 ha, the area given each way (through the n8n engine)', () => {
	usePlotService();

	let validated: Validation[];
	let exported: INodeExecutionData[];
	beforeAll(async () => {
		const validate = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'validate',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				plotFields: { pointHa: '={{ $json.ha }}' },
			},
			input: rows as unknown as IDataObject[],
			store: new CredentialStore(),
			withCredential: false,
		});
		expect(validate.error).toBeUndefined();
		validated = validate.items.map((i) => i.json.validation as unknown as Validation);
		const exportEu = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'exportEu',
				exportInput: 'geometry',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				producerCountry: '={{ $json.country }}',
				pointArea: '={{ $json.ha }}',
			},
			input: rows as unknown as IDataObject[],
			store: new CredentialStore(),
			withCredential: false,
			continueOnFail: true,
		});
		expect(exportEu.error).toBeUndefined();
		exported = exportEu.items;
		expect(fake.log.count()).toBe(0);
	});

	it.each(rows.map((row, i) => [`${row.way} = ${VALUES[i % 4]} ha`, i] as const))(
		'Validate: %s',
		(_name, i) => {
			const ha = VALUES[i % 4];
			const v = validated[i];
			const { meets, codes } = expected(ha);
			expect(v.meets_4ha_rule).toBe(meets);
			expect(v.features[0]).toEqual(
				expect.objectContaining({
					area_ha: ha,
					area_from: rows[i].way === 'field' ? 'point_ha' : rows[i].way,
					meets_4ha_rule: meets,
				}),
			);
			expect(v.problems.map((p) => p.code)).toEqual(codes);
			expect(v.valid).toBe(codes.length === 0);
			if (ha === 4)
				expect(v.problems[0].message).toMatch(
					/meets the EUDR 4 ha rule .* the service takes point_ha only below 4\.0, so Plot → Register would be refused/,
				);
		},
	);

	it('Export writes Area exactly for the points that meet the rule, and refuses the others', () => {
		const files = exported.filter((i) => i.binary?.data);
		expect(files).toHaveLength(1);
		const text = Buffer.from(files[0].binary!.data.data, 'base64').toString('utf8');
		const features = (JSON.parse(text) as { features: Array<{ properties: IDataObject }> })
			.features;
		const kept = rows.flatMap((_, i) => (expected(VALUES[i % 4]).meets ? [i] : []));
		expect(features.map((f) => f.properties.Area)).toEqual(kept.map((i) => VALUES[i % 4]));
		expect(files[0].pairedItem).toEqual(kept.map((item) => ({ item })));
		const refused = exported.filter((i) => i.json.error !== undefined);
		expect(refused.map((i) => i.pairedItem)).toEqual(
			rows.flatMap((_, i) => (expected(VALUES[i % 4]).meets ? [] : [{ item: i }])),
		);
		for (const item of refused)
			expect(String(item.json.error)).toMatch(
				/Area of Points \(Hectares\)".*above the largest allowed value, 4|a plot of more than 4 ha must be given as a polygon \(EUDR/,
			);
	});

	it('Validate and Export agree at every value: Export writes a point exactly when meets_4ha_rule is true', () => {
		const written = new Set(
			exported
				.filter((i) => i.binary?.data)
				.flatMap((i) => (i.pairedItem as Array<{ item: number }>).map((p) => p.item)),
		);
		rows.forEach((_, i) => expect(written.has(i)).toBe(validated[i].meets_4ha_rule === true));
	});
});

describe('Point Area read once: a value that is not a number, worded by the one reader in Register, Validate and Export', () => {
	usePlotService();
	const READER = '"big" is not a number. Give the plot area in hectares as a number';
	const point = { type: 'Point', coordinates: [-47.882778, -15.793889] };
	const square = {
		type: 'Polygon',
		coordinates: [
			[
				[-47.882778, -15.793889],
				[-47.872778, -15.793889],
				[-47.872778, -15.783889],
				[-47.882778, -15.783889],
				[-47.882778, -15.793889],
			],
		],
	};
	const run = async (parameters: IDataObject, geojson: IDataObject) =>
		await runNode({
			parameters: {
				resource: 'plot',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				...parameters,
			},
			input: [{ geojson, country: 'BR', ha: 'big' }],
			store: new CredentialStore(),
			withCredential: false,
		});

	it('Register refuses the point, Validate reports it on the row, Export refuses the field', async () => {
		const register = await runNode({
			parameters: {
				resource: 'plot',
				operation: 'register',
				geometrySource: 'geoJson',
				geoJson: '={{ $json.geojson }}',
				plotFields: { pointHa: '={{ $json.ha }}' },
			},
			input: [{ geojson: point, ha: 'big' }],
			store,
		});
		expect(register.error?.message).toBe(
			`Item 0, feature 0: point_ha ${READER}. Or leave it empty for the default circle of about 4 ha.`,
		);
		const validate = await run(
			{ operation: 'validate', plotFields: { pointHa: '={{ $json.ha }}' } },
			point,
		);
		const validation = validate.items[0].json.validation as unknown as Validation;
		expect(validation.problems.map((p) => p.code)).toEqual(['point_ha_invalid']);
		expect(validation.problems[0].message).toContain(READER);
		const exportEu = await run(
			{
				operation: 'exportEu',
				exportInput: 'geometry',
				producerCountry: '={{ $json.country }}',
				pointArea: '={{ $json.ha }}',
			},
			point,
		);
		expect(exportEu.error?.message).toBe(
			`Item 0, field "Area of Points (Hectares)": ${READER} from 0 to 4.`,
		);
		expect(fake.log.count()).toBe(0);
	});

	it('a polygon does not use Point Area in Register and Validate (as before)', async () => {
		const validate = await run(
			{ operation: 'validate', plotFields: { pointHa: '={{ $json.ha }}' } },
			square,
		);
		expect((validate.items[0].json.validation as unknown as Validation).problems).toEqual([]);
	});
});

/**
 * Due Diligence Statement → Submit through n8n's engine against the EU fake: rows of plots
 * become one statement per Internal Reference; a lost answer is recovered and a re-run files
 * nothing more (issue 29's acceptance); pre-flight refusals name the field and send nothing:
 * among them a domestic net weight without its percentage (refused live, pack §12) and a
 * producer country that is no ISO 3166-1 alpha-2 code, by Plot Rows or in EU GeoJSON alike.
 */
import type { IDataObject } from 'n8n-workflow';

import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { euStore, jsonOf, keyLeaks, runEu } from './helpers';

const parameters = {
	operation: 'submit',
	hsHeading: '1801',
	descriptionOfGoods: 'Cocoa beans',
	netWeight: '={{ $json.kg }}',
	pointArea: '2',
};
const row = (ref: string, lon: number, over: IDataObject = {}): IDataObject => ({
	internal_reference: ref,
	country: 'CI',
	latitude: 6.812345,
	longitude: lon,
	kg: '1200',
	...over,
});

describe('Due Diligence Statement → Submit (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const filed = (ref: string) =>
		eu.fake.statements().filter((s) => s.internalReferenceNumber === ref);

	it('files one statement per Internal Reference, paired with all its rows', async () => {
		const result = await runEu({
			parameters,
			input: [
				row('SUB-A-001', -5.212345),
				row('SUB-B-001', -5.312345),
				row('SUB-A-001', -5.412345),
			],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => [j.internalReferenceNumber, j.status, j.filedBy])).toEqual([
			['SUB-A-001', 'SUBMITTED', 'this run'],
			['SUB-B-001', 'SUBMITTED', 'this run'],
		]);
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(filed('SUB-A-001')).toHaveLength(1);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});

	it('recovers a lost answer, and a re-run gives ONE statement on the fake', async () => {
		eu.fake.faults.loseAnswers('submitDds', 1);
		const first = await runEu({ parameters, input: [row('SUB-LOST-1', -5.5)], store: store() });
		expect(jsonOf(first)).toEqual([expect.objectContaining({ filedBy: 'this run, answer lost' })]);
		const again = await runEu({ parameters, input: [row('SUB-LOST-1', -5.5)], store: store() });
		expect(jsonOf(again)).toEqual([
			expect.objectContaining({ uuid: jsonOf(first)[0].uuid, filedBy: 'before this run' }),
		]);
		expect(filed('SUB-LOST-1')).toHaveLength(1);
	});

	it('refuses an HS heading that does not match the commodity, and a missing net weight for an import, before any request', async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: { ...parameters, hsHeading: '={{ $json.hs }}' },
			input: [
				row('SUB-BAD-1', -5.6, { hs: '0901' }),
				row('SUB-BAD-2', -5.7, { hs: '1801', kg: '' }),
			],
			store: store(),
		});
		expect(result.error).toBeDefined();
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).toMatch(/HS Heading/);
		expect(text).toMatch(/Net Weight/);
		expect(eu.fake.requests().length).toBe(before);
	});

	it("the same refusal with Continue On Fail (through the shared runner): error items for the refused statement's rows, the other statement filed", async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: { ...parameters, hsHeading: '={{ $json.hs }}' },
			input: [
				row('SUB-COF-1', -5.61, { hs: '0901' }),
				row('SUB-COF-2', -5.62, { hs: '1801' }),
				row('SUB-COF-1', -5.63, { hs: '0901' }),
			],
			store: store(),
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const out = jsonOf(result);
		expect(out).toHaveLength(3);
		for (const at of [0, 2]) {
			expect(String(out[at].error)).toMatch(
				/^Statement "SUB-COF-1" \(items 0, 2\), field "Commodity 1 › HS Heading": 0901 is not an HS heading of cocoa/,
			);
			expect(out[at].description).toBe(
				'Nothing was sent for this statement. Fix the input and run again.',
			);
			expect(result.items[at].pairedItem).toEqual({ item: at });
		}
		expect(out[1]).toEqual(
			expect.objectContaining({ internalReference: 'SUB-COF-2', filedBy: 'this run' }),
		);
		expect(filed('SUB-COF-1')).toHaveLength(0);
		expect(filed('SUB-COF-2')).toHaveLength(1);
		// the good statement's lookup and submission only
		expect(
			eu.fake
				.requests()
				.slice(before)
				.map((r) => r.operation),
		).not.toContain(undefined);
	});

	it('a domestic net weight without its percentage (refused live, pack §12) is refused before sending, naming the item, the field and what to fill in; with it, filed', async () => {
		const before = eu.fake.requests().length;
		const domestic = { ...parameters, activityType: 'DOMESTIC', countryOfActivity: 'FR' };
		const result = await runEu({
			parameters: domestic,
			input: [row('SUB-DOM-1', -5.8)],
			store: store(),
		});
		expect(result.error?.message).toBe(
			'Statement "SUB-DOM-1" (item 0), field "Commodity 1 › Percentage Estimate or Deviation": a domestic statement\'s net weight (1200 kg) needs its percentage estimate or deviation: fill in Percentage Estimate or Deviation (under Additional Fields; Statement Options in version 1 of the node) with how far the weight may be off, from 0 to 25 (0 when it is exact), or state the quantity as a supplementary unit instead of a net weight.',
		);
		expect(result.error?.description).toMatch(/^Nothing was sent to the EU Information System\./);
		expect(eu.fake.requests().length).toBe(before);
		const filedNow = await runEu({
			parameters: { ...domestic, statementOptions: { percentageEstimate: '0' } },
			input: [row('SUB-DOM-1', -5.8)],
			store: store(),
		});
		expect(filedNow.error).toBeUndefined();
		expect(filed('SUB-DOM-1')).toEqual([expect.objectContaining({ activityType: 'DOMESTIC' })]);
	});
});

describe('Due Diligence Statement → Submit: one producer-country check for both geolocation sources (EU fake)', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());
	const store = () => euStore(eu.fake.url, eu.fake.users[0]);
	const feature = (country: unknown, lon: number) => ({
		type: 'Feature',
		properties: { ProducerName: 'Coop A', ProducerCountry: country },
		geometry: {
			type: 'Polygon',
			coordinates: [
				[
					[lon, 6.5],
					[lon + 0.003, 6.5],
					[lon + 0.003, 6.503],
					[lon, 6.503],
					[lon, 6.5],
				],
			],
		},
	});
	const geoJsonParameters = {
		...parameters,
		internalReference: '={{ $json.internal_reference }}',
		geolocationSource: 'euGeoJson',
		euGeoJson: '={{ $json.fc }}',
	};
	const fc = (...features: unknown[]) => ({ type: 'FeatureCollection', features });

	it('EU GeoJSON: two capital letters that are no ISO code, a name, small letters are refused before sending, as in Plot Rows', async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: geoJsonParameters,
			input: [
				{ internal_reference: 'GEO-C-1', kg: '1200', fc: fc(feature('ZZ', -5.3)) },
				{ internal_reference: 'GEO-C-2', kg: '1200', fc: fc(feature('Brazil', -5.31)) },
				{ internal_reference: 'GEO-C-3', kg: '1200', fc: fc(feature('ci', -5.32)) },
			],
			store: store(),
		});
		const text = `${result.error?.message}\n${result.error?.description}`;
		expect(text).toContain(
			'Item 0, EU GeoJSON feature 0, ProducerCountry: "ZZ" is not an ISO 3166-1 alpha-2 country code (two capital letters, e.g. CI or BR).',
		);
		expect(text).toContain(
			'Item 1, EU GeoJSON feature 0, ProducerCountry: "Brazil" is not written as an ISO 3166-1 alpha-2 code: write BR.',
		);
		expect(text).toContain(
			'Item 2, EU GeoJSON feature 0, ProducerCountry: "ci" is not written as an ISO 3166-1 alpha-2 code: write CI.',
		);
		expect(eu.fake.requests().length).toBe(before);
		// Plot Rows: the same country refused by the same reading (ISO 3166-1)
		const rows = await runEu({
			parameters,
			input: [row('GEO-C-4', -5.33, { country: 'ZZ' })],
			store: store(),
		});
		expect(rows.error?.message).toMatch(
			/Producer Country.*"ZZ" is not a country name or an ISO 3166-1 code/,
		);
		expect(eu.fake.requests().length).toBe(before);
	});

	it('EU GeoJSON with an ISO code is filed', async () => {
		const result = await runEu({
			parameters: geoJsonParameters,
			input: [{ internal_reference: 'GEO-C-5', kg: '1200', fc: fc(feature('CI', -5.34)) }],
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([expect.objectContaining({ status: 'SUBMITTED' })]);
	});
});

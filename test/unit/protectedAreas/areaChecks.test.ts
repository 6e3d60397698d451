import type { CheckEntry } from '../../../nodes/shared/protectedAreas/areaChecks';
import { readIdList } from '../../../nodes/shared/input';

/** Plot ids as Protected Area → Check reads them (the input layer's id reader). */
function readPlotIds(value: unknown): { ids: string[]; problem?: string } {
	const read = readIdList(value, 'plot');
	if (read.kind === 'invalid') return { ids: [], problem: read.reason };
	return { ids: read.kind === 'value' ? read.value : [] };
}
import {
	checkRequestBody,
	matchCheckResults,
	mergeCheckAnswers,
	missingCheckRow,
	packCheckEntries,
	pairCheckResults,
	strictestLegality,
	summariseCheck,
} from '../../../nodes/shared/protectedAreas/areaChecks';

const plot = (itemIndex: number, plotId: string, indexInItem = 0): CheckEntry => ({
	itemIndex,
	kind: 'plot',
	plotId,
	indexInItem,
});
const geo = (itemIndex: number, indexInItem = 0): CheckEntry => ({
	itemIndex,
	kind: 'geojson',
	feature: {
		type: 'Feature',
		properties: {},
		geometry: { type: 'Point', coordinates: [itemIndex, indexInItem] },
	},
	indexInItem,
});

describe('readPlotIds', () => {
	it.each([
		['100001', ['100001']],
		['100001, 100002;100003\n100004', ['100001', '100002', '100003', '100004']],
		[100001, ['100001']],
		[
			['100001', 100002],
			['100001', '100002'],
		],
		[
			[{ plot_id: '7' }, { plot_id: 8 }],
			['7', '8'],
		],
		['["1","2"]', ['1', '2']],
		['', []],
		[null, []],
	])('reads %p', (input, ids) => {
		expect(readPlotIds(input)).toEqual({ ids });
	});

	it('rejects values that cannot be ids', () => {
		expect(readPlotIds('plots/1').problem).toMatch(/"plots\/1" is not a plot id/);
		expect(readPlotIds([{}]).problem).toMatch(/object, not text/);
	});
});

describe('packing and request bodies', () => {
	it('packs entries in order into chunks of at most the batch size (never above 100)', () => {
		const entries = Array.from({ length: 250 }, (_, i) => geo(i));
		expect(packCheckEntries(entries).map((c) => c.length)).toEqual([100, 100, 50]);
		expect(packCheckEntries(entries, 1000).map((c) => c.length)).toEqual([100, 100, 50]);
		expect(packCheckEntries(entries, 60).map((c) => c.length)).toEqual([60, 60, 60, 60, 10]);
	});

	it('puts plot ids under plot_ids and geometries in one FeatureCollection', () => {
		expect(checkRequestBody([plot(0, '1'), geo(0), plot(1, '2')])).toEqual({
			plot_ids: ['1', '2'],
			geojson: {
				type: 'FeatureCollection',
				features: [geo(0).kind === 'geojson' ? (geo(0) as { feature: unknown }).feature : null],
			},
		});
		expect(checkRequestBody([plot(0, '1')])).toEqual({ plot_ids: ['1'] });
	});
});

describe('matchCheckResults', () => {
	const chunk = [geo(0), plot(1, '11'), geo(2), plot(3, '13')];

	it('pairs by input_type, plot_id and geojson_index (service order: plots first)', () => {
		const answer = {
			type: 'FeatureCollection',
			features: [
				{ properties: { input_index: 0, input_type: 'plot', plot_id: '11' } },
				{ properties: { input_index: 1, input_type: 'plot', plot_id: '13' } },
				{ properties: { input_index: 2, input_type: 'geojson', geojson_index: 0 } },
				{ properties: { input_index: 3, input_type: 'geojson', geojson_index: 1 } },
			],
		};
		const matched = matchCheckResults(chunk, answer).map((f) => f?.properties);
		expect(matched).toEqual(
			[answer.features[2], answer.features[0], answer.features[3], answer.features[1]].map(
				(f) => f.properties,
			),
		);
	});

	it('falls back to input_index, then to position', () => {
		const answer = {
			features: [
				{ properties: { input_index: 1 } },
				{ properties: { input_index: 0 } },
				{ properties: {} },
				{ properties: {} },
			],
		};
		const matched = matchCheckResults(chunk, answer);
		// ordered = [plot 11, plot 13, geo 0, geo 2]
		expect(matched[1]).toBe(answer.features[1]); // plot 11 ← input_index 0
		expect(matched[3]).toBe(answer.features[0]); // plot 13 ← input_index 1
		expect(matched[0]).toBe(answer.features[2]);
		expect(matched[2]).toBe(answer.features[3]);
	});

	it("pairs a plot only with a result naming its id: another plot's result is no one's", () => {
		const pairing = pairCheckResults([plot(0, '100001'), plot(1, '200002')], {
			features: [
				{ properties: { input_index: 0, input_type: 'plot', plot_id: '200002' } },
				{ properties: { input_index: 1, input_type: 'plot', plot_id: 999999 } },
			],
		});
		expect(pairing.results.map((f) => (f === null ? null : f.properties))).toEqual([
			null,
			{ input_index: 0, input_type: 'plot', plot_id: '200002' },
		]);
		expect(pairing.unrequested.map((f) => (f.properties as { plot_id: unknown }).plot_id)).toEqual([
			999999,
		]);
		expect(missingCheckRow(plot(0, '100001'))).toMatchObject({
			plot_id: '100001',
			protected_area_overlap: null,
			protected_area_overlap_reason: 'not in the answer',
			overlapping_area_count: null,
		});
	});

	it("a geometry index beyond the request is no one's; a geometry without a result is null", () => {
		const pairing = pairCheckResults([geo(0), geo(1)], {
			features: [
				{ properties: { input_type: 'geojson', geojson_index: 1 } },
				{ properties: { input_type: 'geojson', geojson_index: 7 } },
			],
		});
		expect(pairing.results[0]).toBeNull();
		expect(pairing.results[1]?.properties).toEqual({ input_type: 'geojson', geojson_index: 1 });
		expect(pairing.unrequested).toHaveLength(1);
	});

	it('one result serves a plot asked for twice', () => {
		const pairing = pairCheckResults([plot(0, '5'), plot(1, '5')], {
			features: [{ properties: { input_type: 'plot', plot_id: '5' } }],
		});
		expect(pairing.results[0]).toBe(pairing.results[1]);
		expect(pairing.results[0]).not.toBeNull();
	});

	it('refuses to pair when the counts differ', () => {
		expect(() => matchCheckResults(chunk, { features: [{ properties: {} }] })).toThrow(
			/1 results for 4 checked/,
		);
	});
});

describe('summariseCheck', () => {
	it('gives the overlap summary and the overlapping areas, passing unknown properties through', () => {
		const row = summariseCheck(
			{
				properties: {
					input_type: 'plot',
					plot_id: '11',
					plot_name: 'North',
					area_ha: 12.5,
					protected_area_overlap_summary: {
						protected_area_overlap: true,
						total_overlap_percentage: 40,
						total_overlap_area_ha: 5,
						most_restrictive_extractive_activity_legality: 'prohibited',
					},
					protected_area_details: [
						{
							area_id: '59',
							iucn_category: 'II',
							overlap_area_ha: '5',
							extractive_activity_legality: 'prohibited',
							regulation_urls: ['https://x'],
							designation: 'x',
						},
					],
					new_field: 1,
				},
			},
			plot(0, '11'),
		);
		expect(row).toMatchObject({
			input_type: 'plot',
			plot_id: '11',
			plot_name: 'North',
			area_ha: 12.5,
			protected_area_overlap: true,
			total_overlap_percentage: 40,
			total_overlap_area_ha: 5,
			most_restrictive_extractive_activity_legality: 'prohibited',
			overlapping_area_count: 1,
			new_field: 1,
		});
		expect((row.overlapping_areas as Array<Record<string, unknown>>)[0]).toMatchObject({
			area_id: '59',
			iucn_category: 'II',
			overlap_area_ha: 5,
			regulation_urls: ['https://x'],
			regulation_names: [],
			extractive_activity_conditions: null,
			designation: 'x',
		});
	});

	it('derives overlap and strictest legality when the summary is missing', () => {
		const row = summariseCheck(
			{
				properties: {
					protected_area_details: [
						{ extractive_activity_legality: 'permitted' },
						{ extractive_activity_legality: 'limited' },
					],
				},
			},
			geo(0, 3),
		);
		expect(row).toMatchObject({
			input_type: 'geometry',
			plot_id: null,
			input_feature_index: 3,
			protected_area_overlap: true,
			most_restrictive_extractive_activity_legality: 'limited',
		});
		// Unknown is never "no": without a summary and without a list, nothing says "no overlap".
		const none = summariseCheck({ properties: {} }, geo(0));
		expect(none).toMatchObject({
			protected_area_overlap: null,
			protected_area_overlap_reason: 'not reported: the service sent no overlap summary',
			total_overlap_percentage: null,
			total_overlap_area_ha: null,
			overlapping_area_count: null,
		});
	});

	it('orders legality prohibited > limited > unknown > permitted', () => {
		expect(
			strictestLegality([
				{ extractive_activity_legality: 'permitted' },
				{ extractive_activity_legality: 'unknown' },
			]),
		).toBe('unknown');
		expect(
			strictestLegality([
				{ extractive_activity_legality: 'limited' },
				{ extractive_activity_legality: 'prohibited' },
			]),
		).toBe('prohibited');
		expect(strictestLegality([])).toBeNull();
	});
});

describe('mergeCheckAnswers', () => {
	it('returns a single answer as it is and merges several into one FeatureCollection', () => {
		const a = {
			type: 'FeatureCollection',
			features: [{ id: 1 }],
			sources: ['s'],
			metadata: { checked: 1 },
		};
		const b = {
			type: 'FeatureCollection',
			features: [{ id: 2 }],
			sources: ['s'],
			metadata: { checked: 1 },
		};
		expect(mergeCheckAnswers([a])).toBe(a);
		expect(mergeCheckAnswers([a, b])).toEqual({
			type: 'FeatureCollection',
			features: [{ id: 1 }, { id: 2 }],
			sources: ['s'],
			metadata: [{ checked: 1 }, { checked: 1 }],
		});
	});
});

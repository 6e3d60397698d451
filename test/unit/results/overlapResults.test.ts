import type { CheckEntry } from '../../../nodes/shared/protectedAreas/areaChecks';
import { summariseCheck } from '../../../nodes/shared/protectedAreas/areaChecks';
import { OVERLAP_REASONS, readOverlap } from '../../../nodes/shared/results/overlapResults';

/** The metrics of one protected-area result, in each form the service may send. */
const metrics = {
	protected_area_overlap: true,
	total_overlap_percentage: 40,
	total_overlap_area_ha: 5,
	most_restrictive_extractive_activity_legality: 'prohibited',
};
const details = [{ area_id: '59', area_name: 'Parque X', extractive_activity_legality: 'limited' }];
const nested = { protected_area_overlap_summary: metrics, protected_area_details: details };
const flat = { ...metrics, protected_area_details: details };

const plotEntry: CheckEntry = { itemIndex: 0, kind: 'plot', plotId: '11', indexInItem: 0 };

describe('readOverlap: every plausible shape', () => {
	it('reads the metrics nested under the summary and flat on the object alike', () => {
		for (const form of [nested, flat]) {
			expect(readOverlap(form, 'protected_area')).toEqual({
				overlap: true,
				reason: null,
				percentage: 40,
				areaHa: 5,
				legality: 'prohibited',
				details,
				failure: null,
			});
		}
	});

	it('prefers the nested value field by field and falls back to the flat one', () => {
		const mixed = {
			protected_area_overlap_summary: { protected_area_overlap: true },
			total_overlap_percentage: '12.5',
			total_overlap_area_ha: 1,
			protected_area_overlap: false,
		};
		expect(readOverlap(mixed, 'protected_area')).toMatchObject({
			overlap: true,
			percentage: 12.5,
			areaHa: 1,
		});
	});

	it('reads Indigenous land the same way (nested and flat)', () => {
		const summary = {
			indigenous_land_overlap: false,
			total_overlap_percentage: 0,
			total_overlap_area_ha: 0,
		};
		for (const form of [
			{ indigenous_land_overlap_summary: summary, indigenous_land_details: [] },
			{ ...summary, indigenous_land_details: [] },
		]) {
			expect(readOverlap(form, 'indigenous_land')).toMatchObject({
				overlap: false,
				reason: null,
				percentage: 0,
				areaHa: 0,
				legality: null,
			});
		}
	});

	it('is null with a reason when the service did not say (never false, never 0)', () => {
		for (const absent of [{}, { protected_area_details: [] }, { sources: [] }]) {
			const r = readOverlap(absent, 'protected_area');
			expect(r.overlap).toBeNull();
			expect(r.reason).toBe(OVERLAP_REASONS.notReported);
			expect(r.percentage).toBeNull();
			expect(r.areaHa).toBeNull();
		}
		const missing = readOverlap(undefined, 'protected_area');
		expect(missing).toMatchObject({ overlap: null, reason: 'not checked', percentage: null });
	});

	it('gives 0 only when the service said there is no overlap', () => {
		expect(readOverlap({ protected_area_overlap: false }, 'protected_area')).toMatchObject({
			overlap: false,
			percentage: 0,
			areaHa: 0,
		});
		expect(readOverlap({ protected_area_overlap: 'false' }, 'protected_area').percentage).toBe(0);
		// figures of 0 are the service's own "no overlap"; a figure above 0 says there is one
		expect(
			readOverlap({ total_overlap_percentage: 0, total_overlap_area_ha: 0 }, 'protected_area')
				.overlap,
		).toBe(false);
		expect(readOverlap({ total_overlap_area_ha: 0.4 }, 'protected_area')).toMatchObject({
			overlap: true,
			percentage: null,
			areaHa: 0.4,
		});
	});

	it('says there is an overlap, without inventing figures, when only the areas are listed', () => {
		expect(readOverlap({ protected_area_details: details }, 'protected_area')).toMatchObject({
			overlap: true,
			reason: null,
			percentage: null,
			areaHa: null,
			legality: null,
		});
	});

	it('reads a result marked failed as failed, not as "no overlap"', () => {
		const byStatus = readOverlap(
			{ status: 'failed', error: 'geometry outside coverage', protected_area_details: [] },
			'protected_area',
		);
		expect(byStatus).toMatchObject({
			overlap: null,
			reason: 'failed: geometry outside coverage',
			percentage: null,
			areaHa: null,
			failure: 'geometry outside coverage',
		});
		expect(readOverlap({ error: { message: 'timeout' } }, 'protected_area').reason).toBe(
			'failed: timeout',
		);
		expect(readOverlap({ status: 'ERROR' }, 'protected_area').reason).toMatch(
			/^failed: the service marked this result failed/,
		);
		// an error next to real metrics does not hide them
		expect(readOverlap({ ...flat, error: 'partial' }, 'protected_area').overlap).toBe(true);
	});
});

describe('summariseCheck: flat, nested, absent and failed results', () => {
	it('keeps the percentage and hectares when they come flat on the properties', () => {
		const row = summariseCheck({ properties: { plot_id: '11', ...flat } }, plotEntry);
		expect(row).toMatchObject({
			protected_area_overlap: true,
			protected_area_overlap_reason: null,
			total_overlap_percentage: 40,
			total_overlap_area_ha: 5,
			most_restrictive_extractive_activity_legality: 'prohibited',
			overlapping_area_count: 1,
		});
		expect(row).toEqual(summariseCheck({ properties: { plot_id: '11', ...nested } }, plotEntry));
	});

	it('a failed result is null with the reason, its fields passed through', () => {
		const row = summariseCheck(
			{ properties: { plot_id: '11', status: 'failed', error: 'no coverage', extra: 1 } },
			plotEntry,
		);
		expect(row).toMatchObject({
			protected_area_overlap: null,
			protected_area_overlap_reason: 'failed: no coverage',
			total_overlap_percentage: null,
			total_overlap_area_ha: null,
			most_restrictive_extractive_activity_legality: null,
			overlapping_area_count: null,
			overlapping_areas: [],
			status: 'failed',
			error: 'no coverage',
			extra: 1,
		});
	});

	it('no summary: overlap derived from the listed areas, figures null (not 0)', () => {
		const row = summariseCheck(
			{ properties: { protected_area_details: details, protected_area_overlap_summary: null } },
			plotEntry,
		);
		expect(row).toMatchObject({
			protected_area_overlap: true,
			protected_area_overlap_reason: null,
			total_overlap_percentage: null,
			total_overlap_area_ha: null,
			most_restrictive_extractive_activity_legality: 'limited',
			overlapping_area_count: 1,
		});
		const empty = summariseCheck({ properties: { protected_area_details: [] } }, plotEntry);
		expect(empty).toMatchObject({
			protected_area_overlap: null,
			protected_area_overlap_reason: 'not reported: the service sent no overlap summary',
			total_overlap_percentage: null,
			overlapping_area_count: 0,
		});
	});

	it('"no overlap, 0 %" when, and only when, the service said so', () => {
		const row = summariseCheck(
			{ properties: { protected_area_overlap_summary: { protected_area_overlap: false } } },
			plotEntry,
		);
		expect(row).toMatchObject({
			protected_area_overlap: false,
			protected_area_overlap_reason: null,
			total_overlap_percentage: 0,
			total_overlap_area_ha: 0,
			overlapping_area_count: 0,
		});
	});
});

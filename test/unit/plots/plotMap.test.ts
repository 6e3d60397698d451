/**
 * Plot → Draw Map's domain (nodes/shared/plots/plotMap.ts): the risk rule (unknown is never
 * negligible), the label, Validate's own answer before the map's check, Get's flat row at its
 * centre.
 */
import { checkItemGeometry } from '../../../nodes/shared/plots/geometrySource';
import {
	plotLabel,
	planMap,
	riskOutcome,
	withCentreFallback,
} from '../../../nodes/shared/plots/plotMap';
import { validateRows } from '../../../nodes/shared/plots/plotValidation';

const negligible = {
	risk_level: 'Low',
	deforestation_free: true,
	protected_area_overlap: false,
	indigenous_land_overlap: false,
};

describe('the risk rule', () => {
	it('negligible only when all four say so', () => {
		expect(riskOutcome(negligible).outcome).toBe('negligible');
		expect(riskOutcome({ ...negligible, risk_level: 'low' }).outcome).toBe('negligible');
	});

	it.each([
		[{ risk_level: 'High' }, 'risk level High'],
		[{ risk_level: 'Medium' }, 'risk level Medium'],
		[{ deforestation_free: false }, 'deforestation after 31 Dec 2020'],
		[{ protected_area_overlap: true }, 'overlaps a protected area'],
		[{ indigenous_land_overlap: true }, 'overlaps Indigenous land'],
	])('%j: not negligible, saying why', (change, why) => {
		const r = riskOutcome({ ...negligible, ...change });
		expect(r.outcome).toBe('risk');
		expect(r.note).toContain(why);
	});

	it.each([
		[{ risk_level: null }],
		[{ deforestation_free: null }],
		[{ protected_area_overlap: null }],
		[{ indigenous_land_overlap: undefined }],
	])('%j: unknown, never negligible', (change) => {
		const r = riskOutcome({ ...negligible, ...change });
		expect(r.outcome).toBe('unknown');
		expect(r.note).toMatch(/^not known: /);
	});

	it('a plot with its analysis (Plot → Get, Simplify off) reads as its flat row', () => {
		const plot = {
			plot_id: '1',
			status: 'analysed',
			analysis: {
				risk_level: 'High',
				eudr: { deforestation_free: false },
			},
		};
		expect(riskOutcome(plot).outcome).toBe('risk');
		expect(riskOutcome({ plot_id: '2' }).outcome).toBe('unknown');
	});
});

describe('labels and plans', () => {
	it('the Label Field, else plot_name, name, properties.Name, plot_id, else "Item N"', () => {
		expect(plotLabel({ plot_name: 'A', name: 'B' }, 0)).toBe('A');
		expect(plotLabel({ properties: { Name: 'Fazenda' } }, 0)).toBe('Fazenda');
		expect(plotLabel({ plot_id: 100001 }, 0)).toBe('100001');
		expect(plotLabel({ ref: 'R-7', plot_name: 'A' }, 0, 'ref')).toBe('R-7');
		expect(plotLabel({ properties: { ref: 'P-1' } }, 0, 'ref')).toBe('P-1');
		expect(plotLabel({}, 4)).toBe('Item 4');
	});

	const square = (lon: number) => ({
		type: 'Polygon',
		coordinates: [
			[
				[lon, -15.8],
				[lon + 0.01, -15.8],
				[lon + 0.01, -15.79],
				[lon, -15.79],
				[lon, -15.8],
			],
		],
	});
	const row = (i: number, json: Record<string, unknown>) => ({
		itemIndex: i,
		json,
		row: {
			row: i,
			geometry: checkItemGeometry('item', { item: json }, { serviceLimits: false }),
			fieldProblems: [],
		},
	});

	it("Validate's own answer colours the plot; the map's check finds the overlap", () => {
		const items = [
			row(0, {
				geojson: square(-47.9),
				valid: false,
				problem_count: 1,
				problem_summary: 'from Validate',
			}),
			row(1, { geojson: square(-47.895) }),
		];
		const { reports } = validateRows(
			items.map((i) => i.row),
			{ repair: false, overlaps: true },
		);
		const plan = planMap(items, reports, 'validity');
		expect(plan.plots.map((p) => p.outcome)).toEqual(['invalid', 'problem']);
		expect(plan.plots.map((p) => p.overlaps)).toEqual([true, true]);
		expect(plan.plots[0].note).toBe('from Validate');
	});

	it("Get's flat row (lat, lon, no geometry) is drawn at its centre, and says so", () => {
		const json = { plot_id: '1', lat: -7.999, lon: -54.999, ...negligible };
		const checked = checkItemGeometry('item', { item: json }, {});
		expect(checked.kind).toBe('unreadable');
		const fallback = withCentreFallback(json, checked, {});
		expect(fallback.centreOnly).toBe(true);
		const item = {
			itemIndex: 0,
			json,
			row: { row: 0, geometry: fallback.checked, fieldProblems: [] },
			centreOnly: true,
		};
		const { reports } = validateRows([item.row], { repair: false, overlaps: false });
		const plan = planMap([item], reports, 'risk');
		expect(plan.plots[0].outcome).toBe('negligible');
		expect(plan.plots[0].note).toContain('center only');
		// not a flat row: no fallback
		expect(withCentreFallback({ lat: '1', lon: 2 }, checked, {}).centreOnly).toBe(false);
	});

	it('coordinates that are not degrees: listed as not drawn, with the problem', () => {
		const json = { geojson: { type: 'Point', coordinates: [500000, 8200000] } };
		const items = [row(0, json)];
		const { reports } = validateRows(
			items.map((i) => i.row),
			{ repair: false, overlaps: false },
		);
		const plan = planMap(items, reports, 'validity');
		expect(plan.plots).toEqual([]);
		expect(plan.notDrawn[0].item).toBe(0);
		expect(plan.notDrawn[0].reason.length).toBeGreaterThan(10);
	});
});

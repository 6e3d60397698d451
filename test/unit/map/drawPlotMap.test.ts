/**
 * The map drawing (nodes/shared/map): projection, simplification for drawing only, colours
 * per outcome, caps on plots, vertices and bytes, and hostile input. Behaviour only: times
 * and sizes at scale are measured in `npm run bench` (BENCHMARKS.md, "Map picture").
 */
import type { MapPlot } from '../../../nodes/shared/map';
import { drawPlotMap, layoutPlotMap, OUTCOME_COLOURS } from '../../../nodes/shared/map';
import {
	formatDegrees,
	formatMetres,
	niceStep,
	niceStepAtLeast,
} from '../../../nodes/shared/map/furniture';
import { Extent, fitProjection, METRES_PER_DEGREE } from '../../../nodes/shared/map/project';
import { simplifyRing } from '../../../nodes/shared/map/simplify';
import { star } from '../../helpers/star';

type Ring = number[][];
const square = (lon: number, lat: number, d: number): Ring => [
	[lon, lat],
	[lon + d, lat],
	[lon + d, lat + d],
	[lon, lat + d],
	[lon, lat],
];
const polygon = (ring: Ring) => ({ type: 'Polygon', coordinates: [ring] });
/** A circle of n vertices (closed), radius in degrees. */
function circle(n: number, lon = -47.88, lat = -15.79, radius = 0.01): Ring {
	const ring: Ring = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * i) / n;
		ring.push([lon + radius * Math.cos(a), lat + radius * Math.sin(a)]);
	}
	ring.push([...ring[0]]);
	return ring;
}
/** A grid of `count` small squares (about 100 m) around Brasília. */
function grid(count: number, outcome = 'valid'): MapPlot[] {
	const side = Math.ceil(Math.sqrt(count));
	return Array.from({ length: count }, (_, i) => ({
		geometry: polygon(
			square(-47.9 + (i % side) * 0.002, -15.8 + Math.floor(i / side) * 0.002, 0.001),
		),
		label: `Plot ${i + 1}`,
		outcome,
	}));
}
const frame = { x: 0, y: 0, w: 800, h: 600 };

describe('projection: equirectangular at the centre latitude, fitted to the frame', () => {
	it('a square of 1 km by 1 km at 60°N is drawn square, and the scale says 1 km across it', () => {
		const dLat = 1000 / METRES_PER_DEGREE;
		const dLon = dLat / Math.cos((60 * Math.PI) / 180);
		const e = new Extent();
		e.add(10, 60);
		e.add(10 + dLon, 60 + dLat);
		const p = fitProjection(e, frame, 0);
		const w = p.x(10 + dLon) - p.x(10);
		const h = p.y(60) - p.y(60 + dLat);
		expect(w / h).toBeCloseTo(1, 2);
		expect(h * p.metresPerPixel).toBeCloseTo(1000, 0);
		expect(p.y(60 + dLat)).toBeLessThan(p.y(60)); // north is up
	});

	it('one point is shown with an extent of about 1 km, inside the frame', () => {
		const e = new Extent();
		e.add(-47.9, -15.8);
		const p = fitProjection(e, frame);
		expect(p.x(-47.9)).toBeCloseTo(400, 6);
		expect(p.y(-15.8)).toBeCloseTo(300, 6);
		expect(p.bounds.north - p.bounds.south).toBeGreaterThanOrEqual(0.01);
	});

	it('the whole globe stays within ±180 / ±90', () => {
		const e = new Extent();
		e.add(-180, -90);
		e.add(180, 90);
		const p = fitProjection(e, frame);
		expect(p.bounds.west).toBeGreaterThanOrEqual(-180);
		expect(p.bounds.east).toBeLessThanOrEqual(180);
		expect(p.bounds.south).toBeGreaterThanOrEqual(-90);
		expect(p.bounds.north).toBeLessThanOrEqual(90);
		expect(Number.isFinite(p.x(0)) && Number.isFinite(p.y(0))).toBe(true);
	});

	it('round steps, degrees and distances read as people write them', () => {
		expect([niceStep(0.0047), niceStep(7), niceStep(0.3)]).toEqual([0.002, 5, 0.2]);
		expect([niceStepAtLeast(0.0047), niceStepAtLeast(7), niceStepAtLeast(2)]).toEqual([
			0.005, 10, 2,
		]);
		expect(formatDegrees(-47.9, 0.01, 'lon')).toBe('47.90°W');
		expect(formatDegrees(-15.79, 0.001, 'lat')).toBe('15.790°S');
		expect(formatDegrees(0, 1, 'lat')).toBe('0°');
		expect(formatDegrees(12, 2, 'lon')).toBe('12°E');
		expect([formatMetres(500), formatMetres(2000)]).toEqual(['500 m', '2 km']);
	});
});

describe('simplification: for drawing only, linear, within its bounds', () => {
	const e = new Extent();
	e.add(-47.89, -15.8);
	e.add(-47.87, -15.78);
	const p = fitProjection(e, frame);

	it('a 100,000-vertex circle keeps at most one vertex per pixel of its outline, and its shape', () => {
		const ring = circle(100_000);
		const counts = { read: 0, rejected: 0 };
		const px = simplifyRing(ring, p, 0.75, 1_000_000, counts);
		// In pixels the circle of degrees is an ellipse (longitude scaled by cos(latitude)).
		const rx = p.x(-47.87) - p.x(-47.88);
		const ry = p.y(-15.79) - p.y(-15.78);
		const perimeter = 2 * Math.PI * Math.max(rx, ry);
		expect(counts).toEqual({ read: 100_001, rejected: 0 });
		expect(px.length / 2).toBeLessThanOrEqual(Math.ceil(perimeter / 0.75) + 1);
		expect(px.length / 2).toBeGreaterThan(perimeter / 4);
		for (let i = 0; i < px.length; i += 2) {
			const r = Math.hypot((px[i] - p.x(-47.88)) / rx, (px[i + 1] - p.y(-15.79)) / ry);
			expect(Math.abs(r - 1) * Math.min(rx, ry)).toBeLessThan(1);
		}
	});

	it('no two kept vertices closer than minPixels, the closing vertex dropped', () => {
		const px = simplifyRing(circle(5000), p, 2, 1_000_000, { read: 0, rejected: 0 });
		for (let i = 2; i < px.length; i += 2)
			expect(Math.hypot(px[i] - px[i - 2], px[i + 1] - px[i - 1])).toBeGreaterThanOrEqual(2);
		expect(Math.hypot(px[0] - px[px.length - 2], px[1] - px[px.length - 1])).toBeGreaterThanOrEqual(
			2,
		);
	});

	it('a ring over its budget keeps every n-th vertex: never more than the budget', () => {
		const px = simplifyRing(star(100_000), p, 0, 1000, { read: 0, rejected: 0 });
		expect(px.length / 2).toBeLessThanOrEqual(1000);
		expect(px.length / 2).toBeGreaterThan(900);
	});

	it('the data is never changed', () => {
		const plots = [{ geometry: polygon(circle(10_000)), label: 'a', outcome: 'valid' }];
		const before = JSON.stringify(plots);
		drawPlotMap(plots);
		expect(JSON.stringify(plots)).toBe(before);
	});
});

describe('colours and marks per outcome', () => {
	it('each outcome its own colour in the outline and the legend; an unknown word reads as "unknown"', () => {
		const outcomes = ['valid', 'problem', 'invalid', 'negligible', 'risk', 'unknown'];
		const plots = outcomes.map((outcome, i) => ({
			geometry: polygon(square(-47.9 + i * 0.01, -15.8, 0.005)),
			label: outcome,
			outcome,
		}));
		const map = drawPlotMap(plots);
		for (const o of ['valid', 'problem', 'invalid', 'unknown'] as const)
			expect(map.svg).toContain(`stroke="${OUTCOME_COLOURS[o]}"`);
		expect(map.outcomes).toEqual({
			valid: 1,
			problem: 1,
			invalid: 1,
			negligible: 1,
			risk: 1,
			unknown: 1,
		});
		expect(map.svg).toContain('Not negligible: needs mitigation (1)');
		expect(drawPlotMap([{ geometry: plots[0].geometry, outcome: 'excellent' }]).outcomes).toEqual({
			unknown: 1,
		});
	});

	it('the plots that need a look are drawn on top (after the valid ones)', () => {
		const map = drawPlotMap([
			{ geometry: polygon(square(-47.9, -15.8, 0.01)), outcome: 'invalid' },
			{ geometry: polygon(square(-47.895, -15.795, 0.01)), outcome: 'valid' },
		]);
		expect(map.svg.indexOf(`stroke="${OUTCOME_COLOURS.valid}" stroke-width="1.4"`)).toBeLessThan(
			map.svg.indexOf(`stroke="${OUTCOME_COLOURS.invalid}" stroke-width="1.4"`),
		);
	});

	it('overlaps hatched and dashed, problems thick, problem places crossed, points as dots, each in the legend', () => {
		const map = drawPlotMap([
			{
				geometry: polygon(square(-47.9, -15.8, 0.01)),
				outcome: 'invalid',
				overlaps: true,
				problem: true,
				marks: [{ at: [-47.895, -15.795] }],
			},
			{ geometry: { type: 'Point', coordinates: [-47.88, -15.79] }, label: 'P', outcome: 'valid' },
		]);
		expect(map.svg).toMatch(/<pattern id="gm-hc0262d"/);
		expect(map.svg).toContain('stroke-dasharray="4"');
		expect(map.svg).toContain('stroke-width="3"');
		expect(map.marksDrawn).toBe(1);
		expect(map.svg).toMatch(/<circle cx="[\d.]+" cy="[\d.]+" r="5"/);
		for (const words of [
			'Overlaps another plot',
			'Problem to check',
			'Where a problem is',
			'Point',
		])
			expect(map.svg).toContain(words);
	});

	it('a scale bar, coordinates on both axes, the title and the labels', () => {
		const map = drawPlotMap(grid(4), { title: 'Shipment <12>' });
		expect(map.svg).toMatch(/>\d+ (m|km)</);
		expect(map.svg).toMatch(/°W</);
		expect(map.svg).toMatch(/°S</);
		expect(map.svg).toContain('Shipment &lt;12&gt;');
		expect(map.svg).toContain('>Plot 4<');
		expect(map.metresPerPixel).toBeGreaterThan(0);
		expect(map.bounds!.west).toBeLessThan(-47.9);
		expect(map.bounds!.north).toBeGreaterThan(-15.796);
	});
});

describe('bounded: plots, vertices, bytes', () => {
	it('1,000 plots are all drawn, each outlined, in well under the byte cap', () => {
		const map = drawPlotMap(grid(1000));
		expect(map.plotsDrawn).toBe(1000);
		expect(map.plotsSkipped).toBe(0);
		expect(map.truncated).toBe(false);
		expect(map.bytes).toBeLessThan(1_000_000);
		expect(map.svg).not.toContain('>Plot 1<'); // more plots than labels: no names
	});

	it('a 100,000-vertex plot is drawn with at most maxVerticesPerPlot vertices', () => {
		const map = drawPlotMap([{ geometry: polygon(star(100_000)), outcome: 'invalid' }], {
			minPixels: 0,
		});
		expect(map.verticesIn).toBe(100_001);
		expect(map.verticesDrawn).toBeLessThanOrEqual(20_000);
		expect(map.bytes).toBeLessThan(400_000);
	});

	it('past maxPlots the plots are counted, not drawn, and the picture says so', () => {
		const map = drawPlotMap(grid(50), { maxPlots: 20 });
		expect([map.plotsDrawn, map.plotsSkipped]).toEqual([20, 30]);
		expect(map.svg).toContain('30 plot(s) past the first 20 not drawn');
	});

	it('past maxVertices the remaining plots are dots', () => {
		const plots = Array.from({ length: 10 }, (_, i) => ({
			geometry: polygon(circle(1000, -47.9 + i * 0.03, -15.8)),
			outcome: 'valid',
		}));
		const map = drawPlotMap(plots, { maxVertices: 1000 });
		expect(map.plotsDrawn).toBe(10);
		expect(map.verticesDrawn).toBeLessThanOrEqual(1000 + 10);
		expect(map.plotsAsDots).toBeGreaterThan(0);
		expect(map.svg).toContain('drawn as a dot');
	});

	it('past maxInputVertices a plot is not read at all', () => {
		const map = drawPlotMap(
			[{ geometry: polygon(circle(100)) }, { geometry: polygon(circle(10_000)) }],
			{ maxInputVertices: 1000 },
		);
		expect([map.plotsDrawn, map.plotsSkipped, map.verticesIn]).toEqual([1, 1, 101]);
	});

	it('the SVG never exceeds maxBytes: plots are left out and counted', () => {
		const map = drawPlotMap(grid(3000), { maxBytes: 100_000 });
		expect(map.bytes).toBeLessThanOrEqual(100_000);
		expect(map.truncated).toBe(true);
		expect(map.plotsDrawn + map.plotsSkipped).toBe(3000);
		expect(map.svg).toContain('left out to keep the picture under 100000 bytes');
	});

	it('marks are capped', () => {
		const marks = Array.from({ length: 50 }, (_, i) => ({ at: [-47.9 + i * 1e-4, -15.8] }));
		expect(
			drawPlotMap([{ geometry: polygon(square(-47.9, -15.8, 0.01)), marks }], { maxMarks: 7 })
				.marksDrawn,
		).toBe(7);
	});
});

describe('hostile input: never throws, never writes NaN, self-contained', () => {
	const hostile: unknown[] = [
		{
			geometry: polygon([
				[NaN, 1],
				[Infinity, 2],
				[1e308, 3],
				[-47.9, -15.8],
				[-47.89, -15.8],
				[-47.89, -15.79],
				['x', 1],
				null,
				[1],
				[],
			] as unknown as Ring),
		},
		{ geometry: { type: 'Polygon', coordinates: 'nope' } },
		{ geometry: { type: 'Polygon', coordinates: [[null, 5, 'a']] } },
		{ geometry: { type: 'Point', coordinates: [NaN, NaN] } },
		{ geometry: null },
		{ geometry: 'POINT (1 2)' },
		null,
		7,
		{
			geometry: {
				type: 'FeatureCollection',
				features: [
					null,
					{ type: 'Feature', geometry: { type: 'Point', coordinates: [-47.88, -15.79] } },
				],
			},
			label: '<script>alert(1)</script>\u0000',
		},
	];

	it('the readable parts are drawn, the rest counted and noted', () => {
		const map = drawPlotMap(hostile as MapPlot[]);
		expect(map.plotsIn).toBe(9);
		expect(map.plotsDrawn).toBe(2);
		expect(map.plotsSkipped).toBe(7);
		expect(map.positionsRejected).toBeGreaterThanOrEqual(8);
		expect(map.svg).not.toMatch(/NaN|Infinity|undefined/);
		expect(map.svg).not.toContain('<script');
		expect(map.svg).toContain('&lt;script&gt;');
		expect(map.svg).toContain('without a readable geometry');
	});

	it('no plots, or not a list: an empty map that says so', () => {
		for (const plots of [[], undefined, 'plots', { length: 3 }]) {
			const map = drawPlotMap(plots as unknown as MapPlot[]);
			expect([map.plotsDrawn, map.bounds, map.metresPerPixel]).toEqual([0, null, null]);
			expect(map.svg).toContain('No plots to draw');
		}
		expect(drawPlotMap([{ geometry: null }]).svg).toContain('No plot could be drawn');
	});

	it('hostile options are clamped', () => {
		const map = drawPlotMap(grid(3), {
			width: 1e9,
			height: -5,
			maxBytes: NaN,
			minPixels: -1,
			idPrefix: '"><script>',
		});
		expect([map.width, map.height]).toEqual([4000, 300]);
		expect(map.svg).not.toContain('<script');
	});

	it('self-contained: no scripts, images, links, fonts or external references', () => {
		const map = drawPlotMap([
			...grid(5),
			{ geometry: polygon(square(-47.9, -15.8, 0.01)), overlaps: true },
		]);
		expect(map.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
		expect(map.svg.match(/https?:/g)).toHaveLength(1);
		expect(map.svg).not.toMatch(/<script|<image|<foreignObject|@import|@font-face|href=/);
		for (const ref of map.svg.match(/url\([^)]*\)/g) ?? []) expect(ref).toMatch(/^url\(#gm-/);
	});

	it('layoutPlotMap gives the same picture as shapes in pixels', () => {
		const scene = layoutPlotMap(grid(3));
		expect(scene.shapes.some((s) => s.kind === 'path' && s.plot === 0)).toBe(true);
		expect(scene.overlay.some((s) => s.kind === 'text')).toBe(true);
	});
});

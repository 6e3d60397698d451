/**
 * The PNG picture (nodes/shared/map/png.ts, raster.ts, font.ts): a valid PNG of the stated
 * size, plots painted in their outcome's colour where they are, text from the bitmap font.
 */
import { unzlibSync } from 'fflate';

import type { MapPlot } from '../../../nodes/shared/map';
import { drawPlotMapPng, layoutPlotMap, OUTCOME_COLOURS } from '../../../nodes/shared/map';
import { bitmapTextWidth, glyph } from '../../../nodes/shared/map/font';
import { Canvas, parseColour } from '../../../nodes/shared/map/raster';
import { squarePlot } from '../../helpers/square';

/** A circle of n vertices (closed). */
function circle(n: number): number[][] {
	const ring = Array.from({ length: n }, (_, i) => [
		-47.88 + 0.01 * Math.cos((2 * Math.PI * i) / n),
		-15.79 + 0.01 * Math.sin((2 * Math.PI * i) / n),
	]);
	return [...ring, [...ring[0]]];
}

/** The PNG's pixels (8-bit RGB, filter 0 as encodePng writes them). */
function decode(png: Uint8Array): {
	width: number;
	height: number;
	rgb: (x: number, y: number) => number[];
} {
	expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
	let at = 8;
	let width = 0;
	let height = 0;
	const idat: Uint8Array[] = [];
	const types: string[] = [];
	while (at < png.length) {
		const length = view.getUint32(at);
		const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
		types.push(type);
		const data = png.subarray(at + 8, at + 8 + length);
		if (type === 'IHDR') {
			width = view.getUint32(at + 8);
			height = view.getUint32(at + 12);
			expect(Array.from(data.subarray(8))).toEqual([8, 2, 0, 0, 0]);
		}
		if (type === 'IDAT') idat.push(data);
		at += 12 + length;
	}
	expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
	const raw = unzlibSync(Buffer.concat(idat));
	expect(raw.length).toBe(height * (1 + width * 3));
	return {
		width,
		height,
		rgb: (x, y) => {
			const i = y * (1 + width * 3) + 1 + x * 3;
			return [raw[i], raw[i + 1], raw[i + 2]];
		},
	};
}

const square = (lon: number, lat: number, d: number) => squarePlot(lon, lat, d);

/** Closer to `hex` than to white: the plot's tint (fill at its opacity over the map). */
function tinted(rgb: number[], hex: string): boolean {
	const c = parseColour(hex);
	const bg = [0xf4, 0xf6, 0xf8];
	const expected = c.map((v, i) => bg[i] + (v - bg[i]) * 0.28);
	return rgb.every((v, i) => Math.abs(v - expected[i]) <= 3);
}

describe('the PNG picture', () => {
	const plots: MapPlot[] = [
		{ geometry: square(-47.9, -15.8, 0.01), outcome: 'valid', label: 'A' },
		{ geometry: square(-47.88, -15.8, 0.01), outcome: 'risk', label: 'B' },
		{ geometry: square(-47.86, -15.8, 0.01), outcome: 'problem' },
	];

	it('is a PNG of the stated size, each plot tinted in its outcome colour at its centre', () => {
		const picture = drawPlotMapPng(plots, { width: 800, height: 500 });
		const png = decode(picture.png);
		expect([png.width, png.height, picture.bytes]).toEqual([800, 500, picture.png.length]);
		expect(picture.plotsDrawn).toBe(3);
		const scene = layoutPlotMap(plots, { width: 800, height: 500 });
		const outcomes = ['valid', 'risk', 'problem'] as const;
		scene.shapes.forEach((s) => {
			if (s.kind !== 'path' || s.plot === undefined) return;
			const ring = s.rings[0];
			const x = Math.round((ring[0] + ring[4]) / 2);
			const y = Math.round((ring[1] + ring[5]) / 2) + 12; // below the label
			expect(tinted(png.rgb(x, y), OUTCOME_COLOURS[outcomes[s.plot]])).toBe(true);
			// the outline in the outcome colour itself
			const x0 = Math.round(ring[0]);
			const edge = [x0 - 1, x0, x0 + 1].map((ex) => png.rgb(ex, y).join(','));
			expect(edge).toContain(parseColour(OUTCOME_COLOURS[outcomes[s.plot]]).join(','));
		});
	});

	it('no plots: still a picture, saying so', () => {
		const picture = drawPlotMapPng([]);
		expect(decode(picture.png).width).toBe(960);
		expect(picture.notes).toEqual(['No plots to draw']);
	});

	it('a 100,000-vertex plot is painted, within the picture size', () => {
		// the worst case of painting (a star: every edge crosses the plot) is in the bench
		const picture = drawPlotMapPng([
			{ geometry: { type: 'Polygon', coordinates: [circle(100_000)] }, outcome: 'invalid' },
		]);
		expect(picture.verticesIn).toBe(100_001);
		expect(picture.verticesDrawn).toBeLessThanOrEqual(20_000);
		expect(picture.bytes).toBeLessThan(960 * 720 * 3);
		expect(decode(picture.png).height).toBe(720);
	});

	it('the font: every printable ASCII character its own glyph, accents dropped, the rest "?"', () => {
		const seen = new Set<string>();
		for (let c = 33; c < 127; c++) seen.add(glyph(String.fromCharCode(c)).join(','));
		expect(seen.size).toBe(94);
		expect(glyph('é')).toEqual(glyph('e'));
		expect(glyph('漢')).toEqual(glyph('?'));
		expect(glyph('°')).not.toEqual(glyph('?'));
		expect(bitmapTextWidth('abc', 11)).toBe(17);
		expect(bitmapTextWidth('abc', 15)).toBe(34);
	});

	it('the canvas clips everything to itself', () => {
		const canvas = new Canvas(10, 10);
		const paint = { rgb: [0, 0, 0] as [number, number, number], alpha: 1 };
		canvas.fillRings([[-100, -100, 100, -100, 100, 100, -100, 100]], paint);
		canvas.line(-1e6, -1e6, 1e6, 1e6, 3, paint, 4);
		canvas.disc(5, 5, 1e3, paint, 2);
		expect(canvas.data.length).toBe(300);
		expect(canvas.data.every((v) => v === 0)).toBe(true);
	});
});

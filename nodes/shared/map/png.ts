/*
 * A MapScene painted as PNG (what n8n's binary viewer shows on both majors: image/svg+xml is
 * not among n8n's viewable types, image/png is). Own rasterizer (raster.ts) and bitmap font
 * (font.ts); deflated by fflate, which the bundle already carries (n8n Cloud's lint refuses
 * node's zlib in a community node). The size is the picture's: at most width × height × 3
 * bytes before compression (4000 × 4000 at most).
 */
import { zlibSync } from 'fflate/browser';

import { bitmapTextWidth, drawText } from './font';
import { notesBox } from './furniture';
import type { Paint } from './raster';
import { Canvas, parseColour } from './raster';
import type { MapScene, MapShape } from './types';

const solid = (hex: string, alpha = 1): Paint => ({ rgb: parseColour(hex), alpha });

function paintShape(canvas: Canvas, s: MapShape): void {
	switch (s.kind) {
		case 'rect':
			if (s.fill) canvas.rect(s.x, s.y, s.w, s.h, solid(s.fill));
			if (s.stroke)
				canvas.outline(
					[s.x, s.y, s.x + s.w, s.y, s.x + s.w, s.y + s.h, s.x, s.y + s.h],
					1,
					solid(s.stroke),
				);
			return;
		case 'path':
			if (s.fill)
				canvas.fillRings(s.rings, {
					rgb: parseColour(s.fill),
					alpha: s.fillOpacity,
					hatch: s.hatch,
				});
			for (const ring of s.rings) canvas.outline(ring, s.strokeWidth, solid(s.stroke), s.dash ?? 0);
			return;
		case 'circle':
			canvas.disc(s.x, s.y, s.r, solid(s.fill));
			if (s.strokeWidth > 0) canvas.disc(s.x, s.y, s.r, solid(s.stroke), s.strokeWidth);
			return;
		case 'line':
			canvas.line(s.x1, s.y1, s.x2, s.y2, s.strokeWidth, solid(s.stroke), s.dash ?? 0);
			return;
		case 'text': {
			const w = bitmapTextWidth(s.text, s.size);
			const x = s.anchor === 'middle' ? s.x - w / 2 : s.anchor === 'end' ? s.x - w : s.x;
			if (s.halo)
				for (const [dx, dy] of [
					[-1, 0],
					[1, 0],
					[0, -1],
					[0, 1],
					[-1, -1],
					[1, 1],
					[-1, 1],
					[1, -1],
				])
					drawText(canvas, s.text, x + dx, s.y + dy, s.size, solid('#ffffff'), s.bold);
			drawText(canvas, s.text, x, s.y, s.size, solid(s.fill), s.bold);
			return;
		}
	}
}

/** The scene painted on a canvas (shapes, overlay, notes: as the SVG draws them). */
export function paintScene(scene: MapScene): Canvas {
	const canvas = new Canvas(scene.width, scene.height);
	for (const s of scene.shapes) paintShape(canvas, s);
	for (const s of scene.overlay) paintShape(canvas, s);
	for (const s of notesBox(scene.notes, scene.frame)) paintShape(canvas, s);
	return canvas;
}

const CRC_TABLE = (() => {
	const t = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		t[n] = c >>> 0;
	}
	return t;
})();

function crc32(bytes: Uint8Array): number {
	let c = 0xffffffff;
	for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
	const out = new Uint8Array(12 + data.length);
	const view = new DataView(out.buffer);
	view.setUint32(0, data.length);
	for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
	out.set(data, 8);
	view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
	return out;
}

/** An RGB canvas as a PNG file (8-bit truecolour, no filter, deflated). */
export function encodePng(canvas: Canvas): Uint8Array {
	const { width, height, data } = canvas;
	const raw = new Uint8Array(height * (1 + width * 3));
	for (let y = 0; y < height; y++)
		raw.set(data.subarray(y * width * 3, (y + 1) * width * 3), y * (1 + width * 3) + 1);
	const header = new Uint8Array(13);
	const view = new DataView(header.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	header.set([8, 2, 0, 0, 0], 8);
	const parts = [
		new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', zlibSync(raw, { level: 6 })),
		chunk('IEND', new Uint8Array(0)),
	];
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** The scene as a PNG file. */
export const sceneToPng = (scene: MapScene): Uint8Array => encodePng(paintScene(scene));

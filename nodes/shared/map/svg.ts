/*
 * A MapScene written as one self-contained SVG (no scripts, fonts, images or links: a
 * generic font family, patterns in its own <defs>), at most maxBytes: the furniture (legend,
 * scale bar, coordinates, notes) is always written, plots are left out from the last drawn
 * when the bytes run out (and a note says so).
 */
import { notesBox } from './furniture';
import type { MapScene, MapShape } from './types';

const n = (v: number) => String(Math.round(v * 10) / 10);

export const escapeXml = (text: string) =>
	text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);

/** UTF-8 length of a string (without Buffer: this layer is pure). */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) bytes += 1;
		else if (c < 0x800) bytes += 2;
		else if (c >= 0xd800 && c <= 0xdbff) {
			bytes += 4;
			i++;
		} else bytes += 3;
	}
	return bytes;
}

const plotOf = (s: MapShape) => (s.kind === 'path' || s.kind === 'circle' ? s.plot : undefined);

const title = (t: string | undefined) => (t ? `<title>${escapeXml(t)}</title>` : '');

function ringsPath(rings: number[][]): string {
	let d = '';
	for (const ring of rings) {
		d += `M${n(ring[0])} ${n(ring[1])}`;
		for (let i = 2; i < ring.length; i += 2) d += ` ${n(ring[i])} ${n(ring[i + 1])}`;
		d += 'Z';
	}
	return d;
}

function shapeSvg(s: MapShape, id: string): string {
	switch (s.kind) {
		case 'path': {
			const fill = s.fill === null ? 'none' : s.hatch ? `url(#${id}-h${s.fill.slice(1)})` : s.fill;
			const opacity = s.fill !== null && !s.hatch ? ` fill-opacity="${s.fillOpacity}"` : '';
			const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
			const body = `<path d="${ringsPath(s.rings)}" fill="${fill}"${opacity} fill-rule="evenodd" stroke="${s.stroke}" stroke-width="${s.strokeWidth}" stroke-linejoin="round"${dash}`;
			return s.title ? `${body}>${title(s.title)}</path>` : `${body}/>`;
		}
		case 'circle': {
			const body = `<circle cx="${n(s.x)}" cy="${n(s.y)}" r="${s.r}" fill="${s.fill}" stroke="${s.stroke}" stroke-width="${s.strokeWidth}"`;
			return s.title ? `${body}>${title(s.title)}</circle>` : `${body}/>`;
		}
		case 'line': {
			const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : '';
			return `<line x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}" stroke="${s.stroke}" stroke-width="${s.strokeWidth}"${dash}/>`;
		}
		case 'rect':
			return `<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" fill="${s.fill ?? 'none'}" stroke="${s.stroke ?? 'none'}"/>`;
		case 'text': {
			const weight = s.bold ? ' font-weight="bold"' : '';
			const halo = s.halo
				? ' stroke="#ffffff" stroke-width="3" paint-order="stroke" stroke-linejoin="round"'
				: '';
			return `<text x="${n(s.x)}" y="${n(s.y)}" font-size="${s.size}" text-anchor="${s.anchor}" fill="${s.fill}"${weight}${halo}>${escapeXml(s.text)}</text>`;
		}
	}
}

/** Hatch patterns (one per colour of a hatched shape). */
function defs(shapes: MapShape[], id: string): string {
	const colours = new Set<string>();
	for (const s of shapes) if (s.kind === 'path' && s.hatch && s.fill) colours.add(s.fill);
	if (!colours.size) return '';
	let out = '<defs>';
	for (const c of colours)
		out += `<pattern id="${id}-h${c.slice(1)}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="${c}" fill-opacity="0.28"/><line x1="0" y1="0" x2="0" y2="6" stroke="${c}" stroke-width="2"/></pattern>`;
	return `${out}</defs>`;
}

export interface SvgResult {
	svg: string;
	bytes: number;
	truncated: boolean;
	/** Plots whose shapes were left out for the byte budget. */
	plotsLeftOut: number;
}

/** The scene as SVG of at most maxBytes (UTF-8); `idPrefix` names its patterns. */
export function sceneToSvg(scene: MapScene, maxBytes: number, idPrefix = 'gm'): SvgResult {
	const id = /^[A-Za-z][\w-]{0,30}$/.test(idPrefix) ? idPrefix : 'gm';
	const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}" font-family="Arial, Helvetica, sans-serif" role="img">`;
	const parts = scene.shapes.map((s) => shapeSvg(s, id));
	const overlay = scene.overlay.map((s) => shapeSvg(s, id)).join('');
	const fixedNotes = 600;
	let budget =
		maxBytes -
		utf8Length(head) -
		utf8Length(defs(scene.shapes, id)) -
		utf8Length(overlay) -
		fixedNotes -
		10;
	for (let i = 0; i < parts.length; i++)
		if (plotOf(scene.shapes[i]) === undefined) budget -= utf8Length(parts[i]);
	const leftOut = new Set<number>();
	for (let i = 0; i < parts.length; i++) {
		const index = plotOf(scene.shapes[i]);
		if (index === undefined) continue;
		const size = utf8Length(parts[i]);
		if (leftOut.has(index) || size > budget) {
			leftOut.add(index);
			parts[i] = '';
		} else budget -= size;
	}
	const notes = [...scene.notes];
	if (leftOut.size)
		notes.push(`${leftOut.size} plot(s) left out to keep the picture under ${maxBytes} bytes`);
	const notesSvg = notesBox(notes, scene.frame)
		.map((s) => shapeSvg(s, id))
		.join('');
	const svg = `${head}${defs(scene.shapes, id)}${parts.join('')}${overlay}${notesSvg}</svg>`;
	return { svg, bytes: utf8Length(svg), truncated: leftOut.size > 0, plotsLeftOut: leftOut.size };
}

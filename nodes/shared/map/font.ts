/*
 * A 5×7 bitmap font (ASCII and the few signs the map writes: °, …, —, ±, ×) for the PNG
 * picture, so that it needs no font file. Each glyph is 5 columns, bit 0 the top row; letters
 * with accents are drawn without them (NFD), anything else as '?'. 6 pixels a character at
 * scale 1 (the layout's estimate, style.ts's textWidth, is 0.6 × the size: close for 10–12).
 */
import type { Canvas, Paint } from './raster';

/** ASCII 32–126, one glyph each (5 columns as hex bytes). */
const ASCII: readonly string[] = [
	'0000000000',
	'00005f0000',
	'0007000700',
	'147f147f14',
	'242a7f2a12',
	'2313086462',
	'3649552250',
	'0005030000',
	'001c224100',
	'0041221c00',
	'082a1c2a08',
	'08083e0808',
	'0050300000',
	'0808080808',
	'0060600000',
	'2010080402',
	'3e5149453e',
	'00427f4000',
	'4261514946',
	'2141454b31',
	'1814127f10',
	'2745454539',
	'3c4a494930',
	'0171090503',
	'3649494936',
	'064949291e',
	'0036360000',
	'0056360000',
	'0008142241',
	'1414141414',
	'4122140800',
	'0201510906',
	'324979413e',
	'7e1111117e',
	'7f49494936',
	'3e41414122',
	'7f4141221c',
	'7f49494941',
	'7f09090101',
	'3e41415132',
	'7f0808087f',
	'00417f4100',
	'2040413f01',
	'7f08142241',
	'7f40404040',
	'7f0204027f',
	'7f0408107f',
	'3e4141413e',
	'7f09090906',
	'3e4151215e',
	'7f09192946',
	'4649494931',
	'01017f0101',
	'3f4040403f',
	'1f2040201f',
	'7f2018207f',
	'6314081463',
	'0304780403',
	'6151494543',
	'00007f4141',
	'0204081020',
	'41417f0000',
	'0402010204',
	'4040404040',
	'0001020400',
	'2054545478',
	'7f48444438',
	'3844444420',
	'384444487f',
	'3854545418',
	'087e090102',
	'081454543c',
	'7f08040478',
	'00447d4000',
	'2040443d00',
	'007f102844',
	'00417f4000',
	'7c04180478',
	'7c08040478',
	'3844444438',
	'7c14141408',
	'081414187c',
	'7c08040408',
	'4854545420',
	'043f444020',
	'3c4040207c',
	'1c2040201c',
	'3c4030403c',
	'4428102844',
	'0c5050503c',
	'4464544c44',
	'0008364100',
	'00007f0000',
	'0041360800',
	'0804081008',
];

const EXTRA: Record<string, string> = {
	'°': '0006090906',
	'…': '4000400040',
	'—': '0808080808',
	'–': '0808080808',
	'±': '44445f4444',
	'×': '2214081422',
};

function glyphs(): Map<string, number[]> {
	const map = new Map<string, number[]>();
	for (let c = 32; c < 127; c++) {
		const hex = ASCII[c - 32];
		map.set(
			String.fromCharCode(c),
			[0, 2, 4, 6, 8].map((i) => parseInt(hex.slice(i, i + 2), 16) || 0),
		);
	}
	for (const [k, hex] of Object.entries(EXTRA))
		map.set(
			k,
			[0, 2, 4, 6, 8].map((i) => parseInt(hex.slice(i, i + 2), 16)),
		);
	return map;
}

const GLYPHS = glyphs();

/** The glyph of a character (accents dropped, else '?'). */
export function glyph(char: string): number[] {
	return (
		GLYPHS.get(char) ?? GLYPHS.get(char.normalize('NFD').charAt(0)) ?? (GLYPHS.get('?') as number[])
	);
}

/** The scale for a text size: 1 up to 13, then 2. */
export const fontScale = (size: number) => (size >= 14 ? 2 : 1);

/** The width in pixels of a text at a size. */
export function bitmapTextWidth(text: string, size: number): number {
	const n = Array.from(text).length;
	return n ? n * 6 * fontScale(size) - fontScale(size) : 0;
}

/** Text with its baseline at y, from x (left edge). */
export function drawText(
	canvas: Canvas,
	text: string,
	x: number,
	y: number,
	size: number,
	paint: Paint,
	bold = false,
): void {
	const s = fontScale(size);
	const top = Math.round(y) - 7 * s + 1;
	let left = Math.round(x);
	for (const char of Array.from(text)) {
		const columns = glyph(char);
		for (let c = 0; c < 5; c++)
			for (let r = 0; r < 7; r++)
				if (columns[c] & (1 << r)) {
					canvas.rect(left + c * s, top + r * s, s + (bold ? 1 : 0), s, paint);
				}
		left += 6 * s;
	}
}

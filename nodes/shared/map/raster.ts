/*
 * A small RGB canvas for the PNG picture: polygons filled by scanline (even-odd, an active
 * edge list: linear in the edges and the rows they span), lines as filled quads (dashes
 * split along the line), discs and rectangles, every paint clipped to the canvas and blended
 * with an opacity. No anti-aliasing: a pixel is painted when its centre is inside.
 */

export interface Paint {
	/** [r, g, b] 0–255. */
	rgb: [number, number, number];
	/** 0–1. */
	alpha: number;
	/** Diagonal stripes of the colour, opaque, over the fill (an overlap's hatching). */
	hatch?: boolean;
}

export function parseColour(hex: string): [number, number, number] {
	const m = /^#([0-9a-f]{6})$/i.exec(hex);
	const v = m ? parseInt(m[1], 16) : 0;
	return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

export class Canvas {
	readonly data: Uint8Array;
	constructor(
		readonly width: number,
		readonly height: number,
	) {
		this.data = new Uint8Array(width * height * 3).fill(255);
	}

	/** Pixels x0..x1 (inclusive) of row y. */
	span(x0: number, x1: number, y: number, paint: Paint): void {
		if (y < 0 || y >= this.height) return;
		const from = Math.max(0, x0);
		const to = Math.min(this.width - 1, x1);
		const [r, g, b] = paint.rgb;
		const d = this.data;
		for (let x = from; x <= to; x++) {
			const a = paint.hatch && (x + y) % 6 < 2 ? 1 : paint.alpha;
			const i = (y * this.width + x) * 3;
			if (a >= 1) {
				d[i] = r;
				d[i + 1] = g;
				d[i + 2] = b;
			} else {
				d[i] = d[i] + (r - d[i]) * a;
				d[i + 1] = d[i + 1] + (g - d[i + 1]) * a;
				d[i + 2] = d[i + 2] + (b - d[i + 2]) * a;
			}
		}
	}

	/** Parity marks of a fill, (width + 1) a row, zero between fills. */
	private parity: Uint8Array | null = null;

	/**
	 * Rings of flat [x0, y0, x1, y1, …] (closed implicitly), filled even-odd: each edge marks
	 * where it crosses each row's centre, then each row of the box is swept once. The work is
	 * the rows the edges span plus the box's area (clipped to the canvas), no sorting.
	 */
	fillRings(rings: number[][], paint: Paint): void {
		const stride = this.width + 1;
		const marks = (this.parity ??= new Uint8Array(stride * this.height));
		let top = this.height;
		let bottom = -1;
		let left = this.width;
		let right = 0;
		for (const ring of rings) {
			const m = ring.length / 2;
			for (let i = 0; i < m; i++) {
				const j = i + 1 < m ? i + 1 : 0;
				let ax = ring[2 * i];
				let ay = ring[2 * i + 1];
				let bx = ring[2 * j];
				let by = ring[2 * j + 1];
				if (!(ay !== by)) continue;
				if (ay > by) [ax, ay, bx, by] = [bx, by, ax, ay];
				const slope = (bx - ax) / (by - ay);
				const first = Math.max(0, Math.ceil(ay - 0.5));
				const last = Math.min(this.height - 1, Math.ceil(by - 0.5) - 1);
				for (let y = first; y <= last; y++) {
					const x = ax + (y + 0.5 - ay) * slope;
					const col = Math.min(this.width, Math.max(0, Math.ceil(x - 0.5)));
					marks[y * stride + col] ^= 1;
					if (col < left) left = col;
					if (col > right) right = col;
				}
				if (first < top) top = first;
				if (last > bottom) bottom = last;
			}
		}
		for (let y = top; y <= bottom; y++) {
			let inside = 0;
			let runStart = -1;
			for (let x = left; x <= right; x++) {
				const k = y * stride + x;
				if (marks[k]) {
					marks[k] = 0;
					inside ^= 1;
					if (inside) runStart = x;
					else this.span(runStart, x - 1, y, paint);
				}
			}
		}
	}

	/**
	 * A line of the width (at least 1 pixel), clipped to the canvas first; dashed when `dash` >
	 * 0 (`phase`: the length of the pattern already drawn before this line, so that dashes run
	 * on along a ring). Stepped along its longer axis, a run of `width` pixels a step.
	 */
	line(
		x1: number,
		y1: number,
		x2: number,
		y2: number,
		width: number,
		paint: Paint,
		dash = 0,
		phase = 0,
	): void {
		const length = Math.hypot(x2 - x1, y2 - y1);
		if (!(length > 0) || !Number.isFinite(length)) return;
		const clipped = clip(x1, y1, x2, y2, -width, -width, this.width + width, this.height + width);
		if (!clipped) return;
		const [t0, t1] = clipped;
		const at = (t: number): [number, number] => [
			x1 + ((x2 - x1) * t) / length,
			y1 + ((y2 - y1) * t) / length,
		];
		if (dash > 0) {
			let s = t0 * length;
			const end = t1 * length;
			while (s < end) {
				const p = (phase + s) % (2 * dash);
				const e = Math.min(end, s + (p < dash ? dash - p : 2 * dash - p));
				if (p < dash) this.line(...at(s), ...at(e), width, paint);
				s = e;
			}
			return;
		}
		const [ax, ay] = at(t0 * length);
		const [bx, by] = at(t1 * length);
		const thick = Math.max(1, Math.round(width));
		const steps = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay))));
		const xMajor = Math.abs(bx - ax) >= Math.abs(by - ay);
		const opaque = paint.alpha >= 1 && !paint.hatch;
		for (let i = 0; i <= steps; i++) {
			const x = ax + ((bx - ax) * i) / steps;
			const y = ay + ((by - ay) * i) / steps;
			const px = xMajor ? Math.floor(x) : Math.round(x - thick / 2);
			const py = xMajor ? Math.round(y - thick / 2) : Math.floor(y);
			for (let k = 0; k < thick; k++) {
				const qx = xMajor ? px : px + k;
				const qy = xMajor ? py + k : py;
				if (!opaque) this.span(qx, qx, qy, paint);
				else if (qx >= 0 && qy >= 0 && qx < this.width && qy < this.height) {
					const o = (qy * this.width + qx) * 3;
					this.data[o] = paint.rgb[0];
					this.data[o + 1] = paint.rgb[1];
					this.data[o + 2] = paint.rgb[2];
				}
			}
		}
	}

	/** A ring's outline (closed), its dashes running on from edge to edge. */
	outline(ring: number[], width: number, paint: Paint, dash = 0): void {
		const m = ring.length / 2;
		let phase = 0;
		for (let i = 0; i < m; i++) {
			const j = (i + 1) % m;
			const [ax, ay, bx, by] = [ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1]];
			this.line(ax, ay, bx, by, width, paint, dash, phase);
			phase += Math.hypot(bx - ax, by - ay);
		}
	}

	/** A disc, or a ring of the width when `ringWidth` is given. */
	disc(cx: number, cy: number, r: number, paint: Paint, ringWidth = 0): void {
		const outer = ringWidth ? r + ringWidth / 2 : r;
		const inner = ringWidth ? Math.max(0, r - ringWidth / 2) : -1;
		const from = Math.max(0, Math.floor(cy - outer));
		const to = Math.min(this.height - 1, Math.ceil(cy + outer));
		for (let y = from; y <= to; y++) {
			const dy = y + 0.5 - cy;
			if (Math.abs(dy) > outer) continue;
			const half = Math.sqrt(outer * outer - dy * dy);
			if (inner < 0 || Math.abs(dy) >= inner) {
				this.span(Math.ceil(cx - half - 0.5), Math.floor(cx + half - 0.5), y, paint);
				continue;
			}
			const hole = Math.sqrt(inner * inner - dy * dy);
			this.span(Math.ceil(cx - half - 0.5), Math.floor(cx - hole - 0.5), y, paint);
			this.span(Math.ceil(cx + hole - 0.5), Math.floor(cx + half - 0.5), y, paint);
		}
	}

	rect(x: number, y: number, w: number, h: number, paint: Paint): void {
		for (let row = Math.round(y); row < Math.round(y + h); row++)
			this.span(Math.round(x), Math.round(x + w) - 1, row, paint);
	}
}

/** The part [t0, t1] (0–1) of a segment inside a box (Liang–Barsky), or null. */
export function clip(
	x1: number,
	y1: number,
	x2: number,
	y2: number,
	minX: number,
	minY: number,
	maxX: number,
	maxY: number,
): [number, number] | null {
	let t0 = 0;
	let t1 = 1;
	const dx = x2 - x1;
	const dy = y2 - y1;
	const edges: Array<[number, number]> = [
		[-dx, x1 - minX],
		[dx, maxX - x1],
		[-dy, y1 - minY],
		[dy, maxY - y1],
	];
	for (const [p, q] of edges) {
		if (p === 0) {
			if (q < 0) return null;
			continue;
		}
		const r = q / p;
		if (p < 0) {
			if (r > t1) return null;
			if (r > t0) t0 = r;
		} else {
			if (r < t0) return null;
			if (r < t1) t1 = r;
		}
	}
	return [t0, t1];
}

/*
 * Simplification for drawing only (the data is never changed): a ring's positions are
 * projected and a vertex closer than `minPixels` to the last one kept is dropped, in one
 * pass; a ring still longer than its budget keeps every n-th vertex. Linear in the ring.
 */
import { lonLat } from './parts';
import type { Projection } from './project';

export interface RingCounts {
	/** Positions read. */
	read: number;
	/** Positions that were not numbers or outside ±180 / ±90. */
	rejected: number;
}

/**
 * The ring in pixels as flat [x0, y0, x1, y1, …] (the closing vertex dropped: the path
 * closes itself), at most `maxVertices` vertices (at least 3 when there are 3).
 */
export function simplifyRing(
	ring: unknown[],
	projection: Projection,
	minPixels: number,
	maxVertices: number,
	counts: RingCounts,
): number[] {
	const out: number[] = [];
	const min2 = minPixels * minPixels;
	let lastX = NaN;
	let lastY = NaN;
	for (const position of ring) {
		counts.read++;
		const ll = lonLat(position);
		if (!ll) {
			counts.rejected++;
			continue;
		}
		const x = projection.x(ll[0]);
		const y = projection.y(ll[1]);
		const dx = x - lastX;
		const dy = y - lastY;
		if (out.length > 0 && dx * dx + dy * dy < min2) continue;
		out.push(x, y);
		lastX = x;
		lastY = y;
	}
	// The closing vertex (or one within a pixel of the first) adds nothing to a closed path.
	while (out.length >= 4) {
		const dx = out[out.length - 2] - out[0];
		const dy = out[out.length - 1] - out[1];
		if (dx * dx + dy * dy >= min2) break;
		out.length -= 2;
	}
	const n = out.length / 2;
	const cap = Math.max(3, Math.floor(maxVertices));
	if (n <= cap) return out;
	const stride = Math.ceil(n / cap);
	const thinned: number[] = [];
	for (let i = 0; i < n; i += stride) thinned.push(out[2 * i], out[2 * i + 1]);
	return thinned;
}

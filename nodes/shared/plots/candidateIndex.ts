/**
 * The pieces of Validate's cross-row check (plotOverlaps.ts) that find candidates: a hash of a
 * geometry's coordinates (exact duplicates), a polygon geometry's box, and a search of the
 * Flatbush index that can stop. Pure.
 */
import type Flatbush from 'flatbush';

import type { MultiPolygon, PlotGeometry, Polygon } from '../geometry';
import type { Box } from './sharedArea';
import { boxOfRings } from './sharedArea';

const STOP = new Error('enough candidates');

const words = new Float64Array(1);
const halves = new Int32Array(words.buffer);

/** A hash of a geometry's type and coordinates (equal geometries, equal hashes), without building text. */
export function geometryHash(geometry: PlotGeometry): string {
	let h1 = geometry.type.length;
	let h2 = 0x9e3779b9;
	let count = 0;
	const walk = (node: unknown): void => {
		if (typeof node === 'number') {
			words[0] = node;
			h1 = Math.imul(h1 ^ halves[0], 0x85ebca6b) ^ halves[1];
			h2 = Math.imul(h2 ^ halves[1], 0xc2b2ae35) ^ halves[0];
			count++;
		} else if (Array.isArray(node)) {
			h1 = Math.imul(h1 ^ node.length, 0x27d4eb2f);
			for (const child of node) walk(child);
		}
	};
	walk(geometry.coordinates);
	return `${geometry.type}:${count}:${h1 >>> 0}:${h2 >>> 0}`;
}

export function boxOf(geometry: Polygon | MultiPolygon): Box {
	const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
	const box: Box = [Infinity, Infinity, -Infinity, -Infinity];
	for (const polygon of polygons) {
		const [minX, minY, maxX, maxY] = boxOfRings(polygon);
		if (minX < box[0]) box[0] = minX;
		if (minY < box[1]) box[1] = minY;
		if (maxX > box[2]) box[2] = maxX;
		if (maxY > box[3]) box[3] = maxY;
	}
	return box;
}

/**
 * Calls `visit` for each box the index finds over `box` until it returns false (Flatbush has
 * no way to stop a search but an exception): `stopped` when it did, `done` when the search
 * ran out, or what the index threw otherwise (never expected: reported, not swallowed).
 */
export function searchUntil(
	index: Flatbush,
	box: Box,
	visit: (b: number) => boolean,
): 'done' | 'stopped' | { failed: unknown } {
	try {
		index.search(box[0], box[1], box[2], box[3], (b) => {
			if (!visit(b)) throw STOP;
			return false;
		});
		return 'done';
	} catch (error) {
		return error === STOP ? 'stopped' : { failed: error };
	}
}

export function boxOverlap(a: Box, b: Box): number {
	return (
		(Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * (Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
	);
}

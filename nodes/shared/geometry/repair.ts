import { booleanClockwise } from '@turf/boolean-clockwise';

import type { PlotGeometry, Position } from './geoJsonTypes';

/** One change made by `repairGeometry`. */
interface RepairChange {
	code: string;
	message: string;
}

export function samePosition2d(a: Position, b: Position): boolean {
	return a[0] === b[0] && a[1] === b[1];
}

/** Twice the signed area of a ring (shoelace); positive when counter-clockwise, 0 when degenerate. */
function ringSignedArea2(ring: Position[]): number {
	let sum = 0;
	for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
		sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
	}
	return sum;
}

/** Drops z from every position and removes consecutive duplicates; the ring's own array is not touched. */
function flattenAndDedupe(ring: Position[], counts: { z: number; duplicates: number }): Position[] {
	const out: Position[] = [];
	for (const position of ring) {
		if (position.length > 2) counts.z++;
		if (out.length > 0 && samePosition2d(out[out.length - 1], position)) {
			counts.duplicates++;
			continue;
		}
		out.push([position[0], position[1]]);
	}
	return out;
}

function plural(n: number, one: string, many: string): string {
	return `${n} ${n === 1 ? one : many}`;
}

/**
 * Repairs what can be repaired without guessing, on new coordinate arrays
 * (the input is never modified): drops z values, removes duplicate
 * consecutive vertices, closes unclosed rings, and rewinds rings to RFC 7946
 * order (exterior counter-clockwise, holes clockwise). Self-intersections,
 * rings with too few positions and swapped or projected coordinates are left
 * as they are: validation reports them afterwards.
 */
export function repairGeometry(geometry: PlotGeometry): {
	coordinates: PlotGeometry['coordinates'];
	changes: RepairChange[];
} {
	const counts = { z: 0, duplicates: 0 };
	const ringChanges: RepairChange[] = [];
	let coordinates: PlotGeometry['coordinates'];

	const repairPolygon = (rings: Position[][], polygonIndex: number | undefined): Position[][] =>
		rings.map((original, ringIndex) => {
			const ring = flattenAndDedupe(original, counts);
			const ofPolygon = polygonIndex === undefined ? 'polygon' : `polygon ${polygonIndex}`;
			if (ring.length > 1 && !samePosition2d(ring[0], ring[ring.length - 1])) {
				ring.push([ring[0][0], ring[0][1]]);
				ringChanges.push({
					code: 'closed_ring',
					message: `closed ring ${ringIndex} of ${ofPolygon}`,
				});
			}
			if (ring.length >= 4 && ringSignedArea2(ring) !== 0) {
				const hole = ringIndex > 0;
				if (booleanClockwise(ring) !== hole) {
					ring.reverse();
					ringChanges.push({
						code: 'rewound_ring',
						message: hole
							? `rewound hole (ring ${ringIndex} of ${ofPolygon}) to clockwise`
							: `rewound exterior ring${polygonIndex === undefined ? '' : ` of polygon ${polygonIndex}`} to counter-clockwise`,
					});
				}
			}
			return ring;
		});

	if (geometry.type === 'Point') {
		const [x, y] = geometry.coordinates;
		if (geometry.coordinates.length > 2) counts.z++;
		coordinates = [x, y];
	} else if (geometry.type === 'Polygon') {
		coordinates = repairPolygon(geometry.coordinates, undefined);
	} else {
		coordinates = geometry.coordinates.map((polygon, i) => repairPolygon(polygon, i));
	}

	const changes: RepairChange[] = [];
	if (counts.z > 0) {
		changes.push({
			code: 'dropped_z',
			message: `dropped z values (third coordinate) from ${plural(counts.z, 'position', 'positions')}`,
		});
	}
	if (counts.duplicates > 0) {
		changes.push({
			code: 'removed_duplicate_vertices',
			message: `removed ${plural(counts.duplicates, 'duplicate consecutive vertex', 'duplicate consecutive vertices')}`,
		});
	}
	changes.push(...ringChanges);
	return { coordinates, changes };
}

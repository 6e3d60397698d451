/**
 * Export's rings (nodes/shared/plots/euExport.ts): RFC 7946 winding by Turf's rewind, and the
 * vertices that become one position at six decimals (found; dropped with Repair Geometry).
 */
import { booleanClockwise } from '@turf/boolean-clockwise';

import type { PlotGeometry, Position } from '../../../nodes/shared/geometry';
import {
	emptyNotes,
	findSixDecimalMerges,
	mergeAtSixDecimals,
	rewindForEu,
	writeEuFeature,
} from '../../../nodes/shared/plots/euExport';

const ccw: Position[] = [
	[-5.282778, 6.793889],
	[-5.272778, 6.793889],
	[-5.272778, 6.803889],
	[-5.282778, 6.803889],
	[-5.282778, 6.793889],
];
const cw = [...ccw].reverse();
const holeCw: Position[] = [
	[-5.28, 6.796],
	[-5.28, 6.8],
	[-5.276, 6.8],
	[-5.276, 6.796],
	[-5.28, 6.796],
];
const holeCcw = [...holeCw].reverse();

function written(geometry: PlotGeometry) {
	const notes = emptyNotes();
	const { text } = writeEuFeature(geometry, { ProducerCountry: 'CI' }, 'refuse', notes);
	return {
		geometry: (JSON.parse(text) as { geometry: { coordinates: unknown } }).geometry.coordinates,
		notes,
	};
}

describe('winding: outer rings counter-clockwise, holes clockwise (RFC 7946 §3.1.6)', () => {
	it('a clockwise outer ring and a counter-clockwise hole are written the other way round, and counted', () => {
		const { geometry, notes } = written({ type: 'Polygon', coordinates: [cw, holeCcw] });
		const [outer, hole] = geometry as Position[][];
		expect(booleanClockwise(outer)).toBe(false);
		expect(booleanClockwise(hole)).toBe(true);
		expect(outer).toEqual(ccw);
		expect(hole).toEqual(holeCw);
		expect(notes.rewoundRings).toBe(2);
	});

	it('rings already in order are written as given; MultiPolygon parts each', () => {
		expect(written({ type: 'Polygon', coordinates: [ccw, holeCw] })).toEqual({
			geometry: [ccw, holeCw],
			notes: expect.objectContaining({ rewoundRings: 0 }),
		});
		const multi = written({ type: 'MultiPolygon', coordinates: [[cw], [ccw]] });
		expect(multi.geometry).toEqual([[ccw], [ccw]]);
		expect(multi.notes.rewoundRings).toBe(1);
	});

	it('the input is never changed', () => {
		const geometry: PlotGeometry = { type: 'Polygon', coordinates: [cw.map((p) => [...p])] };
		rewindForEu(geometry);
		expect(geometry.coordinates[0]).toEqual(cw);
	});
});

describe('vertices that become one position at six decimals', () => {
	// -5.2727781 and -5.2727784 (3 cm apart) are both -5.272778 at six decimals
	const close: Position[] = [
		[-5.282778, 6.793889],
		[-5.2727784, 6.793889],
		[-5.2727781, 6.793889],
		[-5.272778, 6.803889],
		[-5.282778, 6.803889],
		[-5.282778, 6.793889],
	];

	it('are found, with where the first is', () => {
		expect(findSixDecimalMerges({ type: 'Polygon', coordinates: [close] })).toEqual({
			count: 1,
			first: {
				where: { ring: 0, position: 2 },
				previous: [-5.2727784, 6.793889],
				position: [-5.2727781, 6.793889],
			},
		});
		expect(findSixDecimalMerges({ type: 'Polygon', coordinates: [ccw] })).toEqual({ count: 0 });
		expect(
			findSixDecimalMerges({ type: 'MultiPolygon', coordinates: [[ccw], [close]] }).first?.where,
		).toEqual({ polygon: 1, ring: 0, position: 2 });
	});

	it('are dropped on a copy (the first of each run kept; the ring stays closed)', () => {
		const geometry: PlotGeometry = { type: 'Polygon', coordinates: [close] };
		const merged = mergeAtSixDecimals(geometry);
		expect(merged.removed).toBe(1);
		expect(merged.geometry.coordinates).toEqual([
			[close[0], close[1], close[3], close[4], close[5]],
		]);
		expect(geometry.coordinates[0]).toHaveLength(6);
		// a last vertex that becomes one with the closing position goes too
		const atEnd = [...ccw.slice(0, 4), [-5.2827781, 6.7938891], ccw[0]];
		expect(mergeAtSixDecimals({ type: 'Polygon', coordinates: [atEnd] })).toEqual({
			geometry: { type: 'Polygon', coordinates: [ccw] },
			removed: 1,
		});
	});
});

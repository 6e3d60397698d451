/**
 * The polygon checks of checkFeatures.ts: each ring closed, without repeated positions, with
 * enough positions and an area, and no boundary crossing itself or another ring (a bounded
 * sweep: at most CROSSING_LIMIT crossings within a budget of edge tests per feature). Pure.
 */
import { CROSSING_LIMIT, crossingBudget, scanCrossings, type CrossingScan } from './crossings';
import { REPAIR, round6, samePosition, type Add } from './featureProblems';
import { samePosition2d } from './repair';
import { polygonsOf, ringName, showPosition } from './shape';
import type { Location, PlotFeature, Position } from './geoJsonTypes';

/**
 * Closed rings without repeated consecutive positions (compared in 2D), at least four positions
 * each, for the crossing sweep (which reads x and y only). New lists of the same positions.
 */
function cleanRings(rings: Position[][]): Position[][] {
	const out: Position[][] = [];
	for (const ring of rings) {
		const clean: Position[] = [];
		for (const position of ring) {
			if (clean.length === 0 || !samePosition2d(clean[clean.length - 1], position))
				clean.push(position);
		}
		if (clean.length > 1 && !samePosition2d(clean[0], clean[clean.length - 1]))
			clean.push(clean[0]);
		if (clean.length >= 4) out.push(clean);
	}
	return out;
}

/** True when every position of the ring lies on one line (a zero-area ring; a bow tie's signed area is 0 too, but it is not collinear). */
function isCollinear(ring: Position[]): boolean {
	const [ax, ay] = ring[0];
	let bx = ax;
	let by = ay;
	for (const [x, y] of ring) {
		if (bx === ax && by === ay) {
			bx = x;
			by = y;
			continue;
		}
		if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) !== 0) return false;
	}
	return true;
}

function checkRing(
	ring: Position[],
	ringIndex: number,
	polygonIndex: number | undefined,
	add: Add,
): void {
	const name = ringName(ringIndex, polygonIndex);
	const at: Location =
		polygonIndex === undefined ? { ring: ringIndex } : { polygon: polygonIndex, ring: ringIndex };
	const first = ring[0];
	const last = ring[ring.length - 1];
	const closed = ring.length > 1 && samePosition(first, last);
	if (!closed && ring.length > 1) {
		add(
			'error',
			'ring_not_closed',
			`the polygon ring is not closed (first and last positions differ) in ${name}: ${showPosition(first)} vs ${showPosition(last)}. Close the ring (repeat the first position at the end) or ${REPAIR}.`,
			{ ...at, position: ring.length - 1 },
		);
	}
	if (ring.length < 4) {
		const fix =
			!closed && ring.length === 3
				? `Close the ring (repeat the first position at the end) or ${REPAIR}.`
				: `Add the missing corners of the plot; "Repair Geometry" cannot invent them.`;
		add(
			'error',
			'ring_too_few_positions',
			`${name} has only ${ring.length} position${ring.length === 1 ? '' : 's'}; a polygon ring needs at least four (three corners plus a closing position equal to the first). ${fix}`,
			at,
		);
		return;
	}
	let duplicates = 0;
	let firstDuplicate = -1;
	for (let i = 1; i < ring.length; i++) {
		if (samePosition2d(ring[i], ring[i - 1])) {
			duplicates++;
			if (firstDuplicate < 0) firstDuplicate = i;
		}
	}
	if (duplicates > 0) {
		add(
			'error',
			'duplicate_vertices',
			`${name} has ${duplicates} duplicate consecutive ${duplicates === 1 ? 'vertex' : 'vertices'} (the same position repeated, first at position ${firstDuplicate}: ${showPosition(ring[firstDuplicate])}). Remove the repeated positions or ${REPAIR}.`,
			{ ...at, position: firstDuplicate },
		);
	}
	if (isCollinear(ring)) {
		add(
			'error',
			'ring_zero_area',
			`${name} has zero area (all its positions lie on one line). Give the real corners of the plot.`,
			at,
		);
	}
}

/** Edges of the rings (each closed ring of n positions has n - 1). */
export function edgesOf(parts: Position[][][]): number {
	let n = 0;
	for (const rings of parts) for (const ring of rings) n += Math.max(0, ring.length - 1);
	return n;
}

/** The edge tests one feature's crossing checks may make together (crossingBudget of all its edges). */
interface Budget {
	total: number;
	left: number;
}

/** A bounded scan for crossings: at most CROSSING_LIMIT of them, within what is left of the feature's budget. */
function boundedScan(
	parts: Position[][][],
	budget: Budget,
	betweenPartsOnly = false,
): CrossingScan {
	const scan = scanCrossings(parts, {
		betweenPartsOnly,
		limit: CROSSING_LIMIT,
		budget: budget.left,
	});
	budget.left -= scan.tests;
	return scan;
}

/** "at 3 points" or, when the scan stopped early, "at at least 100 points (the check stops there)". */
function crossingCount(scan: CrossingScan): string {
	const n = scan.crossings.length;
	if (scan.capped) return `at least ${n} times (the check stops counting there)`;
	if (scan.outOfBudget)
		return `at least ${n} time${n === 1 ? '' : 's'} (the check stopped before the end of the boundary)`;
	return `at ${n} point${n === 1 ? '' : 's'}`;
}

/** When a scan ran out of its budget without finding a crossing: whether the boundary crosses itself is not known. */
function incompleteScan(budget: Budget, vertices: number, what: string): string {
	return `whether ${what} could not be checked: the plot has ${vertices.toLocaleString('en-US')} vertices with many long edges side by side, and the check stops after ${budget.total.toLocaleString('en-US')} edge comparisons for a plot of that size. Simplify the boundary (fewer vertices, e.g. with a GIS tool's simplify at 0.5 m) or split the plot into several polygons.`;
}

export function checkPolygons(feature: PlotFeature, add: Add): void {
	const { geometry } = feature;
	if (geometry.type === 'Point') return;
	const multi = geometry.type === 'MultiPolygon';
	const parts: Position[][][] = [];
	const vertices = edgesOf(polygonsOf(geometry));
	const total = crossingBudget(vertices);
	const budget: Budget = { total, left: total };
	polygonsOf(geometry).forEach((rings, p) => {
		const polygonIndex = multi ? p : undefined;
		rings.forEach((ring, r) => checkRing(ring, r, polygonIndex, add));
		const clean = cleanRings(rings);
		if (clean.length === 0) return;
		parts.push(clean);
		const scan = boundedScan([clean], budget);
		const at = multi ? { polygon: p } : {};
		if (scan.crossings.length > 0) {
			const near = scan.crossings[0].map(round6);
			add(
				'error',
				'self_intersection',
				`the polygon boundary crosses itself (self-intersection${multi ? ` in polygon ${p}` : ''}) ${crossingCount(scan)}, first near [${near.join(', ')}]. A "bow tie" or a hole crossing the outer ring is invalid: redraw the boundary so that no edges cross, or split it into separate polygons. "Repair Geometry" cannot fix this.`,
				{ ...at, near },
			);
		} else if (scan.outOfBudget) {
			add(
				'error',
				'crossing_check_incomplete',
				incompleteScan(
					budget,
					vertices,
					`the polygon boundary${multi ? ` of polygon ${p}` : ''} crosses itself`,
				),
				at,
			);
		}
	});
	if (parts.length > 1) {
		const scan = boundedScan(parts, budget, true);
		if (scan.crossings.length > 0) {
			const near = scan.crossings[0].map(round6);
			add(
				'error',
				'polygons_overlap',
				`the polygons of the MultiPolygon cross each other ${crossingCount(scan)}, first near [${near.join(', ')}]. Merge the overlapping polygons into one, or give them as separate features.`,
				{ near },
			);
		} else if (scan.outOfBudget) {
			add(
				'error',
				'crossing_check_incomplete',
				incompleteScan(budget, vertices, 'the polygons of the MultiPolygon cross each other'),
			);
		}
	}
}

/**
 * Run by bench/overlaps.ts (6d, 6e) in a fresh process, one case per process so that its peak
 * memory (maxRSS) is its own:
 *   BENCH_CASE=rotated|rotated-old|bigpair|bigpair-old|idle  BENCH_N=<vertices>  BENCH_COPIES=<rows>
 * - `rotated`: BENCH_COPIES rows of one BENCH_N-vertex boundary, each starting at another vertex
 *   (every other one walked the other way), through Validate's pure pipeline (each row's
 *   geometry read and checked, then `validateRows` with the overlap check);
 * - `rotated-old`: today's way before issue 28: every pair the check chooses clipped (the same
 *   pairs, `sharedArea` on each), timed on BENCH_SAMPLE pairs and scaled to all of them;
 * - `bigpair`: two re-digitised outlines of one field, BENCH_N vertices each (the same wavy
 *   boundary traced twice with 0.3 m of noise: at 300,000 vertices they cross each
 *   other 167,000 times; test/helpers/overlapCases.ts), through the same pipeline;
 * - `bigpair-shared`: their shared area alone (`sharedArea`: the overlay above 10,000 edges);
 * - `bigpair-overlay`: their shared area by `overlayArea`, whatever their size;
 * - `bigpair-old`: the two outlines clipped by the sweep line (polygon-clipping) without a
 *   budget (what the check did before issue 28);
 * - `idle`: the same set-up (modules loaded, the rows built), nothing run: maxRSS's baseline.
 * Prints one JSON line: { ms (CPU: user + system), wallMs, maxRssMb, ... }.
 */
import { area } from '@turf/area';
import polygonClipping from 'polygon-clipping';

import type { Position } from '../nodes/shared/geometry';
import { checkItemGeometry } from '../nodes/shared/plots/geometrySource';
import { overlayArea } from '../nodes/shared/plots/overlayArea';
import { crossCheckPlots } from '../nodes/shared/plots/plotOverlaps';
import type { RowInput } from '../nodes/shared/plots/plotReports';
import { validateRows } from '../nodes/shared/plots/plotValidation';
import { sharedArea } from '../nodes/shared/plots/sharedArea';
import { bigPair, fieldOutline } from '../test/helpers/overlapCases';

const mode = process.env.BENCH_CASE ?? 'rotated';
const n = Number(process.env.BENCH_N ?? 5_000);
const copies = Number(process.env.BENCH_COPIES ?? 100);
const sample = Number(process.env.BENCH_SAMPLE ?? 6);

function rowsOf(rings: Position[][]): RowInput[] {
	return rings.map((ring, row) => ({
		row,
		geometry: checkItemGeometry('geoJson', {
			geoJson: { type: 'Polygon', coordinates: [ring] },
		}),
		fieldProblems: [],
	}));
}

const polygon = (ring: Position[]) => ({ type: 'Polygon' as const, coordinates: [ring] });

function rotatedCopies(): Position[][] {
	const base = fieldOutline(n, 0.004, 0.000002, 0, 3).slice(0, n);
	return Array.from({ length: copies }, (_, k) => {
		const start = Math.floor((k * n) / copies);
		const ring = [...base.slice(start), ...base.slice(0, start)];
		if (k % 2 === 1) ring.reverse();
		return [...ring, ring[0]];
	});
}

const started = performance.now();
const cpu = process.cpuUsage();
const out: Record<string, unknown> = {};
if (mode === 'rotated') {
	const { summary } = validateRows(rowsOf(rotatedCopies()), { repair: false, overlaps: true });
	out.summary = summary;
} else if (mode === 'rotated-old') {
	const rings = rotatedCopies();
	const shapes = rings.map((ring, row) => ({ row, feature: 0, geometry: polygon(ring) }));
	// the pairs the check chooses: measured pairs of a check that could not tell the copies apart
	const pairs = crossCheckPlots(shapes, { overlaps: true }).measuredPairs;
	const t = performance.now();
	for (let k = 0; k < sample; k++)
		sharedArea(shapes[k].geometry, shapes[(k + 1 + (k % 7)) % copies].geometry);
	out.perPairMs = (performance.now() - t) / sample;
	out.pairs = pairs;
	out.predictedMs = (out.perPairMs as number) * pairs;
} else if (mode === 'bigpair') {
	const { summary, reports } = validateRows(rowsOf(bigPair(n)), { repair: false, overlaps: true });
	out.summary = summary;
	out.codes = reports.map((r) => [...r.problems, ...r.warnings].map((p) => p.code));
} else if (mode === 'bigpair-shared') {
	const [a, b] = bigPair(n);
	const shared = sharedArea(polygon(a), polygon(b));
	out.m2 = shared.m2;
	out.by = shared.by;
} else if (mode === 'bigpair-overlay') {
	const [a, b] = bigPair(n);
	out.m2 = overlayArea(polygon(a), polygon(b));
} else if (mode === 'bigpair-old') {
	// the sweep line (polygon-clipping) on the whole pair, as the check clipped before issue 28
	const [a, b] = bigPair(n);
	const shared = polygonClipping.intersection([a] as never, [b] as never);
	out.m2 = area({ type: 'MultiPolygon', coordinates: shared });
} else {
	out.rows = mode === 'idle-big' ? bigPair(n).length : rotatedCopies().length;
}
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
console.log(
	JSON.stringify({
		ms: (used.user + used.system) / 1000,
		wallMs,
		maxRssMb: process.resourceUsage().maxRSS / 1024,
		...out,
	}),
);

/**
 * 6. Plot → Validate with the overlap check across all rows, through n8n's engine, on realistic
 *    smallholder plots, beside a naive all-pairs check; growth of both with the row count.
 *
 * The plots: villages of 100 farms (a jittered 10 × 10 grid, 300 m apart), each farm a walked
 * outline of 12–40 vertices (smooth waves plus GPS-like jitter, six decimals) of 0.5–6 ha;
 * about 3 % of the farms drawn over a neighbour (overlaps) and 1 % listed twice (exact
 * duplicates). Villages lie 5.5 km apart, so the density stays the same as the file grows.
 */
import { area } from '@turf/area';
import { intersect } from '@turf/intersect';
import type { IDataObject } from 'n8n-workflow';

import type { Polygon } from '../nodes/shared/geometry';
import { crossCheckPlots, sharedArea } from '../nodes/shared/plots/overlaps';
import { CredentialStore, runNode } from '../test/helpers/engine';
import { envNumber, envNumbers, fittedExponent, fmt, median, nowMs, prng, record } from './lib';

type Ring = number[][];

function outline(lon: number, lat: number, ha: number, vertices: number, rnd: () => number): Ring {
	const radiusM = Math.sqrt((ha * 10_000) / Math.PI);
	const dLat = radiusM / 111_320;
	const dLon = dLat / Math.cos((lat * Math.PI) / 180);
	const p1 = rnd() * 2 * Math.PI;
	const p2 = rnd() * 2 * Math.PI;
	const spacing = (2 * Math.PI) / vertices;
	const ring: Ring = [];
	for (let i = 0; i < vertices; i++) {
		const a = spacing * i;
		const r =
			1 + 0.15 * Math.sin(2 * a + p1) + 0.06 * Math.sin(5 * a + p2) + (rnd() - 0.5) * 0.5 * spacing;
		ring.push([
			Number((lon + Math.cos(a) * r * dLon).toFixed(6)),
			Number((lat + Math.sin(a) * r * dLat).toFixed(6)),
		]);
	}
	ring.push([...ring[0]]);
	return ring;
}

/** `n` input rows, each `{ geojson: Feature }`, seeded: the same plots every run. */
export function realisticPlots(n: number, seed = 11): IDataObject[] {
	const rnd = prng(seed);
	const rows: IDataObject[] = [];
	let previous: { lon: number; lat: number; ring: Ring } | undefined;
	for (let i = 0; i < n; i++) {
		const village = Math.floor(i / 100);
		const cell = i % 100;
		const vLon = -7 + (village % 40) * 0.05;
		const vLat = 5 + Math.floor(village / 40) * 0.05;
		let lon = vLon + (cell % 10) * 0.0027 + (rnd() - 0.5) * 0.0006;
		let lat = vLat + Math.floor(cell / 10) * 0.0027 + (rnd() - 0.5) * 0.0006;
		const roll = rnd();
		let ring: Ring;
		if (previous && roll < 0.01) {
			ring = previous.ring; // listed twice
		} else {
			if (previous && roll < 0.04) {
				// drawn over the neighbour: its centre 100–150 m from the neighbour's
				lon = previous.lon + (0.0009 + rnd() * 0.0004);
				lat = previous.lat;
			}
			ring = outline(lon, lat, 0.5 + rnd() * 5.5, 12 + Math.floor(rnd() * 29), rnd);
		}
		previous = { lon, lat, ring };
		rows.push({
			farm: `F-${i}`,
			geojson: {
				type: 'Feature',
				properties: {},
				geometry: { type: 'Polygon', coordinates: [ring] },
			},
		});
	}
	return rows;
}

async function validateThroughEngine(rows: IDataObject[]) {
	const t = nowMs();
	const { items, error } = await runNode({
		parameters: {
			resource: 'plot',
			operation: 'validate',
			geometrySource: 'geoJson',
			geoJson: '={{ $json.geojson }}',
			output: 'summary',
		},
		input: rows,
		store: new CredentialStore(),
		withCredential: false,
	});
	const ms = nowMs() - t;
	if (error) throw error;
	return { ms, summary: items[0].json };
}

type Box = [number, number, number, number];

/**
 * The naive check: every pair of plots (n² / 2), a bounding-box test per pair, and Turf's
 * intersect + area for the pairs whose boxes share area (what a workflow with a Code node
 * looping over all pairs would do, at best).
 */
function naiveAllPairs(polygons: Polygon[]): number {
	// exact duplicates are told apart by Validate; left out here so that the counts compare
	const keys = polygons.map((p) => JSON.stringify(p.coordinates));
	const boxes: Box[] = polygons.map((p) => {
		const xs = p.coordinates[0].map((c) => c[0]);
		const ys = p.coordinates[0].map((c) => c[1]);
		return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
	});
	let overlaps = 0;
	for (let i = 0; i < polygons.length; i++) {
		for (let j = i + 1; j < polygons.length; j++) {
			const a = boxes[i];
			const b = boxes[j];
			if (Math.min(a[2], b[2]) <= Math.max(a[0], b[0])) continue;
			if (Math.min(a[3], b[3]) <= Math.max(a[1], b[1])) continue;
			if (keys[i] === keys[j]) continue;
			const shared = intersect({
				type: 'FeatureCollection',
				features: [
					{ type: 'Feature', properties: {}, geometry: polygons[i] },
					{ type: 'Feature', properties: {}, geometry: polygons[j] },
				],
			});
			if (shared && area(shared) >= 1) overlaps++;
		}
	}
	return overlaps;
}

export async function overlapsBench(): Promise<void> {
	const section = 'overlaps';
	const plots = envNumber('BENCH_OVERLAP_PLOTS', 10_000);
	const sizes = envNumbers('BENCH_OVERLAP_SIZES', [1_250, 2_500, 5_000, 10_000]).filter(
		(n) => n <= plots,
	);
	const naiveBudgetMs = envNumber('BENCH_NAIVE_OVERLAP_BUDGET_MS', 20_000);
	console.log(
		`\n## 6. Validate with overlaps: ${fmt(plots)} realistic plots through the engine, growth ${fmt(sizes[0])}–${fmt(sizes[sizes.length - 1])} rows`,
	);
	const all = realisticPlots(plots);
	await validateThroughEngine(all.slice(0, 500)); // warm-up (engine, Turf, the index)

	const ours: Array<{ n: number; ms: number }> = [];
	const naive: Array<{ n: number; ms: number }> = [];
	let summary: IDataObject = {};
	for (const n of sizes) {
		const rows = all.slice(0, n);
		const runs: number[] = [];
		for (let r = 0; r < (n <= 2_500 ? 3 : 2); r++) {
			const result = await validateThroughEngine(rows);
			runs.push(result.ms);
			summary = result.summary;
		}
		const ms = median(runs);
		ours.push({ n, ms });
		const polygons = rows.map(
			(row) => ((row.geojson as IDataObject).geometry as unknown as Polygon) ?? null,
		);
		let line = `  ${fmt(n).padStart(6)} rows: Validate ${fmt(ms)} ms (${summary.overlapping_pairs} overlapping pairs, ${summary.duplicate_pairs} duplicates)`;
		const last = naive[naive.length - 1];
		const predicted = last ? last.ms * (n / last.n) ** 2 : 0;
		if (predicted <= naiveBudgetMs) {
			const t = nowMs();
			const found = naiveAllPairs(polygons);
			const nms = nowMs() - t;
			naive.push({ n, ms: nms });
			line += `; naive all pairs ${fmt(nms)} ms (${found} overlaps)`;
			if (found !== Number(summary.overlapping_pairs))
				throw new Error(
					`naive found ${found} overlapping pairs, Validate ${summary.overlapping_pairs}`,
				);
		} else line += `; naive skipped (predicted ${fmt(predicted / 1000)} s)`;
		console.log(line);
	}
	const top = ours[ours.length - 1];
	const naiveTop = naive.find((p) => p.n === top.n);
	const lastNaive = naive[naive.length - 1];
	record({
		section,
		name: `${fmt(top.n)} plots: Validate with overlaps, through the engine (${summary.overlapping_pairs} overlapping pairs, ${summary.duplicate_pairs} duplicates)`,
		value: top.ms / 1000,
		unit: 's',
		baseline: (naiveTop?.ms ?? lastNaive.ms * (top.n / lastNaive.n) ** 2) / 1000,
		baselineLabel: naiveTop
			? 'naive: every pair, Turf where boxes meet; overlaps only'
			: `naive all pairs, extrapolated from ${fmt(lastNaive.n)}`,
		target: '< 2 s',
		ok: top.ms < 2000,
	});
	const b = fittedExponent(ours);
	record({
		section,
		name: `growth exponent b (time ∝ n^b), ${fmt(sizes[0])}–${fmt(top.n)} rows`,
		value: b,
		unit: '',
		baseline: naive.length >= 2 ? fittedExponent(naive) : undefined,
		baselineLabel: `naive, ${fmt(naive[0]?.n ?? 0)}–${fmt(lastNaive?.n ?? 0)} rows`,
		target: 'b < 1.3',
		ok: b < 1.3,
		note: ours.map((p) => `${fmt(p.n)}: ${fmt(p.ms)} ms`).join(', '),
	});

	// The cross-row check alone, on larger files: the index beside every pair with the same
	// exact step (only the index differs), so the growth of each shows.
	const crossSizes = envNumbers('BENCH_CROSS_SIZES', [5_000, 10_000, 20_000, 40_000]);
	const indexed: Array<{ n: number; ms: number }> = [];
	const pairs: Array<{ n: number; ms: number }> = [];
	let last: ReturnType<typeof crossCheckPlots> | undefined;
	for (const n of crossSizes) {
		const shapes = realisticPlots(n).map((row, i) => ({
			row: i,
			feature: 0,
			geometry: (row.geojson as IDataObject).geometry as unknown as Polygon,
		}));
		crossCheckPlots(shapes.slice(0, 500)); // warm-up
		const t = nowMs();
		last = crossCheckPlots(shapes);
		indexed.push({ n, ms: nowMs() - t });
		const t2 = nowMs();
		const found = allPairsSameStep(shapes.map((s) => s.geometry));
		pairs.push({ n, ms: nowMs() - t2 });
		if (found !== last.overlaps.length)
			throw new Error(`all pairs found ${found} overlaps, the index ${last.overlaps.length}`);
		console.log(
			`  cross-row check, ${fmt(n).padStart(6)} plots: index ${fmt(indexed[indexed.length - 1].ms)} ms, every pair ${fmt(pairs[pairs.length - 1].ms)} ms (${found} overlaps; clipped ${last.clippedPairs} of ${last.candidatePairs} candidate pairs)`,
		);
	}
	const big = indexed[indexed.length - 1];
	record({
		section,
		name: `${fmt(big.n)} plots: duplicates + overlaps alone (index, exact shared area; clipped ${last?.clippedPairs} of ${last?.candidatePairs} candidate pairs)`,
		value: big.ms,
		unit: 'ms',
		baseline: pairs[pairs.length - 1].ms,
		baselineLabel: 'every pair, same exact step',
	});
	record({
		section,
		name: `cross-row check: growth exponent b, ${fmt(crossSizes[0])}–${fmt(big.n)} plots`,
		value: fittedExponent(indexed),
		unit: '',
		baseline: fittedExponent(pairs),
		baselineLabel: 'every pair',
		target: 'b < 1.3',
		ok: fittedExponent(indexed) < 1.3,
		note: indexed.map((p) => `${fmt(p.n)}: ${fmt(p.ms)} ms`).join(', '),
	});
}

/** Every pair (n² / 2 box tests), then the same exact step as the index's candidates get. */
function allPairsSameStep(polygons: Polygon[]): number {
	const boxes: Box[] = polygons.map((p) => {
		let minX = Infinity;
		let minY = Infinity;
		let maxX = -Infinity;
		let maxY = -Infinity;
		for (const [x, y] of p.coordinates[0]) {
			if (x < minX) minX = x;
			if (y < minY) minY = y;
			if (x > maxX) maxX = x;
			if (y > maxY) maxY = y;
		}
		return [minX, minY, maxX, maxY];
	});
	const keys = polygons.map((p) => JSON.stringify(p.coordinates));
	let overlaps = 0;
	for (let i = 0; i < polygons.length; i++) {
		const a = boxes[i];
		for (let j = i + 1; j < polygons.length; j++) {
			const b = boxes[j];
			if (Math.min(a[2], b[2]) <= Math.max(a[0], b[0])) continue;
			if (Math.min(a[3], b[3]) <= Math.max(a[1], b[1])) continue;
			if (keys[i] === keys[j]) continue;
			const m2 = sharedArea(polygons[i], polygons[j]).m2;
			if (m2 >= 1) overlaps++;
		}
	}
	return overlaps;
}

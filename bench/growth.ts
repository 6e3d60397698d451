/**
 * 2b. Pre-flight growth: how the check the node runs on every item before the first request
 *    (`readItemGeometry`: parse, validate, describe; what Plot → Register and Protected Area →
 *    Check call) grows with the size of one item's geometry, fitted as time ∝ n^b by least
 *    squares on log–log, for
 *    - WKT polygons of 1,000–100,000 vertices: the new reader (geometry/wkt.ts) beside the parser
 *      it replaced, @terraformer/wkt (run while its predicted time fits a budget);
 *    - GeoJSON text of 0.2–20 MB: one big polygon, and a FeatureCollection of 100 features (the
 *      Protected Area Check's per-item limit); the crossing sweep (geometry/crossings.ts) beside
 *      sweepline-intersections, the library it replaced.
 *    Times are CPU time of this process (the machine's two cores are shared with other work),
 *    the median of several runs after a warm-up run at the same size.
 */
import { wktToGeoJSON } from '@terraformer/wkt';
import sweeplineIntersections from 'sweepline-intersections';

import { parseWkt } from '../nodes/shared/geometry';
import { findCrossings } from '../nodes/shared/geometry/crossings';
import { readItemGeometry, type GeometrySource } from '../nodes/shared/plots/geometrySource';
import { cpuMs, envNumber, envNumbers, fittedExponent, fmt, median, prng, record } from './lib';
import { starRing, type Ring } from './validation';

type Point = { n: number; ms: number };

/** The WKT parse step as it was: the same clean-up, then @terraformer/wkt. */
function terraformerParse(wkt: string): void {
	const text = wkt
		.trim()
		.toUpperCase()
		.replace(/^([A-Z]+?)(ZM|Z|M)\s*\(/, (_m, word: string, dims: string) => `${word} ${dims} (`);
	const geometry = wktToGeoJSON(text) as { type?: string };
	if (geometry.type !== 'Polygon') throw new Error('bench WKT read wrongly by Terraformer');
}

/** CPU ms of `fn`: the median of `repeats` runs after one warm-up run. */
function measure(fn: () => void, repeats: number): number {
	fn();
	const samples: number[] = [];
	for (let i = 0; i < repeats; i++) {
		const t = cpuMs();
		fn();
		samples.push(cpuMs() - t);
	}
	return median(samples);
}

/** More runs for small inputs, where one run is short and noisy; three for the largest. */
function repeatsFor(n: number): number {
	return Math.max(3, Math.min(15, Math.round(300_000 / n)));
}

/** The node's pre-flight of one item; throws when the bench input is not valid. */
function preflight(source: GeometrySource, value: unknown, maxFeatures?: number): void {
	const values = source === 'wkt' ? { wkt: value } : { geoJson: value };
	const result = readItemGeometry(0, source, values, { maxFeatures });
	if (result.errors.length > 0)
		throw new Error(`bench input unexpectedly invalid: ${result.errors.slice(0, 2).join(' | ')}`);
}

function wktOf(ring: Ring): string {
	return `POLYGON ((${ring.map(([x, y]) => `${x} ${y}`).join(', ')}))`;
}

function polygonFeature(ring: Ring) {
	return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** ms at each size, for the notes: "1,000: 2.1 ms, …". */
function series(points: Point[], unit = 'ms'): string {
	return points.map((p) => `${fmt(p.n)}: ${fmt(p.ms)} ${unit}`).join(', ');
}

/** The budgeted baseline: measured while the time predicted from the last size (∝ n^b) fits. */
function budgeted(
	sizes: number[],
	budgetMs: number,
	b: number,
	run: (n: number) => number,
): { measured: Point[]; skipped: Array<{ n: number; predictedMs: number }> } {
	const measured: Point[] = [];
	const skipped: Array<{ n: number; predictedMs: number }> = [];
	for (const n of sizes) {
		const last = measured[measured.length - 1];
		const predictedMs = last ? last.ms * (n / last.n) ** b : 0;
		if (skipped.length > 0 || predictedMs > budgetMs) skipped.push({ n, predictedMs });
		else measured.push({ n, ms: run(n) });
	}
	return { measured, skipped };
}

export async function growthBench(): Promise<void> {
	const section = 'growth';
	const wktSizes = envNumbers('BENCH_WKT_SIZES', [1_000, 3_000, 10_000, 30_000, 100_000]);
	const megabytes = envNumbers('BENCH_GEOJSON_MB', [0.2, 0.6, 2, 6, 20]);
	const oldWktBudgetMs = envNumber('BENCH_OLD_WKT_BUDGET_MS', 15_000);
	const oldSweepBudgetMs = envNumber('BENCH_OLD_SWEEP_BUDGET_MS', 10_000);
	const target = 1.2;
	console.log(
		`\n## 2b. Pre-flight growth: WKT ${fmt(wktSizes[0])}–${fmt(wktSizes[wktSizes.length - 1])} vertices, GeoJSON ${megabytes[0]}–${megabytes[megabytes.length - 1]} MB (CPU time, time ∝ n^b)`,
	);

	// 3a. WKT: one polygon per size, realistic outline, six decimals
	const rnd = prng(11);
	const wkt = new Map(wktSizes.map((n) => [n, wktOf(starRing(n, -52, -12, 30, rnd, 6))]));
	const wktPreflight: Point[] = [];
	const newParse: Point[] = [];
	for (const n of wktSizes) {
		const text = wkt.get(n)!;
		const repeats = repeatsFor(n);
		wktPreflight.push({ n, ms: measure(() => preflight('wkt', text), repeats) });
		newParse.push({ n, ms: measure(() => parseWkt(text), repeats) });
		console.log(
			`  WKT ${fmt(n).padStart(7)} vertices (${fmt(text.length / 1024)} KB): pre-flight ${fmt(wktPreflight[wktPreflight.length - 1].ms)} ms, parse ${fmt(newParse[newParse.length - 1].ms)} ms`,
		);
	}
	const old = budgeted(wktSizes, oldWktBudgetMs, 2, (n) => {
		const text = wkt.get(n)!;
		const ms = measure(() => terraformerParse(text), n >= 10_000 ? 1 : 3);
		console.log(`  WKT ${fmt(n).padStart(7)} vertices: @terraformer/wkt parse ${fmt(ms)} ms`);
		return ms;
	});
	for (const s of old.skipped)
		console.log(
			`  WKT ${fmt(s.n).padStart(7)} vertices: @terraformer/wkt skipped (predicted ${fmt(s.predictedMs / 1000)} s, ∝ n²)`,
		);
	const oldB = old.measured.length >= 2 ? fittedExponent(old.measured) : undefined;
	// Terraformer's quadratic part shows only above ~10,000 vertices: the slope of its last step
	const lastTwo = old.measured.slice(-2);
	const oldLocal =
		lastTwo.length === 2
			? `; @terraformer/wkt between ${fmt(lastTwo[0].n)} and ${fmt(lastTwo[1].n)} vertices: b = ${fittedExponent(lastTwo).toFixed(2)}`
			: '';
	const bWkt = fittedExponent(wktPreflight);
	record({
		section,
		name: `WKT pre-flight (parse + validate), ${fmt(wktSizes[0])}–${fmt(wktSizes[wktSizes.length - 1])} vertices: exponent b`,
		value: bWkt,
		unit: '',
		baseline: oldB,
		baselineLabel: `@terraformer/wkt parse alone, ${fmt(old.measured[0]?.n ?? 0)}–${fmt(old.measured[old.measured.length - 1]?.n ?? 0)} vertices`,
		target: `b < ${target}`,
		ok: bWkt < target,
		note: series(wktPreflight),
	});
	record({
		section,
		name: 'WKT parse alone: exponent b',
		value: fittedExponent(newParse),
		unit: '',
		baseline: oldB,
		baselineLabel: '@terraformer/wkt',
		note: series(newParse) + oldLocal,
	});
	for (const p of old.measured.slice(-1)) {
		const ours = newParse.find((q) => q.n === p.n)!;
		record({
			section,
			name: `WKT parse, ${fmt(p.n)} vertices`,
			value: ours.ms,
			unit: 'ms',
			baseline: p.ms,
			baselineLabel: '@terraformer/wkt, measured',
		});
	}
	for (const s of old.skipped.slice(-1)) {
		const ours = newParse.find((q) => q.n === s.n)!;
		record({
			section,
			name: `WKT parse, ${fmt(s.n)} vertices`,
			value: ours.ms,
			unit: 'ms',
			baseline: s.predictedMs,
			baselineLabel: '@terraformer/wkt, predicted ∝ n² from the last size measured',
		});
	}

	// 3b. GeoJSON text: one big polygon, then 100 features, of the same total sizes
	const perVertex =
		JSON.stringify(polygonFeature(starRing(10_000, -52, -12, 30, rnd, 6))).length / 10_000;
	const verticesFor = (mb: number) => Math.round((mb * 1e6) / perVertex);
	const onePolygon: Point[] = [];
	const manyFeatures: Point[] = [];
	const newSweep: Point[] = [];
	const rings = new Map<number, Ring>();
	let biggest = { mb: 0, ms: 0 };
	for (const mb of megabytes) {
		const n = verticesFor(mb);
		const ring = starRing(n, -52, -12, 30, rnd, 6);
		rings.set(n, ring);
		const text = JSON.stringify(polygonFeature(ring));
		const repeats = repeatsFor(n);
		const ms = measure(() => preflight('geoJson', text), repeats);
		onePolygon.push({ n, ms });
		newSweep.push({ n, ms: measure(() => findCrossings([[ring]]), repeats) });
		const k = 100;
		const collection = JSON.stringify({
			type: 'FeatureCollection',
			features: Array.from({ length: k }, (_, i) =>
				polygonFeature(
					starRing(
						Math.round(n / k),
						-55 + (i % 10) * 0.1,
						-12 + Math.floor(i / 10) * 0.1,
						3,
						rnd,
						6,
					),
				),
			),
		});
		manyFeatures.push({ n, ms: measure(() => preflight('geoJson', collection, k), repeats) });
		biggest = { mb: text.length / 1e6, ms };
		console.log(
			`  GeoJSON ${fmt(text.length / 1e6).padStart(5)} MB (${fmt(n)} vertices): one polygon ${fmt(ms)} ms (sweep ${fmt(newSweep[newSweep.length - 1].ms)} ms), 100 features ${fmt(manyFeatures[manyFeatures.length - 1].ms)} ms`,
		);
	}
	const sizes = [...rings.keys()];
	const oldSweep = budgeted(sizes, oldSweepBudgetMs, 1.5, (n) => {
		const ring = rings.get(n)!;
		const ms = measure(
			() => sweeplineIntersections(polygonFeature(ring) as never, false),
			n >= 100_000 ? 1 : 3,
		);
		console.log(`  ${fmt(n).padStart(7)} vertices: sweepline-intersections ${fmt(ms)} ms`);
		return ms;
	});
	for (const s of oldSweep.skipped)
		console.log(
			`  ${fmt(s.n).padStart(7)} vertices: sweepline-intersections skipped (predicted ${fmt(s.predictedMs / 1000)} s)`,
		);
	const range = `${megabytes[0]}–${megabytes[megabytes.length - 1]} MB (${fmt(sizes[0])}–${fmt(sizes[sizes.length - 1])} vertices)`;
	const bOne = fittedExponent(onePolygon);
	record({
		section,
		name: `GeoJSON pre-flight, one polygon, ${range}: exponent b`,
		value: bOne,
		unit: '',
		target: `b < ${target}`,
		ok: bOne < target,
		note: series(onePolygon),
	});
	const bMany = fittedExponent(manyFeatures);
	record({
		section,
		name: `GeoJSON pre-flight, 100 features, ${range}: exponent b`,
		value: bMany,
		unit: '',
		target: `b < ${target}`,
		ok: bMany < target,
		note: series(manyFeatures),
	});
	record({
		section,
		name: `GeoJSON pre-flight, one ${fmt(biggest.mb)} MB polygon`,
		value: biggest.ms / 1000,
		unit: 's',
	});
	const oldSweepB = oldSweep.measured.length >= 2 ? fittedExponent(oldSweep.measured) : undefined;
	record({
		section,
		name: 'crossing sweep alone (findCrossings): exponent b',
		value: fittedExponent(newSweep),
		unit: '',
		baseline: oldSweepB,
		baselineLabel: `sweepline-intersections, ${fmt(oldSweep.measured[0]?.n ?? 0)}–${fmt(oldSweep.measured[oldSweep.measured.length - 1]?.n ?? 0)} vertices`,
		note: series(newSweep),
	});
	for (const p of oldSweep.measured.slice(-1)) {
		record({
			section,
			name: `crossing sweep, ${fmt(p.n)} vertices`,
			value: newSweep.find((q) => q.n === p.n)!.ms,
			unit: 'ms',
			baseline: p.ms,
			baselineLabel: 'sweepline-intersections',
		});
	}
}

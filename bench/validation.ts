/**
 * 2. Validation throughput of the pure geometry module (parse + validate, as Plot → Register
 *    does per item), side by side with @turf/kinks (the naive pairwise self-intersection scan).
 *    Times are CPU time of this process (`cpuMs`): the work is CPU-bound, and CPU time does not
 *    grow when other processes share the machine's two cores.
 */
import { kinks } from '@turf/kinks';

import { parseGeoJsonValue, validateFeatures } from '../nodes/shared/geometry';
import { cpuMs, envNumber, envNumbers, fittedExponent, fmt, median, prng, record } from './lib';

export type Ring = number[][];

/**
 * A simple (star-shaped) polygon ring of `n` vertices around (lon, lat), `radiusKm` wide:
 * angles strictly increasing, so it never crosses itself.
 * - 'outline' (realistic, the default): a smooth wavy outline (a few harmonics) plus GPS-like
 *   jitter of about a third of the vertex spacing, like a walked or digitised boundary;
 * - 'spiky' (adversarial): every vertex's radius jittered by ±20 %, so each edge is a long
 *   radial spike and any vertical line crosses O(n) edges — the worst case of a sweep line.
 */
export function starRing(
	n: number,
	lon: number,
	lat: number,
	radiusKm: number,
	rnd: () => number,
	decimals?: number,
	shape: 'outline' | 'spiky' = 'outline',
): Ring {
	const dLat = radiusKm / 111.32;
	const dLon = dLat / Math.cos((lat * Math.PI) / 180);
	const round =
		decimals === undefined ? (x: number) => x : (x: number) => Number(x.toFixed(decimals));
	const p1 = rnd() * 2 * Math.PI;
	const p2 = rnd() * 2 * Math.PI;
	const spacing = (2 * Math.PI) / n;
	const ring: Ring = [];
	for (let i = 0; i < n; i++) {
		const a = spacing * i;
		const r =
			shape === 'spiky'
				? 0.8 + 0.4 * rnd()
				: 1 +
					0.15 * Math.sin(3 * a + p1) +
					0.05 * Math.sin(11 * a + p2) +
					(rnd() - 0.5) * 0.6 * spacing;
		ring.push([round(lon + Math.cos(a) * r * dLon), round(lat + Math.sin(a) * r * dLat)]);
	}
	ring.push([...ring[0]]);
	return ring;
}

function feature(ring: Ring) {
	return { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } };
}

/** Parse + validate one item's GeoJSON value, as the node does; throws when it is not valid. */
function validateOne(value: unknown): void {
	const parsed = parseGeoJsonValue(value);
	const result = validateFeatures(parsed.features, { crs: parsed.crs });
	if (!result.valid)
		throw new Error(
			`bench input unexpectedly invalid: ${JSON.stringify(result.problems.slice(0, 2))}`,
		);
}

function time(fn: () => void, repeats = 1): number {
	const samples: number[] = [];
	for (let i = 0; i < repeats; i++) {
		const t = cpuMs();
		fn();
		samples.push(cpuMs() - t);
	}
	return median(samples);
}

export async function validationBench(): Promise<void> {
	const section = 'validation';
	const plots = envNumber('BENCH_PLOTS', 10_000);
	const sizes = envNumbers('BENCH_VERTEX_SIZES', [1_000, 3_000, 10_000, 30_000, 100_000]);
	const kinksBudgetMs = envNumber('BENCH_KINKS_BUDGET_MS', 5_000);
	const bigN = envNumber('BENCH_BIG_VERTICES', 20_000);
	const rnd = prng(7);
	console.log(
		`\n## 2. Validation: ${plots.toLocaleString('en-US')} typical plots, one ${fmt(bigN)}-vertex polygon, growth ${sizes[0]}–${sizes[sizes.length - 1]} vertices`,
	);

	// 2a. many typical plots: ~50 vertices, 6 decimals, a few hundred metres wide, in Brazil
	const typical = Array.from({ length: plots }, () =>
		feature(
			starRing(
				49 + Math.floor(rnd() * 4),
				-55 + rnd() * 5,
				-10 - rnd() * 5,
				0.3 + rnd() * 0.5,
				rnd,
				6,
			),
		),
	);
	for (const f of typical.slice(0, 200)) validateOne(f); // warm-up
	const oursTypicalMs = time(() => {
		for (const f of typical) validateOne(f);
	}, 3);
	const kinksSample = typical.slice(0, Math.min(plots, 2_000));
	const kinksTypicalMs =
		time(() => {
			for (const f of kinksSample) kinks(f as never);
		}, 1) *
		(plots / kinksSample.length);
	record({
		section,
		name: `${plots.toLocaleString('en-US')} plots of ~50 vertices (parse + validate)`,
		value: oursTypicalMs / 1000,
		unit: 's',
		baseline: kinksTypicalMs / 1000,
		baselineLabel: '@turf/kinks alone',
		target: '< 1 s',
		ok: oursTypicalMs < 1000,
		note: kinksSample.length < plots ? `kinks on ${kinksSample.length} plots, scaled` : undefined,
	});

	// 2b. one big polygon
	const big = feature(starRing(bigN, -52, -12, 20, rnd));
	validateOne(big); // warm-up
	const oursBigMs = time(() => validateOne(big), 3);
	const kinksBigMs = time(() => kinks(big as never), 1);
	record({
		section,
		name: `one ${fmt(bigN)}-vertex polygon`,
		value: oursBigMs,
		unit: 'ms',
		baseline: kinksBigMs,
		baselineLabel: '@turf/kinks',
		target: '< 1,000 ms',
		ok: oursBigMs < 1000,
	});

	// 2c. growth with the vertex count
	const ours: Array<{ n: number; ms: number }> = [];
	const naive: Array<{ n: number; ms: number }> = [];
	let kinksStopped = false;
	for (const n of sizes) {
		const f = feature(starRing(n, -52, -12, 50, rnd));
		validateOne(f); // warm-up at this size
		const ms = time(() => validateOne(f), Math.max(1, Math.min(9, Math.round(30_000 / n))));
		ours.push({ n, ms });
		let line = `  ${fmt(n).padStart(7)} vertices: ours ${fmt(ms)} ms`;
		// kinks is O(n²): run it only while its predicted time stays inside the budget
		const last = naive[naive.length - 1];
		const predicted = last ? last.ms * (n / last.n) ** 2 : 0;
		if (!kinksStopped && predicted <= kinksBudgetMs) {
			const kms = time(() => kinks(f as never), 1);
			naive.push({ n, ms: kms });
			line += `, @turf/kinks ${fmt(kms)} ms (${fmt(kms / ms)}×)`;
		} else {
			kinksStopped = true;
			line += `, @turf/kinks skipped (predicted ${fmt(predicted / 1000)} s)`;
		}
		console.log(line);
	}
	// 2d. the adversarial shape: every edge a long radial spike (not a real plot outline)
	const spiky = feature(starRing(bigN, -52, -12, 20, rnd, undefined, 'spiky'));
	validateOne(spiky);
	const spikyMs = time(() => validateOne(spiky), 1);
	const spikyKinksMs = time(() => kinks(spiky as never), 1);
	record({
		section,
		name: `one ${fmt(bigN)}-vertex spiky polygon (adversarial: every edge a radial spike)`,
		value: spikyMs,
		unit: 'ms',
		baseline: spikyKinksMs,
		baselineLabel: '@turf/kinks',
		target: '< 1,000 ms',
		ok: spikyMs < 1000,
	});

	const b = fittedExponent(ours);
	// the exponent n log n itself shows over the same sizes (log-log slope of n·log n)
	const nlogn = fittedExponent(sizes.map((n) => ({ n, ms: n * Math.log(n) })));
	record({
		section,
		name: `growth exponent b (time ∝ n^b), ${fmt(sizes[0])}–${fmt(sizes[sizes.length - 1])} vertices`,
		value: b,
		unit: '',
		baseline: naive.length >= 2 ? fittedExponent(naive) : undefined,
		baselineLabel: `@turf/kinks, ${fmt(naive[0]?.n ?? 0)}–${fmt(naive[naive.length - 1]?.n ?? 0)} vertices`,
		target: `close to n log n (b ≈ ${nlogn.toFixed(2)}): b < 1.2`,
		ok: b < 1.2,
		note: ours.map((p) => `${fmt(p.n)}: ${fmt(p.ms)} ms`).join(', '),
	});
}

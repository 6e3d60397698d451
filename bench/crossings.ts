/**
 * Worst cases of the crossing check (issue 20, "Bounded on any input"), each case in a fresh
 * process (bench/crossings-child.ts) so that its time and peak memory (maxRSS) are its own:
 *
 * - a self-crossing star of BENCH_STAR_N vertices (default 100,000; each vertex joined to the
 *   one about n/2 further round): the whole pre-flight of one item (parse + validate) against
 *   the sweep as it was before (every crossing kept), measured on smaller stars and predicted
 *   for the big one (time ∝ n², memory ∝ crossings ∝ n²);
 * - a saw of BENCH_SAW_N long teeth side by side (no crossing, but every edge overlaps every
 *   other one along the sweep): the budget of edge tests ends the check; before, n²/2 tests.
 *
 * Times are CPU time (user + system) of the child, as in section 2: the machine is shared, and
 * CPU time does not grow when other processes take the cores (wall time is printed beside it).
 * Memory is the child's maxRSS less that of an idle child with the same set-up (modules loaded,
 * the GeoJSON text built): what the check itself added.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { envNumber, envNumbers, fittedExponent, fmt, record } from './lib';

const section = 'crossings';

interface Run {
	ms: number;
	wallMs: number;
	maxRssMb: number;
	codes: string[];
	crossings: number;
}

function child(mode: 'bounded' | 'old' | 'idle', shape: 'star' | 'saw', n: number): Run {
	const out = execFileSync(
		process.execPath,
		[path.join(__dirname, 'run-ts.js'), path.join(__dirname, 'crossings-child.ts')],
		{
			cwd: path.join(__dirname, '..'),
			encoding: 'utf8',
			env: { ...process.env, BENCH_CASE: mode, BENCH_SHAPE: shape, BENCH_N: String(n) },
			stdio: ['ignore', 'pipe', 'pipe'],
			maxBuffer: 1 << 20,
		},
	);
	return JSON.parse(out.trim().split('\n').pop()!) as Run;
}

/** The best of `repeats` runs (the machine is shared: the least disturbed run). */
function best(repeats: number, run: () => Run): Run {
	let min: Run | undefined;
	for (let i = 0; i < repeats; i++) {
		const r = run();
		if (!min || r.ms < min.ms) min = { ...r, maxRssMb: Math.max(r.maxRssMb, min?.maxRssMb ?? 0) };
	}
	return min!;
}

export async function crossingsBench(): Promise<void> {
	console.log('\n## Worst cases of the crossing check (each case in a fresh process)');
	const starN = envNumber('BENCH_STAR_N', 100_000);
	const sawN = envNumber('BENCH_SAW_N', 100_000);
	const oldStarSizes = envNumbers('BENCH_OLD_STAR_N', [1001, 2001, 4001]);
	const oldSawSizes = envNumbers('BENCH_OLD_SAW_N', [10_000, 20_000, 40_000]);
	// fresh processes per figure (the best is kept): the saw's cases take one fewer
	const bestOf = Math.max(1, envNumber('BENCH_CROSSINGS_BEST_OF', 3));

	// the star
	const idle = best(bestOf, () => child('idle', 'star', starN));
	const ours = best(bestOf, () => child('bounded', 'star', starN));
	const old = oldStarSizes.map((n) => {
		const idleN = child('idle', 'star', n);
		const r = child('old', 'star', n);
		console.log(
			`  old sweep, ${fmt(n)}-vertex star: ${fmt(r.ms)} ms CPU, +${fmt(r.maxRssMb - idleN.maxRssMb)} MB, ${fmt(r.crossings)} crossings kept`,
		);
		return { n, ms: r.ms, mb: r.maxRssMb - idleN.maxRssMb };
	});
	const last = old[old.length - 1];
	const scale = (starN / last.n) ** 2;
	console.log(
		`  ${fmt(starN)}-vertex star, whole pre-flight: ${fmt(ours.ms)} ms CPU (${fmt(ours.wallMs)} ms wall), maxRSS ${fmt(ours.maxRssMb)} MB (idle ${fmt(idle.maxRssMb)} MB), problems ${ours.codes.join(', ')}`,
	);
	record({
		section,
		name: `${fmt(starN)}-vertex self-crossing star: pre-flight (parse + validate), CPU time`,
		value: ours.ms / 1000,
		unit: 's',
		baseline: (last.ms * scale) / 1000,
		baselineLabel: `old sweep, predicted ∝ n² from ${fmt(last.n)} vertices (${fmt(last.ms)} ms there; exponent ${fmt(fittedExponent(old))})`,
		target: '< 2 s',
		ok: ours.ms < 2000 && ours.codes.includes('self_intersection'),
	});
	record({
		section,
		name: `${fmt(starN)}-vertex self-crossing star: memory added (maxRSS over an idle child)`,
		value: ours.maxRssMb - idle.maxRssMb,
		unit: 'MB',
		baseline: last.mb * scale,
		baselineLabel: `old sweep, predicted ∝ crossings from ${fmt(last.n)} vertices (+${fmt(last.mb)} MB there)`,
		target: '< 200 MB',
		ok: ours.maxRssMb - idle.maxRssMb < 200,
		note: `whole child ${fmt(ours.maxRssMb)} MB, of which ${fmt(idle.maxRssMb)} MB node, ts-node, the modules and the GeoJSON text`,
	});
	const small = best(bestOf, () => child('bounded', 'star', last.n));
	record({
		section,
		name: `${fmt(last.n)}-vertex star (the issue's 5 s / 640 MB case): pre-flight, CPU time`,
		value: small.ms,
		unit: 'ms',
		baseline: last.ms,
		baselineLabel: 'old sweep alone, measured',
	});

	// the saw: no crossing, every edge overlapping every other one
	const sawIdle = best(Math.max(1, bestOf - 1), () => child('idle', 'saw', sawN));
	const sawOurs = best(Math.max(1, bestOf - 1), () => child('bounded', 'saw', sawN));
	const oldSaw = oldSawSizes.map((n) => {
		const r = child('old', 'saw', n);
		console.log(`  old sweep, ${fmt(n)}-tooth saw: ${fmt(r.ms)} ms CPU`);
		return { n, ms: r.ms };
	});
	const lastSaw = oldSaw[oldSaw.length - 1];
	console.log(
		`  ${fmt(sawN)}-tooth saw, whole pre-flight: ${fmt(sawOurs.ms)} ms CPU (${fmt(sawOurs.wallMs)} ms wall), maxRSS ${fmt(sawOurs.maxRssMb)} MB (idle ${fmt(sawIdle.maxRssMb)} MB), problems ${sawOurs.codes.join(', ')}`,
	);
	record({
		section,
		name: `${fmt(sawN)}-tooth saw (budget of edge tests runs out): pre-flight, CPU time`,
		value: sawOurs.ms / 1000,
		unit: 's',
		baseline: (lastSaw.ms * (sawN / lastSaw.n) ** 2) / 1000,
		baselineLabel: `old sweep, predicted ∝ n² from ${fmt(lastSaw.n)} teeth (exponent ${fmt(fittedExponent(oldSaw))})`,
		target: '< 2 s, and reported as crossing_check_incomplete',
		ok: sawOurs.ms < 2000 && sawOurs.codes.includes('crossing_check_incomplete'),
		note: `memory added ${fmt(sawOurs.maxRssMb - sawIdle.maxRssMb)} MB`,
	});
}

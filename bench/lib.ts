/**
 * Shared bits of `npm run bench`: environment knobs, the figure table, a seeded PRNG and
 * the fake service's simulated latency. Benchmarks talk to loopback only.
 */
import type { FakeService } from '../test/fake-service';

/**
 * `BENCH_SMOKE=1 npm run bench` (CI): every section once at the sizes below, each in its own
 * process with a time limit (bench/main.ts), to prove that no section throws or stops. Not a
 * measurement: the figures are printed, but a MISSED line is no failure at these sizes.
 */
export const SMOKE = /^(1|true|yes)$/i.test((process.env.BENCH_SMOKE ?? '').trim());

/**
 * The smoke size of every knob (a few seconds a section on the 2-core dev machine). A knob
 * read through `envNumber` / `envNumbers` without an entry here runs at its full size in
 * smoke mode and says so: add its entry when adding a knob. A value set in the environment
 * wins over these.
 */
export const SMOKE_SIZES: Readonly<Record<string, string>> = {
	// registration
	BENCH_ROWS: '200',
	BENCH_NAIVE_ROWS: '20',
	BENCH_LATENCY_MS: '10',
	BENCH_PARALLEL: '4',
	// validation
	BENCH_PLOTS: '200',
	BENCH_VERTEX_SIZES: '1000,3000',
	BENCH_KINKS_BUDGET_MS: '500',
	BENCH_BIG_VERTICES: '2000',
	// growth
	BENCH_WKT_SIZES: '1000,3000',
	BENCH_GEOJSON_MB: '0.05,0.1',
	BENCH_OLD_WKT_BUDGET_MS: '500',
	BENCH_OLD_SWEEP_BUDGET_MS: '500',
	// crossings
	BENCH_STAR_N: '2001',
	BENCH_SAW_N: '2000',
	BENCH_OLD_STAR_N: '201,401',
	BENCH_OLD_SAW_N: '500,1000',
	BENCH_CROSSINGS_BEST_OF: '1',
	// overlaps
	BENCH_OVERLAP_PLOTS: '200',
	BENCH_OVERLAP_SIZES: '100,200',
	BENCH_NAIVE_OVERLAP_BUDGET_MS: '2000',
	BENCH_CROSS_SIZES: '200,400',
	BENCH_SNAPPED_FAMILIES: '1,2',
	BENCH_SNAPPED_NAIVE_MAX: '1300',
	BENCH_NEAR_IDENTICAL: '50,100',
	BENCH_BIG_PAIR_VERTICES: '1000',
	BENCH_ROTATED_VERTICES: '500',
	BENCH_ROTATED_COPIES: '10',
	// above 10,000 edges, so the overlay path runs; the budget's top smaller, none beyond it
	BENCH_BUDGET_BIG_VERTICES: '60000',
	BENCH_BUDGET_LARGEST_VERTICES: '5000',
	BENCH_BUDGET_TOP_VERTICES: '100000',
	BENCH_BUDGET_BEYOND_VERTICES: '0',
	// waiting
	BENCH_JOB_MINUTES: '1,10',
	BENCH_NAIVE_POLL_S: '5',
	// trigger
	BENCH_TRIGGER_JOBS: '10,100',
	BENCH_TRIGGER_POLLS: '2',
	// footprint
	BENCH_REQUIRE_RUNS: '1',
	BENCH_RESULT_PLOTS: '200',
	// readfile
	BENCH_GEOFILES_N: '100',
	// eu
	BENCH_EU_PRODUCERS: '100',
	BENCH_EU_VERTICES: '40',
	BENCH_EU_RUNS: '2',
	BENCH_EU_STATEMENTS: '10',
	BENCH_EU_ONCE_STATEMENTS: '10',
	// map
	BENCH_MAP_PLOTS: '100',
	BENCH_MAP_VERTICES: '5000',
	// record
	BENCH_RECORD_PLOTS: '100',
	BENCH_RECORD_VERTICES: '5000',
	// euTrigger
	BENCH_EU_TRIGGER_STATEMENTS: '10,300',
	BENCH_EU_TRIGGER_POLLS: '2',
};

/** In smoke mode, the smoke sizes into the environment (child processes read them there). */
export function applySmokeSizes(): void {
	if (!SMOKE) return;
	for (const [name, value] of Object.entries(SMOKE_SIZES)) {
		const raw = process.env[name];
		if (raw === undefined || raw.trim() === '') process.env[name] = value;
	}
}

const fullSizeInSmoke = new Set<string>();

/** The environment's text of a knob; in smoke mode, says once when a knob has no smoke size. */
function envRaw(name: string): string | undefined {
	const raw = process.env[name];
	if (SMOKE && (raw === undefined || raw.trim() === '') && !fullSizeInSmoke.has(name)) {
		fullSizeInSmoke.add(name);
		console.log(`  (smoke: ${name} has no smoke size in SMOKE_SIZES of bench/lib.ts: full size)`);
	}
	return raw;
}

/** A number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
	const raw = envRaw(name);
	if (raw === undefined || raw.trim() === '') return fallback;
	const n = Number(raw);
	if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got '${raw}'`);
	return n;
}

/** A comma-separated list of numbers from the environment, or the default. */
export function envNumbers(name: string, fallback: number[]): number[] {
	const raw = envRaw(name);
	if (raw === undefined || raw.trim() === '') return fallback;
	return raw.split(',').map((s) => {
		const n = Number(s.trim());
		if (!Number.isFinite(n))
			throw new Error(`${name} must be comma-separated numbers, got '${raw}'`);
		return n;
	});
}

export interface Figure {
	section: string;
	name: string;
	/** our figure */
	value: number;
	unit: string;
	/** the naive way's figure, measured in the same run (or the physical floor) */
	baseline?: number;
	baselineLabel?: string;
	/** a human statement of the target, e.g. "≤ 1.3× floor" */
	target?: string;
	/** whether the target is met; undefined when the figure has no target */
	ok?: boolean;
	note?: string;
}

export const figures: Figure[] = [];

export function record(f: Figure): Figure {
	figures.push(f);
	const line = formatFigure(f);
	console.log(line);
	if (f.ok === false)
		console.log(
			`  MISSED: ${f.section} / ${f.name}: ${fmt(f.value)} ${f.unit} (target ${f.target})${f.note ? ` — ${f.note}` : ''}`,
		);
	return f;
}

export function fmt(n: number): string {
	if (!Number.isFinite(n)) return String(n);
	const abs = Math.abs(n);
	if (abs >= 100 || Number.isInteger(n)) return Math.round(n).toLocaleString('en-US');
	if (abs >= 10) return n.toFixed(1);
	if (abs >= 1) return n.toFixed(2);
	return n.toPrecision(2);
}

/** ours ÷ baseline, e.g. "0.05×" */
export function ratio(f: Figure): string {
	if (f.baseline === undefined || f.baseline === 0) return '';
	return `${fmt(f.value / f.baseline)}×`;
}

export function status(f: Figure): string {
	if (f.ok === undefined) return '';
	return f.ok ? 'ok' : 'MISSED';
}

export function formatFigure(f: Figure): string {
	const base =
		f.baseline !== undefined
			? `${fmt(f.baseline)} ${f.unit} (${f.baselineLabel ?? 'baseline'})`
			: '';
	const parts = [
		`[${f.section}] ${f.name}:`,
		`${fmt(f.value)} ${f.unit}`,
		base ? `vs ${base} = ${ratio(f)}` : '',
		f.target ? `target ${f.target}: ${status(f)}` : '',
		f.note ? `(${f.note})` : '',
	];
	return parts.filter(Boolean).join(' ');
}

/** The figures as a Markdown table (for BENCHMARKS.md). */
export function markdownTable(list: Figure[]): string {
	const esc = (s: string) => s.replace(/\|/g, '\\|');
	const rows = [
		'| Section | Figure | Ours | Baseline | Ratio | Target | Result |',
		'|---|---|---|---|---|---|---|',
		...list
			.map((f) =>
				[
					f.section,
					f.name + (f.note ? ` (${f.note})` : ''),
					`${fmt(f.value)} ${f.unit}`,
					f.baseline !== undefined
						? `${fmt(f.baseline)} ${f.unit} (${f.baselineLabel ?? 'baseline'})`
						: '',
					ratio(f),
					f.target ?? '',
					status(f),
				]
					.map((c) => esc(c))
					.join(' | '),
			)
			.map((r) => `| ${r} |`),
	];
	return rows.join('\n');
}

/** Seeded PRNG (mulberry32), so every run measures the same inputs. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A ring of coordinates ([lon, lat] pairs, closed: the first vertex repeated at the end). */
export type Ring = number[][];

/** A closed ring of n vertices around (lon, lat), each at radius × 0.85–1.15 (a plot of ~1 ha). */
export function jitteredCircle(
	n: number,
	lon: number,
	lat: number,
	radius: number,
	random: () => number,
): Ring {
	const ring: Ring = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * i) / n;
		const r = radius * (0.85 + 0.3 * random());
		ring.push([lon + r * Math.cos(a), lat + r * Math.sin(a)]);
	}
	ring.push([...ring[0]]);
	return ring;
}

/** A wiggly boundary of n vertices (a survey of a large estate: ~2 km across). */
export function wiggly(n: number): Ring {
	const ring: Ring = [];
	for (let i = 0; i < n; i++) {
		const a = (2 * Math.PI * i) / n;
		const r = 0.01 * (1 + 0.08 * Math.sin(a * 37) + 0.02 * Math.sin(a * 911));
		ring.push([-55.5 + r * Math.cos(a), -6.7 + r * Math.sin(a)]);
	}
	ring.push([...ring[0]]);
	return ring;
}

/**
 * Simulated network latency on every contract request of the fake: one `delay` fault that
 * matches everything and practically never runs out (the fake's own fault mechanism, so the
 * fake needs no change). Requests in parallel are delayed in parallel, as over a network.
 */
export function setLatency(fake: FakeService, ms: number): void {
	fake.faults.clear();
	if (ms > 0) fake.faults.add({ kind: 'delay', ms, times: 1_000_000_000 });
}

export function seconds(ms: number): number {
	return ms / 1000;
}

export function nowMs(): number {
	return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * CPU time of this process in ms (user + system, all its threads, so the garbage collector's
 * helpers count too). For CPU-bound work it is what the work costs, and unlike wall time it
 * does not grow when other processes share the machine's two cores.
 */
export function cpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Least-squares slope of log(t) over log(n): t ∝ n^slope. */
export function fittedExponent(points: Array<{ n: number; ms: number }>): number {
	const xs = points.map((p) => Math.log(p.n));
	const ys = points.map((p) => Math.log(Math.max(p.ms, 1e-6)));
	const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
	const my = ys.reduce((a, b) => a + b, 0) / ys.length;
	let num = 0;
	let den = 0;
	for (let i = 0; i < xs.length; i++) {
		num += (xs[i] - mx) * (ys[i] - my);
		den += (xs[i] - mx) ** 2;
	}
	return num / den;
}

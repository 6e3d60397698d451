/**
 * Shared bits of `npm run bench`: environment knobs, the figure table, a seeded PRNG and
 * the fake service's simulated latency. Benchmarks talk to loopback only.
 */
import type { FakeService } from '../test/fake-service';

/** A number from the environment, or the default. */
export function envNumber(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw.trim() === '') return fallback;
	const n = Number(raw);
	if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got '${raw}'`);
	return n;
}

/** A comma-separated list of numbers from the environment, or the default. */
export function envNumbers(name: string, fallback: number[]): number[] {
	const raw = process.env[name];
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

/**
 * `npm run bench` (see BENCHMARKS.md). Each section prints its figures with the ratio to the
 * naive way measured in the same run, and a MISSED line for every target not met.
 *
 *   BENCH_ONLY=registration,validation,growth,crossings,overlaps,waiting,trigger,footprint,readfile,eu,euTrigger,euOnce,map,record   (default: all)
 *   the summary ends as a Markdown table (the one in BENCHMARKS.md)
 *
 * A section that throws, or that ends without recording a figure, does not stop the others:
 * it is named at the end and the run exits with 1 (a MISSED target is no failure).
 *
 *   BENCH_SMOKE=1   (CI) every section at tiny sizes (`SMOKE_SIZES` in bench/lib.ts), each in
 *                   its own process (`node bench/run.js` with BENCH_ONLY=<section>) killed
 *                   after BENCH_SMOKE_TIMEOUT_S seconds (default 300): exit 1 when a section
 *                   throws, stops or runs out of time. Not a measurement: MISSED lines are
 *                   no failures there.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

import type { FakeService } from '../test/fake-service';
import { applySmokeSizes, figures, fmt, markdownTable, SMOKE } from './lib';

/** A section's work: loaded only when the section runs (a module that fails to load fails only its section). */
const SECTIONS = {
	registration: async () => (await import('./registration')).registrationBench(),
	validation: async () => (await import('./validation')).validationBench(),
	growth: async () => (await import('./growth')).growthBench(),
	crossings: async () => (await import('./crossings')).crossingsBench(),
	overlaps: async () => (await import('./overlaps')).overlapsBench(),
	footprint: async () => (await import('./footprint')).footprintBench(),
	readfile: async () => (await import('./geofiles')).geofilesBench(),
	eu: async () => {
		const { euBench, euRateBench } = await import('./euInformationSystem');
		await euBench();
		await euRateBench();
	},
	euTrigger: async () => (await import('./euTrigger')).euTriggerBench(),
	euOnce: async () => (await import('./euOnce')).euOnceBench(),
	map: async () => (await import('./map')).mapBench(),
	record: async () => (await import('./record')).recordBench(),
	// on the fake clock, with the fake in this process
	waiting: async () => withFake(async (fake) => (await import('./waiting')).waitingBench(fake)),
	trigger: async () => withFake(async (fake) => (await import('./trigger')).triggerBench(fake)),
} satisfies Record<string, () => Promise<void>>;

type Section = keyof typeof SECTIONS;
const NAMES = Object.keys(SECTIONS) as Section[];

async function withFake(run: (fake: FakeService) => Promise<void>): Promise<void> {
	const { startFakeService } = await import('../test/fake-service');
	const fake = await startFakeService({ host: '127.0.0.1' });
	try {
		await run(fake);
	} finally {
		await fake.close();
	}
}

function wantedSections(): Section[] {
	const only = (process.env.BENCH_ONLY ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	for (const s of only)
		if (!(NAMES as string[]).includes(s))
			throw new Error(`BENCH_ONLY: unknown section '${s}' (use ${NAMES.join(', ')})`);
	return NAMES.filter((s) => only.length === 0 || only.includes(s));
}

export async function main(): Promise<number> {
	applySmokeSizes();
	const sections = wantedSections();
	// the smoke's parent: one child process per section; the child runs it as below
	if (SMOKE && process.env.BENCH_SMOKE_CHILD !== '1') return smoke(sections);

	const started = Date.now();
	const failed: string[] = [];
	for (const section of sections) {
		const before = figures.length;
		try {
			await SECTIONS[section]();
			if (figures.length === before) failed.push(`${section}: ended without recording a figure`);
		} catch (error) {
			console.error(`\n[${section}] stopped:`, error);
			failed.push(`${section}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	console.log(`\n## Summary (${((Date.now() - started) / 1000).toFixed(0)} s)`);
	console.log(markdownTable(figures));
	const missed = figures.filter((f) => f.ok === false);
	for (const f of missed)
		console.log(`MISSED: ${f.section} / ${f.name}: ${fmt(f.value)} ${f.unit} (target ${f.target})`);
	if (SMOKE && missed.length > 0)
		console.log('(smoke sizes: MISSED lines say nothing about the targets here)');
	if (missed.length === 0) console.log('All targets met.');
	for (const f of failed) console.log(`FAILED: ${f.split('\n')[0]}`);
	return failed.length > 0 ? 1 : 0;
}

/** Each section in its own `node bench/run.js` at the smoke sizes, within a time limit. */
async function smoke(sections: Section[]): Promise<number> {
	const limitS = Number(process.env.BENCH_SMOKE_TIMEOUT_S || 300);
	if (!(limitS > 0)) throw new Error('BENCH_SMOKE_TIMEOUT_S must be a number of seconds');
	const results: Array<{ section: Section; s: number; outcome: string }> = [];
	const started = Date.now();
	for (const section of sections) {
		console.log(`\n=== smoke: ${section} (time limit ${limitS} s)`);
		const t0 = Date.now();
		const outcome = await runChild(section, limitS);
		const s = (Date.now() - t0) / 1000;
		console.log(`=== smoke: ${section}: ${outcome} in ${s.toFixed(1)} s`);
		results.push({ section, s, outcome });
	}
	console.log(`\n## Smoke (${((Date.now() - started) / 1000).toFixed(0)} s)`);
	console.log('| Section | Seconds | Result |\n|---|---|---|');
	for (const r of results) console.log(`| ${r.section} | ${r.s.toFixed(1)} | ${r.outcome} |`);
	const failed = results.filter((r) => r.outcome !== 'ok');
	for (const r of failed) console.log(`FAILED: ${r.section}: ${r.outcome}`);
	if (failed.length === 0) console.log(`Every section completed (${results.length}).`);
	return failed.length > 0 ? 1 : 0;
}

function runChild(section: Section, limitS: number): Promise<string> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [path.join(__dirname, 'run.js')], {
			env: { ...process.env, BENCH_ONLY: section, BENCH_SMOKE_CHILD: '1' },
			stdio: 'inherit',
			// its own process group: a stopped section is killed with everything it started
			detached: true,
		});
		const killGroup = () => {
			try {
				process.kill(-child.pid!, 'SIGKILL');
			} catch {
				child.kill('SIGKILL');
			}
		};
		// Ctrl-C or a CI cancel reaches this process only: take the section's group along
		const interrupted = (signal: NodeJS.Signals) => {
			killGroup();
			process.exit(signal === 'SIGINT' ? 130 : 143);
		};
		process.once('SIGINT', interrupted);
		process.once('SIGTERM', interrupted);
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup();
		}, limitS * 1000);
		const done = () => {
			clearTimeout(timer);
			process.off('SIGINT', interrupted);
			process.off('SIGTERM', interrupted);
		};
		child.on('error', (error) => {
			done();
			resolve(`could not start: ${error.message}`);
		});
		child.on('exit', (code, signal) => {
			done();
			if (timedOut) resolve(`did not finish within ${limitS} s (killed)`);
			else if (code === 0) resolve('ok');
			else resolve(`exit ${code ?? signal}`);
		});
	});
}

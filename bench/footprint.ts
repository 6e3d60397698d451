/**
 * 5. Footprint: the packed size, `globalThis` left in the built node files by UMD wrappers, the
 *    cold `require` time of each built node and credential file in a fresh process, and the heap
 *    a Per-Plot Results output of a 10,000-plot job takes.
 *    The package is built with `gulp bundle` in a temporary copy, so the shared dist/ is untouched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { envNumber, fmt, median, record } from './lib';

/** The packed size budget `npm run verify` enforces (test/e2e/pack-check.js): one number for both. */
const { PACKED_BUDGET_KB } = require('../test/e2e/pack-check.js') as { PACKED_BUDGET_KB: number };

const root = path.resolve(__dirname, '..');

/**
 * The files a fresh clone has (tracked, plus new files not ignored: `git ls-files`), except
 * the tests and the bench, copied to a temporary folder: the build finds there whatever it
 * needs (gulpfile.js, scripts/, tsconfig*, icons, …) however the project is rearranged.
 */
function buildCopy(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geo-bench-pack-'));
	const listed = execFileSync(
		'git',
		['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
		{ cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 },
	)
		.split('\0')
		.filter((file) => file && !/^(test|bench|node_modules)(\/|$)/.test(file));
	for (const file of listed) {
		const from = path.join(root, file);
		// a file deleted in the work tree and not yet committed, or a symlink (node_modules)
		if (!fs.lstatSync(from, { throwIfNoEntry: false })?.isFile()) continue;
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.copyFileSync(from, path.join(dir, file));
	}
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
	const build = spawnSync(
		process.execPath,
		[path.join(root, 'node_modules', 'gulp', 'bin', 'gulp.js'), 'bundle'],
		{ cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
	);
	if (build.status !== 0) {
		fs.rmSync(dir, { recursive: true, force: true });
		throw new Error(
			`footprint: \`gulp bundle\` failed in a copy of the project (${build.error?.message ?? `exit ${build.status ?? build.signal}`}):\n${build.stdout ?? ''}${build.stderr ?? ''}`,
		);
	}
	return dir;
}

/** ms to require `file` in a fresh process: [n8n-workflow alone, the file after n8n-workflow]. */
function coldRequire(
	dir: string,
	file: string | undefined,
): { workflowMs: number; fileMs: number } {
	const script = `
const t0 = process.hrtime.bigint();
require('n8n-workflow');
const t1 = process.hrtime.bigint();
${file ? `require(${JSON.stringify(file)});` : ''}
const t2 = process.hrtime.bigint();
process.stdout.write(JSON.stringify({ workflowMs: Number(t1 - t0) / 1e6, fileMs: Number(t2 - t1) / 1e6 }));`;
	return JSON.parse(
		execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' }),
	) as { workflowMs: number; fileMs: number };
}

export async function footprintBench(): Promise<void> {
	const section = 'footprint';
	const runs = envNumber('BENCH_REQUIRE_RUNS', 7);
	console.log('\n## 5. Footprint: package size, cold require, Per-Plot Results memory');
	const dir = buildCopy();
	try {
		// npm pack
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
				cwd: dir,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
			}),
		) as Array<{
			size: number;
			unpackedSize: number;
			entryCount: number;
		}>;
		const { size, unpackedSize, entryCount } = packed[0];
		record({
			section,
			name: 'npm pack size (gzipped tarball)',
			value: size / 1024,
			unit: 'KB',
			target: `< ${PACKED_BUDGET_KB} KB`,
			ok: size < PACKED_BUDGET_KB * 1024,
			note: `${entryCount} files, ${fmt(unpackedSize / 1024)} KB unpacked`,
		});

		const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};

		// UMD wrappers of bundled libraries (issue 15): they reach for `globalThis`
		const globals = pkg.n8n.nodes.map(
			(file) => fs.readFileSync(path.join(dir, file), 'utf8').split('globalThis').length - 1,
		);
		record({
			section,
			name: '`globalThis` in the built node files (UMD wrappers of bundled libraries)',
			value: globals.reduce((a, b) => a + b, 0),
			unit: '',
			target: '0',
			ok: globals.every((count) => count === 0),
			note: pkg.n8n.nodes.map((file, i) => `${path.basename(file)}: ${globals[i]}`).join(', '),
		});

		// cold require
		const baseline = median(
			Array.from({ length: runs }, () => coldRequire(dir, undefined).workflowMs),
		);
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			const samples = Array.from({ length: runs }, () => coldRequire(dir, path.join(dir, file)));
			const own = median(samples.map((s) => s.fileMs));
			record({
				section,
				name: `cold require ${path.basename(file)} (beyond n8n-workflow)`,
				value: own,
				unit: 'ms',
				baseline,
				baselineLabel: "require('n8n-workflow') alone",
				target: '< 50 ms',
				ok: own < 50,
				note: `median of ${runs} fresh processes; ${fmt(fs.statSync(path.join(dir, file)).size / 1024)} KB`,
			});
		}
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}

	// Per-Plot Results memory, in a fresh process with --expose-gc
	const out = execFileSync(
		process.execPath,
		['--expose-gc', path.join(__dirname, 'run-ts.js'), path.join(__dirname, 'memory-child.ts')],
		{
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	const m = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
	const mb = (b: number) => b / 1024 / 1024;
	for (const [label, peak, retained] of [
		['raw', m.rawPeak, m.rawRetained],
		['simplified', m.simplifiedPeak, m.simplifiedRetained],
	] as const) {
		record({
			section,
			name: `Per-Plot Results (${label}) of a ${fmt(m.plots)}-plot job: peak heap`,
			value: mb(peak),
			unit: 'MB',
			baseline: mb(m.jsonBytes),
			baselineLabel: "the job's JSON",
			target: "< 3× the job's JSON",
			ok: peak < 3 * m.jsonBytes,
			note: `retained after GC ${fmt(mb(retained))} MB; peak = largest heap growth seen, retained = after a full GC with the job still held`,
		});
	}
}

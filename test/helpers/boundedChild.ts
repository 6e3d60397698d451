/**
 * Runs a test scenario in a child Node process with a bounded heap (512 MB of old space by
 * default), as a hostile answer would meet the node inside n8n: the scenario module (a .ts file
 * exporting `run(input)`) is bundled with esbuild (its packages left to node_modules, so n8n's
 * engine is the real one), run once, and its JSON result handed back with the heap the child
 * held at the end. A child that runs out of memory, overflows its stack or dies otherwise comes
 * back as `crashed` (never as a pass). The child itself (a script in a temporary folder, its
 * heap bounded, its output collected whatever its end) is `runChildScript`, which
 * boundedRead.ts (Read File) and boundedEuRun.ts (runEu, one line per run) use too.
 *
 * Nothing here measures time: the caller's jest timeout is the "within seconds".
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BoundedChildResult<T> {
	/** `done`: run() resolved; `threw`: it rejected (message); `crashed`: the process died. */
	outcome: 'done' | 'threw' | 'crashed';
	value?: T;
	message?: string;
	/** Heap used by the child at the end (bytes). */
	heapUsed?: number;
	/** The child's last 2,000 characters of stderr (outcome `crashed`). */
	stderr?: string;
	exitCode?: number | null;
	signal?: NodeJS.Signals | null;
}

const ROOT = path.resolve(__dirname, '../..');

const CHILD = `
const { run } = require(process.argv[2]);
const input = JSON.parse(require('node:fs').readFileSync(process.argv[3], 'utf8'));
const done = (out) => {
	out.heapUsed = process.memoryUsage().heapUsed;
	process.stdout.write(JSON.stringify(out), () => process.exit(0));
};
run(input).then(
	(value) => done({ outcome: 'done', value }),
	(error) => done({ outcome: 'threw', message: String((error && error.stack) || error) }),
);
`;

/** How a child process ended: what it printed and its exit. */
export interface ChildExit {
	/** Its whole stdout (UTF-8). */
	stdout: string;
	/** Its last 2,000 characters of stderr. */
	stderr: string;
	exitCode: number | null;
	signal: NodeJS.Signals | null;
}

/**
 * Runs `fn` with a fresh temporary folder, removed afterwards whatever happens (the child's
 * script, its input and its n8n user folder live there).
 */
export async function inTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
	const dir = mkdtempSync(path.join(tmpdir(), prefix));
	try {
		return await fn(dir);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Writes `source` as `dir`/child.js and runs it in a Node child with `heapMb` of old-space heap
 * and `args`, from the project root; resolves when the child has ended, however it ended.
 */
export async function runChildScript(
	dir: string,
	source: string,
	args: readonly string[],
	{ heapMb = 512, env }: { heapMb?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildExit> {
	const script = path.join(dir, 'child.js');
	writeFileSync(script, source);
	return await new Promise<ChildExit>((resolve, reject) => {
		const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, script, ...args], {
			cwd: ROOT,
			env: env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const chunks: Buffer[] = [];
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => chunks.push(d));
		child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
		child.on('error', reject);
		child.on('close', (exitCode, signal) =>
			resolve({ stdout: Buffer.concat(chunks).toString('utf8'), stderr, exitCode, signal }),
		);
	});
}

/** A child's one JSON answer on stdout; `crashed` (with its stderr and exit) when there is none. */
export function jsonOrCrashed<R>(
	exit: ChildExit,
):
	| R
	| { outcome: 'crashed'; stderr: string; exitCode: number | null; signal: NodeJS.Signals | null } {
	if (exit.exitCode === 0 && exit.stdout) {
		try {
			return JSON.parse(exit.stdout) as R;
		} catch {
			// fall through: output cut short
		}
	}
	const { stderr, exitCode, signal } = exit;
	return { outcome: 'crashed', stderr, exitCode, signal };
}

/** Bundles `entry` (a .ts module exporting `run(input): Promise<T>`) and runs it with `input`. */
export async function runInBoundedChild<T>(
	entry: string,
	input: unknown,
	{ heapMb = 512 }: { heapMb?: number } = {},
): Promise<BoundedChildResult<T>> {
	return await inTempDir('bounded-child-', async (dir) => {
		const bundle = path.join(dir, 'scenario.js');
		const esbuild = require('esbuild') as typeof import('esbuild');
		esbuild.buildSync({
			entryPoints: [entry],
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			packages: 'external',
			outfile: bundle,
			logLevel: 'error',
		});
		const spec = path.join(dir, 'input.json');
		writeFileSync(spec, JSON.stringify(input));
		const exit = await runChildScript(dir, CHILD, [bundle, spec], {
			heapMb,
			env: {
				...process.env,
				NODE_PATH: path.join(ROOT, 'node_modules'),
				// the child's own n8n user folder (this process's holds its own encryption key)
				N8N_USER_FOLDER: path.join(dir, 'n8n'),
				N8N_ENCRYPTION_KEY: 'test-only',
			},
		});
		return jsonOrCrashed<BoundedChildResult<T>>(exit);
	});
}

/** The value of a child that ran to its end; otherwise an error saying how it ended (and why). */
export function doneValue<T>(result: BoundedChildResult<T>): T {
	if (result.outcome === 'done') return result.value as T;
	throw new Error(
		`the child process ${result.outcome === 'threw' ? 'threw' : `crashed (exit ${result.exitCode}, signal ${result.signal})`}: ${result.message ?? result.stderr ?? ''}`,
	);
}

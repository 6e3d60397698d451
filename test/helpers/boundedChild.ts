/**
 * Runs a test scenario in a child Node process with a bounded heap (512 MB of old space by
 * default), as a hostile answer would meet the node inside n8n: the scenario module (a .ts file
 * exporting `run(input)`) is bundled with esbuild (its packages left to node_modules, so n8n's
 * engine is the real one), run once, and its JSON result handed back with the heap the child
 * held at the end. A child that runs out of memory, overflows its stack or dies otherwise comes
 * back as `crashed` (never as a pass). test/helpers/boundedRead.ts is the same for Read File.
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

/** Bundles `entry` (a .ts module exporting `run(input): Promise<T>`) and runs it with `input`. */
export async function runInBoundedChild<T>(
	entry: string,
	input: unknown,
	{ heapMb = 512 }: { heapMb?: number } = {},
): Promise<BoundedChildResult<T>> {
	const dir = mkdtempSync(path.join(tmpdir(), 'bounded-child-'));
	try {
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
		const script = path.join(dir, 'child.js');
		writeFileSync(script, CHILD);
		// the child's own n8n user folder (this process's holds its own encryption key)
		const userFolder = path.join(dir, 'n8n');
		return await new Promise<BoundedChildResult<T>>((resolve, reject) => {
			const child = spawn(
				process.execPath,
				[`--max-old-space-size=${heapMb}`, script, bundle, spec],
				{
					cwd: ROOT,
					env: {
						...process.env,
						NODE_PATH: path.join(ROOT, 'node_modules'),
						N8N_USER_FOLDER: userFolder,
						N8N_ENCRYPTION_KEY: 'test-only',
					},
					stdio: ['ignore', 'pipe', 'pipe'],
				},
			);
			const chunks: Buffer[] = [];
			let stderr = '';
			child.stdout.on('data', (d: Buffer) => chunks.push(d));
			child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
			child.on('error', reject);
			child.on('close', (exitCode, signal) => {
				const stdout = Buffer.concat(chunks).toString('utf8');
				if (exitCode === 0 && stdout) {
					try {
						resolve(JSON.parse(stdout) as BoundedChildResult<T>);
						return;
					} catch {
						// fall through: output cut short
					}
				}
				resolve({ outcome: 'crashed', stderr, exitCode, signal });
			});
		});
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The value of a child that ran to its end; otherwise an error saying how it ended (and why). */
export function doneValue<T>(result: BoundedChildResult<T>): T {
	if (result.outcome === 'done') return result.value as T;
	throw new Error(
		`the child process ${result.outcome === 'threw' ? 'threw' : `crashed (exit ${result.exitCode}, signal ${result.signal})`}: ${result.message ?? result.stderr ?? ''}`,
	);
}

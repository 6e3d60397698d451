/**
 * Runs the EU Information System node through n8n's engine (runEu) in a child Node process
 * with a 512 MB heap, against a server of the parent (the EU fake with a hostile answer
 * injected): as the answer would be read inside n8n, without risking the test runner's own
 * heap. The test learns how the run ended (its error's message and description, or its
 * items), how large the serialized run was, and how much heap the child held at the end. A run
 * that kills the child (out of memory, a signal) comes back as `crashed` (never as a pass).
 * The child is boundedChild.ts's `runChildScript`, as for boundedRead.ts (the geo-file attack
 * tests); here it prints one line per run, so that the runs before a crash still count.
 *
 * Nothing here measures time: the caller's jest timeout is the "within seconds".
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FakeEuUser } from '../integration/euInformationSystem/helpers';
import { inTempDir, runChildScript } from './boundedChild';

export interface BoundedEuRunResult {
	/** `done`: the run ended (with items or an error); `crashed`: the child died before it. */
	outcome: 'done' | 'crashed';
	error?: { message: string; description?: string };
	/** The output items' json. */
	items?: IDataObject[];
	/** Bytes of the serialized run (items, error, run data). */
	runBytes?: number;
	/** Heap used by the child right after this run (bytes). */
	heapUsed?: number;
	/** The forms of the key found in the run (keyLeaks; none expected). */
	leaks?: string[];
}

export interface BoundedEuRuns {
	/** One result per run given, in order (a run the child did not live to finish: `crashed`). */
	results: BoundedEuRunResult[];
	/** What the child printed on stderr when it died (its last 2,000 characters). */
	stderr?: string;
	exitCode?: number | null;
	signal?: NodeJS.Signals | null;
}

export interface BoundedEuRun {
	parameters: INodeParameters;
	input?: IDataObject[];
}

const CHILD = `
process.env.N8N_ENCRYPTION_KEY ??= 'test-only';
require(process.argv[4]).register({ transpileOnly: true, preferTsExts: true, compilerOptions: { module: 'commonjs' } });
const { readFileSync } = require('node:fs');
const { runEu, euStore, keyLeaks, serializedRun } = require(process.argv[2]);
const input = JSON.parse(readFileSync(process.argv[3], 'utf8'));
(async () => {
	for (const run of input.runs) {
		const result = await runEu({ parameters: run.parameters, input: run.input, store: euStore(input.url, input.user) });
		const out = {
			outcome: 'done',
			items: result.items.map((i) => i.json),
			runBytes: Buffer.byteLength(serializedRun(result)),
			leaks: keyLeaks(result, input.user.key),
			heapUsed: process.memoryUsage().heapUsed,
		};
		if (result.error) out.error = { message: result.error.message, description: result.error.description };
		// one line per run: what was printed before a crash still counts
		process.stdout.write(JSON.stringify(out) + '\\n');
	}
})().then(
	() => process.stdout.write('', () => process.exit(0)),
	(error) => {
		process.stderr.write(String((error && error.stack) || error));
		process.exit(3);
	},
);
`;

/**
 * Runs the EU node once per entry of `runs` (one after the other, in one child process limited
 * to `heapMb`, 512 by default, of old-space heap) against `url` as `user`.
 */
export async function runEuInBoundedChild(o: {
	url: string;
	user: FakeEuUser;
	runs: BoundedEuRun[];
	heapMb?: number;
}): Promise<BoundedEuRuns> {
	return await inTempDir('bounded-eu-', async (dir) => {
		const spec = path.join(dir, 'spec.json');
		writeFileSync(spec, JSON.stringify({ url: o.url, user: o.user, runs: o.runs }));
		const helpers = path.resolve(__dirname, '../integration/euInformationSystem/helpers');
		const { stdout, stderr, exitCode, signal } = await runChildScript(
			dir,
			CHILD,
			[helpers, spec, require.resolve('ts-node')],
			{ heapMb: o.heapMb ?? 512 },
		);
		const results: BoundedEuRunResult[] = [];
		for (const line of stdout.split('\n')) {
			if (!line.trim()) continue;
			try {
				results.push(JSON.parse(line) as BoundedEuRunResult);
			} catch {
				break; // a line cut short: the child died while writing it
			}
		}
		while (results.length < o.runs.length) results.push({ outcome: 'crashed' });
		return exitCode === 0 ? { results } : { results, stderr, exitCode, signal };
	});
}

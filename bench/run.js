#!/usr/bin/env node
/**
 * `npm run bench`: loads the TypeScript benchmarks with ts-node (transpile only; `.ts`
 * preferred over the `.node.json` codex files that sit beside the node sources) and runs
 * them. Not part of the test suite. See BENCHMARKS.md for the knobs.
 */
process.env.N8N_ENCRYPTION_KEY ??= 'bench-only-not-a-secret';
require('ts-node').register({ transpileOnly: true, preferTsExts: true });
let finished = false;
// the event loop ran empty while a section still awaited something that can no longer happen
process.on('beforeExit', () => {
	if (finished) return;
	console.error('bench: stopped before the end (a section awaited work that never finished)');
	process.exit(1);
});
require('./main.ts')
	.main()
	.then((code) => {
		finished = true;
		process.exit(code);
	})
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});

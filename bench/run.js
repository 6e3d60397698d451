#!/usr/bin/env node
/**
 * `npm run bench`: loads the TypeScript benchmarks with ts-node (transpile only; `.ts`
 * preferred over the `.node.json` codex files that sit beside the node sources) and runs
 * them. Not part of the test suite. See BENCHMARKS.md for the knobs.
 */
process.env.N8N_ENCRYPTION_KEY ??= 'bench-only-not-a-secret';
require('ts-node').register({ transpileOnly: true, preferTsExts: true });
require('./main.ts')
	.main()
	.then((code) => process.exit(code))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});

/** `node [flags] bench/run-ts.js <file.ts>`: runs one TypeScript file of the benchmarks in a fresh process. */
process.env.N8N_ENCRYPTION_KEY ??= 'bench-only-not-a-secret';
require('ts-node').register({ transpileOnly: true, preferTsExts: true });
require(require('node:path').resolve(process.argv[2]));

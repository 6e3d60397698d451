/**
 * Reads one file through Plot → Read File's reader (`readGeoFile`) in a child Node process
 * with a 512 MB heap, as an attacker's attachment would be read inside n8n: the test learns
 * whether the read ended in a refusal (the GeoFileError's message) or in features, and how
 * much heap the child held at the end, without risking the test runner's own heap. A read
 * that runs the child out of memory comes back as `crashed` (never as a pass).
 *
 * Nothing here measures time: the caller's jest timeout is the "within seconds".
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { inTempDir, jsonOrCrashed, runChildScript } from './boundedChild';

export interface BoundedReadResult {
	/** `refused`: a GeoFileError; `read`: features came back; `crashed`: anything else (out of memory, an exception that is not a GeoFileError, a signal). */
	outcome: 'refused' | 'read' | 'crashed';
	/** The refusal's message and description (outcome `refused`). */
	message?: string;
	description?: string;
	/** What the read gave (outcome `read`). */
	featureCount?: number;
	warnings?: string[];
	/** The first features, as JSON (at most `keep`, default 3). */
	features?: unknown[];
	/** Bytes of the whole output as JSON (outcome `read`). */
	outputBytes?: number;
	/** Heap used by the child at the end of the read (bytes). */
	heapUsed?: number;
	/** What the child printed on stderr when it crashed (its last 2,000 characters). */
	stderr?: string;
	exitCode?: number | null;
	signal?: NodeJS.Signals | null;
}

const CHILD = `
process.env.N8N_ENCRYPTION_KEY ??= 'test-only';
require(process.argv[4]).register({ transpileOnly: true, preferTsExts: true, compilerOptions: { module: 'commonjs' } });
const { readFileSync } = require('node:fs');
const { readGeoFile, GeoFileError } = require(process.argv[2]);
const input = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const bytes = new Uint8Array(readFileSync(input.file));
let out;
try {
	const file = readGeoFile(bytes, input.fileName, input.options);
	const text = JSON.stringify(file);
	out = {
		outcome: 'read',
		featureCount: file.features.length,
		warnings: file.warnings,
		features: file.features.slice(0, input.keep),
		outputBytes: Buffer.byteLength(text),
	};
} catch (error) {
	if (error instanceof GeoFileError) out = { outcome: 'refused', message: error.message, description: error.description };
	else out = { outcome: 'crashed', message: String(error && error.stack || error) };
}
out.heapUsed = process.memoryUsage().heapUsed;
process.stdout.write(JSON.stringify(out));
`;

/**
 * Reads `bytes` as `fileName` with `options` (Partial<GeoFileOptions>) in a child process
 * limited to `heapMb` (512 by default) of old-space heap.
 */
export async function readInBoundedChild(
	bytes: Uint8Array,
	fileName: string,
	options: Record<string, unknown> = {},
	{ heapMb = 512, keep = 3 }: { heapMb?: number; keep?: number } = {},
): Promise<BoundedReadResult> {
	return await inTempDir('bounded-read-', async (dir) => {
		const file = path.join(dir, 'input.bin');
		writeFileSync(file, bytes);
		const spec = path.join(dir, 'spec.json');
		writeFileSync(spec, JSON.stringify({ file, fileName, options, keep }));
		const reader = path.resolve(__dirname, '../../nodes/shared/geoFiles');
		const exit = await runChildScript(dir, CHILD, [reader, spec, require.resolve('ts-node')], {
			heapMb,
		});
		return jsonOrCrashed<BoundedReadResult>(exit);
	});
}

#!/usr/bin/env node
/**
 * `npm run schemas`: writes the output schemas of the action node
 * (nodes/GeospatialAnalysis/__schema__/v<x.y.z>/<resource>/<operation>.json) and the trigger
 * (nodes/GeospatialAnalysisTrigger/__schema__/v<x.y.z>.json) and the EU Information System
 * node (nodes/EuInformationSystem/__schema__/v<x.y.z>/<resource>/<operation>.json, recorded by
 * test/integration/euInformationSystem/outputSchemas.test.ts against the EU fake) and its trigger
 * (nodes/EuInformationSystemTrigger/__schema__/v<x.y.z>.json, test/integration/euTrigger/outputSchema.test.ts), which n8n's
 * editor loads to show an operation's output fields before the node has run. They are built
 * from what each operation outputs at its defaults, run through n8n's engine against the fake
 * service (the trigger: what it emits for finished jobs): test/integration/descriptions/outputSchemas.test.ts records the outputs and, with
 * UPDATE_OUTPUT_SCHEMAS=1, writes the files; without it (`npm test`) it fails when a file
 * differs from the outputs, so the schemas cannot drift from the code.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// written anew: a schema of an operation or node version that no longer exists goes away
for (const node of [
	'GeospatialAnalysis',
	'GeospatialAnalysisTrigger',
	'EuInformationSystem',
	'EuInformationSystemTrigger',
])
	rmSync(join(root, 'nodes', node, '__schema__'), { recursive: true, force: true });
const jest = require.resolve('jest/bin/jest');
const result = spawnSync(
	process.execPath,
	[
		jest,
		'--runTestsByPath',
		'test/integration/descriptions/outputSchemas.test.ts',
		'test/integration/euInformationSystem/outputSchemas.test.ts',
		'test/integration/euTrigger/outputSchema.test.ts',
		// Due Diligence Record → Create (no request: recorded from its own engine test)
		'test/integration/dueDiligenceRecord/create.test.ts',
	],
	{ cwd: root, stdio: 'inherit', env: { ...process.env, UPDATE_OUTPUT_SCHEMAS: '1' } },
);
process.exit(result.status ?? 1);

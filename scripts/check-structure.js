'use strict';
/**
 * `npm run check:structure` (CI runs it after lint): the house's structure checks of issue 22,
 * every one run even when an earlier one fails, so one run lists everything to fix.
 *
 * - check:layers      dependency-cruiser, the layers in .dependency-cruiser.cjs (no cycles, no
 *                     import from a lower layer to a higher one, no operation → operation import)
 * - check:duplicates  jscpd (.jscpd.json): no copied block of 6 or more lines in nodes/
 * - check:sizes       scripts/check-file-sizes.js: no file in nodes/ over 450 lines without a reason
 *
 * Exits 1 when any of them fails, naming which.
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const CHECKS = ['check:layers', 'check:duplicates', 'check:sizes'];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const failed = [];
for (const check of CHECKS) {
	console.log(`\n== npm run ${check}`);
	const run = spawnSync(npm, ['run', '--silent', check], {
		cwd: path.join(__dirname, '..'),
		stdio: 'inherit',
		shell: process.platform === 'win32',
	});
	if (run.status !== 0) failed.push(check);
}
if (failed.length > 0) {
	console.log(
		`\ncheck-structure: FAILED ${failed.map((c) => `npm run ${c}`).join(', ')} (see above)`,
	);
	process.exitCode = 1;
} else {
	console.log(`\ncheck-structure: ${CHECKS.join(', ')} passed`);
}

#!/usr/bin/env node
'use strict';
/**
 * Re-runs the integration suites that read shapes the contract does not show — the folders
 * of FOLDERS below: the job's (Wait for Completion and Get Results: per-plot rows), analysis
 * runs, Protected Area → Check, the trigger's per-plot output, shapes/ — against each shape
 * variant of the fake (test/fake-service/variant.ts). `npm test` runs it after the main jest run
 * (which uses the default shapes).
 *
 * One jest process for all the variants (test/variants.config.js: a jest project per variant,
 * each setting FAKE_VARIANT for its test files through test/helpers/variant-env.js): one start
 * instead of one per variant, and both workers busy until the last file of the last variant
 * (one run per variant left a worker idle at the end of each). Each result line carries its
 * variant as the project's name; the closing line names every variant that failed
 * (test/helpers/variants-reporter.js).
 *
 *   node test/variants.js                       every variant below
 *   node test/variants.js flat,silent,uuid      only that variant (several may be given)
 *   node test/variants.js -- -t "per-plot"      extra arguments after -- go to jest
 *
 * Together the variants cover every value of every dimension: overlap metrics nested / flat /
 * absent; a failed plot with a per-plot status field, with none (silent), and with none but
 * analyses carrying their job id; numeric and UUID ids.
 */
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');

const VARIANTS = [
	'overlap=flat,plotFailure=silent,ids=uuid',
	'overlap=absent,plotFailure=job-id,ids=numeric',
	'overlap=nested,plotFailure=job-id,ids=uuid',
	'overlap=absent,plotFailure=status,ids=uuid',
];

/**
 * The integration folders (test/integration/<folder>/) whose suites read these shapes: the job
 * (Wait for Completion, Get Results and the rest), analysis runs, Protected Area → Check, the
 * trigger and shapes/. Every test file in them is re-run, so a file moved into one of them or
 * added to it is picked up without editing this list; a folder that no longer exists stops the run.
 */
const FOLDERS = ['job', 'analysisRun', 'protectedArea', 'trigger', 'shapes'];

/** The suites by path (a regular expression jest matches): every test file under FOLDERS. */
const SUITES = `test/integration/(?:${FOLDERS.join('|')})/.*\\.test\\.ts$`;

/** How test/variants.js tells test/variants.config.js the variants to run (a JSON array). */
const VARIANTS_ENV = 'FAKE_VARIANTS_JSON';

/** Refuses to run when a folder of FOLDERS is missing or holds no test file. */
function checkFolders() {
	const fs = require('fs');
	const empty = FOLDERS.filter((folder) => {
		const dir = path.join(ROOT, 'test', 'integration', folder);
		return (
			!fs.existsSync(dir) ||
			!fs.readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.test.ts'))
		);
	});
	if (empty.length > 0)
		throw new Error(`test/variants.js: no test files in test/integration/${empty.join(', ')}`);
}

function main(argv) {
	const dashes = argv.indexOf('--');
	const own = dashes === -1 ? argv : argv.slice(0, dashes);
	const jestArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
	const variants = own.length > 0 ? own : VARIANTS;
	checkFolders();
	const jest = require.resolve('jest/bin/jest', { paths: [ROOT] });
	process.stdout.write(`\n=== fake shape variants (one jest run): ${variants.join('; ')} ===\n`);
	const run = spawnSync(
		process.execPath,
		[jest, '--ci', '--config', path.join(__dirname, 'variants.config.js'), ...jestArgs],
		{
			cwd: ROOT,
			stdio: 'inherit',
			env: { ...process.env, [VARIANTS_ENV]: JSON.stringify(variants) },
		},
	);
	// the reporter printed `variants: …` (which variants failed) when jest ran the tests (exit
	// 0 or 1); a jest that ended otherwise (a bad argument, a signal) is named here
	if (run.status !== 0 && run.status !== 1)
		process.stdout.write(`\nvariants: jest exited ${run.status ?? run.signal}\n`);
	return run.status === 0 ? 0 : 1;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));

module.exports = { VARIANTS, FOLDERS, SUITES, VARIANTS_ENV };

#!/usr/bin/env node
/**
 * `npm run verify`: is the package as n8n Cloud verification will see it?
 *
 * 1. Strict mode: package.json `n8n.strict` is true and eslint.config.mjs is n8n's template
 *    (what `n8n-node lint` and `n8n-node cloud-support` check).
 * 2. Pack the working tree as `npm publish` would (builds first, `files` respected) and check
 *    the tarball's contents (test/e2e/pack-check.js).
 * 3. n8n's scanner (@n8n/scan-community-package): its own `analyzePackage` on the source
 *    (its source patterns: package.json, nodes/, credentials/) and on the unpacked tarball
 *    (its tarball patterns: **\/*.js, package.json), inline eslint-disable comments ignored as
 *    it does. A leg passes with zero errors and zero warnings: the warnings are counted by
 *    linting the same files with the scanner's own configuration (`buildScanConfig`).
 * 4. The filesystem-destruction patterns of the malware rules in n8n's repository (GuardDog's
 *    `threat-filesystem-destruction`, not yet in the published scanner) on source and tarball.
 * 5. The GitHub workflows through a workflow linter (@action-validator/cli).
 *
 * Prints one line per check and `verify: N passed, M failed`; exits 1 on any failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = [];

function record(name, ok, detail = '') {
	results.push({ name, ok, detail });
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
	if (!ok && detail) console.log(detail.replace(/^/gm, '     '));
}

// ── 1. strict mode ────────────────────────────────────────────────────────────────────────
function strictMode() {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	record('package.json: n8n.strict is true', pkg.n8n?.strict === true);
	// Where `n8n-node lint` reads it: beside its eslint export (dist/configs/eslint.js).
	const template = path.resolve(
		path.dirname(require.resolve('@n8n/node-cli/eslint')),
		'../template/templates/shared/default/eslint.config.mjs',
	);
	// The same comparison as `n8n-node lint` in strict mode: whitespace-normalised equality.
	const normalise = (file) => fs.readFileSync(file, 'utf8').replace(/\s+/g, ' ').trim();
	record(
		"eslint.config.mjs is n8n's template (@n8n/node-cli/eslint `config`, n8n Cloud rules)",
		normalise(path.join(root, 'eslint.config.mjs')) === normalise(template),
		`expected:\n${fs.readFileSync(template, 'utf8')}`,
	);
}

// ── 2. pack ───────────────────────────────────────────────────────────────────────────────
function pack(work) {
	const { packAndCheck } = require('../test/e2e/pack-check.js');
	const { tarball, files, checks } = packAndCheck({ destination: work });
	for (const c of checks) record(`tarball: ${c.name}`, c.ok, c.detail);
	const unpacked = path.join(work, 'package');
	fs.mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
	console.log(`     packed ${path.basename(tarball)}: ${files.length} files`);
	return unpacked;
}

// ── 3. n8n's scanner ──────────────────────────────────────────────────────────────────────
async function scannerLegs(unpacked) {
	const scannerFile = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
	const scanner = await import(pathToFileURL(scannerFile).href);
	// ESLint and fast-glob as the scanner itself resolves them (its own pinned versions).
	const scannerRequire = createRequire(scannerFile);
	const { ESLint } = scannerRequire('eslint');
	const glob = scannerRequire('fast-glob');
	const version = scannerRequire('../package.json').version;

	const legs = [
		['source', root, scanner.SOURCE_FILE_PATTERNS],
		['tarball', unpacked, ['**/*.js', 'package.json']],
	];
	for (const [leg, dir, patterns] of legs) {
		const verdict = await scanner.analyzePackage(dir, patterns);
		const files = glob.sync(patterns, {
			cwd: dir,
			absolute: true,
			ignore: ['node_modules/**', '**/package-lock.json'],
		});
		const eslint = new ESLint({
			cwd: dir,
			allowInlineConfig: false,
			overrideConfigFile: true,
			overrideConfig: await scanner.buildScanConfig(),
		});
		const lint = await eslint.lintFiles(files);
		const errors = lint.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
		const warnings = lint.reduce((n, r) => n + r.warningCount, 0);
		const details = [
			verdict.passed ? '' : `analyzePackage: ${verdict.message}`,
			errors || warnings ? await (await eslint.loadFormatter('stylish')).format(lint) : '',
		]
			.filter(Boolean)
			.join('\n');
		record(
			`n8n scanner ${version}, ${leg} leg (${files.length} files): ${
				verdict.passed ? 'passed' : 'FAILED'
			}, ${errors} errors, ${warnings} warnings`,
			verdict.passed && errors === 0 && warnings === 0 && files.length > 0,
			details,
		);
	}
}

// ── 4. malware patterns ───────────────────────────────────────────────────────────────────
// The string patterns of the `threat_filesystem_destruction` YARA rule that n8n's repository
// vendors from GuardDog (scanner/rules/guarddog/threat-filesystem-destruction.yar), for the
// file types that rule covers. YARA's `.` stops at a line break, so lines are matched one
// by one.
const DESTRUCTION = [
	/rm\s+-rf\s+\//i,
	/rmtree\s*\(\s*['"]\/[^'"]*['"]/i,
	/rmtree\s*\(\s*['"]~/i,
	/rmtree\s*\(\s*os\.path\.expanduser/i,
	/rm.*['"]\/home[/'"]/i,
	/rm.*['"]\/users[/'"]/i,
	/rm.*['"]\/['"]\s*$/i,
	/dd if=\/dev\/zero/i,
	/dd if=\/dev\/urandom/i,
	/shred -/i,
	/rimraf\s*\(\s*['"]\/[^'"]*['"]/i,
];
const SCRIPT_FILE = /\.(py|pyx|pyi|pth|js|ts|jsx|tsx|mjs|cjs)$/;

function malwarePatterns(unpacked) {
	const walk = (dir) =>
		fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(full);
			return SCRIPT_FILE.test(entry.name) ? [full] : [];
		});
	const legs = [
		['source', root, ['nodes', 'credentials']],
		['tarball', unpacked, ['.']],
	];
	for (const [leg, base, dirs] of legs) {
		const hits = [];
		const files = dirs.flatMap((d) => walk(path.join(base, d)));
		for (const file of files) {
			fs.readFileSync(file, 'utf8')
				.split('\n')
				.forEach((line, i) => {
					if (DESTRUCTION.some((re) => re.test(line)))
						hits.push(`${path.relative(base, file)}:${i + 1}: ${line.trim().slice(0, 160)}`);
				});
		}
		record(
			`malware pattern threat-filesystem-destruction, ${leg} (${files.length} files): ${hits.length} matches`,
			hits.length === 0 && files.length > 0,
			hits.join('\n'),
		);
	}
}

// ── 5. workflows ──────────────────────────────────────────────────────────────────────────
function workflows() {
	const dir = path.join(root, '.github', 'workflows');
	const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)) : [];
	record(
		'GitHub workflows present (ci.yml, publish.yml)',
		['ci.yml', 'publish.yml'].every((f) => files.includes(f)),
	);
	const cli = path.join(
		path.dirname(require.resolve('@action-validator/cli/package.json')),
		'cli.mjs',
	);
	for (const file of files) {
		const run = spawnSync(process.execPath, [cli, path.join(dir, file)], {
			cwd: root,
			encoding: 'utf8',
		});
		record(
			`workflow linter (action-validator): .github/workflows/${file}`,
			run.status === 0,
			`${run.stdout}${run.stderr}`.trim(),
		);
	}
	const publish = files.includes('publish.yml')
		? fs.readFileSync(path.join(dir, 'publish.yml'), 'utf8')
		: '';
	record(
		'publish.yml: on a version tag, id-token: write, verify, npm publish --provenance',
		/tags:/.test(publish) &&
			/id-token:\s*write/.test(publish) &&
			/npm run verify/.test(publish) &&
			/npm publish --provenance/.test(publish),
	);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-'));
try {
	strictMode();
	const unpacked = pack(work);
	await scannerLegs(unpacked);
	malwarePatterns(unpacked);
	workflows();
} catch (error) {
	record('verify ran to the end', false, String(error?.stack ?? error));
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
const failed = results.filter((r) => !r.ok).length;
console.log(`verify: ${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

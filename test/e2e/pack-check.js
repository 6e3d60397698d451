'use strict';
/**
 * Checks what `npm publish` would publish, by packing the working tree the way publishing
 * does: scripts on whatever `.npmrc` says (`prepack` builds `dist/` first; package.json's
 * `publishConfig` turns scripts on for `npm publish` itself), the `files` field respected.
 * The tarball must hold every file of the package.json `n8n` field, the icons and codex
 * files, the output schemas (`__schema__`), LICENSE, README.md, package.json and dist/THIRD_PARTY_NOTICES.md, and nothing else
 * (no source maps, tests, TypeScript sources, node_modules); no runtime dependencies.
 *
 * `node test/e2e/pack-check.js` prints `pack: N passed, M failed`; `packAndCheck()` is what
 * `npm run verify` uses (it keeps the tarball to scan it).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The packed tarball's size budget (see the check). */
const PACKED_BUDGET_KB = 480;

const root = path.resolve(__dirname, '..', '..');

/** Files the package may contain besides the `n8n` field's entries. */
const ALLOWED = [
	/^package\.json$/,
	/^README\.md$/,
	/^LICENSE$/,
	/^dist\/THIRD_PARTY_NOTICES\.md$/,
	/^dist\/icons\/[^/]+\.svg$/,
	/^dist\/nodes\/[^/]+\/[^/]+\.node\.json$/,
	// output schemas the editor loads before a node has run (GET /schemas/<type>/<version>/…)
	/^dist\/nodes\/[^/]+\/__schema__\/v\d+\.\d+\.\d+(\/[^/]+\/[^/]+)?\.json$/,
];

/**
 * Packs into `destination` (a new temporary folder by default) and checks the tarball.
 * @returns {{ tarball: string, files: string[], checks: {name: string, ok: boolean, detail: string}[] }}
 */
function packAndCheck({ destination } = {}) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const dest = destination ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pack-check-'));
	// --ignore-scripts=false: what publishConfig does for `npm publish` (see package.json);
	// on the command line it outranks the project's .npmrc. The build's log comes first on
	// stdout, npm's JSON (an array starting on its own line) last.
	const out = execFileSync(
		'npm',
		['pack', '--json', '--ignore-scripts=false', '--pack-destination', dest],
		{
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const json = out.search(/^\[\s*\{/m);
	if (json === -1) throw new Error(`npm pack printed no JSON:\n${out}`);
	const [info] = JSON.parse(out.slice(json));
	const files = info.files.map((f) => f.path);
	const tarball = path.join(dest, info.filename);

	const checks = [];
	const check = (name, ok, detail = '') => checks.push({ name, ok, detail });

	check(
		'npm publish builds first, whatever .npmrc says',
		pkg.publishConfig?.['ignore-scripts'] === false && /\bbuild\b/.test(pkg.scripts?.prepack ?? ''),
		'package.json needs "prepack" running the build and publishConfig "ignore-scripts": false',
	);
	const n8nFiles = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
	for (const file of n8nFiles) check(`publishes ${file}`, files.includes(file));
	for (const file of ['LICENSE', 'README.md', 'package.json', 'dist/THIRD_PARTY_NOTICES.md'])
		check(`publishes ${file}`, files.includes(file));
	check(
		'publishes the icons',
		files.some((f) => f.startsWith('dist/icons/') && f.endsWith('.svg')),
	);
	check(
		'publishes the codex files',
		files.some((f) => f.endsWith('.node.json')),
	);
	check(
		'publishes the output schemas (__schema__)',
		files.some((f) => /\/__schema__\/v\d+\.\d+\.\d+\/plot\/validate\.json$/.test(f)),
	);
	const extra = files.filter((f) => !n8nFiles.includes(f) && !ALLOWED.some((re) => re.test(f)));
	check('nothing else (no maps, tests, sources, tooling)', extra.length === 0, extra.join(', '));
	const licence = files.includes('LICENSE')
		? fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')
		: '';
	check(
		`LICENSE is the ${pkg.license} licence`,
		pkg.license === 'MIT' && /^MIT License/.test(licence),
	);
	check('no runtime dependencies', !pkg.dependencies || Object.keys(pkg.dependencies).length === 0);
	check(
		'n8n-workflow is a peer dependency "*"',
		(pkg.peerDependencies || {})['n8n-workflow'] === '*',
	);
	// The budget: the bundles (the action node carries Turf, a polygon clipper for
	// Validate's overlaps, and Read File's XML, zip and projection libraries: ~270 KB gzipped,
	// unminified so that a reviewer can read them; the EU Information System node, issue 29,
	// its SOAP client, rules and the Validate and Export code it reuses for the geolocation:
	// ~300 KB unminified, +33 KB packed; raised from 400 KB then), the output schemas of both
	// nodes, the README and the notices. A jump past it means something was bundled by mistake.
	check(
		`package size under ${PACKED_BUDGET_KB} KB (${Math.round(info.size / 1024)} KB packed)`,
		info.size < PACKED_BUDGET_KB * 1024,
	);
	return { tarball, files, size: info.size, unpackedSize: info.unpackedSize, checks };
}

function report(checks) {
	for (const c of checks)
		console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok || !c.detail ? '' : `: ${c.detail}`}`);
	return checks.filter((c) => !c.ok).length;
}

module.exports = { packAndCheck, report, PACKED_BUDGET_KB };

if (require.main === module) {
	const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-check-'));
	try {
		const result = packAndCheck({ destination: dest });
		const failed = report(result.checks);
		console.log(
			`${result.files.length} files, ${result.size} bytes packed, ${result.unpackedSize} bytes unpacked`,
		);
		console.log(`pack: ${result.checks.length - failed} passed, ${failed} failed`);
		process.exitCode = failed ? 1 : 0;
	} finally {
		fs.rmSync(dest, { recursive: true, force: true });
	}
}

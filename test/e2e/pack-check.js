'use strict';
/**
 * Checks what `npm pack` would publish: every file of the package.json `n8n` field, the
 * icons and codex files; no source maps, tests, TypeScript sources or node_modules; and no
 * runtime dependencies. Prints `pack: N passed, M failed`.
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const pkg = require(path.join(root, 'package.json'));
const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
	cwd: root,
	encoding: 'utf8',
});
const [info] = JSON.parse(out.slice(out.indexOf('[')));
const files = info.files.map((f) => f.path);

const checks = [];
const check = (name, ok, detail = '') => checks.push({ name, ok, detail });

for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes])
	check(`publishes ${file}`, files.includes(file));
check(
	'publishes the icons',
	files.some((f) => f.startsWith('dist/icons/') && f.endsWith('.svg')),
);
check(
	'publishes the codex files',
	files.some((f) => f.endsWith('.node.json')),
);
const bad = files.filter(
	(f) => /\.map$|(^|\/)test\/|\.test\.|node_modules\/|\.ts$/.test(f) && !f.endsWith('.d.ts'),
);
check(
	'no source maps, tests, TypeScript sources or node_modules',
	bad.length === 0,
	bad.join(', '),
);
check('no runtime dependencies', !pkg.dependencies || Object.keys(pkg.dependencies).length === 0);
check(
	'n8n-workflow is a peer dependency "*"',
	(pkg.peerDependencies || {})['n8n-workflow'] === '*',
);
check(
	`package size under 300 KB (${Math.round(info.size / 1024)} KB packed)`,
	info.size < 300 * 1024,
);

for (const c of checks)
	console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok || !c.detail ? '' : `: ${c.detail}`}`);
console.log(
	`${files.length} files, ${info.size} bytes packed, ${info.unpackedSize} bytes unpacked`,
);
const failed = checks.filter((c) => !c.ok).length;
console.log(`pack: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

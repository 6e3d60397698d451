/**
 * Build: type-check → bundle every node and credential entry with esbuild (Turf and the
 * other dev-time libraries end up inside, tree-shaken; n8n-workflow stays external as a
 * peer dependency) → THIRD_PARTY_NOTICES.md of the bundled packages → copy icons and codex
 * files. The published package has no runtime dependencies.
 */
const { series, src, dest } = require('gulp');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = __dirname;
const out = path.join(root, 'dist');

function clean(done) {
	fs.rmSync(out, { recursive: true, force: true });
	done();
}

function typecheck(done) {
	execFileSync(
		process.execPath,
		[require.resolve('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.build.json'],
		{
			cwd: root,
			stdio: 'inherit',
		},
	);
	done();
}

/** The files named in package.json's n8n field, as their TypeScript sources. */
function entries() {
	const pkg = require('./package.json');
	return [...pkg.n8n.credentials, ...pkg.n8n.nodes].map((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		if (!fs.existsSync(path.join(root, source))) {
			throw new Error(`package.json's n8n field lists ${file}, but ${source} does not exist`);
		}
		return source;
	});
}

const NOTICES = path.join(out, 'THIRD_PARTY_NOTICES.md');

async function bundle() {
	const esbuild = require('esbuild');
	const result = await esbuild.build({
		entryPoints: entries().map((file) => ({ in: file, out: file.replace(/\.ts$/, '') })),
		outdir: out,
		outbase: '.',
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		// A package's ES module entry before its `main`: `main` is often a UMD wrapper that
		// reaches for `globalThis`/`global`, which n8n Cloud's scanner refuses in `dist/`
		// (packages with an `exports` map already resolve through its `import` condition).
		mainFields: ['module', 'main'],
		treeShaking: true,
		minify: false,
		sourcemap: false,
		// The licences of bundled code go to THIRD_PARTY_NOTICES.md (below) in full.
		legalComments: 'none',
		metafile: true,
		logLevel: 'warning',
		// Provided by n8n at run time (peer dependency).
		external: ['n8n-workflow'],
	});
	const { thirdPartyNotices } = require('./scripts/third-party-notices');
	fs.writeFileSync(NOTICES, `${thirdPartyNotices(root, result.metafile).text}\n`);
}

function icons() {
	return src('icons/*.svg').pipe(dest(path.join(out, 'icons')));
}

function codex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest(out));
}

function verify(done) {
	const pkg = require('./package.json');
	const missing = [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter(
		(file) => !fs.existsSync(path.join(root, file)),
	);
	if (missing.length)
		throw new Error(`Build is missing files listed in package.json: ${missing.join(', ')}`);
	if (!fs.existsSync(NOTICES)) throw new Error(`Build is missing ${path.relative(root, NOTICES)}`);
	done();
}

exports.typecheck = typecheck;
exports.bundle = series(clean, bundle, icons, codex, verify);
exports.build = series(clean, typecheck, bundle, icons, codex, verify);
exports.default = exports.build;

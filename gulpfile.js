/**
 * Build: type-check → bundle every node and credential entry with esbuild (Turf and the
 * other dev-time libraries end up inside, tree-shaken; n8n-workflow stays external as a
 * peer dependency) → THIRD_PARTY_NOTICES.md of the bundled packages → copy icons, codex
 * files and the output schemas (`__schema__`). The published package has no runtime dependencies.
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

const NOTICES = path.join(out, 'THIRD_PARTY_NOTICES.md');

/** esbuild with the package's settings (scripts/bundle.js, shared with `npm run dev`). */
async function bundle() {
	const esbuild = require('esbuild');
	const { bundleOptions, writeNotices } = require('./scripts/bundle');
	const result = await esbuild.build(bundleOptions({ outdir: out }));
	writeNotices(result.metafile, out);
}

function icons() {
	return src('icons/*.svg').pipe(dest(path.join(out, 'icons')));
}

function codex() {
	return src('nodes/**/*.node.json', { base: '.' }).pipe(dest(out));
}

/** Output schemas the editor shows before a node has run (nodes/<Node>/__schema__/v<x.y.z>/…). */
function schemas() {
	return src('nodes/**/__schema__/**/*.json', { base: '.' }).pipe(dest(out));
}

function verify(done) {
	const pkg = require('./package.json');
	const missing = [...pkg.n8n.credentials, ...pkg.n8n.nodes].filter(
		(file) => !fs.existsSync(path.join(root, file)),
	);
	if (missing.length)
		throw new Error(`Build is missing files listed in package.json: ${missing.join(', ')}`);
	for (const node of ['GeospatialAnalysis', 'EuInformationSystem']) {
		const schemaDir = path.join(out, 'nodes', node, '__schema__');
		if (!fs.existsSync(schemaDir))
			throw new Error(`Build is missing ${path.relative(root, schemaDir)} (npm run schemas)`);
	}
	if (!fs.existsSync(NOTICES)) throw new Error(`Build is missing ${path.relative(root, NOTICES)}`);
	done();
}

exports.typecheck = typecheck;
exports.bundle = series(clean, bundle, icons, codex, schemas, verify);
exports.build = series(clean, typecheck, bundle, icons, codex, schemas, verify);
exports.default = exports.build;

'use strict';
/**
 * The esbuild settings of the package, shared by the build (gulpfile.js) and the dev loop
 * (scripts/dev.js): one bundle per file of package.json's `n8n` field, Turf and the other
 * dev-time libraries inside (tree-shaken), n8n-workflow external (peer dependency); and what
 * goes beside the bundles (third-party notices, icons, codex files).
 */
const fs = require('node:fs');
const path = require('node:path');

const { thirdPartyNotices } = require('./third-party-notices');

const root = path.resolve(__dirname, '..');

/** The files named in package.json's n8n field, as their TypeScript sources. */
function entries() {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	return [...pkg.n8n.credentials, ...pkg.n8n.nodes].map((file) => {
		const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
		if (!fs.existsSync(path.join(root, source))) {
			throw new Error(`package.json's n8n field lists ${file}, but ${source} does not exist`);
		}
		return source;
	});
}

/**
 * `import proj4 from 'proj4'` bundles proj4's core with the projections Plot → Read File
 * converts from (nodes/shared/geoFiles/proj4Bundled.ts), not its whole catalogue and MGRS:
 * the same projections its `.prj` check accepts under any build (projectionNames.ts).
 */
const proj4Core = {
	name: 'proj4-core',
	setup(build) {
		build.onResolve({ filter: /^proj4$/ }, () => ({
			path: path.join(root, 'nodes/shared/geoFiles/proj4Bundled.ts'),
		}));
	},
};

/**
 * polygon-clipping (Plot → Validate's overlaps) reads two tuning knobs from `process.env`,
 * a global n8n Cloud's scanner refuses in `dist/`: its own defaults (1e6) are kept, the
 * lookups dropped. Fails the build if the text it expects is not there.
 */
const withoutProcessEnv = {
	name: 'polygon-clipping-without-process-env',
	setup(build) {
		build.onLoad({ filter: /polygon-clipping[\\/]dist[\\/].*\.js$/ }, async (args) => {
			const text = await fs.promises.readFile(args.path, 'utf8');
			const pattern = /typeof process !== "undefined" && process\.env\.POLYGON_CLIPPING_\w+ \|\| /g;
			const matches = text.match(pattern) ?? [];
			if (matches.length !== 2) {
				throw new Error(
					`polygon-clipping: expected 2 process.env lookups in ${args.path}, found ${matches.length}`,
				);
			}
			return { contents: text.replace(pattern, ''), loader: 'js' };
		});
	},
};

/** esbuild options writing the bundles into `outdir` (the package's `dist/` by default). */
function bundleOptions({ outdir = path.join(root, 'dist') } = {}) {
	return {
		absWorkingDir: root,
		entryPoints: entries().map((file) => ({ in: file, out: file.replace(/\.ts$/, '') })),
		outdir,
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
		// Bundled libraries' console calls (e.g. proj4's diagnostics) are
		// removed: n8n Cloud's scanner refuses console statements in dist/, and the nodes have none.
		drop: ['console'],
		// The licences of bundled code go to THIRD_PARTY_NOTICES.md (writeNotices) in full.
		legalComments: 'none',
		metafile: true,
		logLevel: 'warning',
		// Provided by n8n at run time (peer dependency).
		external: ['n8n-workflow'],
		plugins: [proj4Core, withoutProcessEnv],
	};
}

/** Writes `text` to `file` unless it already holds it (a running n8n reloads on writes). */
function writeIfChanged(file, text) {
	if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, text);
}

/** dist/THIRD_PARTY_NOTICES.md from a build's metafile; returns its path. */
function writeNotices(metafile, outdir = path.join(root, 'dist')) {
	const file = path.join(outdir, 'THIRD_PARTY_NOTICES.md');
	writeIfChanged(file, `${thirdPartyNotices(root, metafile).text}\n`);
	return file;
}

module.exports = { root, entries, bundleOptions, writeNotices, writeIfChanged };

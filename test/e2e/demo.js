#!/usr/bin/env node
'use strict';
/**
 * `npm run demo`: build the package, start the fake service and the pinned
 * n8n with the package loaded, import credentials for the fake and every
 * example workflow, create the owner account, print the editor URL and login,
 * and keep running until Ctrl-C. The flagship example (shipments to due-diligence statements) is
 * imported first, its Shipments Data Table made with the sample shipments, and its URL printed first.
 *
 * Env: N8N_DEMO_VERSION (default the newest pinned n8n), N8N_DEMO_PORT
 * (default 5678 when free), N8N_E2E_SKIP_BUILD=1, N8N_E2E_CACHE.
 * The first run installs n8n into the cache (several minutes).
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
const cleanups = [];

async function portFree(port) {
	const net = require('net');
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
	});
}

async function cleanup() {
	while (cleanups.length) {
		try {
			await cleanups.pop()();
		} catch {}
	}
}

async function main() {
	const version =
		process.env.N8N_DEMO_VERSION || n8n.DEFAULT_VERSIONS[n8n.DEFAULT_VERSIONS.length - 1];
	const say = (s) => console.log(`[demo] ${s}`);

	const installing = n8n.installN8n(version).catch((e) => ({ error: e }));
	if (!fs.existsSync(path.join(n8n.cacheRoot(), version, '.installed.json'))) {
		say(
			`installing n8n ${version} into ${path.join(n8n.cacheRoot(), version)} (first run only; a few minutes)…`,
		);
	}

	if (!process.env.N8N_E2E_SKIP_BUILD) {
		say('building the package (npm run build)…');
		await n8n.run('npm', ['run', 'build'], { cwd: REPO_ROOT });
	}

	say('starting the fake Geospatial Analysis Service…');
	const fake = await startFake({ euAvailableAfterMs: 20000 });
	cleanups.push(() => stopFake(fake));

	const install = await installing;
	if (install.error) throw install.error;

	const wanted = Number(process.env.N8N_DEMO_PORT || 5678);
	const port = (await portFree(wanted)) ? wanted : await n8n.freePort();
	const userFolder = path.join(n8n.cacheRoot(), 'demo', version);
	fs.rmSync(userFolder, { recursive: true, force: true }); // fresh each time: the fake's port changes
	const packageDir = path.resolve(process.env.N8N_E2E_PACKAGE_DIR || REPO_ROOT);
	const inst = await n8n.createInstance(install, { userFolder, port, packageDir });
	cleanups.push(() => n8n.stop(inst, { keep: true }));

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

	const line = '─'.repeat(72);
	console.log(`\n${line}`);
	console.log(`  n8n ${version} with n8n-nodes-geospatial-analysis is running`);
	console.log('');
	console.log(`  Editor:    ${inst.url}/`);
	console.log(`  Login:     ${n8n.OWNER.email}  /  ${n8n.OWNER.password}`);
	console.log('');
	console.log(`  Fake Geospatial Analysis Service: ${fake.url}  (user ${fake.user.username})`);
	if (fake.eu)
		console.log(
			`  Fake EU Information System: ${fake.eu.url}  (user ${fake.eu.username}; a statement becomes AVAILABLE 20 s after it is submitted)`,
		);
	if (flagship) {
		console.log(`  Open first:  ${inst.url}/workflow/${flagship.id}`);
		console.log(`               ${flagship.name}`);
		console.log(
			`  Its shipments table: ${inst.url}/projects/${table.projectId}/datatables/${table.tableId}  (run the workflow, then look again)`,
		);
		console.log('');
	}
	console.log(`  Credentials imported: ${creds.map((c) => `"${c.name}"`).join(', ')}`);
	console.log(
		`  Example workflows imported: ${examples.length ? examples.map((w) => w.json.name || w.rel).join('; ') : 'none yet'}`,
	);
	console.log(`  n8n data folder: ${userFolder}  (log: ${path.join(userFolder, 'start.log')})`);
	console.log('');
	console.log('  Press Ctrl-C to stop.');
	console.log(`${line}\n`);

	const main = inst.procs[0];
	const code = await main.exitPromise;
	say(`n8n exited (${code})`);
	await cleanup();
	process.exit(code === 0 ? 0 : 1);
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, async () => {
		if (stopping) process.exit(130);
		stopping = true;
		console.log('\n[demo] stopping…');
		await cleanup();
		process.exit(0);
	});
}

main().catch(async (e) => {
	console.error('[demo] failed:', e && e.message ? e.message : e);
	await cleanup();
	process.exit(1);
});

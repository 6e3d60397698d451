#!/usr/bin/env node
'use strict';
/**
 * `npm run test:e2e`: the built package inside a real n8n.
 *
 * For each n8n version (env N8N_E2E_VERSIONS, comma list; default both majors):
 *   install it into the cache (reused when present; N8N_E2E_FRESH=1 reinstalls),
 *   start it with the package staged as an npm-installed community package,
 *   check that every node and credential of the package's `n8n` field loaded,
 *   import credentials for the fake service and every workflow in
 *   test/e2e/workflows/*.json and examples/*.json, run each with
 *   `n8n execute --id`, and call its sibling `<name>.assert.js`.
 * Then one queue-mode run (Redis + main + two workers) of the workflows whose
 * assert module sets `queue = true` and of those in test/e2e/queue/, and on n8n 2.x one run with the durable
 * scheduler and durable poll cursors of the workflows in test/e2e/durable/
 * (durable.js; N8N_E2E_DURABLE=0 skips it), and the restart pass (restart.js: the workflows
 * of test/e2e/restart/ under each polling scheduler, across a SIGTERM restart of n8n and a
 * credential edit; N8N_E2E_RESTART=0 skips it). On n8n 2.x, after the workflows, the browser
 * check (browser.js): the editor in headless Chromium, every operation's panel at its
 * defaults and the examples (N8N_E2E_BROWSER=0 skips it; N8N_E2E_ONLY=browser runs only it).
 *
 * Other env: N8N_E2E_SKIP_BUILD=1, N8N_E2E_PACKAGE_DIR (stage another copy of
 * the package), N8N_E2E_ONLY (substring filter on workflow paths),
 * N8N_E2E_QUEUE=0 (skip queue mode) / N8N_E2E_QUEUE_VERSIONS, N8N_E2E_KEEP=1
 * (keep user folders), N8N_E2E_VERBOSE=1.
 */
const fs = require('fs');
const path = require('path');
const n8n = require('./n8n');
const { startFake, stopFake } = require('./fake');
const queue = require('./queue');
const durable = require('./durable');
const restart = require('./restart');
const browser = require('./browser');
const {
	loadWorkflowFiles,
	importWorkflows,
	credentialsFor,
	checkPackageLoaded,
	checkCredentialTests,
	makeCtx,
} = require('./suite');

const { REPO_ROOT } = n8n;
const results = [];
const cleanups = [];

function indent(s) {
	return String(s)
		.split('\n')
		.map((l) => '    ' + l)
		.join('\n');
}

async function test(name, fn) {
	const t0 = Date.now();
	try {
		await fn();
		const s = ((Date.now() - t0) / 1000).toFixed(1);
		results.push({ name, ok: true });
		console.log(`ok - ${name} (${s}s)`);
		return true;
	} catch (e) {
		const s = ((Date.now() - t0) / 1000).toFixed(1);
		results.push({ name, ok: false, error: e });
		console.log(`not ok - ${name} (${s}s)\n${indent(e && (e.stack || e.message || e))}`);
		return false;
	}
}

function fail(name, error) {
	results.push({ name, ok: false, error });
	console.log(`not ok - ${name}\n${indent(error && (error.stack || error.message || error))}`);
}

async function cleanup() {
	while (cleanups.length) {
		const fn = cleanups.pop();
		try {
			await fn();
		} catch (e) {
			console.error('[e2e] cleanup:', e.message);
		}
	}
}

async function main() {
	const t0 = Date.now();
	const versions = (process.env.N8N_E2E_VERSIONS || n8n.DEFAULT_VERSIONS.join(','))
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const fresh = /^(1|true)$/i.test(process.env.N8N_E2E_FRESH || '');
	const packageDir = path.resolve(process.env.N8N_E2E_PACKAGE_DIR || REPO_ROOT);

	// installs run in the background while we build and start the fake
	const installs = {};
	const startInstalls = () => {
		for (const v of versions) {
			installs[v] = n8n.installN8n(v, { fresh }).then(
				(i) => ({ install: i }),
				(error) => ({ error }),
			);
		}
	};
	startInstalls();

	if (!process.env.N8N_E2E_SKIP_BUILD) {
		const built = await test('build the package (npm run build)', async () => {
			await n8n.run('npm', ['run', 'build'], {
				cwd: REPO_ROOT,
				echo: !!process.env.N8N_E2E_VERBOSE,
			});
		});
		if (!built)
			console.log(
				'# the build failed: n8n will not find the package (continuing to show what fails)',
			);
	}

	let fake;
	const fakeOk = await test('fake service starts', async () => {
		fake = await startFake();
		cleanups.push(() => stopFake(fake));
		if (!fake.user || !fake.user.apiKey)
			throw new Error(`no seeded user with an API key: ${JSON.stringify(fake.users)}`);
	});

	// N8N_E2E_ONLY=browser: only the browser check (the examples imported, not run)
	const browserOnly = process.env.N8N_E2E_ONLY === 'browser';
	const workflows = loadWorkflowFiles(browserOnly ? 'examples/' : process.env.N8N_E2E_ONLY);
	console.log(`# ${workflows.length} workflow(s): ${workflows.map((w) => w.rel).join(', ')}`);

	for (const v of versions) {
		const res = await installs[v];
		if (res.error) {
			fail(`[n8n ${v}] install`, res.error);
			continue;
		}
		const { install } = res;
		if (!install.cached)
			console.log(
				`# n8n ${v} installed in ${install.stats.totalSeconds}s (${(install.stats.bytes / 1e9).toFixed(2)} GB)`,
			);
		await runVersion(install, { fake, fakeOk, workflows, packageDir, browserOnly });
	}

	const queueVersions = (process.env.N8N_E2E_QUEUE_VERSIONS || versions[versions.length - 1] || '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	if (process.env.N8N_E2E_QUEUE !== '0' && fakeOk) {
		const qWorkflows = [
			...workflows.filter((w) => w.assert && w.assert.queue),
			// test/e2e/queue/: the queue pass only (e.g. two executions at once on two workers)
			...(browserOnly ? [] : queue.queueWorkflows(process.env.N8N_E2E_ONLY)),
		];
		for (const v of queueVersions) {
			const res = await installs[v];
			if (!res || res.error) {
				fail(
					`[n8n ${v} queue mode] install`,
					res ? res.error : new Error(`version ${v} not among ${versions}`),
				);
				continue;
			}
			await queue.runQueueMode(res.install, {
				fake,
				workflows: qWorkflows,
				packageDir,
				test,
				cleanups,
			});
		}
	}

	// The durable-cursor pass and the restart pass run side by side (each its own n8n on 2.x;
	// their scenarios mostly wait for polls, one after the other they added their times for
	// nothing). N8N_E2E_PASSES_SERIAL=1 runs them one after the other.
	const durablePass = async () => {
		const durableWorkflows = durable.durableWorkflows(process.env.N8N_E2E_ONLY);
		if (process.env.N8N_E2E_DURABLE === '0' || !fakeOk || !durableWorkflows.length) return;
		for (const v of versions) {
			const res = await installs[v];
			if (!res || res.error || res.install.major < 2) continue;
			await durable.runDurableCursorPass(res.install, {
				fake,
				packageDir,
				test,
				cleanups,
				workflows: durableWorkflows,
			});
		}
	};
	const restartPass = async () => {
		const restartWorkflows = restart.restartWorkflows(process.env.N8N_E2E_ONLY);
		if (process.env.N8N_E2E_RESTART === '0' || !fakeOk || !restartWorkflows.length) return;
		for (const v of versions) {
			const res = await installs[v];
			if (!res || res.error || res.install.major < 2) continue;
			await restart.runRestartPass(res.install, {
				fake,
				packageDir,
				test,
				cleanups,
				workflows: restartWorkflows,
			});
		}
	};
	if (process.env.N8N_E2E_PASSES_SERIAL === '1') {
		await durablePass();
		await restartPass();
	} else await Promise.all([durablePass(), restartPass()]);

	await cleanup();
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log(`# total ${((Date.now() - t0) / 1000).toFixed(0)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

async function runVersion(install, { fake, fakeOk, workflows, packageDir, browserOnly }) {
	const v = install.version;
	const tag = `[n8n ${v}]`;
	let inst;
	const started = await test(`${tag} starts with the package staged`, async () => {
		inst = await n8n.createInstance(install, { packageDir });
		cleanups.push(() => n8n.stop(inst));
		await n8n.start(inst);
		await n8n.setupOwner(inst);
		await n8n.login(inst);
		await n8n.createApiKey(inst);
	});
	if (!started) return;

	await test(`${tag} package loads (all nodes and credentials of the n8n field)`, async () => {
		await checkPackageLoaded(inst, packageDir);
	});

	if (!fakeOk) return;
	await test(`${tag} credential test in the editor (the three types; clear messages for a wrong kind of key, a wrong password and a wrong EU authentication key)`, async () => {
		await checkCredentialTests(inst, fake, n8n.rest);
	});
	const creds = credentialsFor(fake);
	const imported = await test(`${tag} import credentials and workflows (CLI)`, async () => {
		await importWorkflows(inst, creds, workflows);
	});
	if (!imported) return;

	for (const w of browserOnly ? [] : workflows) {
		await test(`${tag} ${w.rel}`, async () => {
			if (!w.startable) {
				await runActivated(inst, w, makeCtx({ inst, fake, creds, workflow: w, mode: 'activate' }));
				return;
			}
			const ctx = makeCtx({ inst, fake, creds, workflow: w });
			if (w.assert && w.assert.before) await w.assert.before(ctx);
			const r = await n8n.executeWorkflow(inst, w.imported.id, {
				timeoutMs: (w.assert && w.assert.timeoutMs) || 300000,
			});
			ctx.result = r;
			ctx.run = r.run;
			if (expectsError(w, ctx)) {
				if (r.ok) throw new Error('expected the execution to fail, it succeeded');
				await w.assert(r.runData, ctx);
				return;
			}
			if (!r.ok) {
				const msg = r.error
					? `${r.error.message || ''}${r.error.description ? ` — ${r.error.description}` : ''}`
					: 'no run data';
				throw new Error(
					`execution failed: ${msg}${r.error && r.error.node ? ` (node "${r.error.node.name || r.error.node}")` : ''}\n--- n8n execute output ---\n${n8n.tail(r.stdout + r.stderr, 3000)}`,
				);
			}
			if (w.assert) await w.assert(r.runData, ctx);
		});
	}
	// the editor in headless Chromium (n8n 2.x): every operation's panel and the examples
	const only = process.env.N8N_E2E_ONLY;
	if (inst.major >= 2 && process.env.N8N_E2E_BROWSER !== '0' && (!only || browserOnly))
		await browser.runBrowserCheck(inst, { workflows, creds, test, tag, cleanups });
	await n8n.stop(inst);
}

/** `expectError` of an assert module: true, or a function of ctx (e.g. by n8n major). */
function expectsError(w, ctx) {
	const expect = w.assert && w.assert.expectError;
	return typeof expect === 'function' ? !!expect(ctx) : !!expect;
}

/**
 * A workflow without a Manual Trigger (e.g. our polling trigger): activate it
 * in the running n8n through the public API (n8n polls once at activation; 2.x may answer
 * the activation request before that poll), run the assert module's `afterActivate(ctx)` if
 * any (what should fire, made after the activation request), wait for its first finished
 * execution, assert on it, deactivate.
 */
async function runActivated(inst, w, ctx) {
	const id = w.imported.id;
	if (w.assert && w.assert.before) await w.assert.before(ctx);
	await n8n.activateWorkflow(inst, w.imported);
	try {
		// after the activation request (n8n 1.x answers it after the activation poll, 2.x may
		// answer before: afterActivate must not assume that the poll has run)
		if (w.assert && w.assert.afterActivate) await w.assert.afterActivate(ctx);
		const exec = await n8n.waitFor(
			async () => {
				const r = await n8n.publicApi(
					inst,
					'GET',
					`/executions?workflowId=${id}&includeData=true&limit=5`,
				);
				if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
				return (r.json.data || []).find((e) => e.finished || e.stoppedAt);
			},
			{
				timeoutMs: (w.assert && w.assert.timeoutMs) || 90000,
				what: `an execution of the activated workflow ${w.rel}`,
			},
		);
		ctx.run = { data: exec.data, status: exec.status, finished: exec.finished, mode: exec.mode };
		ctx.result = { ok: exec.status === 'success', executionId: exec.id };
		const err = exec.data?.resultData?.error;
		if ((err || exec.status !== 'success') && !expectsError(w, ctx)) {
			throw new Error(`execution ${exec.id} ${exec.status}: ${err ? err.message : ''}`);
		}
		if (w.assert) await w.assert(exec.data?.resultData?.runData, ctx);
	} finally {
		await n8n.publicApi(inst, 'POST', `/workflows/${id}/deactivate`).catch(() => {});
	}
}

let exiting = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, async () => {
		if (exiting) process.exit(130);
		exiting = true;
		console.error(`\n[e2e] ${sig}: stopping processes…`);
		await cleanup();
		process.exit(130);
	});
}

main().then(
	(code) => process.exit(code),
	async (e) => {
		console.error(e);
		await cleanup();
		const passed = results.filter((r) => r.ok).length;
		console.log(`${passed} passed, ${results.length - passed + 1} failed`);
		process.exit(1);
	},
);

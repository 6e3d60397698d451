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
 * credential edit; N8N_E2E_RESTART=0 skips it). On n8n 2.x, in a lane of its own, the browser
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
	usesGeospatial,
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

/**
 * The variants of N8N_E2E_VARIANTS: `all` (test/variants.js's list), or a list separated by
 * semicolons (a variant's own text has commas: `flat,silent,uuid;absent,job-id`).
 */
function variantsToRun() {
	const wanted = (process.env.N8N_E2E_VARIANTS || '').trim();
	if (!wanted || wanted === '0') return [];
	if (wanted === 'all') return require('../variants.js').VARIANTS;
	return wanted
		.split(';')
		.map((v) => v.trim())
		.filter(Boolean);
}

/** Each lane its own copies of the workflows: importing sets `imported` (its own n8n's ids). */
const ownCopies = (workflows) => workflows.map((w) => ({ ...w, json: structuredClone(w.json) }));

/**
 * Runs `fn(fake, fakeOk)` with a fake service of its own (its EU fake and chat model too),
 * stopped afterwards; `fn` runs when the fake did not start as well (n8n still starts and
 * loads the package; what needs the fake is skipped by the passes).
 */
async function withOwnFake(label, opts, fn) {
	let fake;
	const fakeOk = await test(`${label}: fake service starts`, async () => {
		fake = await startFake(opts);
		cleanups.push(() => stopFake(fake));
		if (!fake.user || !fake.user.apiKey)
			throw new Error(`no seeded user with an API key: ${JSON.stringify(fake.users)}`);
	});
	try {
		await fn(fake, fakeOk);
	} finally {
		if (fake) await stopFake(fake).catch((e) => console.error('[e2e] stopping a fake:', e.message));
	}
}

/**
 * The passes run in lanes side by side (N8N_E2E_PASSES_SERIAL=1: one after the other), each
 * lane with its own fake service, every n8n with its own user folder and ports:
 *   - per n8n version: its workflows, then on the queue versions queue mode, then on the
 *     variants' version the variant passes (each its own fake started with the variant, its
 *     own n8n);
 *   - per 2.x version: the browser check (its own n8n, the examples imported, not run); the
 *     durable-cursor pass; the restart pass (its schedulers side by side).
 * Most of the passes' time is waiting (polls every minute, n8n starting, each execution in its
 * own `n8n execute` process): one after the other these waits only added up.
 */
async function main() {
	const t0 = Date.now();
	const versions = (process.env.N8N_E2E_VERSIONS || n8n.DEFAULT_VERSIONS.join(','))
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const fresh = /^(1|true)$/i.test(process.env.N8N_E2E_FRESH || '');
	const packageDir = path.resolve(process.env.N8N_E2E_PACKAGE_DIR || REPO_ROOT);
	const variants = variantsToRun();
	const variantsVersion = process.env.N8N_E2E_VARIANTS_VERSION || n8n.DEFAULT_VERSIONS[0];
	const serial = process.env.N8N_E2E_PASSES_SERIAL === '1';

	// installs run in the background while we build
	const installs = {};
	for (const v of new Set([...versions, ...(variants.length ? [variantsVersion] : [])])) {
		installs[v] = n8n.installN8n(v, { fresh }).then(
			(i) => {
				if (!i.cached)
					console.log(
						`# n8n ${v} installed in ${i.stats.totalSeconds}s (${(i.stats.bytes / 1e9).toFixed(2)} GB)`,
					);
				return { install: i };
			},
			(error) => ({ error }),
		);
	}
	/** The install of a version, or undefined (its failure recorded once per pass asking). */
	const installed = async (v, what) => {
		const res = installs[v];
		const r = res ? await res : { error: new Error(`version ${v} not among ${versions}`) };
		if (r.error) fail(`[n8n ${v}${what ? ` ${what}` : ''}] install`, r.error);
		return r.error ? undefined : r.install;
	};

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

	// N8N_E2E_ONLY=browser: only the browser check (the examples imported, not run)
	const browserOnly = process.env.N8N_E2E_ONLY === 'browser';
	const workflows = loadWorkflowFiles(browserOnly ? 'examples/' : process.env.N8N_E2E_ONLY);
	console.log(`# ${workflows.length} workflow(s): ${workflows.map((w) => w.rel).join(', ')}`);

	const queueVersions = (process.env.N8N_E2E_QUEUE_VERSIONS || versions[versions.length - 1] || '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	const queueOn = process.env.N8N_E2E_QUEUE !== '0';
	const qWorkflows = [
		...workflows.filter((w) => w.assert && w.assert.queue),
		// test/e2e/queue/: the queue pass only (e.g. two executions at once on two workers)
		...(browserOnly ? [] : queue.queueWorkflows(process.env.N8N_E2E_ONLY)),
	];
	// the variant passes: the examples with a Geospatial Analysis node (the others never meet
	// a variant), as CI's runs with N8N_E2E_ONLY=examples/ N8N_E2E_GEOSPATIAL_ONLY=1 had them
	const variantWorkflows = variants.length
		? loadWorkflowFiles(process.env.N8N_E2E_ONLY).filter(
				(w) => w.rel.startsWith('examples/') && w.json.nodes.some(usesGeospatial),
			)
		: [];

	const lanes = [];
	const lane = (name, fn) =>
		lanes.push(async () => {
			const l0 = Date.now();
			try {
				await fn();
			} catch (e) {
				fail(`lane ${name}`, e);
			}
			console.log(`# lane ${name}: ${((Date.now() - l0) / 1000).toFixed(0)}s`);
		});

	for (const v of versions) {
		lane(`n8n ${v}`, async () => {
			const install = await installed(v);
			if (!install) return;
			await withOwnFake(`[n8n ${v}]`, {}, async (fake, fakeOk) => {
				await runVersion(install, {
					fake,
					fakeOk,
					workflows: ownCopies(workflows),
					packageDir,
					browserOnly,
					// the browser check has a lane of its own (below)
					browser: false,
				});
				if (queueOn && fakeOk && queueVersions.includes(v))
					await queue.runQueueMode(install, {
						fake,
						workflows: qWorkflows,
						packageDir,
						test,
						cleanups,
					});
			});
			if (v === variantsVersion) await variantPasses(install);
		});
	}
	// The browser check (n8n 2.x) in a lane of its own, beside the version's workflows: its own
	// fake and n8n with the examples imported, not run (as N8N_E2E_ONLY=browser always had it;
	// the examples' editorSetup makes what their nodes refer to). After the workflows in the
	// same n8n, it made that lane the longest by far.
	const browserWanted =
		process.env.N8N_E2E_BROWSER !== '0' && (!process.env.N8N_E2E_ONLY || browserOnly);
	for (const v of browserWanted ? versions : []) {
		// n8n 1.x: only Draw Map's picture in the viewer (browser.js, browser-map.js)
		lane(`n8n ${v} browser check`, async () => {
			const install = await installed(v, 'browser check');
			if (!install) return;
			const tag = `[n8n ${v} browser check]`;
			await withOwnFake(tag, {}, async (fake, fakeOk) => {
				await runVersion(install, {
					fake,
					fakeOk,
					workflows: ownCopies(loadWorkflowFiles('examples/')),
					packageDir,
					browserOnly: true,
					tag,
				});
			});
		});
	}
	// queue versions without a lane of their own, the variants' version when not among versions
	for (const v of queueOn ? queueVersions.filter((q) => !versions.includes(q)) : []) {
		lane(`n8n ${v} queue mode`, async () => {
			const install = await installed(v, 'queue mode');
			if (!install) return;
			await withOwnFake(`[n8n ${v} queue mode]`, {}, async (fake, fakeOk) => {
				if (fakeOk)
					await queue.runQueueMode(install, {
						fake,
						workflows: qWorkflows,
						packageDir,
						test,
						cleanups,
					});
			});
		});
	}
	if (variants.length && !versions.includes(variantsVersion))
		lane(`n8n ${variantsVersion} shape variants`, async () => {
			const install = await installed(variantsVersion, 'shape variants');
			if (install) await variantPasses(install);
		});

	// the examples against each shape variant of the fake (FAKE_VARIANT): each its own fake and
	// n8n, one after the other in this lane
	async function variantPasses(install) {
		for (const variant of variants) {
			const label = `[n8n ${install.version}, fake variant ${variant}]`;
			await withOwnFake(label, { variant }, async (fake, fakeOk) => {
				await runVersion(install, {
					fake,
					fakeOk,
					workflows: ownCopies(variantWorkflows),
					packageDir,
					browserOnly: false,
					tag: label,
					browser: false,
				});
			});
		}
	}

	const durableWorkflows = durable.durableWorkflows(process.env.N8N_E2E_ONLY);
	const restartWorkflows = restart.restartWorkflows(process.env.N8N_E2E_ONLY);
	for (const v of versions) {
		if (Number(v.split('.')[0]) < 2) continue;
		if (process.env.N8N_E2E_DURABLE !== '0' && durableWorkflows.length)
			lane(`n8n ${v} durable-cursor scheduler`, async () => {
				const install = await installed(v, 'durable-cursor scheduler');
				if (!install) return;
				await withOwnFake(`[n8n ${v} durable-cursor scheduler]`, {}, async (fake, fakeOk) => {
					if (fakeOk)
						await durable.runDurableCursorPass(install, {
							fake,
							packageDir,
							test,
							cleanups,
							workflows: ownCopies(durableWorkflows),
						});
				});
			});
		if (process.env.N8N_E2E_RESTART !== '0' && restartWorkflows.length)
			lane(`n8n ${v} restart pass`, async () => {
				const install = await installed(v, 'restart pass');
				if (!install) return;
				await withOwnFake(`[n8n ${v} restart pass]`, {}, async (fake, fakeOk) => {
					if (fakeOk)
						await restart.runRestartPass(install, {
							fake,
							packageDir,
							test,
							cleanups,
							workflows: restartWorkflows,
						});
				});
			});
	}

	console.log(`# ${lanes.length} lane(s)${serial ? ', one after the other' : ', side by side'}`);
	if (serial) for (const run of lanes) await run();
	else await Promise.all(lanes.map((run) => run()));

	await cleanup();
	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log(`# total ${((Date.now() - t0) / 1000).toFixed(0)}s`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed === 0 && passed > 0 ? 0 : 1;
}

async function runVersion(
	install,
	{
		fake,
		fakeOk,
		workflows,
		packageDir,
		browserOnly,
		tag = `[n8n ${install.version}]`,
		browser: withBrowser = true,
	},
) {
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
			// `execute(ctx)`: the assert module runs it itself (e.g. in the running n8n, for nodes
			// that `n8n execute` cannot run: Data Tables); same result shape as executeWorkflow
			const timeoutMs = (w.assert && w.assert.timeoutMs) || 300000;
			const r =
				w.assert && w.assert.execute
					? await w.assert.execute(ctx, { timeoutMs })
					: await n8n.executeWorkflow(inst, w.imported.id, { timeoutMs });
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
	// the editor in headless Chromium (n8n 2.x: every operation's panel and the examples; 1.x:
	// Draw Map's picture in the viewer)
	// (main() gives it a lane of its own: an n8n with the examples imported, not run)
	const only = process.env.N8N_E2E_ONLY;
	if (withBrowser && browserOnly && process.env.N8N_E2E_BROWSER !== '0' && (!only || browserOnly))
		await browser.runBrowserCheck(inst, { workflows, creds, test, tag, cleanups, fake });
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

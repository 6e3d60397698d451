'use strict';
/**
 * The restart pass (n8n 2.x): a polling trigger's scenario in a real n8n under each of n8n's
 * polling schedulers, across what happens to a running instance — a SIGTERM restart of n8n on
 * the same database, an edit of the credential the trigger uses — with the fake EU
 * Information System (or the fake service) driven over HTTP from this process.
 *
 * For each scheduler a fresh n8n is started (owner, API key), the fake's credentials and the
 * workflows of test/e2e/restart/ (not run by the main pass) are imported, and each workflow's
 * assert module's `scenario(ctx)` drives the run. Schedulers:
 *   - `poller`: n8n's default (in-memory cron jobs of the active workflows);
 *   - `durable`: the durable scheduler for poll triggers with durable poll cursors, started as
 *     test/e2e/durable.js starts it (DURABLE_ENV: debug log, intervals of one second).
 * `N8N_E2E_RESTART_SCHEDULERS` (comma list, default `poller,durable`) picks among them;
 * `N8N_E2E_RESTART=0` skips the pass.
 *
 * ctx (besides the usual: fake, credentials, version, …; see suite.js makeCtx):
 *   ctx.scheduler                  'poller' | 'durable'
 *   ctx.workflow                   the workflow as imported; change its nodes before activate()
 *   ctx.activate()                 saves it through the public API and activates it (n8n
 *                                  2.x may answer before its activation poll has run: wait
 *                                  for an event of that poll, e.g. its execution)
 *   ctx.executions()               every finished execution with its data, oldest first
 *   ctx.waitForExecutions(test, { timeoutMs, what })
 *                                  the executions, once test(executions) is true
 *   ctx.restart({ beforeStop, whileStopped })
 *                                  SIGTERM to n8n (its process group), then n8n started again
 *                                  on the same user folder; beforeStop runs just before the
 *                                  signal, whileStopped while no n8n runs
 *   ctx.editCredential(type, { name?, data })
 *                                  the stored credential of the type edited as the editor's
 *                                  Save does (public API PATCH; n8n re-encrypts it)
 *   ctx.mainLog()                  what every n8n main process of the pass printed
 */
const path = require('path');
const n8n = require('./n8n');
const { loadWorkflowFiles, importWorkflows, credentialsFor, makeCtx } = require('./suite');
const { DURABLE_ENV } = require('./durable');

const RESTART_DIR = path.join(__dirname, 'restart');

/** The schedulers of the pass: the environment each n8n is started with. */
const SCHEDULERS = {
	poller: {},
	durable: DURABLE_ENV,
};

/** The workflows of the pass (filtered like the main pass, by N8N_E2E_ONLY). */
function restartWorkflows(only) {
	return loadWorkflowFiles(only, [RESTART_DIR]);
}

function schedulersToRun() {
	const wanted = (process.env.N8N_E2E_RESTART_SCHEDULERS || Object.keys(SCHEDULERS).join(','))
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const unknown = wanted.filter((s) => !SCHEDULERS[s]);
	if (unknown.length)
		throw new Error(
			`N8N_E2E_RESTART_SCHEDULERS: unknown ${unknown.join(', ')} (known: ${Object.keys(SCHEDULERS).join(', ')})`,
		);
	return wanted;
}

/**
 * The schedulers run side by side, each with its own n8n (the scenario mostly waits for
 * minute polls: one after the other, the pass took twice as long for nothing). They share the
 * fakes; each run's statements have a prefix of their own. `N8N_E2E_RESTART_SERIAL=1` runs
 * them one after the other.
 */
async function runRestartPass(install, { fake, packageDir, test, cleanups, workflows }) {
	if (install.major < 2) return;
	// each scheduler its own workflow objects: importing sets `imported` (the id and nodes its
	// own n8n holds) on them, and a scenario changes the imported nodes before activating
	const run = (scheduler) =>
		runScheduler(install, scheduler, {
			fake,
			packageDir,
			test,
			cleanups,
			workflows: workflows.map((w) => ({ ...w, json: structuredClone(w.json) })),
		});
	if (process.env.N8N_E2E_RESTART_SERIAL === '1') {
		for (const scheduler of schedulersToRun()) await run(scheduler);
		return;
	}
	await Promise.all(schedulersToRun().map(run));
}

async function runScheduler(install, scheduler, { fake, packageDir, test, cleanups, workflows }) {
	const tag = `[n8n ${install.version} restart pass, ${scheduler} scheduler]`;
	let inst;
	const up = await test(`${tag} starts`, async () => {
		inst = await n8n.createInstance(install, { packageDir, env: SCHEDULERS[scheduler] });
		cleanups.push(() => n8n.stop(inst));
		await n8n.start(inst);
		await n8n.setupOwner(inst);
		await n8n.login(inst);
		await n8n.createApiKey(inst);
	});
	if (!up) return;
	const creds = credentialsFor(fake);
	const imported = await test(`${tag} import credentials and workflows (CLI)`, async () => {
		await importWorkflows(inst, creds, workflows);
	});
	if (imported) {
		for (const w of workflows) {
			await test(`${tag} ${w.rel}`, async () => {
				if (!w.assert || typeof w.assert.scenario !== 'function')
					throw new Error(`${w.rel}: its assert module has no scenario(ctx)`);
				const ctx = makeCtx({ inst, fake, creds, workflow: w, mode: 'restart' });
				Object.assign(ctx, { scheduler }, scenarioHelpers(inst, w, creds));
				try {
					await w.assert.scenario(ctx);
				} finally {
					await n8n
						.publicApi(inst, 'POST', `/workflows/${w.imported.id}/deactivate`)
						.catch(() => {});
				}
			});
		}
	}
	await n8n.stop(inst);
}

function scenarioHelpers(inst, w, creds) {
	const id = w.imported.id;
	/** Every finished execution of the workflow with its data (public API pages), oldest first. */
	const executions = async () => {
		const all = [];
		let cursor;
		for (let page = 0; page < 100; page++) {
			const q = `/executions?workflowId=${id}&includeData=true&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
			const r = await n8n.publicApi(inst, 'GET', q);
			if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
			all.push(...(r.json.data || []));
			cursor = r.json.nextCursor;
			if (!cursor) break;
		}
		return all.filter((e) => e.finished || e.stoppedAt).sort((a, b) => Number(a.id) - Number(b.id));
	};
	return {
		async activate() {
			await n8n.activateWorkflow(inst, w.imported);
		},
		executions,
		async waitForExecutions(done, { timeoutMs = 360000, what = 'the executions' } = {}) {
			return await n8n.waitFor(
				async () => {
					const list = await executions();
					return done(list) ? list : undefined;
				},
				{ timeoutMs, intervalMs: 2000, what },
			);
		},
		async restart({ beforeStop, whileStopped } = {}) {
			if (beforeStop) await beforeStop();
			return await n8n.restart(inst, { between: whileStopped });
		},
		async editCredential(type, patch) {
			const cred = creds.find((c) => c.type === type);
			if (!cred) throw new Error(`no imported credential of type ${type}`);
			return await n8n.updateCredential(inst, cred.id, type, patch);
		},
		mainLog() {
			return inst.procs.map((p) => p.output).join('\n');
		},
	};
}

module.exports = { runRestartPass, restartWorkflows, SCHEDULERS, RESTART_DIR };

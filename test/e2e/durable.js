'use strict';
/**
 * The durable-cursor pass (n8n 2.x): one n8n started with its durable scheduler for poll
 * triggers and durable poll cursors (N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED,
 * N8N_POLLER_DURABLE_CURSORS_ENABLED; the publication service they need is on by default in
 * 2.x), debug logging, and the scheduler's intervals at one second so that polls come on time.
 *
 * Each workflow in test/e2e/durable/ (not run by the main pass) is imported, and its assert
 * module's `scenario(ctx)` drives it: `ctx.activate()`, `ctx.waitForExecutions(n, timeoutMs)`,
 * `ctx.executions()` (finished ones with their data, oldest first), `ctx.mainLog()`, plus the
 * usual ctx (fake, apiKey, version, …). The workflow is deactivated afterwards.
 */
const path = require('path');
const n8n = require('./n8n');
const { loadWorkflowFiles, importWorkflows, credentialsFor, makeCtx } = require('./suite');

const DURABLE_DIR = path.join(__dirname, 'durable');

const DURABLE_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	N8N_SCHEDULER_MATERIALIZATION_INTERVAL: '1',
	N8N_SCHEDULER_EXECUTOR_INTERVAL: '1',
	N8N_LOG_LEVEL: 'debug',
};

/** The workflows of the pass (filtered like the main pass, by N8N_E2E_ONLY). */
function durableWorkflows(only) {
	return loadWorkflowFiles(only, [DURABLE_DIR]);
}

async function runDurableCursorPass(install, { fake, packageDir, test, cleanups, workflows }) {
	const tag = `[n8n ${install.version} durable-cursor scheduler]`;
	if (install.major < 2) return;
	let inst;
	const up =
		await test(`${tag} starts with ${Object.keys(DURABLE_ENV).slice(0, 3).join(', ')}`, async () => {
			inst = await n8n.createInstance(install, { packageDir, env: DURABLE_ENV });
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
	if (!imported) return;
	for (const w of workflows) {
		await test(`${tag} ${w.rel}`, async () => {
			if (!w.assert || typeof w.assert.scenario !== 'function')
				throw new Error(`${w.rel}: its assert module has no scenario(ctx)`);
			const ctx = makeCtx({ inst, fake, creds, workflow: w, mode: 'durable' });
			Object.assign(ctx, scenarioHelpers(inst, w));
			try {
				await w.assert.scenario(ctx);
			} finally {
				await n8n.publicApi(inst, 'POST', `/workflows/${w.imported.id}/deactivate`).catch(() => {});
			}
		});
	}
	await n8n.stop(inst);
}

function scenarioHelpers(inst, w) {
	const id = w.imported.id;
	const executions = async () => {
		const r = await n8n.publicApi(
			inst,
			'GET',
			`/executions?workflowId=${id}&includeData=true&limit=50`,
		);
		if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
		return (r.json.data || [])
			.filter((e) => e.finished || e.stoppedAt)
			.sort((a, b) => Number(a.id) - Number(b.id));
	};
	return {
		async activate() {
			await n8n.activateWorkflow(inst, w.imported);
		},
		executions,
		async waitForExecutions(count, timeoutMs = 150000) {
			return await n8n.waitFor(
				async () => {
					const list = await executions();
					return list.length >= count ? list : undefined;
				},
				{ timeoutMs, intervalMs: 1000, what: `${count} finished execution(s) of ${w.rel}` },
			);
		},
		mainLog() {
			return inst.procs.map((p) => p.output).join('\n');
		},
	};
}

module.exports = { runDurableCursorPass, durableWorkflows, DURABLE_ENV, DURABLE_DIR };

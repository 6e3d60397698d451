'use strict';
/**
 * Queue mode: a local Redis (Debian's redis-server, installed by apt-get when
 * missing), one n8n main and two n8n workers (each `--concurrency=1`, so that two
 * executions started at once run on both) sharing a user folder.
 *
 * `n8n execute` always runs in its own process ("does not support queue
 * mode"), so each workflow is imported with its Manual Trigger swapped for a
 * Webhook trigger (same node name, so connections stay) answering with the
 * last node's items, published/activated, and called over HTTP on the main.
 * The main enqueues the execution in Redis and a worker runs it; the run data
 * comes back through n8n's public API (owner + API key), and the logs prove
 * who ran it (main: "Enqueued execution N", worker: "Worker started execution N").
 *
 * Besides the workflows whose assert module sets `queue = true`, the workflows of
 * test/e2e/queue/ run here only. Their assert module may export `executions` (how
 * many executions to start at once, default 1) and `body(i, ctx)` (the webhook body
 * of execution i); with two or more, each must run on another worker and all must
 * overlap in time, and the assert gets `ctx.runs` (every execution, in the order
 * started) besides `ctx.run` (the first).
 */
const fs = require('fs');
const crypto = require('crypto');
const { spawn } = require('child_process');
const path = require('path');
const n8n = require('./n8n');
const { prepareWorkflow, credentialsFor, makeCtx, loadWorkflowFiles } = require('./suite');

const QUEUE_DIR = path.join(n8n.REPO_ROOT, 'test', 'e2e', 'queue');
/** The workers of the pass (each runs one execution at a time). */
const WORKERS = 2;

/** The workflows of test/e2e/queue/ (run in the queue pass only), filtered by N8N_E2E_ONLY. */
function queueWorkflows(only) {
	return loadWorkflowFiles(only, [QUEUE_DIR]);
}

async function which(cmd) {
	const r = await n8n.run('sh', ['-c', `command -v ${cmd}`], { allowFail: true });
	return r.code === 0 ? r.stdout.trim() : null;
}

async function ensureRedis() {
	let bin = await which('redis-server');
	if (bin) return bin;
	if (process.getuid && process.getuid() !== 0)
		throw new Error('redis-server missing and not root: apt-get install -y redis-server');
	n8n.log('installing redis-server (apt-get)');
	await n8n.run('apt-get', ['update', '-qq'], { allowFail: true, timeoutMs: 300000 });
	await n8n.run('apt-get', ['install', '-y', '-qq', 'redis-server'], {
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		timeoutMs: 300000,
	});
	bin = await which('redis-server');
	if (!bin) throw new Error('redis-server still missing after apt-get install');
	return bin;
}

async function startRedis(dir) {
	const bin = await ensureRedis();
	const port = await n8n.freePort();
	const child = spawn(
		bin,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const redis = { port, child, output: '', exited: false };
	child.stdout.on('data', (d) => (redis.output += d));
	child.stderr.on('data', (d) => (redis.output += d));
	redis.exitPromise = new Promise((r) => child.on('exit', (c) => ((redis.exited = true), r(c))));
	await n8n.waitFor(
		() => {
			if (redis.exited) throw new Error(`redis exited: ${redis.output}`);
			return /Ready to accept connections/i.test(redis.output);
		},
		{ timeoutMs: 20000, intervalMs: 100, what: 'redis' },
	);
	redis.stop = async () => {
		if (!redis.exited) child.kill('SIGTERM');
		await redis.exitPromise;
	};
	return redis;
}

/** Replace the Manual Trigger with a Webhook node of the same name. */
function toWebhookWorkflow(wf) {
	const pathId = `e2e-${wf.id}`;
	wf.nodes = wf.nodes.map((node) => {
		if (node.type !== 'n8n-nodes-base.manualTrigger') return node;
		return {
			id: node.id,
			name: node.name,
			position: node.position,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: crypto.randomUUID(),
			parameters: {
				httpMethod: 'POST',
				path: pathId,
				responseMode: 'lastNode',
				responseData: 'allEntries',
				options: {},
			},
		};
	});
	return { wf, path: pathId };
}

async function runQueueMode(install, { fake, workflows, packageDir, test, cleanups }) {
	const tag = `[n8n ${install.version} queue mode]`;
	if (!workflows.length) {
		await test(`${tag} has workflows to run`, async () => {
			throw new Error('no workflow has `queue = true` in its assert file');
		});
		return;
	}
	let inst;
	let main;
	const workers = [];
	let redis;
	const prepared = [];
	const up = await test(`${tag} redis + main + ${WORKERS} workers start`, async () => {
		inst = await n8n.createInstance(install, {
			packageDir,
			env: {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
				N8N_MULTI_MAIN_SETUP_ENABLED: 'false',
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				QUEUE_HEALTH_CHECK_ACTIVE: 'false',
			},
		});
		cleanups.push(() => n8n.stop(inst));
		redis = await startRedis(inst.userFolder);
		cleanups.push(() => redis.stop());
		inst.env.QUEUE_BULL_REDIS_PORT = String(redis.port);

		const creds = credentialsFor(fake);
		await n8n.importCredentials(inst, creds);
		for (const w of workflows) {
			const { wf, path } = toWebhookWorkflow(
				prepareWorkflow(w, creds, { id: n8n.makeId('q' + w.rel) }),
			);
			prepared.push({ w, wf, path, creds });
		}
		await n8n.importWorkflow(
			inst,
			prepared.map((p) => p.wf),
		);
		// 2.x: publish with the CLI before start. (1.x's `update:workflow --active=true`
		// fails on an imported workflow: activeVersionId has no history row; activated
		// through the public API below instead.)
		if (install.major >= 2) {
			for (const p of prepared) await n8n.cli(inst, ['publish:workflow', `--id=${p.wf.id}`]);
		}
		main = await n8n.start(inst, { name: 'main' });
		for (let k = 1; k <= WORKERS; k++) {
			const worker = n8n.spawnN8n(inst, 'worker', {
				name: `worker-${k}`,
				args: ['--concurrency=1'],
				env: {
					N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
					QUEUE_HEALTH_CHECK_PORT: String(await n8n.freePort()),
				},
			});
			workers.push(worker);
		}
		for (const worker of workers)
			await n8n.waitFor(
				() => {
					if (worker.exited)
						throw new Error(
							`${worker.name} exited ${worker.exitCode}:\n${n8n.tail(worker.output)}`,
						);
					return /worker is now ready|Worker ready|n8n worker is ready/i.test(worker.output);
				},
				{ timeoutMs: 120000, what: `the n8n ${worker.name}` },
			);
		await n8n.setupOwner(inst);
		await n8n.login(inst);
		await n8n.createApiKey(inst);
		if (install.major < 2) {
			for (const p of prepared) {
				// save once through the public API so a workflow_history row exists
				const { name, nodes, connections, settings } = p.wf;
				const u = await n8n.publicApi(inst, 'PUT', `/workflows/${p.wf.id}`, {
					name,
					nodes,
					connections,
					settings,
				});
				if (u.status !== 200)
					throw new Error(`updating ${p.wf.id}: ${u.status} ${u.text.slice(0, 500)}`);
				const r = await n8n.publicApi(inst, 'POST', `/workflows/${p.wf.id}/activate`);
				if (r.status !== 200)
					throw new Error(`activating ${p.wf.id}: ${r.status} ${r.text.slice(0, 500)}`);
			}
		}
	});
	if (!up) {
		for (const p of inst ? inst.procs : [])
			console.log(`# ${p.name} output:\n${n8n.tail(p.output, 3000)}`);
		return;
	}

	for (const p of prepared) {
		const count = (p.w.assert && p.w.assert.executions) || 1;
		const title =
			count > 1
				? `${tag} ${p.w.rel}: ${count} executions at once, on ${count} workers`
				: `${tag} ${p.w.rel} runs on a worker`;
		await test(title, async () => {
			const ctx = makeCtx({
				inst,
				fake,
				creds: p.creds,
				workflow: { ...p.w, imported: p.wf },
				mode: 'queue',
			});
			if (p.w.assert && p.w.assert.before) await p.w.assert.before(ctx);
			const bodyOf = (i) => (p.w.assert && p.w.assert.body ? p.w.assert.body(i, ctx) : {});
			const seen = new Set(await executionIds(inst, p.wf.id));
			const answers = await Promise.all(
				Array.from({ length: count }, (_, i) =>
					n8n.httpRequest('POST', `${inst.url}/webhook/${p.path}`, {
						body: bodyOf(i),
						timeoutMs: 300000,
					}),
				),
			);
			const refused = answers.filter((res) => res.status !== 200);
			// the executions these calls started, oldest first
			const execs = await n8n.waitFor(
				async () => {
					const r = await n8n.publicApi(
						inst,
						'GET',
						`/executions?workflowId=${p.wf.id}&includeData=true&limit=${count + 10}`,
					);
					if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
					const done = (r.json.data || []).filter(
						(e) => !seen.has(String(e.id)) && (e.finished || e.stoppedAt),
					);
					return done.length >= count ? done.reverse() : undefined;
				},
				{ timeoutMs: 60000, what: `${count} execution record(s)` },
			);
			const ranOn = [];
			for (const exec of execs) {
				const id = String(exec.id);
				if (!new RegExp(`Enqueued execution ${id}\\b`).test(main.output))
					throw new Error(`main did not enqueue execution ${id}:\n${n8n.tail(main.output, 2000)}`);
				const worker = workers.find((w) =>
					new RegExp(`Worker started execution ${id}\\b`).test(w.output),
				);
				if (!worker)
					throw new Error(
						`no worker ran execution ${id}:\n${workers.map((w) => `${w.name}: ${n8n.tail(w.output, 1000)}`).join('\n')}`,
					);
				ranOn.push(worker.name);
				const err = exec.data?.resultData?.error;
				if (err || exec.status !== 'success')
					throw new Error(
						`execution ${id} (${worker.name}) ${exec.status}: ${err ? `${err.message}${err.description ? ` — ${err.description}` : ''}${err.node ? ` (node "${err.node.name || err.node}")` : ''}` : ''}`,
					);
			}
			for (const res of refused)
				throw new Error(`webhook answered ${res.status}: ${res.text.slice(0, 1000)}`);
			if (/Worker started execution/.test(main.output))
				throw new Error('the main process ran an execution itself');
			if (count > 1) {
				if (new Set(ranOn).size < Math.min(count, WORKERS))
					throw new Error(
						`the ${count} executions ran on ${ranOn.join(', ')}, not on ${WORKERS} workers`,
					);
				const latestStart = Math.max(...execs.map((e) => Date.parse(e.startedAt)));
				const earliestStop = Math.min(...execs.map((e) => Date.parse(e.stoppedAt)));
				if (!(latestStart < earliestStop))
					throw new Error(
						`the executions did not overlap: ${execs.map((e) => `${e.id} ${e.startedAt}–${e.stoppedAt}`).join(', ')}`,
					);
				n8n.log(
					`${p.w.rel}: executions ${execs.map((e, i) => `${e.id} on ${ranOn[i]}`).join(', ')}, overlapping ${((earliestStop - latestStart) / 1000).toFixed(1)} s`,
				);
			}
			const exec = execs[0];
			ctx.runs = execs.map((e) => ({
				data: e.data,
				status: e.status,
				finished: e.finished,
				mode: e.mode,
				worker: ranOn[execs.indexOf(e)],
			}));
			ctx.run = ctx.runs[0];
			ctx.result = {
				ok: execs.every((e) => e.status === 'success'),
				response: answers[0].json ?? answers[0].text,
				executionId: String(exec.id),
			};
			if (p.w.assert) await p.w.assert(exec.data.resultData.runData, ctx);
		});
	}
	await n8n.stop(inst);
	await redis.stop();
}

/** The ids of the workflow's executions so far. */
async function executionIds(inst, workflowId) {
	const r = await n8n.publicApi(inst, 'GET', `/executions?workflowId=${workflowId}&limit=100`);
	if (r.status !== 200) throw new Error(`public API ${r.status}: ${r.text.slice(0, 300)}`);
	return (r.json.data || []).map((e) => String(e.id));
}

module.exports = {
	runQueueMode,
	startRedis,
	ensureRedis,
	toWebhookWorkflow,
	queueWorkflows,
	QUEUE_DIR,
};

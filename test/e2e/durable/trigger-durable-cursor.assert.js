'use strict';
/**
 * The trigger under n8n's durable-cursor scheduler (test/e2e/durable.js starts n8n with
 * N8N_SCHEDULER_ENABLED, N8N_SCHEDULER_POLL_TRIGGERS_ENABLED, N8N_POLLER_DURABLE_CURSORS_ENABLED).
 * There n8n drops the state of the activation poll when it emitted nothing, so the first
 * scheduled poll has no state either: a job that finished in between must still fire (issue 14:
 * 29 of 30 such jobs were lost on n8n 2.40.7), once; a job that finished well before activation
 * must not, and nothing may fire twice.
 */
const assert = require('assert');
const { httpRequest } = require('../n8n');

const TRIGGER = 'When a Job Finishes';
const NAME = 'durable cursor e2e';

/** A contract request to the fake service as user alice (API key). */
async function api(ctx, method, path, body) {
	const r = await httpRequest(method, `${ctx.fake.url}${path}`, {
		body,
		headers: {
			authorization: `Bearer ${ctx.apiKey}`,
			'x-api-version': '3',
			accept: 'application/json',
		},
		timeoutMs: 30000,
	});
	if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
	return r.json;
}

/** A control request to the fake (/__fake/...). */
async function control(ctx, method, path, body) {
	const r = await ctx.fake.request(method, path, body);
	if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
	return r.json;
}

async function finishedJob(ctx, plotId, name) {
	const job = await api(ctx, 'POST', '/jobs/make_job', { plot_ids: [plotId], job_name: name });
	const id = String(job.job_id);
	const deadline = Date.now() + 20000;
	for (;;) {
		const j = await api(ctx, 'GET', `/jobs/job/${id}`);
		if (j.status === 'done' || j.status === 'done-with-errors') return id;
		if (Date.now() > deadline) throw new Error(`job ${id} still ${j.status}`);
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** The items the trigger emitted in one execution. */
function triggerOutput(execution) {
	const runs = execution.data?.resultData?.runData?.[TRIGGER] || [];
	const items = runs.length ? runs[runs.length - 1].data?.main?.[0] || [] : [];
	return items.map((i) => i.json);
}

/** The job ids each finished execution's trigger emitted, oldest execution first. */
function emitted(executions) {
	return executions.map((e) => triggerOutput(e).map((json) => String(json.job_id)));
}

module.exports.scenario = async (ctx) => {
	await control(ctx, 'POST', '/__fake/reset');
	await control(ctx, 'POST', '/__fake/per-plot-duration', { ms: 200 });
	const { plot_ids: plots } = await control(ctx, 'POST', '/__fake/seed/plots', {
		username: ctx.fake.user.username,
		count: 3,
	});

	// Finished half an hour before activation: never fires. On both clocks: the trigger measures
	// time on n8n's clock and believes a service time only up to 5 minutes ahead of it (issue 21),
	// so the service's clock is set back for this job and then to n8n's time again.
	await control(ctx, 'POST', '/__fake/clock/set', {
		iso: new Date(Date.now() - 30 * 60 * 1000).toISOString(),
	});
	const old = await finishedJob(ctx, plots[0], `${NAME} old`);
	await control(ctx, 'POST', '/__fake/clock/set', { iso: new Date().toISOString() });

	// Activation: n8n polls once (nothing to emit; n8n does not keep that poll's state).
	await ctx.activate();
	// Finishes right after activation, before the first scheduled poll.
	const first = await finishedJob(ctx, plots[1], `${NAME} first`);
	const one = await ctx.waitForExecutions(1, 150000);
	assert.deepStrictEqual(emitted(one), [[first]], 'the job that finished after activation fired');

	// A later job: the next poll starts from the stored cursor.
	const second = await finishedJob(ctx, plots[2], `${NAME} second`);
	const two = await ctx.waitForExecutions(2, 150000);
	assert.deepStrictEqual(emitted(two), [[first], [second]], 'each job fired once, in order');

	// At least one more scheduled poll: nothing fires again.
	await new Promise((r) => setTimeout(r, 75000));
	const all = await ctx.executions();
	assert.deepStrictEqual(emitted(all), [[first], [second]], 'no job fired twice');
	assert.ok(!JSON.stringify(all).includes(`"job_id":"${old}"`), 'the old job never fired');
	for (const e of all) assert.strictEqual(e.status, 'success', `execution ${e.id} ${e.status}`);

	// The polls ran in n8n's durable scheduler, with durable cursors on.
	const log = ctx.mainLog();
	assert.ok(
		!/durable poll cursors stay disabled|cannot take over poll triggers/.test(log),
		'n8n did not turn the durable poller chain off',
	);
	assert.ok(
		/Poll returned (no new data|new data; handed off)/.test(log),
		'the scheduler task handler ran the polls (debug log)',
	);
	assert.ok(!log.includes(ctx.apiKey), 'the API key is not in the log');
};

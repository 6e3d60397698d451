'use strict';
/**
 * Issue 36, 4: the EU's 5 calls a second held by arrivals, on two workers. Two executions of
 * this workflow start at once in queue mode, one on each worker (each worker a process with
 * its own rate limiter, both calling the EU fake from one address, which refuses a sixth call
 * within its window with HTTP 429 and Retry-After: 1); each files 25 statements (EU node,
 * Submit, DDS, distinct internal references: 50 in all). Meanwhile another system of the
 * operator on the same address calls the EU's echo twice a second (not retried), so that
 * the 5 a second are contested as they are in production (one execution files one statement
 * after the other, and the fake answers a submission in about half a second: two executions
 * alone reach about 2 calls a second). In the end every item succeeded, the fake holds each
 * reference exactly once, it accepted exactly 50 submissions, and the 429s it answered on the
 * way are counted and printed (the workers' were all waited out).
 */
const assert = require('assert');
const { control, requestLog } = require('../eu-statements');
const soap = require('../eu-soap');

const PER_EXECUTION = 25;
/** The neighbour's calls a second. */
const NEIGHBOUR_RATE = 2;
const SUBMIT = 'File Statements';

const square = (x, y) => ({
	type: 'Polygon',
	coordinates: [
		[
			[x, y],
			[x + 0.003, y],
			[x + 0.003, y + 0.003],
			[x, y + 0.003],
			[x, y],
		],
	],
});

/** Echo calls at `perSecond` from the e2e process (same address as n8n) until stopped. */
function startNeighbour(eu, perSecond) {
	const state = { sent: 0, refused: 0, stopped: false };
	const gap = 1000 / perSecond;
	state.done = (async () => {
		const end = Date.now() + 240000;
		let next = Date.now();
		while (!state.stopped && Date.now() < end) {
			const status = await soap.echo(eu).catch(() => 0);
			state.sent++;
			if (status === 429) state.refused++;
			next = Math.max(next + gap, Date.now() - gap);
			const wait = next - Date.now();
			if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
		}
	})();
	state.stop = async () => {
		state.stopped = true;
		await state.done;
	};
	return state;
}

module.exports = async (_runData, ctx) => {
	const eu = ctx.fake.eu;
	const neighbour = ctx.neighbour;
	await neighbour.stop();
	assert.strictEqual(ctx.runs.length, 2, 'two executions');
	const refs = [];
	for (const run of ctx.runs) {
		const out = (run.data.resultData.runData[SUBMIT] || []).at(-1)?.data?.main?.[0] || [];
		assert.strictEqual(out.length, PER_EXECUTION, `${run.worker}: ${PER_EXECUTION} statements`);
		for (const { json } of out) {
			assert.match(String(json.uuid), /^[0-9a-f]{8}-[0-9a-f]{4}-/i, JSON.stringify(json));
			assert.match(String(json.filedBy), /^this run/, JSON.stringify(json));
			refs.push(json.internalReferenceNumber);
		}
	}
	assert.strictEqual(new Set(refs).size, 2 * PER_EXECUTION, 'fifty distinct references');
	assert.ok(
		refs.every((r) => r.startsWith(`${ctx.tag}-`)),
		refs.join(', '),
	);

	// the fake: each reference exactly once
	const statements = (await control(eu, 'GET', 'statements')).filter((s) =>
		String(s.internalReferenceNumber).startsWith(`${ctx.tag}-`),
	);
	const perRef = new Map();
	for (const s of statements)
		perRef.set(s.internalReferenceNumber, (perRef.get(s.internalReferenceNumber) || 0) + 1);
	assert.strictEqual(perRef.size, 2 * PER_EXECUTION, `${perRef.size} references in the fake`);
	const twice = [...perRef].filter(([, n]) => n !== 1);
	assert.deepStrictEqual(twice, [], 'no reference filed twice');

	const log = (await requestLog(eu)).slice(ctx.logFrom);
	const submits = log.filter((r) => r.operation === 'submitDds' && r.outcome === 'accepted');
	assert.strictEqual(submits.length, 2 * PER_EXECUTION, 'exactly 50 submissions accepted');
	const refused = log.filter((r) => r.status === 429).length;
	const workers = log.filter((r) => r.operation !== 'testEcho' && r.status !== 429);
	const first = Date.parse(workers[0].at);
	const last = Date.parse(workers[workers.length - 1].at);
	console.log(
		`# ${ctx.file}: the workers' ${workers.length} accepted calls reached the fake in ${((last - first) / 1000).toFixed(1)} s (${ctx.runs.map((r) => r.worker).join(', ')}), beside ${neighbour.sent} echo calls of a neighbour on the same address (${NEIGHBOUR_RATE}/s); the fake answered ${refused} calls with HTTP 429: ${refused - neighbour.refused} of the workers' (each waited out and sent again), ${neighbour.refused} of the neighbour's; 50 statements filed, each once`,
	);
	const text = JSON.stringify(ctx.runs.map((r) => r.data));
	assert.ok(!text.includes(eu.key), 'the authentication key appears nowhere in the runs');
};

/** A tag of this run's references, and where the fake's log stands before it. */
module.exports.before = async (ctx) => {
	ctx.tag = `Q36-${Date.now().toString(36).toUpperCase()}`;
	ctx.logFrom = (await requestLog(ctx.fake.eu)).length;
	ctx.neighbour = startNeighbour(ctx.fake.eu, NEIGHBOUR_RATE);
};

/** Execution i's rows: 25 plots, each its own internal reference. */
module.exports.body = (i, ctx) => ({
	rows: Array.from({ length: PER_EXECUTION }, (_, k) => ({
		ref: `${ctx.tag}-${'AB'[i]}-${String(k + 1).padStart(2, '0')}`,
		geometry: square(-5.3 + 0.01 * k, 6.5 + 0.01 * i),
		country: 'CI',
		producer: `Coop ${'AB'[i]}${k + 1}`,
	})),
});

module.exports.executions = 2;
module.exports.timeoutMs = 300000;

'use strict';
const assert = require('assert');

const WAIT = 'Wait for Completion (1 min)';

/** Counts of the Summarize node's single item (outputFormat "singleItem"): { <level>: { count_plot_id: n } }. */
function riskCounts(summary) {
	const counts = {};
	for (const [level, v] of Object.entries(summary)) {
		assert.ok(
			v && typeof v.count_plot_id === 'number',
			`unexpected summary shape: ${JSON.stringify(summary)}`,
		);
		counts[level] = v.count_plot_id;
	}
	return counts;
}

module.exports = async (runData, ctx) => {
	const wf = ctx.workflow;

	// the loop is wired as in the README: IF true → Wait node (≥ 65 s) → back to Wait for Completion
	const ifOut = wf.connections['Still Running?'].main;
	assert.deepStrictEqual(
		ifOut[0].map((c) => c.node),
		['Pause 65 s'],
		'IF true branch → Wait node',
	);
	assert.deepStrictEqual(
		ifOut[1].map((c) => c.node),
		['Per-Plot Results'],
		'IF false branch → results',
	);
	assert.deepStrictEqual(
		wf.connections['Pause 65 s'].main[0].map((c) => c.node),
		[WAIT],
		'Wait node loops back',
	);
	const pause = wf.nodes.find((n) => n.name === 'Pause 65 s');
	assert.strictEqual(pause.type, 'n8n-nodes-base.wait');
	const seconds =
		pause.parameters.amount * { seconds: 1, minutes: 60, hours: 3600 }[pause.parameters.unit];
	assert.ok(seconds >= 65, `the Wait node pauses at least 65 s (${seconds})`);
	const waitNode = wf.nodes.find((n) => n.name === WAIT);
	assert.strictEqual(waitNode.parameters.onTimeout, 'output', 'On Timeout: Output Current Status');
	assert.ok(
		['Every Monday at 06:00', "When clicking 'Execute workflow'"].every(
			(t) => wf.connections[t].main[0][0].node === 'Plots Created Last Week',
		),
	);

	// last week's plots include the seeded ones
	const plots = ctx.output('Plots Created Last Week');
	const ids = plots.map((p) => String(p.plot_id));
	for (const id of ctx.seeded) assert.ok(ids.includes(id), `seeded plot ${id} listed`);
	assert.strictEqual(new Set(ids).size, ids.length, 'no plot twice');

	// one job over exactly those plots
	const jobs = ctx.output('Create Job');
	assert.strictEqual(jobs.length, 1);
	assert.deepStrictEqual([...jobs[0].plot_ids].map(String).sort(), [...ids].sort());

	// the fake finished before Max Wait: the IF took the false branch at once, the Wait node never ran
	const waited = ctx.output(WAIT);
	assert.strictEqual(waited.length, 1);
	assert.ok(
		['done', 'done-with-errors'].includes(waited[0].status),
		`final status: ${waited[0].status}`,
	);
	assert.notStrictEqual(waited[0].timed_out, true);
	assert.strictEqual(ctx.output('Still Running?', 0).length, 0, 'nothing on the true branch');
	assert.strictEqual(ctx.output('Still Running?', 1).length, 1, 'the job on the false branch');
	assert.ok(!runData['Pause 65 s'], 'the Wait node did not run');

	// one row per plot, and the summary's counts add up to the number of plots
	const rows = ctx.output('Per-Plot Results');
	assert.strictEqual(rows.length, ids.length, 'one result row per plot');
	const summary = ctx.output('Count Risk Levels');
	assert.strictEqual(summary.length, 1, 'one summary item');
	const counts = riskCounts(summary[0]);
	const total = Object.values(counts).reduce((a, b) => a + b, 0);
	assert.strictEqual(
		total,
		ids.length,
		`counts ${JSON.stringify(counts)} add up to ${ids.length} plots`,
	);
	for (const level of ['Low', 'Medium', 'High']) {
		const expected = rows.filter((r) => r.risk_level === level).length;
		assert.strictEqual(counts[level] || 0, expected, `${level}: ${JSON.stringify(counts)}`);
	}
};

module.exports.before = async (ctx) => {
	// plots registered this week, each with a commodity (a job needs one per plot)
	const r = await ctx.fake.request('POST', '/__fake/seed/plots', {
		username: ctx.fake.user.username,
		count: 5,
		namePrefix: 'Weekly',
		commodity: 'cocoa',
	});
	ctx.seeded = (r.json.plot_ids || []).map(String);
	assert.strictEqual(ctx.seeded.length, 5, `seeded: ${JSON.stringify(r.json)}`);
	// jobs finish well within the first Max Wait, so the loop is not taken
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });
};

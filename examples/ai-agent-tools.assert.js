'use strict';
const assert = require('assert');
const agent = require('../test/e2e/agent');

const PLOT_IDS_HINT = 'IDs of registered plots to check, comma-separated, e.g. 100001, 100002';

// what the model must be told about each tool: its cost in words, what it returns, its inputs
const TOOLS = {
	Get_Token_Balance: { cost: 'free', returns: /returns .*tokens/ },
	Check_Protected_Areas: { cost: 'spends tokens', returns: /returns overlap/, input: 'plotIds' },
	Get_Quote: { cost: 'free', returns: /returns the token cost/, input: 'plotIds' },
};

module.exports = async (runData, ctx) => {
	const plotId = ctx.output('Register Sample Plot')[0].plot_id;
	assert.ok(plotId, 'the sample plot was registered');

	const chats = agent.chats(ctx);
	assert.strictEqual(
		chats.length,
		2,
		`two model calls (choose the tools, then answer with their results), got ${chats.length}`,
	);

	// 1. What the model was told: every tool, its cost, what it returns, its $fromAI inputs.
	const [first, second] = chats;
	const offered = agent.toolsOffered(first);
	assert.deepStrictEqual(Object.keys(offered).sort(), Object.keys(TOOLS).sort(), 'tool names');
	for (const [name, want] of Object.entries(TOOLS)) {
		const { description, parameters } = offered[name];
		assert.ok(description.includes(want.cost), `${name}: "${description}" says "${want.cost}"`);
		assert.match(description, want.returns, `${name}: "${description}" says what it returns`);
		// version 1: n8n adds the service to the action; version 2: the Tool Description says it
		assert.ok(description.endsWith(' in Geospatial Analysis'), `${name}: names the service`);
		const other = want.cost === 'free' ? 'spends tokens' : 'free';
		assert.ok(!description.includes(other), `${name}: "${description}" does not say "${other}"`);
		const props = parameters.properties || {};
		assert.deepStrictEqual(Object.keys(props), want.input ? [want.input] : [], `${name}: inputs`);
		if (want.input) {
			assert.strictEqual(props[want.input].type, 'string', `${name}: ${want.input} is text`);
			assert.strictEqual(props[want.input].description, PLOT_IDS_HINT, `${name}: input hint`);
			assert.deepStrictEqual(parameters.required, [want.input], `${name}: input required`);
		}
	}
	const system = first.body.messages.find((m) => m.role === 'system');
	assert.ok(system && /spends tokens/.test(system.content), 'the system message reached the model');
	const question = first.body.messages.filter((m) => m.role === 'user').pop();
	assert.ok(question.content.includes(plotId), `the question names plot ${plotId}`);

	// 2. Each tool ran once, as our node, and its result went back to the model.
	const results = agent.toolResults(second);
	assert.deepStrictEqual(
		results.map((r) => r.name).sort(),
		Object.keys(TOOLS).sort(),
		'one result per tool in the second model call',
	);
	const outputs = {};
	for (const [name, node] of [
		['Get_Token_Balance', 'Get Token Balance'],
		['Check_Protected_Areas', 'Check Protected Areas'],
		['Get_Quote', 'Get Quote'],
	]) {
		assert.strictEqual(agent.runCount(ctx, node), 1, `${node} ran once`);
		outputs[name] = agent.toolOutput(ctx, node);
		const sent = results.find((r) => r.name === name).content;
		assert.strictEqual(sent, JSON.stringify(outputs[name]), `${name}: the model read its output`);
	}
	const [check] = outputs.Check_Protected_Areas;
	assert.strictEqual(outputs.Check_Protected_Areas.length, 1, 'one row per checked plot');
	assert.strictEqual(check.plot_id, plotId);
	assert.strictEqual(check.protected_area_overlap, true, JSON.stringify(check));
	assert.ok(check.overlapping_areas.some((a) => a.area_name === 'Taï National Park'));
	assert.strictEqual(check.most_restrictive_extractive_activity_legality, 'prohibited');
	const [quote] = outputs.Get_Quote;
	assert.strictEqual(quote.dry_run, true, JSON.stringify(quote));
	assert.ok(quote.token_cost > 0, 'the quote names a cost');
	const [balance] = outputs.Get_Token_Balance;
	for (const k of ['total', 'reserved', 'free'])
		assert.ok(Number.isFinite(balance[k]), `balance ${k}: ${JSON.stringify(balance)}`);

	// 3. Our node called the fake service: one check of exactly this plot, one dry run, no job.
	const requests = await agent.fakeRequests(ctx);
	const checks = requests.filter(
		(e) => e.method === 'POST' && e.path === '/protected-areas/checks',
	);
	assert.strictEqual(checks.length, 1, 'one protected-area check (it spends tokens: never twice)');
	assert.deepStrictEqual(checks[0].body.plot_ids, [plotId], 'the plot id the model supplied');
	const jobs = requests.filter((e) => e.method === 'POST' && e.path === '/jobs/make_job');
	assert.strictEqual(jobs.length, 1, 'one make_job call, the quote');
	assert.strictEqual(jobs[0].headers['x-dry-run'], 'true', 'the quote is a dry run: nothing spent');
	assert.deepStrictEqual(jobs[0].body.plot_ids, [plotId]);
	assert.ok(
		requests.some((e) => e.method === 'GET' && e.path === '/users/check_tokens'),
		'the balance was read from the service',
	);

	// 4. The agent's answer holds the results (the scripted model quotes them).
	const answer = ctx.output('AI Agent')[0].output;
	for (const [name, rows] of Object.entries(outputs))
		assert.ok(answer.includes(JSON.stringify(rows)), `the answer quotes ${name}: ${answer}`);
	assert.ok(answer.includes('"protected_area_overlap":true'));
	assert.ok(answer.includes('Taï National Park'));
	assert.ok(answer.includes(`"token_cost":${quote.token_cost}`));

	// no credential reaches the model or the answer
	const seen = JSON.stringify(chats.map((c) => c.body)) + answer;
	assert.ok(!seen.includes(ctx.apiKey), 'the API key never reaches the model');
};

module.exports.before = agent.before;
// also run it in the queue-mode pass (the agent and its tools on a worker)
module.exports.queue = true;

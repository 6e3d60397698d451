'use strict';
/**
 * Issue 36: "Allow Filing Statements" is the user's alone. An AI Agent's two EU Information
 * System tools were saved with Submit and the setting not a literal on: one left to the model
 * (`$fromAI`, what n8n's "let the model define this" button wrote before), one an expression
 * that is true. The scripted model asks for permission (fake-llm.js gives a boolean input named
 * "allow…" true) and calls both: each refuses before any request, saying that only a person may
 * switch filing on, and the fake EU's request log of the run has no submitDds (no request at all).
 */
const assert = require('assert');
const agent = require('../agent');
const eu = require('../eu-statements');

const REFUSED =
	/field \\?"Allow Filing Statements\\?": it is set by an expression \(or \\?"defined automatically by the model\\?"\), so this AI Agent tool may not submit statements: that files a statement with legal value, which only a person may allow, never an expression or the model\./;

module.exports = async (runData, ctx) => {
	const chats = agent.chats(ctx);
	assert.strictEqual(chats.length, 2, 'the model called the tools, then answered');
	const tools = agent.toolsOffered(chats[0]);
	assert.deepStrictEqual(Object.keys(tools).sort(), [
		'Submit_Expression_True',
		'Submit_Model_Decides',
	]);

	// the model was asked for the setting (a $fromAI input) and passed true
	const modelTool = tools.Submit_Model_Decides;
	assert.ok(
		modelTool.parameters.properties.allowFilingStatements,
		`the $fromAI input is offered: ${JSON.stringify(modelTool.parameters)}`,
	);
	const calls = chats[1].body.messages.flatMap((m) => m.tool_calls || []);
	const asked = calls.find((c) => c.function.name === 'Submit_Model_Decides');
	assert.strictEqual(JSON.parse(asked.function.arguments).allowFilingStatements, true);

	// both tools refused, with the reason, and nothing asks the model to supply the setting
	const results = agent.toolResults(chats[1]);
	for (const name of ['Submit_Model_Decides', 'Submit_Expression_True']) {
		const result = results.find((r) => r.name === name);
		assert.ok(result, `${name} answered: ${JSON.stringify(results)}`);
		assert.ok(REFUSED.test(result.content), `${name}: ${result.content}`);
		assert.ok(!/tool input/.test(result.content), `${name}: ${result.content}`);
	}

	// the fake EU: no request during the run (no lookup, no submitDds), nothing filed
	const log = (await eu.requestLog(ctx.fake.eu)).slice(ctx.logBefore);
	assert.deepStrictEqual(
		log.filter((e) => e.operation === 'submitDds'),
		[],
		JSON.stringify(log),
	);
	assert.deepStrictEqual(log, [], JSON.stringify(log));
	const statements = await eu.control(ctx.fake.eu, 'GET', 'statements');
	assert.ok(!statements.some((s) => s.internalReferenceNumber === 'AGENT-SWITCH-0001'));
};

module.exports.before = async (ctx) => {
	ctx.logBefore = (await eu.requestLog(ctx.fake.eu)).length;
	await agent.before(ctx);
};
module.exports.timeoutMs = 180000;

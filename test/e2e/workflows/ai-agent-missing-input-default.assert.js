'use strict';
const assert = require('assert');
const agent = require('../agent');

const HINT = '(as a tool: supply the tool input "plotIds")';

// As ai-agent-missing-input, with the tool's On Error left at its default (stop). What happens
// then depends on n8n: 1.x stops the whole run with our message; 2.x hands the message to the
// model as the tool's result. Either way the message names the tool input and nothing is sent.
module.exports = async (runData, ctx) => {
	const chats = agent.chats(ctx);
	if (ctx.major < 2) {
		const message = ctx.result.error && ctx.result.error.message;
		assert.ok(message && message.includes('field "Plot IDs"') && message.includes(HINT), message);
		assert.strictEqual(chats.length, 1, 'the model was called once; the run stopped at the tool');
	} else {
		assert.strictEqual(chats.length, 2, 'the model called the tool, then answered');
		const [result] = agent.toolResults(chats[1]);
		assert.strictEqual(result.name, 'Check_Protected_Areas');
		const [read] = JSON.parse(result.content);
		assert.ok(read.error.includes('field "Plot IDs"') && read.error.includes(HINT), read.error);
		assert.ok(ctx.output('AI Agent')[0].output.includes('supply the tool input \\"plotIds\\"'));
	}
	const requests = await agent.fakeRequests(ctx);
	assert.ok(
		!requests.some((e) => e.path === '/protected-areas/checks'),
		'nothing was sent to the service (no tokens spent)',
	);
};

module.exports.before = agent.before;
// n8n 1.x: an error of a tool node fails the execution
module.exports.expectError = (ctx) => ctx.major < 2;

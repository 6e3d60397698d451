'use strict';
const assert = require('assert');
const agent = require('../agent');

// The model calls Check Protected Areas with an empty plotIds (the question names no plot).
// With On Error set to Continue, our node answers with an error item; n8n hands it to the model.
module.exports = async (runData, ctx) => {
	const chats = agent.chats(ctx);
	assert.strictEqual(chats.length, 2, 'the model called the tool, then answered');
	const call = chats[1].body.messages.find((m) => m.tool_calls && m.tool_calls.length);
	assert.deepStrictEqual(JSON.parse(call.tool_calls[0].function.arguments).plotIds, '');

	const [item] = agent.toolOutput(ctx, 'Check Protected Areas');
	assert.ok(
		item.error.startsWith('Item 0, field "Plot IDs": ') &&
			item.error.endsWith('(as a tool: supply the tool input "plotIds")'),
		`the error names the item and field for the author, the tool input for the model: ${item.error}`,
	);
	assert.ok(item.description.startsWith('Nothing was sent'), item.description);

	const [result] = agent.toolResults(chats[1]);
	assert.strictEqual(result.name, 'Check_Protected_Areas');
	assert.deepStrictEqual(JSON.parse(result.content), [item], 'the model read the error item');
	assert.ok(ctx.output('AI Agent')[0].output.includes('supply the tool input \\"plotIds\\"'));

	const requests = await agent.fakeRequests(ctx);
	assert.ok(
		!requests.some((e) => e.path === '/protected-areas/checks'),
		'nothing was sent to the service (no tokens spent)',
	);
};

module.exports.before = agent.before;

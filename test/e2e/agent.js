'use strict';
/**
 * Helpers for the assert files of AI Agent workflows: what the scripted chat model
 * (fake-llm.js, `ctx.fake.llm`) was sent, what our tool nodes returned, what reached the fake
 * service during the execution. Use `before` as (or inside) the assert module's `before`.
 */

/** Marks the start of the execution: the model's request count and the fake clock. */
async function before(ctx) {
	if (!ctx.fake.llm) throw new Error('no scripted chat model: the fake did not start one');
	ctx.llmBefore = ctx.fake.llm.chats().length;
	const clock = await ctx.fake.request('GET', '/__fake/clock');
	ctx.startedAt = clock.json.now;
}

/** The chat-completions requests the model got during this execution (each one model call). */
function chats(ctx) {
	return ctx.fake.llm.chats().slice(ctx.llmBefore);
}

/** The tools the model was offered in a request, by name: `{ description, parameters }`. */
function toolsOffered(request) {
	return Object.fromEntries((request.body.tools || []).map((t) => [t.function.name, t.function]));
}

/** The `tool` messages of a request (the results the model reads), each with the tool's name. */
function toolResults(request) {
	const names = new Map();
	for (const m of request.body.messages)
		for (const call of m.tool_calls || []) names.set(call.id, call.function.name);
	return request.body.messages
		.filter((m) => m.role === 'tool')
		.map((m) => ({ name: names.get(m.tool_call_id), content: m.content }));
}

/** The item.json of what a tool node returned (its `ai_tool` output) in its last run. */
function toolOutput(ctx, nodeName) {
	const runs = ctx.run?.data?.resultData?.runData?.[nodeName];
	if (!runs || !runs.length) throw new Error(`tool node "${nodeName}" did not run`);
	const run = runs[runs.length - 1];
	return (run.data?.ai_tool?.[0] || []).map((i) => i.json);
}

/** How many times a node ran in this execution (0 when never). */
function runCount(ctx, nodeName) {
	return (ctx.run?.data?.resultData?.runData?.[nodeName] || []).length;
}

/** The fake service's log entries of this execution (contract requests only). */
async function fakeRequests(ctx) {
	const log = await ctx.fake.request('GET', '/__fake/log');
	return (log.json.entries || []).filter((e) => e.fakeAt >= ctx.startedAt);
}

module.exports = { before, chats, toolsOffered, toolResults, toolOutput, runCount, fakeRequests };

'use strict';
/**
 * The EU Information System node as AI Agent tools, at their defaults, against the EU fake:
 * - the first agent is offered Verify (resource Declaration) and the Due Diligence Statement
 *   tool at its defaults, which as a tool is Get: no tool offered is a write operation;
 * - the model calls Verify with the numbers of the question (a statement filed in `before`,
 *   AVAILABLE) and reads the EU's answer (EXISTING_USABLE, usable);
 * - the second agent's tool was saved with Submit while "Allow Filing Statements" is off (its
 *   default): the model is told Submit files with legal value, and calling it is refused
 *   before any request reaches the fake EU (no submit, no lookup).
 */
const assert = require('assert');
const agent = require('../agent');
const eu = require('../eu-statements');

const QUESTION = 'Question (replace with a Chat Trigger)';

module.exports = async (runData, ctx) => {
	const chats = agent.chats(ctx);
	const offered = chats.map((c) => agent.toolsOffered(c));
	const first = chats.filter((c, i) => offered[i].Verify_a_Declaration);
	const filing = chats.filter((c, i) => offered[i].Submit_a_Statement);
	assert.strictEqual(first.length, 2, 'the first agent: the model called the tools, then answered');
	assert.strictEqual(
		filing.length,
		2,
		'the filing agent: the model called the tool, then answered',
	);

	// at defaults, no write operation is offered: Verify and Get, both saying they only read
	const tools = offered[chats.indexOf(first[0])];
	assert.deepStrictEqual(Object.keys(tools).sort(), [
		'Due_Diligence_Statements',
		'Verify_a_Declaration',
	]);
	for (const [name, t] of Object.entries(tools)) {
		assert.ok(/Reads only, changes nothing\./.test(t.description), `${name}: ${t.description}`);
		assert.ok(
			!/LEGAL VALUE|submit|amend|withdraw/i.test(t.description),
			`${name}: ${t.description}`,
		);
	}
	assert.ok(
		/^Get the status, reference and verification numbers/.test(
			tools.Due_Diligence_Statements.description,
		),
	);
	assert.deepStrictEqual(Object.keys(tools.Verify_a_Declaration.parameters.properties).sort(), [
		'referenceNumber',
		'verificationNumber',
	]);

	// Verify called with the question's numbers, and its answer read by the model
	const call = first[1].body.messages
		.flatMap((m) => m.tool_calls || [])
		.find((c) => c.function.name === 'Verify_a_Declaration');
	// (n8n 2.x echoes the call's id among the arguments of the next request)
	const { referenceNumber, verificationNumber } = JSON.parse(call.function.arguments);
	assert.deepStrictEqual(
		{ referenceNumber, verificationNumber },
		{
			referenceNumber: ctx.filed.referenceNumber,
			verificationNumber: ctx.filed.verificationNumber,
		},
	);
	const results = agent.toolResults(first[1]);
	const verified = results.find((r) => r.name === 'Verify_a_Declaration');
	const answer = JSON.parse(verified.content);
	const verifiedItem = Array.isArray(answer) ? answer[0] : answer;
	assert.strictEqual(verifiedItem.result, 'EXISTING_USABLE', verified.content);
	assert.strictEqual(verifiedItem.usable, true);
	assert.strictEqual(verifiedItem.status, 'AVAILABLE');
	assert.ok(/exists and can be used/.test(verifiedItem.message), verifiedItem.message);
	const got = results.find((r) => r.name === 'Due_Diligence_Statements');
	assert.ok(got.content.includes(ctx.filed.uuid) && got.content.includes('AVAILABLE'), got.content);
	assert.ok(ctx.output('AI Agent')[0].output.includes('EXISTING_USABLE'));

	// the tool saved with Submit: the model is told it files with legal value, and it is refused
	const submitTool = offered[chats.indexOf(filing[0])].Submit_a_Statement;
	assert.ok(
		/files a statement with LEGAL VALUE/.test(submitTool.description),
		submitTool.description,
	);
	const refused = agent.toolResults(filing[1]).find((r) => r.name === 'Submit_a_Statement');
	assert.ok(
		refused.content.includes('field \\"Allow Filing Statements\\": it is off') ||
			refused.content.includes('field "Allow Filing Statements": it is off'),
		refused.content,
	);

	// nothing but reads reached the fake EU during the run; nothing was filed for the order
	const log = (await eu.requestLog(ctx.fake.eu)).slice(ctx.logBefore);
	assert.deepStrictEqual(
		[...new Set(log.map((e) => e.operation))].sort(),
		['getDds', 'verifyDeclaration'],
		JSON.stringify(log),
	);
	const statements = await eu.control(ctx.fake.eu, 'GET', 'statements');
	assert.ok(!statements.some((s) => s.internalReferenceNumber === 'AGENT-PO-0001'));
};

module.exports.before = async (ctx) => {
	const reference = `AGENT-${ctx.major}-${Date.now().toString(36)}`.toUpperCase();
	const uuid = await eu.fileStatement(ctx.fake.eu, reference);
	const [filed] = await eu.whenAvailable(ctx.fake.eu, [uuid]);
	ctx.filed = filed;
	await eu.setNodeParameters(ctx, QUESTION, (p) => {
		const assignments = structuredClone(p.assignments);
		assignments.assignments[0].value = `Can I rely on my supplier's due diligence statement with reference number ${filed.referenceNumber} and verification number ${filed.verificationNumber}? It is statement ${uuid}.`;
		return { assignments };
	});
	ctx.logBefore = (await eu.requestLog(ctx.fake.eu)).length;
	await agent.before(ctx);
};
module.exports.timeoutMs = 180000;

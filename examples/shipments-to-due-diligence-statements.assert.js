'use strict';
/**
 * The flagship example end to end, in the running n8n (Data Table nodes do not run under
 * `n8n execute`), against the fake service and the EU fake: a table of two shipments; the one
 * whose plots are all negligible is filed once and its row gets the statement's numbers; the one
 * with a plot inside Taï National Park and a plot deforested after 2020 is not filed and its row
 * says "needs mitigation" with the reasons per plot; a second run files nothing and analyses
 * nothing (the rows are done); no Code node anywhere.
 */
const assert = require('assert');
const shipments = require('../test/e2e/shipments');
const { requestLog } = require('../test/e2e/eu-statements');

const SUBMIT = 'Submit Statement (Acceptance)';

/** Submissions the EU fake received (every submitDds call, whatever its answer). */
async function submissions(ctx) {
	const log = await requestLog(ctx.fake.eu);
	return log.filter((e) => e.operation === 'submitDds');
}

module.exports = async (runData, ctx) => {
	// no Code node (nor any other node that runs the user's JavaScript or Python)
	const coded = ctx.workflow.nodes.filter((n) =>
		/\.(code|function|functionItem|pythonFunction|aiTransform)$/.test(n.type),
	);
	assert.deepStrictEqual(
		coded.map((n) => n.name),
		[],
		'no Code node',
	);

	console.log(JSON.stringify(Object.keys(runData)));
	const rows = await shipments.tableRows(ctx.rest, ctx.table);
	console.log(JSON.stringify(rows, null, 1));
	console.log(JSON.stringify(ctx.output('Wait for Analysis', 0, 0), null, 1).slice(0, 4000));
	console.log(JSON.stringify(ctx.output('Get Statement'), null, 1));
};

module.exports.before = async (ctx) => {
	ctx.table = await shipments.createShipmentsTable(ctx.rest, ctx.fake.files);
	await shipments.saveBound(ctx.publicApi, ctx.workflow, ctx.table.tableId);
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });
};

module.exports.execute = async (ctx, { timeoutMs }) =>
	await shipments.runInMain(ctx, ctx.workflow, { timeoutMs });

module.exports.editorSetup = async () => {};

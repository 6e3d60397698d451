'use strict';
/**
 * The flagship example end to end, in the running n8n (Data Table nodes do not run under
 * `n8n execute`: it starts no modules), against the fake service and the EU fake:
 * - a table of three shipments; PO-2026-0101's plots are all negligible: filed once, its row gets
 *   the statement's status, reference and verification numbers and UUID; PO-2026-0102 has a plot
 *   partly inside the Haut-Sassandra Classified Forest and one deforested after 2020: not
 *   filed, its row says "needs mitigation" with the reasons of exactly those two plots;
 *   PO-2026-0103's supplier file has a plot drawn as a bow tie (invalid): no plot of it is
 *   registered, nothing analysed or filed, its row says "plots to fix" with Validate's problem
 *   of exactly that plot, and the loop goes on (the other two as above);
 * - a second run files nothing and analyses nothing (the rows are done: no request at all);
 * - the filed row's status cleared by hand and run again: analysed again, but Submit finds the
 *   statement by its Internal Reference and sends nothing: still one statement;
 * - a map (PNG) and a due-diligence record (JSON, HTML) per shipment, which n8n's viewer shows;
 * - no Code node anywhere; no key in the run data.
 * Against the fake's shape variants the outcome follows the rule applied to what the analysis
 * rows say (an overlap the node cannot tell is null, never "no": the shipment is not filed).
 */
const assert = require('assert');
const shipments = require('../test/e2e/shipments');
const { requestLog, control } = require('../test/e2e/eu-statements');

const FILED = 'PO-2026-0101';
const RISKY = 'PO-2026-0102';
const INVALID = 'PO-2026-0103';
const RISK_IF = 'Negligible Risk?';

/** The EU fake's submitDds calls from log index `since` on. */
async function submitsSince(ctx, since) {
	return (await requestLog(ctx.fake.eu)).filter(
		(e) => e.index >= since && e.operation === 'submitDds',
	);
}
const logLength = async (ctx) => (await requestLog(ctx.fake.eu)).length;

/** The fake service's requests (the Geospatial Analysis API) since an ISO time. */
async function serviceRequestsSince(ctx, iso) {
	const log = await ctx.fake.request('GET', '/__fake/log');
	return (log.json.entries || []).filter((e) => e.at >= iso);
}

/** The EU fake's statements with this Internal Reference. */
async function statementsOf(ctx, reference) {
	const all = await control(ctx.fake.eu, 'GET', 'statements');
	return all.filter((s) => s.internalReferenceNumber === reference);
}

/** The example's rule, as its IF applies it: unknown (null) is never negligible. */
const negligible = (r) =>
	r.risk_level === 'Low' &&
	r.deforestation_free === true &&
	r.protected_area_overlap === false &&
	r.indigenous_land_overlap === false;

function byReference(rows) {
	return Object.fromEntries(rows.map((r) => [r.internal_reference, r]));
}

async function runAgain(ctx) {
	const r = await shipments.runInMain(ctx, ctx.workflow);
	assert.ok(r.ok, `the run failed: ${JSON.stringify(r.error)}`);
	return r;
}

module.exports = async (runData, ctx) => {
	// no Code node (nor any node running the user's JavaScript or Python)
	const coded = ctx.workflow.nodes.filter((n) =>
		/\.(code|function|functionItem|pythonFunction|aiTransform)$/.test(n.type),
	);
	assert.deepStrictEqual(
		coded.map((n) => n.name),
		[],
		'no Code node',
	);
	// the decision is one IF the user reads: risk level, deforestation, protected areas, Indigenous land
	const rule = ctx.workflow.nodes.find((n) => n.name === RISK_IF);
	assert.strictEqual(rule.type, 'n8n-nodes-base.if');
	assert.deepStrictEqual(
		rule.parameters.conditions.conditions.map((c) => c.leftValue),
		[
			'={{ $json.risk_level }}',
			'={{ $json.deforestation_free }}',
			'={{ $json.protected_area_overlap }}',
			'={{ $json.indigenous_land_overlap }}',
		],
	);

	// the validity gate: per plot, then every plot of the shipment counted (never a subset)
	const gate = ctx.workflow.nodes.find((n) => n.name === 'Every Plot Valid?');
	assert.strictEqual(gate.type, 'n8n-nodes-base.if');
	assert.deepStrictEqual(
		gate.parameters.conditions.conditions.map((c) => [c.leftValue, c.rightValue]),
		[['={{ $json.plots.length }}', "={{ $('Validate Plots').all().length }}"]],
	);
	assert.deepStrictEqual(ctx.workflow.connections['Validate Plots'].main, [
		[{ node: 'Valid Plot?', type: 'main', index: 0 }],
	]);

	const rows = byReference(await shipments.tableRows(ctx.rest, ctx.table));
	const analysed = (run) => ctx.output('Wait for Analysis', 0, run);
	const runsOf = (name) => (ctx.run.data.resultData.runData[name] || []).length;

	// both shipments went round the loop: their plots read, validated, registered, analysed
	assert.deepStrictEqual(
		ctx.output('Read Plot File', 0, 0).map((p) => p.properties.name),
		['Kouassi farm', 'Yao farm'],
	);
	assert.deepStrictEqual(
		ctx.output('Read Plot File', 0, 1).map((p) => p.properties.name),
		['Dago farm', 'Zadi farm', 'Gnahoré farm'],
	);
	for (const run of [0, 1])
		assert.ok(
			ctx.output('Validate Plots', 0, run).every((v) => v.valid === true),
			JSON.stringify(ctx.output('Validate Plots', 0, run).map((v) => v.problem_summary)),
		);
	// the third shipment: read and validated, one plot a bow tie; stopped at the gate
	assert.deepStrictEqual(
		ctx.output('Read Plot File', 0, 2).map((p) => p.properties.name),
		['Adjoua farm', 'Brou farm'],
	);
	assert.deepStrictEqual(
		ctx.output('Validate Plots', 0, 2).map((v) => [v.properties.name, v.valid]),
		[
			['Adjoua farm', true],
			['Brou farm', false],
		],
	);
	assert.deepStrictEqual(ctx.output('Every Plot Valid?', 0, 2), [], 'not every plot valid');
	assert.strictEqual(ctx.output('Every Plot Valid?', 1, 2)[0].plots.length, 1);
	// registered, analysed, mapped and recorded for the first two shipments only
	for (const name of [
		'Register Plots',
		'Create EUDR Analysis',
		'Wait for Analysis',
		'Map of the Shipment',
		'Due-Diligence Record',
	])
		assert.strictEqual(runsOf(name), 2, `${name} ran for ${INVALID}`);
	const firstRunLog = await serviceRequestsSince(ctx, ctx.serviceLogStart);
	assert.ok(firstRunLog.length > 0, 'the other shipments were registered and analysed');
	for (const e of firstRunLog)
		assert.ok(
			!/Adjoua farm|Brou farm/.test(JSON.stringify(e.body || '')),
			`a plot of ${INVALID} sent to the service: ${e.method} ${e.path}`,
		);
	assert.deepStrictEqual(await statementsOf(ctx, INVALID), [], `${INVALID} is never filed`);
	const toFix = rows[INVALID];
	assert.strictEqual(toFix.status, 'plots to fix', JSON.stringify(toFix));
	// Validate's words for the plot to fix, and only for it
	assert.match(toFix.plot_problems, /^Brou farm: .*crosses itself/);
	assert.ok(!toFix.plot_problems.includes('Adjoua farm'), toFix.plot_problems);
	assert.strictEqual(toFix.plot_problems, ctx.output('All Problems', 0, 0)[0].problem.join(' | '));
	for (const field of ['risk_reasons', 'dds_status', 'dds_reference_number', 'dds_uuid'])
		assert.strictEqual(toFix[field], null, `${field} of ${INVALID}`);
	for (const ref of [FILED, RISKY]) assert.strictEqual(rows[ref].plot_problems, null, ref);
	// kept for it: a map by validity (the plot to fix in red) and a record of the validation
	assert.strictEqual(runsOf('Map of the Plots to Fix'), 1);
	const [fixMap] = ctx.items('Map of the Plots to Fix');
	assert.strictEqual(fixMap.json.plots_drawn, 2, JSON.stringify(fixMap.json));
	assert.strictEqual(fixMap.json.outcomes.invalid, 1, JSON.stringify(fixMap.json.outcomes));
	assert.strictEqual(fixMap.json.outcomes.valid, 1, JSON.stringify(fixMap.json.outcomes));
	const fixPicture = await viewedFile(ctx, fixMap);
	assert.strictEqual(fixPicture.bin.fileName, `map-${INVALID}.png`);
	assert.strictEqual(fixPicture.head.slice(1, 4), 'PNG', 'a PNG file');
	assert.strictEqual(runsOf('Validation Record'), 1);
	const [fixRecord] = ctx.items('Validation Record');
	assert.strictEqual(fixRecord.json.shipment, INVALID);
	assert.strictEqual(fixRecord.json.decision.risk, null, 'no risk decision: nothing analysed');
	assert.deepStrictEqual(fixRecord.json.statements, [], 'nothing filed');
	assert.deepStrictEqual(
		fixRecord.json.plots.map((p) => p.validation && p.validation.valid),
		[true, false],
	);
	assert.match(fixRecord.json.plots[1].validation.problem_summary, /crosses itself/);
	for (const field of ['html', 'json']) {
		const { bin } = await viewedFile(ctx, fixRecord, field);
		assert.strictEqual(bin.fileName, `record-${INVALID}.${field}`);
	}

	const risky = analysed(1);
	const byName = Object.fromEntries(risky.map((r) => [r.plot_name, r]));
	assert.strictEqual(byName['Gnahoré farm'].deforestation_free, false);
	assert.strictEqual(byName['Gnahoré farm'].risk_level, 'High');

	const filed = await statementsOf(ctx, FILED);
	assert.deepStrictEqual(await statementsOf(ctx, RISKY), [], `${RISKY} is never filed`);
	// the sample shipments do what they are for (against the fake's default shapes)
	if (ctx.fake.variant.overlap === 'nested') {
		assert.ok(analysed(0).every(negligible), JSON.stringify(analysed(0)));
		assert.strictEqual(byName['Zadi farm'].protected_area_overlap, true);
		assert.ok(negligible(byName['Dago farm']), JSON.stringify(byName['Dago farm']));
	}
	const fileable = analysed(0).every(negligible);
	if (fileable) {
		// filed once; the row has the statement's numbers as the EU fake holds them
		assert.strictEqual(filed.length, 1, JSON.stringify(filed));
		const [s] = filed;
		assert.strictEqual(s.status, 'AVAILABLE');
		const row = rows[FILED];
		assert.strictEqual(row.status, 'filed', JSON.stringify(row));
		assert.strictEqual(row.dds_status, 'AVAILABLE');
		assert.strictEqual(row.dds_reference_number, s.referenceNumber);
		assert.strictEqual(row.dds_verification_number, s.verificationNumber);
		assert.strictEqual(row.dds_uuid, s.uuid);
		assert.strictEqual(row.risk_reasons, null);
		// filed for both plots, with the shipment's commodity, HS heading and net weight
		// Submit and Get give the plot rows back with the statement's fields first (no Code node)
		const submitted = ctx.output('Submit Statement (Acceptance)');
		assert.deepStrictEqual(
			submitted.map((r) => r.plot_name),
			['Kouassi farm', 'Yao farm'],
		);
		assert.ok(submitted.every((r) => r.dds_uuid === s.uuid && r.dds_filed_by === 'this run'));
		assert.deepStrictEqual(Object.keys(submitted[0]).slice(0, 2), [
			'dds_status',
			'dds_reference_number',
		]);
		assert.strictEqual(row.dds_filed_by, 'this run');
		assert.strictEqual(row.dds_environment, 'custom', 'the credential of the fake: Custom URL');
		assert.ok(row.dds_updated_at, 'when the EU last changed it');

		// the risky row: marked, the reasons of its two risky plots only
		const marked = rows[RISKY];
		assert.strictEqual(marked.status, 'needs mitigation', JSON.stringify(marked));
		assert.match(marked.risk_reasons, /Zadi farm: Medium\. Found overlap with a protected area\./);
		assert.match(
			marked.risk_reasons,
			/Gnahoré farm: High\. Deforestation of [\d.]+ ha .* after 2020-12-31\./,
		);
		// exactly the plots the rule refused, each with its reason
		for (const r of risky)
			assert.strictEqual(
				marked.risk_reasons.includes(`${r.plot_name}:`),
				!negligible(r),
				`${r.plot_name} in the reasons: ${marked.risk_reasons}`,
			);
		for (const field of ['dds_status', 'dds_reference_number', 'dds_uuid'])
			assert.strictEqual(marked[field], null, `${field} of ${RISKY}`);
	} else {
		// a plot of it not negligible (e.g. an overlap the node cannot tell): nothing filed
		assert.deepStrictEqual(filed, [], `${FILED} not filed: ${JSON.stringify(analysed(0))}`);
		for (const ref of [FILED, RISKY]) {
			assert.strictEqual(rows[ref].status, 'needs mitigation', JSON.stringify(rows[ref]));
			assert.strictEqual(rows[ref].dds_uuid, null);
		}
	}
	// a map per shipment, its plots colored by risk, a PNG n8n's viewer shows
	for (const run of [0, 1]) {
		const [map] = ctx.items('Map of the Shipment', 0, run);
		// every plot drawn; green exactly where the IF found the plot negligible
		assert.strictEqual(map.json.plots_drawn, analysed(run).length, JSON.stringify(map.json));
		assert.strictEqual(
			map.json.outcomes.negligible ?? 0,
			analysed(run).filter(negligible).length,
			JSON.stringify(map.json.outcomes),
		);
		const { bin, head } = await viewedFile(ctx, map);
		assert.strictEqual(bin.mimeType, 'image/png');
		assert.strictEqual(bin.fileName, `map-${run ? RISKY : FILED}.png`);
		assert.strictEqual(head.slice(1, 4), 'PNG', 'a PNG file');
	}

	// a due-diligence record per shipment: JSON in the item, record.json and the HTML page as
	// files n8n's viewer shows; every plot with its validation, analysis and EU GeoJSON
	const recordRule = ctx.workflow.nodes.find((n) => n.name === 'Due-Diligence Record').parameters
		.riskRule;
	for (const [run, ref] of [
		[0, FILED],
		[1, RISKY],
	]) {
		const [rec] = ctx.items('Due-Diligence Record', 0, run);
		const r = rec.json;
		const plots = analysed(run);
		assert.strictEqual(r.shipment, ref);
		assert.strictEqual(r.decision.rule, recordRule);
		assert.strictEqual(
			r.decision.risk,
			rows[ref].status === 'needs mitigation' ? 'needs mitigation' : 'negligible',
		);
		assert.deepStrictEqual(
			r.plots.map((p) => p.plot_id),
			plots.map((p) => p.plot_id),
		);
		for (const p of r.plots) {
			assert.strictEqual(p.validation && p.validation.valid, true, JSON.stringify(p));
			assert.deepStrictEqual(
				p.validation.warnings,
				[],
				`${p.plot_name}: ${p.validation.problem_summary}`,
			);
			const a = plots.find((x) => x.plot_id === p.plot_id);
			assert.strictEqual(p.analysis.risk_level, a.risk_level, p.plot_name);
			assert.strictEqual(p.analysis.deforestation_free, a.deforestation_free, p.plot_name);
			assert.strictEqual(p.analysis.protected_area_overlap, a.protected_area_overlap, p.plot_name);
			assert.ok(p.analysis.analysis_version && p.analysis.analysis_end, p.plot_name);
			assert.strictEqual(p.eu_geojson.type, 'FeatureCollection', p.eu_geojson_reason);
		}
		const row = rows[ref];
		if (row.dds_uuid) {
			assert.strictEqual(r.statements.length, 1);
			const st = r.statements[0];
			assert.deepStrictEqual(
				[st.uuid, st.status, st.reference_number, st.verification_number, st.internal_reference],
				[row.dds_uuid, row.dds_status, row.dds_reference_number, row.dds_verification_number, ref],
			);
			assert.strictEqual(st.environment, 'custom');
		} else assert.deepStrictEqual(r.statements, [], 'nothing filed, nothing recorded as filed');
		for (const [field, type, name] of [
			['html', 'text/plain', `record-${ref}.html`],
			['json', 'application/json', `record-${ref}.json`],
		]) {
			const { bin, head } = await viewedFile(ctx, rec, field);
			assert.strictEqual(bin.mimeType, type);
			assert.strictEqual(bin.fileName, name);
			if (field === 'html') assert.strictEqual(bin.fileType, 'html', 'n8n shows it as a page');
			else assert.strictEqual(head.charAt(0), '{');
		}
	}

	const submitsAfterFirst = await submitsSince(ctx, ctx.euLogStart);
	assert.strictEqual(submitsAfterFirst.length, fileable ? 1 : 0, 'one submission at most');

	// keys nowhere in the run data
	const everything = JSON.stringify(ctx.run);
	assert.ok(!everything.includes(ctx.apiKey), 'the API key is not in the execution data');
	assert.ok(!everything.includes(ctx.fake.eu.key), 'the EU key is not in the execution data');

	// a second run: every row is done, so nothing is read, analysed or filed
	const euBefore = await logLength(ctx);
	const t1 = new Date().toISOString();
	const again = await runAgain(ctx);
	assert.deepStrictEqual(
		(again.runData['Shipments To Do'][0].data.main[0] || []).length,
		0,
		'no shipment left to do',
	);
	assert.deepStrictEqual(await serviceRequestsSince(ctx, t1), [], 'no request to the service');
	assert.deepStrictEqual(await submitsSince(ctx, euBefore), [], 'nothing sent to the EU');
	assert.deepStrictEqual(
		byReference(await shipments.tableRows(ctx.rest, ctx.table)),
		rows,
		'the rows unchanged',
	);

	if (!fileable) return;
	// the filed row's status cleared by hand: analysed again, but Submit looks the Internal
	// Reference up first and sends nothing; the row gets the same numbers back
	await shipments.updateRow(ctx.rest, ctx.table, rows[FILED].id, { status: null });
	const euBeforeReset = await logLength(ctx);
	const reset = await runAgain(ctx);
	assert.strictEqual(reset.runData['Shipments To Do'][0].data.main[0].length, 1);
	assert.deepStrictEqual(await submitsSince(ctx, euBeforeReset), [], 'no second submission');
	assert.strictEqual((await statementsOf(ctx, FILED)).length, 1, 'still one statement');
	const after = byReference(await shipments.tableRows(ctx.rest, ctx.table))[FILED];
	assert.strictEqual(after.status, 'filed');
	assert.strictEqual(after.dds_uuid, rows[FILED].dds_uuid);
	assert.strictEqual(after.dds_reference_number, rows[FILED].dds_reference_number);
};

/**
 * A binary field's file as n8n's viewer gets it: the first bytes of its content as text (inline on
 * 1.x; on 2.x through the editor's View URL, which must answer it).
 */
async function viewedFile(ctx, item, field = 'data') {
	const bin = item.binary && item.binary[field];
	assert.ok(bin, `a file in "${field}": ${JSON.stringify(Object.keys(item.binary || {}))}`);
	if (!bin.id) return { bin, head: Buffer.from(bin.data, 'base64').toString('latin1', 0, 8) };
	const q = new URLSearchParams({
		id: bin.id,
		action: 'view',
		fileName: bin.fileName,
		mimeType: bin.mimeType,
	});
	const viewed = await ctx.rest('GET', `/rest/binary-data?${q}`);
	assert.strictEqual(viewed.status, 200, `View answered ${viewed.status}`);
	assert.match(String(viewed.headers['content-type']), new RegExp(`^${bin.mimeType}`));
	return { bin, head: viewed.text.slice(0, 8) };
}

module.exports.before = async (ctx) => {
	ctx.table = await shipments.createShipmentsTable(ctx.rest, ctx.fake.files);
	await shipments.saveBound(ctx.publicApi, ctx.workflow, ctx.table.tableId);
	// the fake's jobs run on its clock: 50 ms per plot, so the wait ends at its first check
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });
	ctx.euLogStart = await logLength(ctx);
	ctx.serviceLogStart = new Date().toISOString();
};

// Data Table nodes run only in a running n8n: the editor's "Execute workflow" (REST)
module.exports.execute = async (ctx, { timeoutMs }) =>
	await shipments.runInMain(ctx, ctx.workflow, { timeoutMs });

// the browser check opens every node's panel: the Data Table nodes on a table that exists
module.exports.editorSetup = async ({ rest, publicApi, workflow, fake }) => {
	const table = await shipments.createShipmentsTable(rest, fake.files);
	await shipments.saveBound(publicApi, workflow, table.tableId);
};

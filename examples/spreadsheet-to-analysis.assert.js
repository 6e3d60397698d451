'use strict';
const assert = require('assert');

const CSV_NODE = 'Sample CSV (replace with your file)';

/** The data rows of the embedded CSV (header excluded). */
function inputRows(ctx) {
	const csv = ctx.output(CSV_NODE)[0].csv;
	const [header, ...lines] = csv.trim().split('\n');
	const cols = header.split(',');
	return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

module.exports = async (runData, ctx) => {
	const rows = inputRows(ctx);
	assert.strictEqual(rows.length, 4, 'the sample CSV has four rows');

	// the CSV went through n8n's own file nodes
	const read = ctx.output('Read CSV Rows');
	assert.deepStrictEqual(
		read.map((r) => r.name),
		rows.map((r) => r.name),
		'Extract from File read every row',
	);

	// one plot per row, named after the row
	const plots = ctx.output('Register Plots');
	assert.strictEqual(plots.length, rows.length, 'one plot per CSV row');
	// the fake's ids are numbers, or UUIDs under its `ids=uuid` shape variant (FAKE_VARIANT)
	const idShape =
		ctx.fake.variant && ctx.fake.variant.ids === 'uuid'
			? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
			: /^\d+$/;
	plots.forEach((p, i) => {
		assert.ok(idShape.test(String(p.plot_id)), `plot ${i} has an id: ${JSON.stringify(p)}`);
		assert.strictEqual(p.plot_name, rows[i].name, `plot ${i} is named after its row`);
	});

	// one job for all rows, under Max Tokens
	const jobs = ctx.output('Create Job');
	assert.strictEqual(jobs.length, 1, 'one job for all items');
	const job = jobs[0];
	assert.deepStrictEqual(
		[...job.plot_ids].map(String).sort(),
		plots.map((p) => String(p.plot_id)).sort(),
		'the job analyses every registered plot',
	);
	assert.ok(Number(job.token_cost ?? 0) <= 100, `job within Max Tokens: ${job.token_cost}`);

	// one simplified row per input row, each with a risk level
	const results = ctx.output('Wait for Completion');
	assert.strictEqual(results.length, rows.length, 'one result row per input row');
	const byId = new Map(results.map((r) => [String(r.plot_id), r]));
	for (const p of plots) {
		const r = byId.get(String(p.plot_id));
		assert.ok(r, `a result row for plot ${p.plot_id}`);
		assert.strictEqual(r.job_id, String(job.job_id));
		assert.strictEqual(r.failed, false, `plot ${p.plot_id} analysed: ${JSON.stringify(r)}`);
		assert.ok(
			['Low', 'Medium', 'High'].includes(r.risk_level),
			`risk level of ${p.plot_id}: ${r.risk_level}`,
		);
		assert.strictEqual(typeof r.protected_area_overlap, 'boolean');
		assert.strictEqual(r.plot_name, p.plot_name);
	}

	// written back as a CSV file: one binary, header + one line per plot
	const out = ctx.items('Results as CSV');
	assert.strictEqual(out.length, 1, 'one CSV file');
	const bin = out[0].binary && out[0].binary.data;
	assert.ok(bin, `CSV binary present: ${JSON.stringify(Object.keys(out[0].binary || {}))}`);
	assert.strictEqual(bin.fileName, 'analysis-results.csv');
	assert.ok(
		/csv/.test(bin.mimeType || '') || /\.csv$/.test(bin.fileName),
		`CSV mime type: ${bin.mimeType}`,
	);
	if (process.env.N8N_E2E_VERBOSE)
		console.log(
			'[spreadsheet] CSV binary:',
			JSON.stringify({ ...bin, data: String(bin.data).slice(0, 40) }),
		);
	if (bin.id) {
		// stored by n8n's binary data manager (filesystem mode): only its size is in the run data
		assert.ok(Number.parseFloat(bin.fileSize) > 0, `CSV file not empty: ${bin.fileSize}`);
	} else {
		const text = Buffer.from(bin.data, 'base64').toString('utf8');
		const lines = text.trim().split('\n');
		assert.strictEqual(lines.length, rows.length + 1, `header + one line per plot:\n${text}`);
		assert.ok(/risk_level/.test(lines[0]), 'risk_level column');
	}

	assert.ok(
		!JSON.stringify(ctx.run).includes(ctx.apiKey),
		'the API key is not in the execution data',
	);
};

module.exports.before = async (ctx) => {
	// the fake's jobs run on its clock: 50 ms per plot, so the wait ends at its first check
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });
};

// also run it in the queue-mode pass (main + worker)
module.exports.queue = true;

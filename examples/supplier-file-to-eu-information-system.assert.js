'use strict';
const assert = require('assert');

const CSV_NODE = 'Supplier CSV (replace with your file)';
const EXPORT = 'Export for EU Information System';

/** The data rows of the embedded CSV (header excluded). */
function inputRows(ctx) {
	const csv = ctx.output(CSV_NODE)[0].csv;
	const [header, ...lines] = csv.trim().split('\n');
	const cols = header.split(',');
	return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

/** A binary file of an item: its text, or null when n8n stored it elsewhere (only its size shows). */
function fileText(item, field = 'data') {
	const bin = item.binary && item.binary[field];
	assert.ok(bin, `binary "${field}" present: ${JSON.stringify(Object.keys(item.binary || {}))}`);
	if (bin.id) {
		assert.ok(Number.parseFloat(bin.fileSize) > 0, `file not empty: ${bin.fileSize}`);
		return { bin, text: null };
	}
	return { bin, text: Buffer.from(bin.data, 'base64').toString('utf8') };
}

module.exports = async (runData, ctx) => {
	const rows = inputRows(ctx);
	assert.strictEqual(rows.length, 7, 'the sample file has seven rows');

	// Validate: one item per row, in order, the input kept, three rows refused with the reason
	const validated = ctx.output('Validate Rows');
	assert.strictEqual(validated.length, rows.length);
	assert.deepStrictEqual(
		validated.map((v) => v.name),
		rows.map((r) => r.name),
	);
	// version 3's compact validation: one short text per problem, the nested detail in details
	const detail = (v) => v.validation.details;
	const byName = Object.fromEntries(validated.map((v) => [v.name, detail(v)]));
	const invalid = {
		'Koffi farm': 'swapped_lat_lon',
		'Mensah farm': 'invalid_field',
		'Big estate': 'point_requires_polygon',
	};
	for (const v of validated) {
		const code = invalid[v.name];
		assert.strictEqual(v.valid, !code, `${v.name}: ${JSON.stringify(v.validation.problems)}`);
		if (code)
			assert.ok(
				detail(v).problems.some((p) => p.code === code),
				`${v.name}: ${code}`,
			);
		else assert.strictEqual(v.validation.meets_4ha_rule, true, `${v.name} meets the 4 ha rule`);
	}
	assert.strictEqual(byName['Mensah farm'].problems[0].where.field, 'Commodity');

	// the fix list: the three invalid rows with what to fix, as a CSV file
	const fix = ctx.output('Fix List');
	assert.deepStrictEqual(
		fix.map((f) => f.name),
		['Koffi farm', 'Mensah farm', 'Big estate'],
	);
	assert.ok(/swapped/.test(fix[0]['what to fix']), fix[0]['what to fix']);
	// the answer as columns beside the input's (the fix list maps them), equal to the detail
	for (const v of validated) {
		assert.deepStrictEqual(Object.keys(v).slice(0, 3), [
			'valid',
			'problem_count',
			'problem_summary',
		]);
		assert.strictEqual(v.problem_count, detail(v).problems.length, v.name);
		assert.strictEqual(v.validation.problems.length, v.problem_count, v.name);
		assert.ok(
			v.validation.problems.every((p) => typeof p === 'string'),
			v.name,
		);
	}
	// the fix list reads in the sheet's column names: one plain sentence first, naming the
	// columns mapped to Latitude, Longitude, Point Area (Hectares) and Commodity, the detail after it;
	// no "feature 0" (a row is one point); the codes stay for machines
	const whatToFix = Object.fromEntries(fix.map((f) => [f.name, f['what to fix']]));
	const plain = (text) => text.split(' Detail: ')[0];
	assert.match(
		whatToFix['Koffi farm'],
		/^latitude and longitude look swapped: swap the two values\. Detail: /,
	);
	assert.match(whatToFix['Mensah farm'], /^commodity: "bananas" is not a commodity/);
	assert.match(
		whatToFix['Big estate'],
		/^area_ha \(Point Area \(Hectares\)\) is 6 ha: a plot of more than 4 ha needs its boundary/,
	);
	for (const [name, text] of Object.entries(whatToFix)) {
		assert.ok(!/feature 0/.test(text), `${name}: ${text}`);
		assert.ok(!/GeoJSON|point_ha|\[/.test(plain(text)), `${name}: ${plain(text)}`);
	}
	const fixFile = ctx.items('Fix List CSV');
	assert.strictEqual(fixFile.length, 1);
	const { bin: fixBin, text: fixText } = fileText(fixFile[0]);
	assert.strictEqual(fixBin.fileName, 'fix-list.csv');
	if (fixText) assert.strictEqual(fixText.trim().split('\n').length, 4, fixText);

	// only the valid rows were registered and analysed
	const plots = ctx.output('Register Plots');
	assert.deepStrictEqual(
		plots.map((p) => p.plot_name),
		['Kouassi farm', 'Yao farm', 'Asante farm', 'Boateng farm'],
	);
	const results = ctx.output('Wait for Results');
	assert.strictEqual(results.length, plots.length, 'one result row per registered plot');
	const low = results.filter((r) => r.risk_level === 'Low');
	assert.ok(
		low.length > 0,
		`at least one Low-risk plot: ${JSON.stringify(results.map((r) => r.risk_level))}`,
	);
	assert.deepStrictEqual(
		ctx.output('Low Risk Only').map((r) => String(r.plot_id)),
		low.map((r) => String(r.plot_id)),
	);

	// the export: one file, the Low-risk plots only, EU properties, six decimals
	const files = ctx.items(EXPORT);
	assert.strictEqual(files.length, 1, 'one file (far below 25 MB)');
	const summary = files[0].json;
	assert.strictEqual(summary.file_name, 'eudr-geolocation.geojson');
	assert.strictEqual(summary.features, low.length);
	const expectedCountries = {};
	for (const r of low) {
		const plot = plots.find((p) => String(p.plot_id) === String(r.plot_id));
		const code = plot.country === 'Ghana' ? 'GH' : 'CI';
		expectedCountries[code] = (expectedCountries[code] || 0) + 1;
	}
	assert.deepStrictEqual(summary.plots_per_country, expectedCountries);
	const { bin, text } = fileText(files[0]);
	assert.strictEqual(bin.fileName, 'eudr-geolocation.geojson');
	// a media type the editor offers View for (n8n's ViewableMimeTypes: application/json is,
	// application/geo+json is not); the name keeps .geojson
	assert.strictEqual(bin.mimeType, 'application/json', `mime type ${bin.mimeType}`);
	// a file n8n's binary viewer shows (View, not only Download): file type json
	assert.strictEqual(bin.fileType, 'json', `file type ${bin.fileType}`);
	assert.strictEqual(bin.fileExtension, 'geojson');
	if (bin.id) {
		// stored apart (n8n 2.x): the editor's viewer fetches it, and n8n serves it for viewing
		const q = new URLSearchParams({
			id: bin.id,
			action: 'view',
			fileName: bin.fileName,
			mimeType: bin.mimeType,
		});
		const viewed = await ctx.rest('GET', `/rest/binary-data?${q}`);
		assert.strictEqual(viewed.status, 200, `View answered ${viewed.status}: ${viewed.text}`);
		assert.strictEqual(JSON.parse(viewed.text).type, 'FeatureCollection', 'the viewer reads JSON');
	}
	if (text) {
		const geojson = JSON.parse(text);
		assert.strictEqual(geojson.type, 'FeatureCollection');
		assert.ok(!('crs' in geojson), 'no crs member');
		assert.deepStrictEqual(
			geojson.features.map((f) => f.properties.ProductionPlace),
			low.map((r) => plots.find((p) => String(p.plot_id) === String(r.plot_id)).plot_name),
		);
		for (const f of geojson.features) {
			assert.ok(['CI', 'GH'].includes(f.properties.ProducerCountry), JSON.stringify(f.properties));
			assert.ok(['Polygon', 'MultiPolygon', 'Point'].includes(f.geometry.type));
		}
		for (const n of text.match(/-?\d+\.\d+(?=[,\]])/g) || [])
			assert.ok(n.split('.')[1].length >= 6, `six decimals: ${n}`);
	}

	// Validate and the export sent nothing: the first request of the run is the registration,
	// the last ones read the Low-risk plots
	const log = await ctx.fake.request('GET', '/__fake/log');
	const since = (log.json.entries || []).filter((e) => e.at >= ctx.startedAt);
	assert.ok(since.length > 0, 'the run reached the fake');
	assert.strictEqual(
		since[0].path,
		'/plots/make_plot',
		`first request: ${since[0].method} ${since[0].path}`,
	);
	const reads = since.filter(
		(e) => e.method === 'GET' && String(e.path).startsWith('/plots/plot/'),
	);
	assert.strictEqual(reads.length, low.length);
	assert.ok(
		String(since[since.length - 1].path).startsWith('/plots/plot/'),
		'nothing after the last plot read',
	);

	assert.ok(
		!JSON.stringify(ctx.run).includes(ctx.apiKey),
		'the API key is not in the execution data',
	);
};

module.exports.before = async (ctx) => {
	ctx.startedAt = new Date().toISOString();
	// the fake's jobs run on its clock: 50 ms per plot, so the wait ends at its first check
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });
};

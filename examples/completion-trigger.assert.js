'use strict';
const assert = require('assert');
const { httpRequest } = require('../test/e2e/n8n');

const TRIGGER = 'When an Analysis Finishes';
const FILTER = 'High Risk or Protected Area';

/** A contract request to the fake service as user alice (API key). */
async function api(ctx, method, path, body) {
	const r = await httpRequest(method, `${ctx.fake.url}${path}`, {
		body,
		headers: {
			authorization: `Bearer ${ctx.apiKey}`,
			'x-api-version': '3',
			accept: 'application/json',
		},
		timeoutMs: 30000,
	});
	if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
	return r.json;
}

/** A square of about 2.8 ha around lon/lat. */
function square(lon, lat, d = 0.0015) {
	return {
		type: 'FeatureCollection',
		features: [
			{
				type: 'Feature',
				properties: {},
				geometry: {
					type: 'Polygon',
					coordinates: [
						[
							[lon - d / 2, lat - d / 2],
							[lon + d / 2, lat - d / 2],
							[lon + d / 2, lat + d / 2],
							[lon - d / 2, lat + d / 2],
							[lon - d / 2, lat - d / 2],
						],
					],
				},
			},
		],
	};
}

const PLOTS = [
	// inside Taï National Park (a protected area of the fake), no deforestation: Medium, overlap → kept
	{ name: 'Trigger example: inside Tai NP', lon: -7.3, lat: 5.6, defo: 0, kept: true },
	// Ghana, 30 % deforestation: High → kept
	{ name: 'Trigger example: deforested', lon: -1.6, lat: 6.7, defo: 30, kept: true },
	// Ghana, nothing found: Low, no overlap → filtered out
	{ name: 'Trigger example: clean', lon: -1.7, lat: 6.8, defo: 0, kept: false },
];

module.exports = async (runData, ctx) => {
	const rows = ctx.output(TRIGGER);
	assert.ok(rows.length > 0, 'the trigger emitted rows');
	// our job's three plots came through, one row each, with the per-plot simplified columns
	for (const p of PLOTS) {
		const mine = rows.filter((r) => r.plot_id === ctx.plotIds[p.name]);
		assert.strictEqual(
			mine.length,
			1,
			`one row for ${p.name}: ${JSON.stringify(rows.map((r) => r.plot_id))}`,
		);
		assert.strictEqual(mine[0].job_id, ctx.jobId);
		assert.ok(
			'risk_level' in mine[0] && 'protected_area_overlap' in mine[0],
			`simplified row: ${JSON.stringify(mine[0])}`,
		);
	}
	const byName = Object.fromEntries(
		PLOTS.map((p) => [p.name, rows.find((r) => r.plot_id === ctx.plotIds[p.name])]),
	);
	assert.strictEqual(
		byName[PLOTS[0].name].protected_area_overlap,
		true,
		'the plot in Taï NP overlaps a protected area',
	);
	assert.strictEqual(byName[PLOTS[1].name].risk_level, 'High', 'the deforested plot is High risk');
	assert.strictEqual(byName[PLOTS[2].name].risk_level, 'Low');
	assert.strictEqual(byName[PLOTS[2].name].protected_area_overlap, false);

	// the filter kept exactly the High-risk or overlapping rows (of every job the trigger emitted)
	const kept = ctx.output(FILTER);
	const expected = rows.filter((r) => r.risk_level === 'High' || r.protected_area_overlap === true);
	assert.deepStrictEqual(
		kept.map((r) => `${r.job_id}/${r.plot_id}`),
		expected.map((r) => `${r.job_id}/${r.plot_id}`),
		'filter keeps High risk or protected-area overlap, in order',
	);
	for (const p of PLOTS) {
		assert.strictEqual(
			kept.some((r) => r.plot_id === ctx.plotIds[p.name]),
			p.kept,
			`${p.name} ${p.kept ? 'kept' : 'dropped'}`,
		);
	}
	assert.ok(
		!JSON.stringify(ctx.run).includes(ctx.apiKey),
		'the API key is not in the execution data',
	);
};

module.exports.before = async (ctx) => {
	await ctx.fake.request('POST', '/__fake/per-plot-duration', { ms: 0 });
	ctx.plotIds = {};
	for (const p of PLOTS) {
		const made = await api(ctx, 'POST', '/plots/make_plot', {
			geojson: square(p.lon, p.lat),
			plot_name: p.name,
			commodity: 'cocoa',
			additional_info: { fake_deforestation_percentage: p.defo },
		});
		const plot = Array.isArray(made) ? made[0] : made.plots ? made.plots[0] : made;
		assert.ok(plot && plot.plot_id, `registered: ${JSON.stringify(made).slice(0, 300)}`);
		ctx.plotIds[p.name] = String(plot.plot_id);
	}
	const job = await api(ctx, 'POST', '/jobs/make_job', {
		plot_ids: Object.values(ctx.plotIds),
		job_name: `Trigger example ${ctx.version}`,
	});
	ctx.jobId = String(job.job_id);
	// finished before activation: the trigger's Look Back (1 h) makes the first poll emit it
	const deadline = Date.now() + 20000;
	for (;;) {
		const j = await api(ctx, 'GET', `/jobs/job/${ctx.jobId}`);
		if (j.status === 'done' || j.status === 'done-with-errors') break;
		if (Date.now() > deadline) throw new Error(`job ${ctx.jobId} still ${j.status}`);
		await new Promise((r) => setTimeout(r, 200));
	}
};

'use strict';
const assert = require('assert');

// what the fake's protected areas say about the three sample sites (test/fake-service/data.ts)
const EXPECTED = [
	{ site: 'Cocoa farm near Tai', overlap: true, area: 'Taï National Park', legality: 'prohibited' },
	{ site: 'Cocoa farm in Ghana', overlap: false },
	{
		site: 'Oil palm block in Riau',
		overlap: true,
		area: 'Tesso Nilo National Park',
		legality: 'prohibited',
	},
];

module.exports = async (runData, ctx) => {
	// Under the fake's `overlap=absent` shape variant (FAKE_VARIANT) the service sends no yes/no
	// and no figures: an overlap is still known where it lists an area, otherwise it is null
	// (unknown is never "no"), and the figures are null.
	const said = !(ctx.fake.variant && ctx.fake.variant.overlap === 'absent');
	const overlapOf = (e) => (e.overlap || said ? e.overlap : null);
	const sites = ctx.output('One Item per Site');
	assert.deepStrictEqual(
		sites.map((s) => s.site),
		EXPECTED.map((e) => e.site),
		'one item per sample site',
	);

	// one result per geometry, in input order, each paired with its input item
	const checked = ctx.items('Check Protected Areas');
	assert.strictEqual(checked.length, sites.length, 'one check result per geometry');
	checked.forEach((item, i) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		assert.strictEqual(
			typeof paired === 'number' ? paired : paired.item,
			i,
			`result ${i} is paired with input ${i}`,
		);
		assert.strictEqual(item.json.input_type, 'geometry');
		assert.strictEqual(item.json.plot_id, null, 'nothing was registered');
		assert.strictEqual(
			item.json.protected_area_overlap,
			overlapOf(EXPECTED[i]),
			`${EXPECTED[i].site}: ${JSON.stringify(item.json)}`,
		);
		if (EXPECTED[i].overlap) {
			if (said) assert.ok(item.json.total_overlap_percentage > 0, 'overlap percentage');
			else assert.strictEqual(item.json.total_overlap_percentage, null, 'no figure invented');
			assert.ok(
				item.json.overlapping_areas.some((a) => a.area_name === EXPECTED[i].area),
				`overlaps ${EXPECTED[i].area}`,
			);
			assert.strictEqual(
				item.json.most_restrictive_extractive_activity_legality,
				EXPECTED[i].legality,
			);
		} else {
			assert.strictEqual(item.json.overlapping_area_count, 0);
			assert.strictEqual(
				item.json.protected_area_overlap_reason,
				said ? null : 'not reported: the service sent no overlap summary',
			);
		}
	});

	// the report joins each result back to its site through n8n's item linking
	const report = ctx.output('Screening Report');
	assert.deepStrictEqual(
		report.map((r) => [r.site, r.protected_area_overlap]),
		EXPECTED.map((e) => [e.site, overlapOf(e)]),
		'report rows in input order with the right overlap',
	);
	// the percentage column is filled whenever the service gave the figure (nested or flat)
	report.forEach((r, i) => {
		if (EXPECTED[i].overlap && said)
			assert.ok(r.overlap_percentage > 0, `${r.site}: overlap percentage ${r.overlap_percentage}`);
	});
	assert.ok(report[0].protected_areas.includes('Taï National Park'));
	assert.strictEqual(report[1].protected_areas, '');

	// no plot was registered on the way
	const log = await ctx.fake.request('GET', '/__fake/log');
	const since = (log.json.entries || []).filter(
		(e) => e.fakeAt >= ctx.startedAt && e.method === 'POST',
	);
	assert.ok(
		since.some((e) => e.path === '/protected-areas/checks'),
		'the geometries were checked by the service',
	);
	assert.ok(
		!since.some((e) => String(e.path).startsWith('/plots/make_plot')),
		'no plots registered',
	);
};

module.exports.before = async (ctx) => {
	const clock = await ctx.fake.request('GET', '/__fake/clock');
	ctx.startedAt = clock.json.now;
};

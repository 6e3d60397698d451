'use strict';
const assert = require('assert');

const READ = 'Read Geo File';
const workflow = require('./supplier-attachment-to-plots.json');

/** The workflow's node of this name. */
const node = (name) => workflow.nodes.find((n) => n.name === name);

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
	// the current version of the node, and Read File → Validate at defaults: Validate sets no
	// field (Geometry Source "Found in the Item" reads Read File's geometry), Register only the
	// plot fields from the file's attributes
	for (const name of [READ, 'Validate Plots', 'Register Plots'])
		assert.strictEqual(node(name).typeVersion, 3, `${name} on version 3`);
	assert.deepStrictEqual(node('Validate Plots').parameters, {
		resource: 'plot',
		operation: 'validate',
		options: {},
	});
	assert.ok(
		!('geometrySource' in node('Register Plots').parameters),
		'Register at the default source',
	);

	// Read File: one item per placemark of the KMZ, folder as layer, WGS84 polygons, attributes
	const features = ctx.output(READ);
	assert.deepStrictEqual(
		features.map((f) => [f.source.layer, f.properties.name, f.geometry.type]),
		[
			['Fazenda São João', 'Talhão 1', 'Polygon'],
			['Fazenda São João', 'Talhão 2', 'Polygon'],
			['Fazenda São João', 'Talhão 3', 'Polygon'],
			['Sítio Boa Esperança', 'Área de café', 'Polygon'],
			['Sítio Boa Esperança', 'Caminho do talhão', 'LineString'],
		],
	);
	for (const f of features) {
		assert.strictEqual(f.source.fileName, 'cooperativa-xingu-abril.kmz');
		assert.strictEqual(f.source.format, 'kmz');
		assert.strictEqual(f.properties.country, 'BR');
		assert.strictEqual(f.properties.commodity, 'coffee');
		assert.deepStrictEqual(f.warnings, []);
	}
	const [lon, lat] = features[0].geometry.coordinates[0][0];
	assert.ok(Math.abs(lon - -51.2154) < 1e-9 && Math.abs(lat - -12.5041) < 1e-9, `${lon} ${lat}`);
	// every feature paired with the file's one item
	for (const item of ctx.items(READ)) assert.deepStrictEqual(item.pairedItem, { item: 0 });

	// Validate: the crossing boundary and the path are refused, the others valid; every row
	// read from its geometry (none says it has no geometry)
	const validated = ctx.output('Validate Plots');
	for (const v of validated)
		assert.ok(
			!/has no geometry/.test(String(v.problem_summary)),
			JSON.stringify(v.problem_summary),
		);
	assert.deepStrictEqual(
		validated.map((v) => [v.properties.name, v.valid]),
		[
			['Talhão 1', true],
			['Talhão 2', true],
			['Talhão 3', false],
			['Área de café', true],
			['Caminho do talhão', false],
		],
	);

	// the fix list: the two refused features with their folder and what to fix, as a CSV file
	const fix = ctx.output('Fix List');
	assert.deepStrictEqual(
		fix.map((f) => [f.plot, f.folder, f.file]),
		[
			['Talhão 3', 'Fazenda São João', 'cooperativa-xingu-abril.kmz'],
			['Caminho do talhão', 'Sítio Boa Esperança', 'cooperativa-xingu-abril.kmz'],
		],
	);
	for (const f of fix) assert.ok(f['what to fix'], JSON.stringify(f));
	const fixFile = ctx.items('Fix List CSV');
	assert.strictEqual(fixFile.length, 1);
	const { bin, text } = fileText(fixFile[0]);
	assert.strictEqual(bin.fileName, 'fix-list.csv');
	if (text) assert.strictEqual(text.trim().split('\n').length, 3, text);

	// only the valid plots were registered, with the names from the file
	const plots = ctx.output('Register Plots');
	assert.deepStrictEqual(
		plots.map((p) => p.plot_name),
		['Talhão 1', 'Talhão 2', 'Área de café'],
	);
	for (const p of plots) assert.ok(p.plot_id, JSON.stringify(p));
};

'use strict';
/**
 * The browser check of the flagship example (examples/shipments-to-due-diligence-statements.json),
 * called by browser.js: in n8n's editor as a user has it,
 *   - the Shipments Data Table before the run (its page in the editor),
 *   - the workflow's canvas: every node shown, none of them a Code node,
 *   - the workflow run from the editor (Execute workflow), until the three shipments are done,
 *   - the table after the run: the filed shipment's numbers, the second marked "needs
 *     mitigation" with its reasons, the third "plots to fix" with its plot's problem,
 *   - the last analysed shipment's map (Draw Map's PNG) and due-diligence record (its HTML page) in n8n's
 *     binary viewer, opened from the nodes' output as a user does.
 * Its pictures are the README's: docs/images/flagship-canvas.png, shipments-before.png,
 * shipments-after.png, map.png and record.png (written on every run, so they stay true),
 * besides the artifacts.
 */
const fs = require('fs');
const path = require('path');
const n8n = require('./n8n');
const shipments = require('./shipments');

const FLAGSHIP = 'examples/shipments-to-due-diligence-statements.json';
const IMAGES = path.join(n8n.REPO_ROOT, 'docs', 'images');
/** Node types that run the user's own code: none may be in the flagship. */
const CODE_TYPES = [
	'n8n-nodes-base.code',
	'n8n-nodes-base.function',
	'n8n-nodes-base.functionItem',
	'n8n-nodes-base.pythonFunction',
	'n8n-nodes-base.aiTransform',
];
/** The last node of each branch of a shipment, and the record: the run is done when all have run. */
const LAST_NODES = [
	'Write Numbers on the Shipment',
	'Mark Needs Mitigation',
	'Mark Plots to Fix',
	'Validation Record',
	'Due-Diligence Record',
];
const MAP_NODE = 'Map of the Shipment';
const RECORD_NODE = 'Due-Diligence Record';

/**
 * Opens a node's output in the Binary view and its first file (or the one named `fileName`) in
 * n8n's viewer; returns the viewer's locator.
 */
async function viewBinary(page, ui, inst, workflowId, nodeId, fileName) {
	await ui.openPanel(page, inst, workflowId, nodeId);
	await ui.outputMode(page, 'binary');
	const panel = ui.outputPanel(page);
	await panel.getByText(fileName).first().waitFor({ timeout: 30000 });
	const view = panel.locator('[data-test-id="ndv-view-binary-data"]');
	await view.first().waitFor({ timeout: 30000 });
	await view.first().click();
	const viewer = page.locator('.binary-data-window').first();
	await viewer.waitFor({ timeout: 30000 });
	return viewer;
}

/** A picture for the docs (docs/images/<name>.png) and the same in the artifacts. */
async function picture(page, save, name, opts = {}) {
	fs.mkdirSync(IMAGES, { recursive: true });
	await page.screenshot({ path: path.join(IMAGES, `${name}.png`), ...opts });
	await save(name);
}

/** The viewport of the pictures of the table: wide enough for the columns the officer reads. */
const TABLE_VIEW = { width: 2560, height: 420 };

/**
 * The table's page in the editor, in a window as wide as TABLE_VIEW, with these texts shown in
 * its grid; `shoot(name)` takes its picture before the window is set back.
 */
async function showTable(page, inst, table, texts, shoot) {
	const prior = page.viewportSize();
	await page.setViewportSize(TABLE_VIEW);
	try {
		await page.goto(`${inst.url}/projects/${table.projectId}/datatables/${table.tableId}`, {
			waitUntil: 'domcontentloaded',
		});
		for (const text of texts)
			await page.getByText(text, { exact: false }).first().waitFor({ timeout: 60000 });
		await page.waitForTimeout(1000);
		await shoot();
	} finally {
		await page.setViewportSize(prior);
	}
}

/** The canvas shown whole (zoom to fit), in a wider window for the picture. */
async function wholeCanvas(page, ui, inst, workflowId) {
	await ui.openCanvas(page, inst, workflowId);
	await page
		.locator('[data-test-id="canvas-zoom-to-fit"]')
		.first()
		.click()
		.catch(() => {});
	await page.waitForTimeout(800);
}

/**
 * The last shipment's map (a PNG the viewer shows as an image of the map's size) and record (its
 * HTML page, with the shipment and its plots), opened from the nodes' output right after the run
 * from the editor (a reload of the page would drop the run's data from the editor).
 */
async function viewMapAndRecord(page, save, ui, inst, w) {
	const nodeId = (name) => w.imported.nodes.find((nd) => nd.name === name).id;
	const last = 'PO-2026-0102';
	// the map: a PNG the viewer shows as an image (decoded, the map's size)
	let viewer = await viewBinary(page, ui, inst, w.imported.id, nodeId(MAP_NODE), `map-${last}.png`);
	const image = viewer.locator('img').first();
	await image.waitFor({ timeout: 30000 });
	await n8n.waitFor(
		async () => await image.evaluate((img) => img.complete && img.naturalWidth > 0),
		{ timeoutMs: 30000, what: 'the map to load in the viewer' },
	);
	const size = await image.evaluate((img) => [img.naturalWidth, img.naturalHeight]);
	if (size[0] !== 960 || size[1] !== 720)
		throw new Error(`the viewer shows a ${size.join(' × ')} image, not the 960 × 720 map`);
	await picture(page, save, 'map');
	await page.keyboard.press('Escape');
	// the record: its HTML page, shown by the viewer (the shipment, the decision, the plots)
	viewer = await viewBinary(
		page,
		ui,
		inst,
		w.imported.id,
		nodeId(RECORD_NODE),
		`record-${last}.html`,
	);
	// n8n shows an HTML file in a sandboxed frame: wait for it to be there before reading it
	const frame = viewer.locator('iframe').first();
	await frame.waitFor({ timeout: 15000 }).catch(() => {});
	const shown = (await frame.count()) ? frame.contentFrame().locator('body') : viewer;
	for (const text of [last, 'Zadi farm', 'Gnahoré farm'])
		await shown.getByText(text).first().waitFor({ timeout: 30000 });
	await picture(page, save, 'record');
	await page.keyboard.press('Escape');
}

/**
 * `ui`: browser.js's helpers (openCanvas, issueBadges, markOf, assertClean). `fake`: the lane's
 * fake service (its plot-file store, `fake.files`).
 */
async function runFlagshipCheck({ page, inst, seen, save, test, tag, workflows, fake, ui }) {
	const w = workflows.find((x) => x.rel === FLAGSHIP && x.imported);
	if (!w) {
		await test(`${tag} browser: flagship example`, async () => {
			throw new Error(`${FLAGSHIP} was not imported`);
		});
		return;
	}
	const rest = (method, p, body) => n8n.rest(inst, method, p, body);
	const publicApi = (method, p, body) => n8n.publicApi(inst, method, p, body);
	let table;

	const ready =
		await test(`${tag} browser: flagship: the Shipments table before the run, the canvas without a Code node`, async () => {
			const mark = ui.markOf(seen);
			table = await shipments.createShipmentsTable(rest, fake.files);
			await shipments.saveBound(publicApi, w.imported, table.tableId);
			await fake.request('POST', '/__fake/per-plot-duration', { ms: 50 });

			await showTable(
				page,
				inst,
				table,
				['PO-2026-0101', 'PO-2026-0102', 'PO-2026-0103', 'Sassandra Cocoa SARL'],
				() => picture(page, save, 'shipments-before'),
			);

			const saved = await rest('GET', `/rest/workflows/${w.imported.id}`);
			const nodes = (saved.json.data || saved.json).nodes;
			const coded = nodes.filter((nd) => CODE_TYPES.includes(nd.type));
			if (coded.length) throw new Error(`Code node(s): ${coded.map((nd) => nd.name).join(', ')}`);
			const prior = page.viewportSize();
			await page.setViewportSize({ width: 1920, height: 760 });
			try {
				await wholeCanvas(page, ui, inst, w.imported.id);
				// every node of the saved workflow is on the canvas, by name
				const shown = await page.locator('.vue-flow__node').count();
				if (shown !== nodes.length)
					throw new Error(`${shown} nodes on the canvas, the workflow has ${nodes.length}`);
				for (const nd of nodes)
					await page
						.locator('.vue-flow__node')
						.filter({ hasText: nd.name })
						.first()
						.waitFor({ timeout: 10000 });
				const { canvas } = await ui.issueBadges(page);
				if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas`);
				await picture(page, save, 'flagship-canvas');
			} finally {
				await page.setViewportSize(prior);
			}
			ui.assertClean(seen, mark, 'the flagship canvas');
		});
	if (!ready) return;

	await test(`${tag} browser: flagship: run from the editor, the map and the record in n8n's viewer, the table after it (numbers on the filed row, reasons on the other)`, async () => {
		const mark = ui.markOf(seen);
		await ui.openCanvas(page, inst, w.imported.id);
		await page.locator('[data-test-id="execute-workflow-button"]').first().click();
		const nodeId = (name) => w.imported.nodes.find((nd) => nd.name === name).id;
		for (const name of LAST_NODES)
			await page
				.locator(
					`.vue-flow__node[data-id="${nodeId(name)}"] [data-test-id="canvas-node-status-success"]`,
				)
				.first()
				.waitFor({ timeout: 240000 });
		await save('flagship-run');
		await viewMapAndRecord(page, save, ui, inst, w);
		const rows = await shipments.tableRows(rest, table);
		const filed = rows.find((r) => r.internal_reference === 'PO-2026-0101');
		const marked = rows.find((r) => r.internal_reference === 'PO-2026-0102');
		if (!filed || filed.status !== 'filed' || !filed.dds_reference_number)
			throw new Error(`PO-2026-0101 not filed: ${JSON.stringify(filed)}`);
		if (!marked || marked.status !== 'needs mitigation' || !/Zadi farm/.test(marked.risk_reasons))
			throw new Error(`PO-2026-0102 not marked: ${JSON.stringify(marked)}`);
		const toFix = rows.find((r) => r.internal_reference === 'PO-2026-0103');
		if (!toFix || toFix.status !== 'plots to fix' || !/Brou farm/.test(toFix.plot_problems))
			throw new Error(`PO-2026-0103 not marked: ${JSON.stringify(toFix)}`);
		await showTable(
			page,
			inst,
			table,
			[
				'needs mitigation',
				'Zadi farm',
				'plots to fix',
				'Brou farm',
				filed.dds_reference_number,
				filed.dds_verification_number,
			],
			() => picture(page, save, 'shipments-after'),
		);
		ui.assertClean(seen, mark, 'the flagship run');
	});
}

module.exports = { runFlagshipCheck, FLAGSHIP };

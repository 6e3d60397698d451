'use strict';
/**
 * The browser check of Plot → Draw Map (issue 34): three plots (a valid one, one overlapping
 * it, a bow tie) → Draw Map at version 3's defaults, run from the editor; in the Binary view
 * the picture offers View, and n8n's viewer shows it as an image (an <img> of the PNG, decoded:
 * 960 × 720), on n8n 1.x and 2.x alike (image/png is among n8n's ViewableMimeTypes on both;
 * image/svg+xml is not, hence the PNG). Called by browser.js, with its helpers.
 */
const n8n = require('./n8n');
const { createWorkflow, listWorkflow, ring } = require('./browser-workflows');

const PACKAGE = 'n8n-nodes-geospatial-analysis';
const ACTION = `${PACKAGE}.geospatialAnalysis`;

/**
 * Manual Trigger → a list of three plots (Set + Split Out, no Code node) → Draw Map at its
 * defaults. The list is written with a line per brace: "}}" would end n8n's expression.
 */
function drawMapWorkflow() {
	const plots = [
		{
			plot_name: 'Talhão 1',
			geometry: { type: 'Polygon', coordinates: [ring(-47.1, -15.1, 0.01)] },
		},
		{
			plot_name: 'Talhão 2',
			geometry: { type: 'Polygon', coordinates: [ring(-47.095, -15.095, 0.01)] },
		},
		{
			plot_name: 'Bow tie',
			geometry: {
				type: 'Polygon',
				coordinates: [
					[
						[-47.07, -15.1],
						[-47.06, -15.09],
						[-47.06, -15.1],
						[-47.07, -15.09],
						[-47.07, -15.1],
					],
				],
			},
		},
	];
	return listWorkflow({
		name: 'Browser check: Draw Map, viewed',
		prefix: 'map',
		field: 'plots',
		value: `={{ ${JSON.stringify(plots, null, 1)} }}`,
		setName: 'Plots',
		splitName: 'One Item per Plot',
		node: {
			id: 'map-draw',
			name: 'Draw Map',
			type: ACTION,
			typeVersion: 3,
			parameters: { resource: 'plot', operation: 'drawMap' },
		},
	});
}

/**
 * Runs the check. `h` holds browser.js's helpers (openCanvas, openPanel, executeFromEditor,
 * outputMode, outputPanel, issueBadges, markOf, assertClean).
 */
async function runMapCheck({ page, inst, seen, save, test, tag }, h) {
	await test(`${tag} browser: Draw Map at defaults (version 3), the picture offers View and shows`, async () => {
		const mark = h.markOf(seen);
		// n8n 1.x's REST API wants `active` on a new workflow
		const workflow = { ...drawMapWorkflow(), ...(inst.major < 2 ? { active: false } : {}) };
		const id = await createWorkflow(inst, workflow);
		await h.openCanvas(page, inst, id);
		const { canvas } = await h.issueBadges(page);
		if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas at defaults`);
		try {
			await h.executeFromEditor(page, 'map-draw');
		} catch (e) {
			// what the run left: the canvas, and each node's output (an error says why)
			await save('draw-map-run-failed');
			const said = [];
			for (const node of ['map-plots', 'map-split', 'map-draw']) {
				await h.openPanel(page, inst, id, node).catch(() => {});
				said.push(
					`${node}: ${(
						await h
							.outputPanel(page)
							.innerText()
							.catch(() => '')
					).slice(0, 400)}`,
				);
			}
			throw new Error(
				`Draw Map did not succeed from the editor (${e.message})\n${said.join('\n')}`,
			);
		}
		await h.openPanel(page, inst, id, 'map-draw');
		await save('draw-map-panel');
		const { panel } = await h.issueBadges(page);
		if (panel)
			throw new Error(`${panel} issue badge(s) in Draw Map's panel (no credential needed)`);
		await h.outputMode(page, 'binary');
		const view = h.outputPanel(page).locator('[data-test-id="ndv-view-binary-data"]');
		await view
			.first()
			.waitFor({ timeout: 30000 })
			.catch(() => {});
		await save('draw-map-binary');
		if ((await view.count()) === 0) throw new Error('the picture offers no View (download only)');
		const text = await h.outputPanel(page).innerText();
		if (!/plots-map\.png/.test(text))
			throw new Error(`no plots-map.png shown: ${text.slice(0, 300)}`);
		await view.first().click();
		const image = page.locator('.binary-data-window img').first();
		await image.waitFor({ timeout: 30000 });
		await n8n.waitFor(
			async () => await image.evaluate((img) => img.complete && img.naturalWidth > 0),
			{ timeoutMs: 30000, what: 'the map image to load in the viewer' },
		);
		const size = await image.evaluate((img) => [img.naturalWidth, img.naturalHeight]);
		await save('draw-map-viewed');
		if (size[0] !== 960 || size[1] !== 720)
			throw new Error(`the viewer shows a ${size.join(' × ')} image, not the 960 × 720 map`);
		console.log(
			`# browser: Draw Map's picture shown in n8n ${inst.version}'s viewer (${size.join(' × ')})`,
		);
		// n8n 1.x's editor logs its own failed requests to n8n's services ("Failed to fetch
		// dynamic banners: … Can't connect to n8n" offline, "Failed to fetch sessions metadata:
		// … Plan lacks license"): n8n's messages, not the package's, listed; any other console
		// error, or one naming the package, still fails
		const own = (e) =>
			inst.major < 2 &&
			/^console error: Failed to fetch [\w ]+: ResponseError: /.test(e) &&
			!e.includes(PACKAGE);
		const ownErrors = seen.errors.slice(mark.errors).filter(own);
		if (ownErrors.length)
			console.log(
				`# browser: n8n's own requests that failed (not the package's): ${ownErrors.map((e) => e.split('\n')[0]).join('; ')}`,
			);
		h.assertClean(
			{ ...seen, errors: seen.errors.filter((e, i) => i < mark.errors || !own(e)) },
			mark,
			'Draw Map',
		);
	});
}

module.exports = { runMapCheck, drawMapWorkflow };

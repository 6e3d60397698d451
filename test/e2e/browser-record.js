'use strict';
/**
 * The browser check of EU Information System → Due Diligence Record → Create (issue 34,
 * Deliver 3): two plot rows of one shipment, as Get puts them out with the statement's fields
 * (one plot named with a script and an image that would set a flag if either ran) → Create,
 * run from the editor, with no credential (no issue badge). In the Binary view both files offer
 * View; n8n's viewer shows the page (fileType html: sanitised, in an iframe) with the statement's
 * numbers, the hostile name as text and the map (the SVG as the style's background picture,
 * which the viewer keeps and Chromium decodes), and record.json in the JSON viewer. On n8n 1.x
 * and 2.x alike: both offer View only for ViewableMimeTypes (no text/html), hence the page as
 * text/plain with fileType html. Called by browser.js, with its helpers.
 */
const { createWorkflow, listWorkflow, ring } = require('./browser-workflows');

const PACKAGE = 'n8n-nodes-geospatial-analysis';
const EU_ACTION = `${PACKAGE}.euInformationSystem`;

/** What would show that the hostile plot name ran in the editor's page. */
const FLAG = '__recordPwned';
const HOSTILE = `<img src=x onerror="parent.${FLAG}=1"><script>parent.${FLAG}=2</script>`;

const statement = {
	dds_status: 'AVAILABLE',
	dds_reference_number: '26FRE2EREC0001',
	dds_verification_number: 'E2EVER01',
	dds_uuid: 'e2e0c0de-0000-4000-8000-00000000rec1',
	dds_internal_reference: 'PO-E2E-REC',
	dds_filed_by: 'this run',
	dds_updated_at: '2026-05-20T10:20:01.000Z',
	dds_environment: 'acceptance',
};

/** Manual Trigger → two rows (Set + Split Out, no Code) → Due Diligence Record → Create. */
function recordWorkflow() {
	const row = (name, lon, risk) => ({
		...statement,
		plot_name: name,
		country: 'CI',
		geometry: { type: 'Polygon', coordinates: [ring(lon, 6.8, 0.004)] },
		valid: true,
		problem_count: 0,
		problem_summary: null,
		risk_level: risk,
		deforestation_free: risk === 'Low',
		protected_area_overlap: false,
		indigenous_land_overlap: false,
		analysis_end: '2026-05-01',
		analysis_version: '2026-04-15',
	});
	const rows = [row('Kouassi farm', -5.3, 'Low'), row(HOSTILE, -5.29, 'Low')];
	return {
		...listWorkflow({
			name: 'Browser check: Due Diligence Record, viewed',
			prefix: 'record',
			field: 'rows',
			value: `={{ ${JSON.stringify(rows)} }}`,
			setName: 'Rows',
			splitName: 'One Item per Row',
			node: {
				id: 'record-create',
				name: 'Due Diligence Record',
				type: EU_ACTION,
				typeVersion: 1,
				parameters: {
					resource: 'dueDiligenceRecord',
					operation: 'create',
					shipment: '={{ $json.dds_internal_reference }}',
					riskDecision: 'negligible',
					riskRule: 'Negligible when every plot is valid and Low risk',
				},
			},
		}),
		// n8n 1.x's REST API needs it (its column has no default)
		active: false,
	};
}

/**
 * Console errors of n8n 1.x's own editor, with nothing of the package in them: its banners
 * (fetched from n8n's servers, which the check's loopback-only machine cannot reach) and the
 * sessions metadata of a licensed feature. Listed in the log, not failed.
 */
const N8N_OWN_1X = [
	/^console error: Failed to fetch dynamic banners: ResponseError: Can't connect to n8n\./,
	/^console error: Failed to fetch sessions metadata: ResponseError: Plan lacks license for this feature/,
];

/** Nothing wrong since `mark` but n8n 1.x's own errors (N8N_OWN_1X), which are listed. */
function assertCleanOf(h, inst, seen, mark, what) {
	if (inst.major >= 2) return h.assertClean(seen, mark, what);
	const own = seen.errors.slice(mark.errors).filter((e) => N8N_OWN_1X.some((r) => r.test(e)));
	for (const e of own)
		console.log(`# browser (n8n ${inst.version}'s own, not failed): ${e.split('\n')[0]}`);
	const rest = {
		...seen,
		errors: seen.errors.filter((e, i) => i < mark.errors || !own.includes(e)),
	};
	h.assertClean(rest, mark, what);
}

/** Clicks the View button of the binary field whose card names `fileName`; the viewer opened. */
async function viewFile(page, h, fileName) {
	const views = h.outputPanel(page).locator('[data-test-id="ndv-view-binary-data"]');
	await views.first().waitFor({ timeout: 30000 });
	const count = await views.count();
	for (let i = 0; i < count; i++) {
		const card = views.nth(i).locator('xpath=ancestor::*[contains(., ".")][1]/..');
		const text = await card.innerText().catch(() => '');
		if (text.includes(fileName)) {
			await views.nth(i).click();
			const viewer = page.locator('.binary-data-window').first();
			await viewer.waitFor({ timeout: 30000 });
			return viewer;
		}
	}
	throw new Error(`no View for ${fileName} (${count} View button(s))`);
}

async function closeViewer(page) {
	await page.locator('.binary-data-window-back').first().click();
	await page
		.locator('.binary-data-window')
		.first()
		.waitFor({ state: 'detached', timeout: 30000 })
		.catch(() => {});
}

/**
 * Runs the check. `h` holds browser.js's helpers (openCanvas, openPanel, executeFromEditor,
 * outputMode, outputPanel, issueBadges, markOf, assertClean).
 */
async function runRecordCheck({ page, inst, seen, save, test, tag }, h) {
	await test(`${tag} browser: Due Diligence Record → Create, no credential; its page and record.json offer View and show`, async () => {
		const mark = h.markOf(seen);
		const id = await createWorkflow(inst, recordWorkflow());
		await h.openCanvas(page, inst, id);
		const { canvas } = await h.issueBadges(page);
		if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas (no credential is needed)`);
		await h.executeFromEditor(page, 'record-create');
		await h.openPanel(page, inst, id, 'record-create');
		await save('record-panel');
		const { panel } = await h.issueBadges(page);
		if (panel) throw new Error(`${panel} issue badge(s) in the record's panel`);
		await h.outputMode(page, 'binary');
		await save('record-binary');
		const text = await h.outputPanel(page).innerText();
		for (const name of ['record-PO-E2E-REC.html', 'record-PO-E2E-REC.json'])
			if (!text.includes(name)) throw new Error(`no ${name} shown: ${text.slice(0, 400)}`);

		// the page, in n8n's HTML viewer (an iframe of the sanitised page)
		const viewer = await viewFile(page, h, 'record-PO-E2E-REC.html');
		const frameElement = viewer.locator('iframe').first();
		await frameElement.waitFor({ timeout: 30000 });
		const srcdoc = (await frameElement.getAttribute('srcdoc')) || '';
		const frame = await (await frameElement.elementHandle()).contentFrame();
		await frame.getByText('26FRE2EREC0001').first().waitFor({ timeout: 30000 });
		for (const words of ['Due-diligence record — PO-E2E-REC', 'E2EVER01', 'Negligible risk', 'Kouassi farm'])
			await frame.getByText(words).first().waitFor({ timeout: 10000 });
		// the hostile plot name: shown as text, run nowhere
		await frame.getByText('<script>parent.__recordPwned=2</script>', { exact: false }).first().waitFor({ timeout: 10000 });
		if (/<script|<img/i.test(srcdoc)) throw new Error('the viewer was given a script or an image element');
		if ((await page.evaluate((flag) => window[flag], FLAG)) !== undefined)
			throw new Error('the hostile plot name ran in the editor');
		// the map: the style's background picture survives the viewer's cleaning and decodes
		const data = /\.map-picture\{background-image:url\("(data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+)"\)/.exec(srcdoc);
		if (!data || !srcdoc.includes('class="map-picture"'))
			throw new Error("the viewer's page has no map (its background picture was removed)");
		const size = await page.evaluate(async (url) => {
			const img = new Image();
			img.src = url;
			await img.decode();
			return [img.naturalWidth, img.naturalHeight];
		}, data[1]);
		if (!(size[0] > 0 && size[1] > 0)) throw new Error(`the map does not decode (${size.join(' × ')})`);
		const box = await frame.locator('.map-picture').first().boundingBox();
		if (!box || box.width < 100 || box.height < 50)
			throw new Error(`the map is not shown in the viewer (${JSON.stringify(box)})`);
		await frame.locator('.map-picture').first().scrollIntoViewIfNeeded().catch(() => {});
		await save('record-page-viewed');
		console.log(`# browser: the record's page shown in n8n ${inst.version}'s viewer, its map ${size.join(' × ')} at ${Math.round(box.width)} × ${Math.round(box.height)} px`);
		await closeViewer(page);

		// record.json, in n8n's JSON viewer
		const json = await viewFile(page, h, 'record-PO-E2E-REC.json');
		await json.getByText(/EUDR due-diligence record/).first().waitFor({ timeout: 30000 });
		await save('record-json-viewed');
		await closeViewer(page);
		assertCleanOf(h, inst, seen, mark, 'Due Diligence Record');
	}); // prettier-ignore
}

module.exports = { runRecordCheck, recordWorkflow };

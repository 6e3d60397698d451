'use strict';
/**
 * The browser check's steps of issue 35 for the EU Information System (i35-cred):
 *
 * - the credential's label: the EU credential opened in the editor's credential dialog shows
 *   "Web Service Client ID" and no field labelled "Client ID" (n8n relabels a credential field
 *   named `clientId` with its OAuth wording; the field is `webServiceClientId` now). On both
 *   majors inside the browser check (`runCredentialSteps`, called by browser.js);
 * - the nodes panel (n8n 2.x): searching "EU Information System" shows ONE entry for the node
 *   and its trigger (n8n merges them), whose description says the node files, reads and
 *   verifies statements (n8n shows the trigger's description for the merged entry: it used to
 *   read "Starts a workflow when …").
 *
 * Screenshots beside the browser check's (`.e2e-artifacts/browser/<n8n version>/`).
 */

const n8n = require('./n8n');

const LABEL = 'Web Service Client ID';
const OAUTH_LABEL = 'Client ID';
const PANEL_NAME = 'EU Information System';
/** What the merged entry of node and trigger must say (the trigger's description). */
const PANEL_SAYS = /^File, read and verify EUDR due diligence statements/;

/** The lines of an element's text, trimmed, without empty ones (a label is a line of its own). */
async function linesOf(locator) {
	return (await locator.innerText())
		.split('\n')
		.map((l) => l.replace(/\s*\*$/, '').trim())
		.filter(Boolean);
}

/** Opens a credential's dialog by its address, as a link to it does. */
async function openCredential(page, inst, credential) {
	await page.goto(`${inst.url}/home/credentials/${credential.id}`, {
		waitUntil: 'domcontentloaded',
	});
	const dialog = page.locator('[data-test-id="credential-edit-dialog"]').first();
	await dialog.waitFor({ timeout: 60000 });
	await page
		.locator('[data-test-id="credential-connection-parameter"]')
		.first()
		.waitFor({ timeout: 30000 });
	return dialog;
}

/** The EU credential's dialog shows "Web Service Client ID", never "Client ID". */
async function checkCredentialLabel({ page, inst, save, creds }) {
	const eu = creds.find((c) => c.type === 'euInformationSystemApi');
	if (!eu) throw new Error('no EU Information System credential among the imported ones');
	const dialog = await openCredential(page, inst, eu);
	await save('eu-credential-dialog');
	const labels = await linesOf(dialog);
	console.log(
		`# browser: the EU credential's dialog on n8n ${inst.version} shows: ${JSON.stringify(labels.slice(0, 40))}`,
	);
	if (!labels.includes(LABEL))
		throw new Error(`no "${LABEL}" in the EU credential's dialog: ${JSON.stringify(labels)}`);
	if (labels.includes(OAUTH_LABEL))
		throw new Error(`the EU credential's dialog labels a field "${OAUTH_LABEL}"`);
}

/** A workflow holding a Manual Trigger: a canvas to open the nodes panel on. */
const CANVAS = {
	name: 'Browser check: the nodes panel (issue 35)',
	nodes: [
		{
			id: 'panel-trigger',
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
};

/** The nodes panel's one entry for the EU node and its trigger, and what it says. */
async function checkNodesPanel({ page, inst, save, openCanvas }) {
	const created = await n8n.rest(inst, 'POST', '/rest/workflows', CANVAS);
	if (created.status !== 200)
		throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
	await openCanvas(page, inst, (created.json.data || created.json).id);
	// the panel opens with Tab on the canvas (n8n's shortcut), else its "+" button
	await page
		.locator('.vue-flow__pane')
		.first()
		.click({ position: { x: 700, y: 450 } });
	await page.keyboard.press('Tab');
	const search = page
		.locator(
			'input[data-test-id="node-creator-search-bar"], [data-test-id="node-creator-search-bar"] input',
		)
		.first();
	const opened = await search
		.waitFor({ timeout: 10000 })
		.then(() => true)
		.catch(() => false);
	if (!opened) await page.locator('[data-test-id="node-creator-plus-button"]').first().click();
	await search.waitFor({ timeout: 30000 });
	await search.fill(PANEL_NAME);
	// a node with several actions is an "action item" (n8n 2.x), else a "node item"
	const entries = page
		.locator('[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"]')
		.filter({ hasText: PANEL_NAME });
	await entries.first().waitFor({ timeout: 30000 });
	await save('nodes-panel-eu');
	const shown = [];
	for (const entry of await entries.all()) {
		const name = (await entry.locator('[data-test-id="node-creator-item-name"]').allInnerTexts())
			.join(' ')
			.trim();
		const description = (
			await entry.locator('[data-test-id="node-creator-item-description"]').allInnerTexts()
		)
			.join(' ')
			.replace(/\s+/g, ' ')
			.trim();
		shown.push({ name, description });
	}
	console.log(`# browser: the nodes panel shows for "${PANEL_NAME}": ${JSON.stringify(shown)}`);
	const ours = shown.filter((e) => e.name === PANEL_NAME);
	if (ours.length !== 1)
		throw new Error(`expected one merged entry "${PANEL_NAME}", found: ${JSON.stringify(shown)}`);
	if (!PANEL_SAYS.test(ours[0].description))
		throw new Error(
			`the nodes panel's entry does not say what the node does: "${ours[0].description.slice(0, 300)}"`,
		);
	await page.keyboard.press('Escape');
}

/**
 * The steps inside the browser check, on its signed-in page: the credential's label (both
 * majors) and the nodes panel's entry (n8n 2.x).
 */
async function runCredentialSteps({ page, inst, seen, save, test, tag, creds }) {
	const { markOf, assertClean, openCanvas } = require('./browser');
	if (!creds.some((c) => c.type === 'euInformationSystemApi')) return;
	await test(`${tag} browser: the EU credential's dialog says "${LABEL}", not "${OAUTH_LABEL}"`, async () => {
		const mark = markOf(seen);
		await checkCredentialLabel({ page, inst, save, creds });
		// n8n 1.x's editor logs its own failed calls to n8n's services while offline (see
		// browser-map.js): there the label is what is checked
		if (inst.major >= 2) assertClean(seen, mark, 'the EU credential dialog');
	});
	// the merged entry of node and trigger is n8n 2.x's nodes panel
	if (inst.major < 2) return;
	await test(`${tag} browser: the nodes panel's entry of the EU node and trigger says it files, reads and verifies`, async () => {
		const mark = markOf(seen);
		await checkNodesPanel({ page, inst, save, openCanvas });
		assertClean(seen, mark, 'the nodes panel');
	});
}

module.exports = { runCredentialSteps, PANEL_SAYS, LABEL };

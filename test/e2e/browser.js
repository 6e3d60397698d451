'use strict';
/**
 * The browser check: the package in n8n's editor as a user meets it, in headless Chromium
 * (Debian's `chromium` package, driven by `playwright-core`; no browser download).
 *
 * Logged in through the sign-in form, it opens
 *   - one workflow holding every operation of every version of the action node at its
 *     defaults (each after a Manual Trigger and followed by a No Operation node) and the
 *     trigger at its defaults: each operation's panel, then the panel of the node after it
 *     (whose input panel shows the operation's output schema before anything has run);
 *   - every example (examples/*.json, as the suite imported them): the canvas, then the
 *     panel of every node.
 * Then it runs, from the editor, two flows at the node's defaults (version 3):
 *   - Read File → Validate (the nodes of examples/supplier-attachment-to-plots.json up to
 *     Validate): Validate sets no field, every row is read from Read File's geometry, and its
 *     output in Table view puts Validate's decision columns (valid, problem_count,
 *     problem_summary) before the input's columns;
 *   - Export for EU from items holding a geometry: the file offers View in the Binary view,
 *     and the viewer shows it (a FeatureCollection).
 * It fails on an issue badge (on the canvas or in a panel), a console error or uncaught page
 * error, and any answer of 400 or more for the package's own files (icons, `/types`,
 * the `__schema__` files at `/schemas/<package>.<node>/…`). A console error for a resource of
 * n8n's own that failed to load (e.g. a schema n8n-nodes-base does not ship) is listed, not
 * failed. Every panel and canvas is saved as a PNG under `N8N_E2E_ARTIFACTS` (default
 * `<repo>/.e2e-artifacts`, gitignored) / browser / <n8n version>.
 *
 * Then the EU tools' filing switch (issue 36): an AI Agent's tool has no "let the model define
 * this" button on "Allow Filing Statements", and a Submit tool saved with it off shows the
 * notice in its panel and an issue on the canvas.
 *
 * Then the EU Information System node's panels (issue 35): browser-eu-panels.js.
 *
 * Env: N8N_E2E_BROWSER_EU_PANELS_ONLY=1 runs only the EU panels; N8N_E2E_BROWSER=0 skips it; N8N_E2E_BROWSER_FLOWS_ONLY=1 runs only the two flows and the
 * filing switch (not every panel and example); N8N_E2E_CHROMIUM (default /usr/bin/chromium).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const n8n = require('./n8n');
const { runCredentialSteps } = require('./browser-credential');
const { runEuPanelsCheck } = require('./browser-eu-panels');
const { runFlagshipCheck } = require('./browser-flagship');
const { runMapCheck } = require('./browser-map');
const { runRecordCheck } = require('./browser-record');

const PACKAGE = 'n8n-nodes-geospatial-analysis';
const ACTION = `${PACKAGE}.geospatialAnalysis`;
const EU_ACTION = `${PACKAGE}.euInformationSystem`;
const TRIGGER = `${PACKAGE}.geospatialAnalysisTrigger`;
const EU_TRIGGER = `${PACKAGE}.euInformationSystemTrigger`;
const CHROMIUM = process.env.N8N_E2E_CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = path.resolve(
	process.env.N8N_E2E_ARTIFACTS || path.join(n8n.REPO_ROOT, '.e2e-artifacts'),
);
const ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** A URL of the package's own files (what a 404 must never be). */
const isOwnFile = (url) => url.includes(PACKAGE);

const slug = (s) =>
	String(s)
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 80);

/** Every resource/operation pair of one version's description. */
function operationsOf(description) {
	const pairs = [];
	for (const p of description.properties) {
		const resources = p.displayOptions && p.displayOptions.show && p.displayOptions.show.resource;
		if (p.name !== 'operation' || !Array.isArray(resources)) continue;
		// the tool variant's own Operation lists (the EU node's filing gate): not the node's
		if ((p.displayOptions.show['@tool'] || []).includes(true)) continue;
		for (const o of p.options || []) {
			// n8n's own "Custom API Call" entry (added to nodes with an HTTP credential)
			if (o.value === '__CUSTOM_API_CALL__') continue;
			for (const r of resources) pairs.push({ resource: r, operation: o.value, name: o.name });
		}
	}
	return pairs;
}

/**
 * The fields of an operation that are required and empty at their defaults (an id the user
 * types, e.g. Plot ID): n8n marks them with an issue until they are filled, as it does for
 * its own nodes. The check fills them (with an expression, as a user maps them) and names
 * them in its test title; any other issue fails it.
 */
function requiredEmpty(description, resource, operation) {
	return description.properties.filter((p) => {
		const show = (p.displayOptions && p.displayOptions.show) || {};
		return (
			p.required &&
			p.default === '' &&
			(!show.resource || show.resource.includes(resource)) &&
			(!show.operation || show.operation.includes(operation))
		);
	});
}

/** The workflow of every operation at its defaults (per node version) and both triggers. */
function defaultsWorkflow(types, creds) {
	const apiKey = creds.find((c) => c.type === 'geospatialAnalysisApi');
	const credentials = { geospatialAnalysisApi: { id: apiKey.id, name: apiKey.name } };
	const eu = creds.find((c) => c.type === 'euInformationSystemApi');
	const credentialsOf = (type) =>
		type === EU_ACTION && eu
			? { euInformationSystemApi: { id: eu.id, name: eu.name } }
			: credentials;
	const nodes = [
		{
			id: 'manual-trigger',
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	const connections = {};
	const panels = [];
	// both action nodes: the Geospatial Analysis node and the EU Information System node
	const actions = types.filter((t) => t.name === ACTION || (t.name === EU_ACTION && eu));
	let row = 0;
	for (const description of actions) {
		const type = description.name;
		const label = type === ACTION ? '' : 'EU Information System: ';
		const versions = [].concat(description.version);
		const version = Math.max(...versions);
		for (const { resource, operation } of operationsOf(description)) {
			const filled = requiredEmpty(description, resource, operation);
			const name = `${type === ACTION ? '' : 'EU '}v${version} ${resource} ${operation}`;
			const after = `After ${name}`;
			const id = `op-${slug(name)}`.toLowerCase();
			nodes.push({
				id,
				name,
				type,
				typeVersion: version,
				position: [300, row * 160],
				parameters: {
					resource,
					operation,
					...Object.fromEntries(filled.map((f) => [f.name, `={{ $json.${f.name} }}`])),
				},
				credentials: credentialsOf(type),
			});
			nodes.push({
				id: `${id}-after`,
				name: after,
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [600, row * 160],
				parameters: {},
			});
			connections['Manual Trigger'] ??= { main: [[]] };
			connections['Manual Trigger'].main[0].push({ node: name, type: 'main', index: 0 });
			connections[name] = { main: [[{ node: after, type: 'main', index: 0 }]] };
			const given = filled.length
				? ` (${filled.map((f) => f.displayName).join(', ')} given: required, empty by default)`
				: '';
			panels.push({
				id,
				name,
				what: `${label}${resource} → ${operation} (v${version}) at its defaults${given}`,
			});
			panels.push({
				id: `${id}-after`,
				name: after,
				what: `the node after ${label}${resource} → ${operation} (v${version}): its output schema`,
				schemaOf: { type, version, resource, operation },
			});
			row++;
		}
	}
	// both triggers at their defaults: the Geospatial Analysis Trigger and the EU Information
	// System Trigger (a required field empty by default is filled as for the operations)
	const triggers = [
		{ type: TRIGGER, name: 'Geospatial Analysis Trigger', credentials, y: -300 },
		...(eu
			? [
					{
						type: EU_TRIGGER,
						name: 'EU Information System Trigger',
						credentials: { euInformationSystemApi: { id: eu.id, name: eu.name } },
						y: -600,
					},
				]
			: []),
	];
	for (const t of triggers) {
		const description = types.find((d) => d.name === t.type);
		if (!description) continue;
		const filled = requiredEmpty(description);
		const id = `trigger-${slug(t.name)}`.toLowerCase();
		nodes.push({
			id,
			name: t.name,
			type: t.type,
			typeVersion: Math.max(...[].concat(description.version)),
			position: [0, t.y],
			parameters: Object.fromEntries(filled.map((f) => [f.name, `={{ 'E2E-' }}`])),
			credentials: t.credentials,
		});
		const given = filled.length
			? ` (${filled.map((f) => f.displayName).join(', ')} given: required, empty by default)`
			: '';
		panels.push({ id, name: t.name, what: `the ${t.name} at its defaults${given}` });
	}
	return {
		workflow: {
			name: 'Browser check: every operation at its defaults',
			nodes,
			connections,
			settings: { executionOrder: 'v1' },
		},
		panels,
	};
}

/** Watches a page: console errors, page errors, failed answers. */
function watch(page) {
	const seen = { errors: [], failed: [], notes: [], schemaRequests: [] };
	page.on('console', (msg) => {
		if (msg.type() !== 'error') return;
		const where = (msg.location() && msg.location().url) || '';
		const text = msg.text();
		if (/^Failed to load resource/.test(text) && where && !isOwnFile(where)) {
			seen.notes.push(`${text} (${where})`);
			return;
		}
		seen.errors.push(`console error: ${text}${where ? ` (${where})` : ''}`);
	});
	page.on('pageerror', (e) => seen.errors.push(`page error: ${e.message}`));
	page.on('response', (res) => {
		const url = res.url();
		if (url.includes('/schemas/') && isOwnFile(url))
			seen.schemaRequests.push({ url, status: res.status() });
		if (res.status() >= 400 && isOwnFile(url))
			seen.failed.push(`${res.status()} for the package's file ${url}`);
	});
	page.on('requestfailed', (req) => {
		if (isOwnFile(req.url()))
			seen.failed.push(
				`request failed for the package's file ${req.url()}: ${req.failure()?.errorText}`,
			);
	});
	return seen;
}

/** Nothing wrong so far: throws with every problem seen since `mark`. */
function assertClean(seen, mark, what) {
	const problems = [...seen.errors.slice(mark.errors), ...seen.failed.slice(mark.failed)];
	if (problems.length) throw new Error(`${what}:\n  ${problems.join('\n  ')}`);
}
const markOf = (seen) => ({ errors: seen.errors.length, failed: seen.failed.length });

async function signIn(page, inst) {
	await page.goto(`${inst.url}/signin`, { waitUntil: 'domcontentloaded' });
	const email = page.locator(
		'input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]',
	);
	await email.first().waitFor({ timeout: 60000 });
	await email.first().fill(n8n.OWNER.email);
	await page.locator('input[type="password"]').first().fill(n8n.OWNER.password);
	await page.locator('[data-test-id="form-submit-button"], button[type="submit"]').first().click();
	await page.waitForURL((url) => !/\/signin/.test(url.pathname), { timeout: 60000 });
}

/** Issue badges on the canvas and in an open panel (their count). */
async function issueBadges(page) {
	const canvas = await page.locator('[data-test-id="node-issues"]').count();
	const panel = await page
		.locator('[data-test-id="ndv"] [data-test-id="parameter-issues"]:visible')
		.count();
	return { canvas, panel };
}

async function openCanvas(page, inst, workflowId) {
	await page.goto(`${inst.url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
	await page.locator('.vue-flow__node').first().waitFor({ timeout: 60000 });
	await page.waitForTimeout(1500);
}

/**
 * Opens a node's panel as a user does, by double-clicking it on the canvas (the workflow is
 * loaded once); by its URL (`/workflow/<id>/<node id>`, a full load) when that fails.
 */
async function openPanel(page, inst, workflowId, nodeId) {
	const ndv = page.locator('[data-test-id="ndv"]').first();
	const onCanvas = new URL(page.url()).pathname.startsWith(`/workflow/${workflowId}`);
	let opened = false;
	if (onCanvas) {
		if (await ndv.isVisible().catch(() => false)) {
			const close = page.locator('[data-test-id="ndv-close-button"]').first();
			if (await close.isVisible().catch(() => false)) await close.click().catch(() => {});
			else await page.keyboard.press('Escape');
			await ndv.waitFor({ state: 'hidden', timeout: 10000 }).catch(() => {});
		}
		const node = page.locator(`.vue-flow__node[data-id="${nodeId}"]`).first();
		if (await node.isVisible().catch(() => false)) {
			await node.dblclick({ timeout: 10000 }).catch(() => {});
			opened = await ndv
				.waitFor({ timeout: 15000 })
				.then(() => true)
				.catch(() => false);
		}
	}
	if (!opened) {
		await page.goto(`${inst.url}/workflow/${workflowId}/${nodeId}`, {
			waitUntil: 'domcontentloaded',
		});
		await ndv.waitFor({ timeout: 60000 });
	}
	await page.locator('[data-test-id="node-parameters"]').first().waitFor({ timeout: 30000 });
	// the parameters settle (load options, the credential)
	await page.waitForTimeout(1500);
}

/**
 * Runs the browser check on a started instance that has the suite's credentials and
 * workflows imported. `test(name, fn)` records each check.
 */
async function runBrowserCheck(inst, { workflows, creds, test, tag, cleanups = [], fake }) {
	let chromium;
	try {
		({ chromium } = require('playwright-core'));
	} catch (e) {
		await test(`${tag} browser check`, async () => {
			throw new Error(`playwright-core is not installed (npm install): ${e.message}`);
		});
		return;
	}
	if (!fs.existsSync(CHROMIUM)) {
		await test(`${tag} browser check`, async () => {
			throw new Error(
				`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set N8N_E2E_CHROMIUM`,
			);
		});
		return;
	}
	const shots = path.join(ARTIFACTS, 'browser', inst.version);
	fs.rmSync(shots, { recursive: true, force: true });
	fs.mkdirSync(shots, { recursive: true });
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-chromium-'));
	let context;
	let page;
	let seen;
	let shot = 0;
	const save = async (name) =>
		await page.screenshot({
			path: path.join(shots, `${String(++shot).padStart(3, '0')}-${slug(name)}.png`),
		});
	try {
		const started = await test(`${tag} browser: Chromium starts and signs in`, async () => {
			context = await chromium.launchPersistentContext(profile, {
				executablePath: CHROMIUM,
				headless: true,
				args: ARGS,
				viewport: { width: 1440, height: 900 },
			});
			// closed on Ctrl-C too (the run's cleanups)
			const opened = context;
			cleanups.push(() => opened.close().catch(() => {}));
			page = context.pages()[0] || (await context.newPage());
			seen = watch(page);
			await signIn(page, inst);
			await save('signed-in');
		});
		if (!started) return;
		// issue 35: the EU credential's label (both majors), the nodes panel's entry (2.x)
		// (browser-credential.js)
		await runCredentialSteps({ page, inst, seen, save, test, tag, creds });
		// n8n 1.x: Draw Map's picture and the record's page in the viewer (browser-map.js,
		// browser-record.js); the rest is 2.x's
		if (inst.major < 2) {
			await runMapCheck({ page, inst, seen, save, test, tag }, helpers());
			return await runRecordCheck({ page, inst, seen, save, test, tag }, helpers());
		}

		// the EU Information System panels (issue 35: browser-eu-panels.js)
		const euPanels = async () =>
			await runEuPanelsCheck({ page, inst, seen, test, tag, creds, helpers: { openCanvas, openPanel, markOf, assertClean, save } }); // prettier-ignore
		if (process.env.N8N_E2E_BROWSER_EU_PANELS_ONLY === '1') return await euPanels();
		// the flagship example (browser-flagship.js): its table, canvas and a run, the docs' pictures
		const flagship = () =>
			runFlagshipCheck({ page, inst, seen, save, test, tag, workflows, fake, ui: helpers() });
		if (process.env.N8N_E2E_BROWSER_FLAGSHIP_ONLY === '1') return await flagship();
		if (process.env.N8N_E2E_BROWSER_FLOWS_ONLY === '1') {
			await runFlowChecks({ page, inst, seen, save, test, tag });
			await runFilingSwitchCheck({ page, inst, seen, save, test, tag, creds });
			return;
		}
		// every operation at its defaults, and the node after each (the output schema)
		const types = await n8n.rest(inst, 'GET', '/types/nodes.json');
		if (types.status !== 200) throw new Error(`/types/nodes.json: ${types.status}`);
		const { workflow, panels } = defaultsWorkflow(types.json, creds);
		const created = await n8n.rest(inst, 'POST', '/rest/workflows', workflow);
		if (created.status !== 200)
			throw new Error(
				`creating the defaults workflow: ${created.status} ${created.text.slice(0, 500)}`,
			);
		const defaultsId = (created.json.data || created.json).id;

		await test(`${tag} browser: every operation at its defaults, canvas without issue badges`, async () => {
			const mark = markOf(seen);
			await openCanvas(page, inst, defaultsId);
			await save('defaults-canvas');
			const { canvas } = await issueBadges(page);
			if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas`);
			assertClean(seen, mark, 'the canvas');
		});
		for (const panel of panels) {
			await test(`${tag} browser: panel of ${panel.what}`, async () => {
				const mark = markOf(seen);
				const requests = seen.schemaRequests.length;
				await openPanel(page, inst, defaultsId, panel.id);
				await save(panel.name);
				const { canvas, panel: inPanel } = await issueBadges(page);
				if (canvas || inPanel)
					throw new Error(`issue badge(s): ${canvas} on the canvas, ${inPanel} in the panel`);
				if (panel.schemaOf) {
					// the editor asked for the operation's schema, got it, and shows its fields
					const { type, version, resource, operation } = panel.schemaOf;
					const padded = String(version).split('.').concat(['0', '0']).slice(0, 3).join('.');
					const wanted = `/schemas/${type}/${padded}/${resource}/${operation}.json`;
					const askedFor = () =>
						seen.schemaRequests.slice(requests).find((r) => r.url.endsWith(wanted));
					await n8n.waitFor(askedFor, { timeoutMs: 15000, what: wanted }).catch(() => {});
					const asked = askedFor();
					if (!asked) throw new Error(`the editor did not ask for ${wanted}`);
					if (asked.status !== 200) throw new Error(`${asked.status} for ${asked.url}`);
					const fields = page.locator(
						'[data-test-id="ndv-input-panel"] [data-test-id="run-data-schema-item"]',
					);
					await fields
						.first()
						.waitFor({ timeout: 15000 })
						.catch(() => {});
					if ((await fields.count()) === 0)
						throw new Error('the input panel shows no field of the schema');
				}
				assertClean(seen, mark, panel.what);
			});
		}

		// Read File → Validate and Export for EU at defaults, run from the editor
		await runFlowChecks({ page, inst, seen, save, test, tag });
		// the EU tools' filing switch (issue 36)
		await runFilingSwitchCheck({ page, inst, seen, save, test, tag, creds });
		await euPanels();

		// the examples: canvas, then every node's panel
		for (const w of workflows.filter((x) => x.rel.startsWith('examples/') && x.imported)) {
			const wid = w.imported.id;
			await test(`${tag} browser: example ${w.rel}`, async () => {
				// what the example's nodes refer to in the instance (e.g. a Data Table), as a user has it
				if (w.assert && w.assert.editorSetup)
					await w.assert.editorSetup({
						rest: (method, p, body) => n8n.rest(inst, method, p, body),
						publicApi: (method, p, body) => n8n.publicApi(inst, method, p, body),
						workflow: w.imported,
						fake,
						version: inst.version,
						major: inst.major,
					});
				const mark = markOf(seen);
				await openCanvas(page, inst, wid);
				await save(`${path.basename(w.rel, '.json')}-canvas`);
				const { canvas } = await issueBadges(page);
				if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas`);
				const problems = [];
				for (const node of w.imported.nodes) {
					await openPanel(page, inst, wid, node.id);
					await save(`${path.basename(w.rel, '.json')}-${node.name}`);
					const badges = await issueBadges(page);
					if (badges.panel || badges.canvas)
						problems.push(
							`"${node.name}": ${badges.panel} issue badge(s) in its panel, ${badges.canvas} on the canvas`,
						);
				}
				if (problems.length) throw new Error(problems.join('\n'));
				assertClean(seen, mark, w.rel);
			});
		}
		await flagship();
		if (seen && seen.notes.length)
			console.log(
				`# browser: n8n's own resources that did not load (not the package's): ${[...new Set(seen.notes)].length}\n#   ${[...new Set(seen.notes)].slice(0, 10).join('\n#   ')}`,
			);
		console.log(
			`# browser: ${shot} screenshots in ${path.relative(n8n.REPO_ROOT, shots) || shots}`,
		);
	} finally {
		if (context) await context.close().catch(() => {});
		fs.rmSync(profile, { recursive: true, force: true });
	}
}

/** Validate's own columns, which Table view shows before the input's (version 3). */
const DECISION_COLUMNS = ['valid', 'problem_count', 'problem_summary'];
/** The columns of Read File's items. */
const READ_FILE_COLUMNS = ['geometry', 'properties', 'source', 'warnings'];
const READ_EXAMPLE = 'examples/supplier-attachment-to-plots.json';

/**
 * The Read File example's nodes up to Validate (Manual Trigger → the KMZ → Read File →
 * Validate), as the example has them: Validate at its defaults is what the user gets.
 */
function readFileToValidateWorkflow() {
	const example = JSON.parse(fs.readFileSync(path.join(n8n.REPO_ROOT, READ_EXAMPLE), 'utf8'));
	const keep = new Set();
	let name = example.nodes.find((x) => x.type === 'n8n-nodes-base.manualTrigger').name;
	const connections = {};
	while (name) {
		keep.add(name);
		if (name === 'Validate Plots') break;
		const next = example.connections[name]?.main?.[0]?.[0]?.node;
		if (next) connections[name] = { main: [[{ node: next, type: 'main', index: 0 }]] };
		name = next;
	}
	const nodes = example.nodes.filter((x) => keep.has(x.name));
	const validate = nodes.find((x) => x.name === 'Validate Plots');
	if (!validate) throw new Error(`${READ_EXAMPLE}: no path from the trigger to "Validate Plots"`);
	return {
		workflow: {
			name: 'Browser check: Read File → Validate at defaults',
			nodes,
			connections,
			settings: { executionOrder: 'v1' },
		},
		validate,
		read: nodes.find((x) => x.name === 'Read Geo File'),
	};
}

/** Items holding a plot's geometry, country and name → Export for EU at its defaults. */
function exportWorkflow() {
	const ring = [
		[-47.100001, -15.100001],
		[-47.090001, -15.100001],
		[-47.090001, -15.090001],
		[-47.100001, -15.090001],
		[-47.100001, -15.100001],
	];
	const assignment = (id, name, value, type) => ({ id, name, value, type });
	const nodes = [
		{
			id: 'export-trigger',
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'export-plot',
			name: 'Plot',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [220, 0],
			parameters: {
				assignments: {
					assignments: [
						assignment(
							'e2e-geometry',
							'geometry',
							`={{ ${JSON.stringify({ type: 'Polygon', coordinates: [ring] })} }}`,
							'object',
						),
						assignment('e2e-country', 'country', 'BR', 'string'),
						assignment('e2e-name', 'plot_name', 'Talhão 1', 'string'),
					],
				},
				options: {},
			},
		},
		{
			id: 'export-eu',
			name: 'Export for EU',
			type: ACTION,
			typeVersion: 3,
			position: [440, 0],
			parameters: { resource: 'plot', operation: 'exportEu' },
		},
	];
	const connections = {
		'Manual Trigger': { main: [[{ node: 'Plot', type: 'main', index: 0 }]] },
		Plot: { main: [[{ node: 'Export for EU', type: 'main', index: 0 }]] },
	};
	return {
		name: 'Browser check: Export for EU, viewed',
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** Runs the open workflow from the editor and waits until this node shows its success. */
async function executeFromEditor(page, nodeId) {
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	await page
		.locator(`.vue-flow__node[data-id="${nodeId}"] [data-test-id="canvas-node-status-success"]`)
		.first()
		.waitFor({ timeout: 120000 });
}

/** The open panel's output side (n8n 2.x: `output-panel` wraps the run data). */
const OUTPUT_PANEL = '[data-test-id="output-panel"], [data-test-id="ndv-output-panel"]';
const outputPanel = (page) => page.locator(OUTPUT_PANEL).first();

/** Switches the open panel's output to a display mode (table, json, binary, schema). */
async function outputMode(page, mode) {
	const modes = outputPanel(page).locator('[data-test-id="ndv-run-data-display-mode"]');
	await modes.first().waitFor({ timeout: 30000 });
	const option = modes.locator(`[data-test-id="radio-button-${mode}"]`).first();
	if (await option.count()) await option.click();
	else
		await modes
			.getByText(new RegExp(`^${mode}$`, 'i'))
			.first()
			.click();
}

/** The column names of the output panel's table, in the order shown. */
async function tableColumns(page) {
	const headers = outputPanel(page).locator('[data-test-id="ndv-data-container"] table thead th');
	await headers.first().waitFor({ timeout: 30000 });
	return (await headers.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

const EU_TOOL = `${EU_ACTION}Tool`;
const FILING_OFF_NOTICE =
	'"Allow Filing Statements": it is off, so this AI Agent tool may not submit statements';
const FILING_EXPRESSION_NOTICE =
	'"Allow Filing Statements": it is set by an expression (or "defined automatically by the model"), so this AI Agent tool may not submit statements';

/**
 * Issue 36: an AI Agent with three EU Information System tools: Submit saved with "Allow
 * Filing Statements" off, the same Submit with it on, and Verify.
 */
function filingSwitchWorkflow(creds) {
	const eu = creds.find((c) => c.type === 'euInformationSystemApi');
	const llm = creds.find((c) => c.type === 'openAiApi');
	const euCredentials = eu ? { euInformationSystemApi: { id: eu.id, name: eu.name } } : {};
	const submit = {
		resource: 'dueDiligenceStatement',
		operation: 'submit',
		internalReference: 'PO-1',
		hsHeading: '1801',
		descriptionOfGoods: 'Cocoa beans',
	};
	const tool = (id, name, parameters, x) => ({
		id,
		name,
		type: EU_TOOL,
		typeVersion: 1,
		position: [x, 240],
		parameters,
		credentials: euCredentials,
	});
	const nodes = [
		{
			id: 'manual-trigger',
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3,
			position: [240, 0],
			parameters: { promptType: 'define', text: 'File a statement', options: {} },
		},
		{
			id: 'model',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [100, 240],
			parameters: {
				model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' },
				responsesApiEnabled: false,
				options: {},
			},
			credentials: llm ? { openAiApi: { id: llm.id, name: llm.name } } : {},
		},
		tool('submit-off', 'Submit Switch Off', submit, 300),
		tool('submit-on', 'Submit Switch On', { ...submit, allowFilingStatements: true }, 460),
		tool(
			'submit-model',
			'Submit Model Decides',
			{
				...submit,
				allowFilingStatements:
					"={{ $fromAI('allowFilingStatements', 'Whether you may file', 'boolean') }}",
			},
			780,
		),
		tool(
			'verify',
			'Verify',
			{
				resource: 'declaration',
				referenceNumber: '25FRAB12CD34EF',
				verificationNumber: 'K7R8LA90',
			},
			620,
		),
	];
	const to = (node, type) => [[{ node: 'AI Agent', type, index: 0 }]];
	return {
		name: 'e2e browser: the filing switch (issue 36)',
		nodes,
		connections: {
			'Manual Trigger': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'OpenAI Chat Model': { ai_languageModel: to('AI Agent', 'ai_languageModel') },
			'Submit Switch Off': { ai_tool: to('AI Agent', 'ai_tool') },
			'Submit Switch On': { ai_tool: to('AI Agent', 'ai_tool') },
			Verify: { ai_tool: to('AI Agent', 'ai_tool') },
			'Submit Model Decides': { ai_tool: to('AI Agent', 'ai_tool') },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The open panel's parameter row of a label (its label, input and buttons). */
const parameterRow = (page, label) =>
	page
		.locator('[data-test-id="ndv"] [data-test-id="parameter-item"]')
		.filter({ has: page.getByText(label, { exact: true }) })
		.first();

/** How many "let the model define this" buttons a parameter row shows (hovered, as a user). */
async function fromAiButtons(page, label) {
	const row = parameterRow(page, label);
	await row.waitFor({ timeout: 15000 });
	await row.hover();
	return await row.locator('[data-test-id="from-ai-override-button"]').count();
}

/**
 * The filing switch in the editor (issue 36): no "let the model define this" button on "Allow
 * Filing Statements" (while a field beside it has one), and a tool saved with Submit while the
 * switch is off shows the notice in its panel and an issue on the canvas (the same tool with
 * the switch on: none).
 */
async function runFilingSwitchCheck({ page, inst, seen, save, test, tag, creds }) {
	if (!creds.some((c) => c.type === 'euInformationSystemApi')) return;
	await test(`${tag} browser: the filing switch (no $fromAI button; notice and canvas issue of a Submit tool with it off)`, async () => {
		const mark = markOf(seen);
		const created = await n8n.rest(inst, 'POST', '/rest/workflows', filingSwitchWorkflow(creds));
		if (created.status !== 200)
			throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
		const id = (created.json.data || created.json).id;
		await openCanvas(page, inst, id);
		await save('filing-switch-canvas');
		const badges = async (nodeId) =>
			await page
				.locator(`.vue-flow__node[data-id="${nodeId}"] [data-test-id="node-issues"]`)
				.count();
		if ((await badges('submit-off')) === 0)
			throw new Error('no issue on the canvas for the Submit tool saved with the switch off');
		if (await badges('submit-on'))
			throw new Error('an issue on the canvas for the Submit tool with the switch on');
		if ((await badges('submit-model')) === 0)
			throw new Error('no issue on the canvas for the Submit tool with the switch as $fromAI');
		// the canvas warning says why (its tooltip)
		await page
			.locator('.vue-flow__node[data-id="submit-off"] [data-test-id="node-issues"]')
			.first()
			.hover();
		await page.getByText(FILING_OFF_NOTICE).first().waitFor({ timeout: 15000 });
		await save('filing-switch-canvas-issue');
		await page.mouse.move(0, 0);
		await page
			.locator('.vue-flow__node[data-id="submit-model"] [data-test-id="node-issues"]')
			.first()
			.hover();
		await page.getByText(FILING_EXPRESSION_NOTICE).first().waitFor({ timeout: 15000 });
		await save('filing-switch-canvas-issue-model');

		await openPanel(page, inst, id, 'submit-off');
		await save('filing-switch-off-panel');
		const notice = page.locator('[data-test-id="ndv"]').getByText(FILING_OFF_NOTICE).first();
		await notice.waitFor({ timeout: 15000 });
		if (await fromAiButtons(page, 'Filing Not Allowed'))
			throw new Error('"Filing Not Allowed" offers "let the model define this"');

		// the switch saved as $fromAI (as the button wrote it before): what its panel shows
		await openPanel(page, inst, id, 'submit-model');
		await save('filing-switch-model-panel');
		const said = await page
			.locator('[data-test-id="ndv"]')
			.getByText(/^"Allow Filing Statements": it is (off|set by an expression)/)
			.allInnerTexts();
		console.log(
			`# browser: the panel of a tool whose switch is $fromAI says: ${JSON.stringify(said)}`,
		);
		// the panel shows the switch off (no "Defined automatically by the model") and says so
		if (said.length !== 1 || !said[0].startsWith(FILING_OFF_NOTICE))
			throw new Error(`the $fromAI tool's panel: ${JSON.stringify(said)}`);

		await openPanel(page, inst, id, 'verify');
		const beside = await fromAiButtons(page, 'Reference Number');
		const onSwitch = await fromAiButtons(page, 'Allow Filing Statements');
		await save('filing-switch-verify-panel');
		if (beside === 0)
			throw new Error(
				'no "let the model define this" button on Reference Number: the check cannot see it',
			);
		if (onSwitch) throw new Error('"Allow Filing Statements" offers "let the model define this"');
		assertClean(seen, mark, 'the filing switch');
	});
}

/** Read File → Validate and Export for EU at version 3's defaults, run from the editor. */
async function runFlowChecks({ page, inst, seen, save, test, tag }) {
	const flow = readFileToValidateWorkflow();
	await test(`${tag} browser: Read File → Validate at defaults (version 3), Validate's Table view`, async () => {
		const mark = markOf(seen);
		for (const x of [flow.read, flow.validate])
			if (x.typeVersion !== 3) throw new Error(`"${x.name}" is on version ${x.typeVersion}, not 3`);
		const set = Object.keys(flow.validate.parameters).filter(
			(k) => !['resource', 'operation', 'options'].includes(k),
		);
		if (set.length) throw new Error(`Validate is not at its defaults: it sets ${set.join(', ')}`);
		const created = await n8n.rest(inst, 'POST', '/rest/workflows', flow.workflow);
		if (created.status !== 200)
			throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
		const id = (created.json.data || created.json).id;
		await openCanvas(page, inst, id);
		const { canvas } = await issueBadges(page);
		if (canvas) throw new Error(`${canvas} issue badge(s) on the canvas at defaults`);
		await executeFromEditor(page, flow.validate.id);
		await save('read-file-to-validate-run');
		await openPanel(page, inst, id, flow.validate.id);
		await save('validate-panel');
		const { panel } = await issueBadges(page);
		if (panel) throw new Error(`${panel} issue badge(s) in Validate's panel`);
		await outputMode(page, 'table');
		const columns = await tableColumns(page);
		await save('validate-table-view');
		const text = await outputPanel(page).innerText();
		if (/has no geometry/.test(text))
			throw new Error('a row says it has no geometry: the default source did not find it');
		const row = outputPanel(page).locator('[data-test-id="ndv-data-container"] table tbody tr');
		const box = await row.first().boundingBox();
		console.log(
			`# browser: Validate's Table view columns: ${columns.join(', ')}; first row ${box ? Math.round(box.height) : '?'} px tall`,
		);
		const at = (c) => columns.indexOf(c);
		const missing = [...DECISION_COLUMNS, ...READ_FILE_COLUMNS].filter((c) => at(c) < 0);
		if (missing.length)
			throw new Error(`no column ${missing.join(', ')} in: ${columns.join(', ')}`);
		// the decision first: Validate's answer before every input column
		const firstInput = Math.min(...READ_FILE_COLUMNS.map(at));
		const late = DECISION_COLUMNS.filter((c) => at(c) > firstInput);
		if (late.length)
			throw new Error(
				`Validate's decision columns are not first: ${late.join(', ')} after the input's columns (${columns.join(', ')})`,
			);
		assertClean(seen, mark, 'Read File → Validate');
	});

	await test(`${tag} browser: Export for EU at defaults (version 3), the file offers View and shows`, async () => {
		const mark = markOf(seen);
		const created = await n8n.rest(inst, 'POST', '/rest/workflows', exportWorkflow());
		if (created.status !== 200)
			throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
		const id = (created.json.data || created.json).id;
		await openCanvas(page, inst, id);
		await executeFromEditor(page, 'export-eu');
		await openPanel(page, inst, id, 'export-eu');
		await save('export-panel');
		await outputMode(page, 'binary');
		const view = outputPanel(page).locator('[data-test-id="ndv-view-binary-data"]');
		await view
			.first()
			.waitFor({ timeout: 30000 })
			.catch(() => {});
		await save('export-binary');
		if ((await view.count()) === 0)
			throw new Error('the exported file offers no View (download only)');
		const panelText = await outputPanel(page).innerText();
		if (!/\.geojson/.test(panelText))
			throw new Error(`no .geojson file name shown: ${panelText.slice(0, 300)}`);
		await view.first().click();
		const viewer = page.locator('.binary-data-window');
		await viewer.first().waitFor({ timeout: 30000 });
		await viewer
			.getByText(/FeatureCollection/)
			.first()
			.waitFor({ timeout: 30000 });
		await save('export-viewed');
		assertClean(seen, mark, 'Export for EU');
	});
	// Draw Map's picture in the viewer (browser-map.js)
	await runMapCheck({ page, inst, seen, save, test, tag }, helpers());
	// the due-diligence record's page and JSON in the viewer (browser-record.js)
	await runRecordCheck({ page, inst, seen, save, test, tag }, helpers());
}

/** browser.js's helpers, for the checks in their own files. */
const helpers = () => ({
	...{ openCanvas, openPanel, executeFromEditor, outputMode, outputPanel, issueBadges },
	...{ markOf, assertClean },
});

module.exports = {
	runBrowserCheck,
	defaultsWorkflow,
	operationsOf,
	ARTIFACTS,
	// for browser-credential.js
	markOf,
	assertClean,
	openCanvas,
};

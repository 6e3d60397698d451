'use strict';
/**
 * The EU Information System node's panels in n8n's editor (issue 35), called by browser.js.
 *
 * One workflow holds, at their defaults (only the resource and the operation set), every
 * operation of the node's newest version (1.1), a DDS Submit and an SD Submit with the
 * representative role, a DDS Submit of version 1 (as saved workflows have it), the trigger
 * without a reference prefix, and a Submit tool with "Allow Filing Statements" off. It asserts
 * what the canvas and each panel show:
 *   - the canvas: every node's subtitle in the panel's words ("Submit: Due Diligence
 *     Statement", never "submit"), the trigger's without a prefix ("Set Internal Reference
 *     Starts With", never "Statements …"), the tool's issue badge;
 *   - Submit, Amend, SD Submit, Update: no "Represented Operator" for the own role, the group
 *     (with its Add button) for the representative role, named by the role's help; "Additional
 *     Fields" and no "Statement Options"; placeholders with examples on HS Heading, Description
 *     of Goods, Country of Activity, Net Weight; an issue on Net Weight where the Activity Type
 *     needs it (DDS: Import) and none for the SD (Domestic by default, every Activity Type
 *     described in its list); Geometry Source's Latitude/Longitude saying the point is filed as
 *     a point, never "a circle of about 4 ha";
 *   - version 1: Statement Options as before (no group);
 *   - a Submit tool saved with "Allow Filing Statements" off: the notice in its panel, its
 *     Operation reading "Submit" with why it may not run (not a raw value outlined in red), a
 *     badge on the canvas; a new tool: Get, the reads only.
 * A screenshot of each panel goes to docs/images/eu-panel-<resource>-<operation>.png (the
 * README's pictures) and, as every other, to the run's artifacts.
 */
const fs = require('fs');
const path = require('path');

const n8n = require('./n8n');

const PACKAGE = 'n8n-nodes-geospatial-analysis';
const EU_ACTION = `${PACKAGE}.euInformationSystem`;
const EU_TRIGGER = `${PACKAGE}.euInformationSystemTrigger`;
const EU_TOOL = `${EU_ACTION}Tool`;
const IMAGES = path.join(n8n.REPO_ROOT, 'docs', 'images');

const SHORT = {
	dueDiligenceStatement: 'dds',
	simplifiedDeclaration: 'sd',
	declaration: 'declaration',
	dueDiligenceRecord: 'record',
};
/** The statement operations and their representative role. */
const STATEMENT = {
	'dueDiligenceStatement.submit': 'REPRESENTATIVE_OPERATOR',
	'dueDiligenceStatement.amend': 'REPRESENTATIVE_OPERATOR',
	'simplifiedDeclaration.submit': 'REPRESENTATIVE_MSPO',
	'simplifiedDeclaration.update': 'REPRESENTATIVE_MSPO',
};

/** The EU node's description of one version, from /types/nodes.json. */
function descriptionOf(types, version) {
	return types.find((t) => t.name === EU_ACTION && [].concat(t.version).includes(version));
}

/** The node's own operations (not the tool's lists), with the panel's names. */
function operationsOf(description) {
	const resources = description.properties.find((p) => p.name === 'resource').options;
	const out = [];
	for (const p of description.properties) {
		const show = (p.displayOptions && p.displayOptions.show) || {};
		if (p.name !== 'operation' || !show.resource || (show['@tool'] || []).includes(true)) continue;
		const resource = show.resource[0];
		const resourceName = resources.find((r) => r.value === resource).name;
		for (const o of p.options)
			out.push({ resource, operation: o.value, subtitle: `${o.name}: ${resourceName}` });
	}
	return out;
}

function panelsWorkflow(types, creds) {
	const eu = creds.find((c) => c.type === 'euInformationSystemApi');
	const credentials = { euInformationSystemApi: { id: eu.id, name: eu.name } };
	const v11 = descriptionOf(types, 1.1);
	if (!v11) throw new Error('n8n lists no version 1.1 of the EU Information System node');
	const nodes = [];
	const panels = [];
	const add = (id, parameters, over = {}, panel = {}) => {
		const node = {
			id,
			name: over.name || id,
			type: over.type || EU_ACTION,
			typeVersion: over.typeVersion || 1.1,
			position: [(nodes.length % 4) * 320, Math.floor(nodes.length / 4) * 200],
			parameters,
			credentials,
		};
		nodes.push(node);
		panels.push({ id, name: node.name, ...panel });
	};
	for (const op of operationsOf(v11)) {
		const key = `${op.resource}.${op.operation}`;
		const id = `eu-${SHORT[op.resource]}-${op.operation}`;
		add(
			id,
			{ resource: op.resource, operation: op.operation },
			{ name: `EU ${SHORT[op.resource].toUpperCase()} ${op.operation}` },
			{
				...op,
				key,
				image: `eu-panel-${SHORT[op.resource]}-${op.operation}`,
				statement: key in STATEMENT,
			},
		);
		if (op.operation === 'submit')
			add(
				`${id}-representative`,
				{ resource: op.resource, operation: op.operation, operatorRole: STATEMENT[key] },
				{ name: `EU ${SHORT[op.resource].toUpperCase()} submit representative` },
				{
					...op,
					key,
					image: `eu-panel-${SHORT[op.resource]}-submit-representative`,
					representative: STATEMENT[key],
				},
			);
	}
	add(
		'eu-v1-dds-submit',
		{ resource: 'dueDiligenceStatement', operation: 'submit' },
		{ name: 'EU v1 DDS submit', typeVersion: 1 },
		{
			version1: true,
			subtitle: 'Submit: Due Diligence Statement',
			image: 'eu-panel-v1-dds-submit',
		},
	);
	add(
		'eu-trigger',
		{},
		{ name: 'EU trigger', type: EU_TRIGGER, typeVersion: 1 },
		{ trigger: true, subtitle: 'Set Internal Reference Starts With', image: 'eu-panel-trigger' },
	);
	add(
		'eu-tool-submit-off',
		{ resource: 'dueDiligenceStatement', operation: 'submit' },
		{ name: 'EU tool submit off', type: EU_TOOL },
		{ tool: 'saved', image: 'eu-panel-tool-submit-filing-off' },
	);
	add(
		'eu-tool-new',
		{ resource: 'dueDiligenceStatement' },
		{ name: 'EU tool new', type: EU_TOOL },
		{ tool: 'new', image: 'eu-panel-tool-new' },
	);
	return {
		workflow: {
			name: 'Browser check: the EU Information System panels (issue 35)',
			nodes,
			connections: {},
			settings: { executionOrder: 'v1' },
		},
		panels,
	};
}

const ndv = (page) => page.locator('[data-test-id="ndv"]').first();

/** The open panel's parameter row of a label (exact), or of a label's beginning. */
const row = (page, label) =>
	ndv(page)
		.locator('[data-test-id="parameter-item"]')
		.filter({ has: page.getByText(label, { exact: true }) })
		.first();

/** The labels the open panel shows (top level and nested), as the user reads them. */
async function labels(page) {
	const texts = await ndv(page)
		.locator(
			'[data-test-id="node-parameters"] label, [data-test-id="node-parameters"] .n8n-input-label',
		)
		.allInnerTexts();
	return texts.map((t) => t.trim()).filter(Boolean);
}

async function placeholderOf(page, label) {
	const r = row(page, label);
	await r.waitFor({ timeout: 15000 });
	const input = r.locator('input[placeholder], textarea[placeholder], [data-placeholder]').first();
	if ((await input.count()) === 0) return (await r.innerText()).trim();
	return (
		(await input.getAttribute('placeholder')) || (await input.getAttribute('data-placeholder'))
	);
}

const hasIssue = async (page, label) =>
	(await row(page, label).locator('[data-test-id="parameter-issues"]').count()) > 0;

/** Opens the list of an options field and returns what its open list says (names, descriptions). */
async function listOf(page, label) {
	const r = row(page, label);
	await r.waitFor({ timeout: 15000 });
	await r.locator('input, [data-test-id="parameter-input-field"]').first().click();
	const list = page.locator(
		'.el-select-dropdown:visible, .el-popper:visible .el-select-dropdown__list',
	);
	await list.first().waitFor({ timeout: 15000 });
	const text = (await list.allInnerTexts()).join('\n');
	await page.keyboard.press('Escape');
	await list
		.first()
		.waitFor({ state: 'hidden', timeout: 5000 })
		.catch(() => {});
	return text;
}

/** What one statement panel (Submit, Amend, SD Submit, Update) must show. */
async function statementPanel(page, panel, problems) {
	const shown = await labels(page);
	const say = (m) => problems.push(`${panel.name}: ${m}`);
	if (panel.version1) {
		if (!shown.includes('Statement Options')) say('version 1 has no "Statement Options"');
		if (shown.some((l) => l === 'Represented Operator')) say('version 1 shows the group');
		if (await hasIssue(page, 'Net Weight (kg)')) say('version 1 marks Net Weight');
		return;
	}
	if (shown.includes('Statement Options')) say('"Statement Options" is still shown');
	if (!shown.includes('Additional Fields')) say('no "Additional Fields"');
	const group = shown.includes('Represented Operator');
	if (panel.representative) {
		if (!group) say('no "Represented Operator" group for the representative role');
		const add = ndv(page).getByText('Add Represented Operator').first();
		if (!(await add.isVisible().catch(() => false))) say('no "Add Represented Operator" button');
		const roles = await listOf(page, 'Operator Role');
		if (!/fill in Represented Operator below/.test(roles))
			say(`the role's help does not name the group: ${JSON.stringify(roles)}`);
	} else if (group) say('"Represented Operator" is shown for the own role');
	for (const [label, example] of [
		['HS Heading', /^e\.g\. \d{4}/],
		['Description of Goods', /^e\.g\. \w/],
		['Country of Activity', /^e\.g\. [A-Z]{2}$/],
		['Net Weight (kg)', /^e\.g\. \d/],
	]) {
		const got = await placeholderOf(page, label);
		if (!example.test(got || '')) say(`${label}'s placeholder is ${JSON.stringify(got)}`);
	}
	const sd = panel.resource === 'simplifiedDeclaration';
	const weightIssue = await hasIssue(page, 'Net Weight (kg)');
	if (!sd && !weightIssue) say('no issue on Net Weight at defaults (Import needs it)');
	if (sd && weightIssue) say('an issue on Net Weight at the SD defaults (Domestic)');
	if (sd) {
		const value = await row(page, 'Activity Type').locator('input').first().inputValue();
		if (value !== 'Domestic') say(`the SD's Activity Type at defaults is ${JSON.stringify(value)}`);
		const activities = await listOf(page, 'Activity Type');
		for (const [name, words] of [
			['Domestic', /without crossing the EU border/],
			['Export', /leaving the EU/],
			['Import', /released for free circulation/],
		])
			if (!activities.includes(name) || !words.test(activities))
				say(`Activity Type's list does not describe ${name}: ${JSON.stringify(activities)}`);
	}
	const sources = await listOf(page, 'Geometry Source');
	if (/circle|4 ha,/.test(sources) && !/filed as a point/.test(sources))
		say(`Geometry Source still says the service's words: ${JSON.stringify(sources)}`);
	if (!/filed as a point with its area/.test(sources))
		say(`Latitude/Longitude does not say it is filed as a point: ${JSON.stringify(sources)}`);
	if (/circle of about 4 ha/.test(sources)) say('"a circle of about 4 ha" is still said');
}

/**
 * A tool with "Allow Filing Statements" off: saved with Submit, its Operation reads "Submit"
 * (listed with why it may not run, no raw "submit" outlined in red) under the notice; a new
 * tool lists the reads only.
 */
async function toolPanel(page, panel, problems) {
	const say = (m) => problems.push(`${panel.name}: ${m}`);
	const value = await row(page, 'Operation').locator('input').first().inputValue();
	const list = await listOf(page, 'Operation');
	if (/\b(Amend|Withdraw)\b/.test(list))
		say(`the list offers other writes: ${JSON.stringify(list)}`);
	if (panel.tool === 'new') {
		if (value !== 'Get') say(`a new tool's Operation is ${JSON.stringify(value)}, not Get`);
		if (/\bSubmit\b/.test(list)) say(`a new tool offers Submit: ${JSON.stringify(list)}`);
		return;
	}
	if (value !== 'Submit') say(`the saved Operation reads ${JSON.stringify(value)}, not "Submit"`);
	if (await hasIssue(page, 'Operation')) say('the Operation is outlined as an unknown value');
	if (!/Not allowed while "Allow Filing Statements" is off/.test(list))
		say(`Submit's entry does not say why: ${JSON.stringify(list)}`);
	const notice = ndv(page).getByText(
		'"Allow Filing Statements": it is off, so this AI Agent tool may not submit statements',
	);
	if (
		!(await notice
			.first()
			.isVisible()
			.catch(() => false))
	)
		say('no notice in the panel');
}

/**
 * The EU panels check (issue 35). `helpers` are browser.js's: openCanvas, openPanel, markOf,
 * assertClean, save (a screenshot in the run's artifacts).
 */
async function runEuPanelsCheck({ page, inst, seen, test, tag, creds, helpers }) {
	if (!creds.some((c) => c.type === 'euInformationSystemApi')) return;
	const { openCanvas, openPanel, markOf, assertClean, save } = helpers;
	fs.mkdirSync(IMAGES, { recursive: true });
	const image = async (name) => await page.screenshot({ path: path.join(IMAGES, `${name}.png`) });
	let id;
	let panels;
	const made =
		await test(`${tag} browser: EU panels (issue 35): the canvas, subtitles in the panel's words`, async () => {
			const mark = markOf(seen);
			const types = await n8n.rest(inst, 'GET', '/types/nodes.json');
			if (types.status !== 200) throw new Error(`/types/nodes.json: ${types.status}`);
			const built = panelsWorkflow(types.json, creds);
			panels = built.panels;
			const created = await n8n.rest(inst, 'POST', '/rest/workflows', built.workflow);
			if (created.status !== 200)
				throw new Error(`creating the workflow: ${created.status} ${created.text.slice(0, 500)}`);
			id = (created.json.data || created.json).id;
			await openCanvas(page, inst, id);
			await save('eu-panels-canvas');
			await image('eu-panels-canvas');
			const problems = [];
			for (const p of panels.filter((x) => x.subtitle)) {
				const text = await page.locator(`.vue-flow__node[data-id="${p.id}"]`).first().innerText();
				if (!text.includes(p.subtitle))
					problems.push(`${p.name}: the canvas reads ${JSON.stringify(text)}, not "${p.subtitle}"`);
				if (/\bStatements …/.test(text)) problems.push(`${p.name}: "Statements …" on the canvas`);
			}
			const toolBadge = await page
				.locator('.vue-flow__node[data-id="eu-tool-submit-off"] [data-test-id="node-issues"]')
				.count();
			if (!toolBadge)
				problems.push('the Submit tool with filing off has no issue badge on the canvas');
			if (problems.length) throw new Error(problems.join('\n'));
			assertClean(seen, mark, 'the EU panels canvas');
		});
	if (!made) return;
	for (const panel of panels) {
		await test(`${tag} browser: EU panel ${panel.name}${panel.representative ? ` (role ${panel.representative})` : ''} at its defaults (issue 35)`, async () => {
			const mark = markOf(seen);
			await openPanel(page, inst, id, panel.id);
			await save(panel.image);
			await image(panel.image);
			const problems = [];
			if (panel.statement || panel.representative || panel.version1)
				await statementPanel(page, panel, problems);
			if (panel.tool) await toolPanel(page, panel, problems);
			const text = await ndv(page).innerText();
			if (/circle of about 4 ha/.test(text)) problems.push(`${panel.name}: "circle of about 4 ha"`);
			if (problems.length) throw new Error(problems.join('\n'));
			assertClean(seen, mark, panel.name);
		});
	}
}

module.exports = { runEuPanelsCheck, panelsWorkflow };

'use strict';
/** Shared pieces of the e2e suite and the demo: workflow files, credentials, load check, assert context. */
const fs = require('fs');
const path = require('path');
const n8n = require('./n8n');

const { REPO_ROOT } = n8n;
const WORKFLOW_DIRS = [
	path.join(REPO_ROOT, 'test', 'e2e', 'workflows'),
	path.join(REPO_ROOT, 'examples'),
];

/** Fixed ids so workflows can reference the credentials; run.js also rebinds by type on import. */
const CREDENTIALS = {
	geospatialAnalysisApi: { id: 'geoFakeApiKey001', name: 'Geospatial Analysis (fake service)' },
	geospatialAnalysisLoginApi: {
		id: 'geoFakeLogin0001',
		name: 'Geospatial Analysis login (fake service)',
	},
	openAiApi: { id: 'geoFakeOpenAi001', name: 'Fake chat model (scripted, loopback)' },
	euInformationSystemApi: {
		id: 'euFakeIsApi00001',
		name: 'EU Information System (fake, loopback)',
	},
};

const MANUAL_TRIGGERS = [
	'n8n-nodes-base.manualTrigger',
	'n8n-nodes-base.start',
	'n8n-nodes-base.executeWorkflowTrigger',
];

/** Every `*.json` workflow in test/e2e/workflows and examples, with its `<name>.assert.js` if any. */
/** A node of the Geospatial Analysis service (the action node, its tool variant, the trigger). */
const usesGeospatial = (node) =>
	/^n8n-nodes-geospatial-analysis\.geospatialAnalysis/.test(String(node.type));

function loadWorkflowFiles(only, dirs = WORKFLOW_DIRS) {
	const out = [];
	for (const dir of dirs) {
		if (!fs.existsSync(dir)) continue;
		for (const f of fs.readdirSync(dir).sort()) {
			if (!f.endsWith('.json')) continue;
			const file = path.join(dir, f);
			const rel = path.relative(REPO_ROOT, file);
			if (only && !rel.includes(only)) continue;
			let json;
			try {
				json = JSON.parse(fs.readFileSync(file, 'utf8'));
			} catch (e) {
				out.push({ file, rel, error: e, json: { nodes: [] } });
				continue;
			}
			if (!Array.isArray(json.nodes) || !json.connections) continue; // not a workflow
			// N8N_E2E_GEOSPATIAL_ONLY=1 (CI's runs against the Geospatial fake's shape variants):
			// only the workflows with a Geospatial Analysis node; the others never meet a variant.
			if (process.env.N8N_E2E_GEOSPATIAL_ONLY === '1' && !json.nodes.some(usesGeospatial)) continue;
			const assertFile = file.replace(/\.json$/, '.assert.js');
			const assert = fs.existsSync(assertFile) ? require(assertFile) : undefined;
			out.push({
				file,
				rel,
				json,
				assert,
				startable: json.nodes.some((nd) => MANUAL_TRIGGERS.includes(nd.type)),
			});
		}
	}
	return out;
}

/** A copy of the workflow ready to import: id/versionId set, our credentials rebound by type. */
function prepareWorkflow(w, creds, extra = {}) {
	const wf = JSON.parse(JSON.stringify(w.json));
	if (!wf.id) wf.id = n8n.makeId(path.basename(w.file, '.json'));
	wf.name = wf.name || path.basename(w.file, '.json');
	// instance-specific parts of an export that the CLI importer may trip on
	for (const k of ['tags', 'shared', 'homeProject', 'parentFolder', 'parentFolderId']) delete wf[k];
	for (const node of wf.nodes) {
		if (!node.credentials) continue;
		for (const type of Object.keys(node.credentials)) {
			const c = creds.find((x) => x.type === type);
			if (c) node.credentials[type] = { id: c.id, name: c.name };
		}
	}
	return Object.assign(wf, extra);
}

/**
 * Credentials (plain data; n8n encrypts on import) for the fake service's first seeded user,
 * and an OpenAI credential whose Base URL is the scripted chat model (`fake.llm`).
 */
function credentialsFor(fake) {
	const user = fake.user || {};
	const withPassword = fake.users.find((u) => u.password) || user;
	const chatModel = fake.llm
		? [
				{
					...CREDENTIALS.openAiApi,
					type: 'openAiApi',
					data: { apiKey: 'fake-llm-takes-any-key', url: fake.llm.url, header: false },
				},
			]
		: [];
	return [
		{
			...CREDENTIALS.geospatialAnalysisApi,
			type: 'geospatialAnalysisApi',
			data: { baseUrl: fake.url, apiKey: user.apiKey || '' },
		},
		{
			...CREDENTIALS.geospatialAnalysisLoginApi,
			type: 'geospatialAnalysisLoginApi',
			data: {
				baseUrl: fake.url,
				username: withPassword.username || '',
				password: withPassword.password || '',
			},
		},
		...chatModel,
		...(fake.eu
			? [
					{
						...CREDENTIALS.euInformationSystemApi,
						type: 'euInformationSystemApi',
						data: {
							environment: 'custom',
							customUrl: fake.eu.url,
							username: fake.eu.username,
							authKey: fake.eu.key,
							clientId: fake.eu.clientId,
						},
					},
				]
			: []),
	];
}

const lcfirst = (s) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * Assert n8n loaded the package: every file of its `n8n` field shows up in
 * the running instance's /types (needs a login). Names follow n8n's
 * convention: `Foo.node.js` → node `<package>.foo`, `FooApi.credentials.js` → credential `fooApi`.
 */
async function checkPackageLoaded(inst, packageDir = REPO_ROOT) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const field = pkg.n8n || {};
	const problems = [];
	if (!Array.isArray(field.nodes) || !field.nodes.length)
		problems.push('package.json has no `n8n.nodes`');
	for (const f of [...(field.nodes || []), ...(field.credentials || [])]) {
		if (!fs.existsSync(path.join(packageDir, f)))
			problems.push(`missing file listed in the n8n field: ${f}`);
	}
	const nodesR = await n8n.rest(inst, 'GET', '/types/nodes.json');
	const credsR = await n8n.rest(inst, 'GET', '/types/credentials.json');
	if (nodesR.status !== 200 || credsR.status !== 200) {
		throw new Error(`/types answered ${nodesR.status}/${credsR.status}`);
	}
	const nodeNames = new Set(nodesR.json.map((x) => x.name));
	const credNames = new Set(credsR.json.map((x) => x.name));
	for (const f of field.nodes || []) {
		const name = `${pkg.name}.${lcfirst(path.basename(f).replace(/\.node\.js$/, ''))}`;
		if (!nodeNames.has(name)) problems.push(`node ${name} (${f}) not loaded`);
	}
	for (const f of field.credentials || []) {
		const name = lcfirst(path.basename(f).replace(/\.credentials\.js$/, ''));
		if (!credNames.has(name)) problems.push(`credential ${name} (${f}) not loaded`);
	}
	if (problems.length) {
		const logLines = inst.procs
			.map((p) => p.output)
			.join('\n')
			.split('\n')
			.filter(
				(l) => l.includes(pkg.name) || /cannot find module|failed to load|error loading/i.test(l),
			)
			.slice(0, 20);
		throw new Error(
			`${problems.join('\n')}${logLines.length ? `\n--- n8n log ---\n${logLines.join('\n')}` : ''}`,
		);
	}
}

/**
 * What an assert file gets as its second argument:
 *   ctx.output(nodeName, outputIndex = 0, runIndex = -1) → array of item.json
 *   ctx.items(nodeName, …) → array of whole items (json, binary, pairedItem)
 *   ctx.run (n8n's full run), ctx.result ({ ok, error, stdout, … })
 *   ctx.version / ctx.major (n8n), ctx.mode ('cli' | 'queue')
 *   ctx.fake: { url, origin, users, user, request(method, path, body) } (e.g. '/__fake/log'),
 *     ctx.fake.llm: the scripted chat model ({ url, requests, chats() }, see fake-llm.js)
 *   ctx.apiKey, ctx.credentials (what was imported)
 *   ctx.rest(method, path, body): the editor's REST API, logged in (e.g. '/rest/binary-data?…')
 */
function makeCtx({ inst, fake, creds, workflow, mode = 'cli' }) {
	const ctx = {
		version: inst.version,
		major: inst.major,
		mode,
		fake,
		apiKey: fake && fake.user ? fake.user.apiKey : undefined,
		credentials: creds,
		workflow: workflow && workflow.imported,
		file: workflow && workflow.rel,
		rest: (method, p, body) => n8n.rest(inst, method, p, body),
		publicApi: (method, p, body) => n8n.publicApi(inst, method, p, body),
		output: (nodeName, output = 0, runIndex = -1) =>
			n8n.nodeOutput(ctx.run?.data?.resultData?.runData, nodeName, output, runIndex),
		items: (nodeName, output = 0, runIndex = -1) => {
			const runs = ctx.run?.data?.resultData?.runData?.[nodeName];
			if (!runs || !runs.length) throw new Error(`node "${nodeName}" did not run`);
			const r = runs[runIndex < 0 ? runs.length + runIndex : runIndex];
			return r.data?.main?.[output] || [];
		},
	};
	return ctx;
}

/**
 * The editor's credential "Test" button (POST /rest/credentials/test) for both credential
 * types against the fake: the right values pass; a key without the service_live_ prefix and
 * a wrong password fail with messages that say what to fix (and do not echo the secret).
 */
async function checkCredentialTests(inst, fake, rest) {
	const [apiKeyCred, loginCred] = credentialsFor(fake);
	const euCred = credentialsFor(fake).find((c) => c.type === 'euInformationSystemApi');
	// The endpoint tests the data it is sent, for a credential the user has stored.
	const stored = {};
	for (const c of [apiKeyCred, loginCred, ...(euCred ? [euCred] : [])]) {
		const r = await rest(inst, 'POST', '/rest/credentials', {
			name: `e2e test ${c.type}`,
			type: c.type,
			data: c.data,
		});
		if (r.status !== 200)
			throw new Error(
				`creating a ${c.type} credential answered ${r.status}: ${r.text.slice(0, 300)}`,
			);
		stored[c.type] = (r.json.data ?? r.json).id;
	}
	const test = async (type, data) => {
		const r = await rest(inst, 'POST', '/rest/credentials/test', {
			credentials: { id: stored[type], name: `e2e test ${type}`, type, data },
		});
		if (r.status !== 200)
			throw new Error(`credential test answered ${r.status}: ${r.text.slice(0, 300)}`);
		return r.json.data ?? r.json;
	};
	const cases = [
		['API key, right key', apiKeyCred.type, apiKeyCred.data, 'OK', null],
		[
			'API key, no service_live_ prefix',
			apiKeyCred.type,
			{ ...apiKeyCred.data, apiKey: 'sk_' + 'e2e_wrong_kind_of_key' },
			'Error',
			/keys start with "service_live_"/,
		],
		[
			'API key, unknown key',
			apiKeyCred.type,
			{ ...apiKeyCred.data, apiKey: 'service_live_' + '0'.repeat(40) },
			'Error',
			null,
		],
		['login, right password', loginCred.type, loginCred.data, 'OK', null],
		[
			'login, wrong password',
			loginCred.type,
			{ ...loginCred.data, password: 'e2e-' + 'not-the-password' },
			'Error',
			/username or password is wrong/,
		],
		...(euCred
			? [
					['EU Information System, right key', euCred.type, euCred.data, 'OK', null],
					[
						'EU Information System, wrong key',
						euCred.type,
						{ ...euCred.data, authKey: 'e2e-' + 'not-the-authentication-key' },
						'Error',
						/did not accept|authentication key/i,
					],
				]
			: []),
	];
	const failures = [];
	for (const [label, type, data, status, message] of cases) {
		const result = await test(type, data);
		const secret = data.apiKey ?? data.password ?? data.authKey;
		if (result.status !== status)
			failures.push(`${label}: expected ${status}, got ${JSON.stringify(result)}`);
		else if (message && !message.test(result.message || ''))
			failures.push(
				`${label}: message ${JSON.stringify(result.message)} does not match ${message}`,
			);
		else if (status === 'Error' && secret && String(result.message || '').includes(secret))
			failures.push(`${label}: the message echoes the secret`);
	}
	if (failures.length) throw new Error(failures.join('\n'));
}

/**
 * Imports the fake's credentials and the workflows (bound to them) into a stopped n8n through
 * the CLI; each workflow object gets `imported`, the workflow as n8n holds it.
 */
async function importWorkflows(inst, creds, workflows) {
	await n8n.importCredentials(inst, creds);
	const prepared = workflows.map((w) => prepareWorkflow(w, creds));
	await n8n.importWorkflow(inst, prepared);
	workflows.forEach((w, i) => (w.imported = prepared[i]));
}

module.exports = {
	WORKFLOW_DIRS,
	CREDENTIALS,
	loadWorkflowFiles,
	prepareWorkflow,
	importWorkflows,
	credentialsFor,
	checkPackageLoaded,
	checkCredentialTests,
	makeCtx,
	usesGeospatial,
};

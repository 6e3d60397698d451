'use strict';
/**
 * Statements in the EU Information System fake for the assert files of EU workflows (their
 * `before`): filed over SOAP as any client would (eu-soap.js: WS-Security UsernameToken with a
 * PasswordDigest, pack README §3; the EU's Submit sample),
 * made AVAILABLE by the fake's lifecycle (real time in the e2e run), changed through the
 * fake's control API (`/__fake-eu/`, test/fake-eu/README.md), and a workflow's node
 * parameters set to what was filed (through n8n's public API, as activation saves a workflow).
 */
const { waitFor } = require('./n8n');
const soap = require('./eu-soap');

/**
 * Files one statement over SOAP as another system of the operator would (eu-soap.js: the EU's
 * own Submit sample with this Internal Reference); returns its UUID.
 */
async function fileStatement(eu, internalReference) {
	return await soap.fileStatement(eu, { internalReference });
}

/** A call of the fake's control API (JSON). */
async function control(eu, method, path, body) {
	// fake.js: the control API's base is eu.controlUrl (eu.control is a request function there)
	const base =
		eu.controlUrl || (typeof eu.control === 'string' ? eu.control : `${eu.origin}/__fake-eu/`);
	const res = await fetch(`${base}${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status !== 200)
		throw new Error(`EU fake control ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

/** The fake's statements with these UUIDs once each is AVAILABLE (with its numbers). */
async function whenAvailable(eu, uuids, { timeoutMs = 60_000 } = {}) {
	return await waitFor(
		async () => {
			const all = await control(eu, 'GET', 'statements');
			const wanted = uuids.map((u) => all.find((s) => s.uuid === u));
			return wanted.every((s) => s && s.status === 'AVAILABLE' && s.referenceNumber) && wanted;
		},
		{ timeoutMs, intervalMs: 250, what: `statements ${uuids.join(', ')} AVAILABLE in the EU fake` },
	);
}

/** Sets a statement's status as the EU side would (WITHDRAWN, ARCHIVED, REJECTED, …). */
async function setStatus(eu, uuid, status, reason) {
	return await control(eu, 'POST', `statements/${uuid}/status`, { status, reason });
}

/** The fake's request log (SOAP requests: operation, service, at, status). */
async function requestLog(eu) {
	return await control(eu, 'GET', 'log');
}

/**
 * Changes the parameters of one node of the imported workflow and saves it through n8n's
 * public API, before the run (`n8n execute` runs the saved workflow).
 */
async function setNodeParameters(ctx, nodeName, change) {
	const { id, name, nodes, connections, settings } = ctx.workflow;
	const node = nodes.find((n) => n.name === nodeName);
	if (!node) throw new Error(`no node "${nodeName}" in ${ctx.file}`);
	node.parameters = { ...node.parameters, ...change(node.parameters) };
	const saved = await ctx.publicApi('PUT', `/workflows/${id}`, {
		name,
		nodes,
		connections,
		settings: settings || {},
	});
	if (saved.status !== 200)
		throw new Error(`saving workflow ${id}: ${saved.status} ${saved.text.slice(0, 800)}`);
}

module.exports = {
	fileStatement,
	whenAvailable,
	setStatus,
	requestLog,
	setNodeParameters,
	control,
};

'use strict';
/**
 * Statements in the EU Information System fake for the assert files of EU workflows (their
 * `before`): filed over SOAP as any client would (WS-Security UsernameToken with a
 * PasswordDigest, pack README §3; the body a minimal SubmitDdsRequest in the XSD's order),
 * made AVAILABLE by the fake's lifecycle (real time in the e2e run), changed through the
 * fake's control API (`/__fake-eu/`, test/fake-eu/README.md), and a workflow's node
 * parameters set to what was filed (through n8n's public API, as activation saves a workflow).
 */
const crypto = require('crypto');

const { waitFor } = require('./n8n');

const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const COMMON_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';
const BASE_NS = 'http://ec.europa.eu/sanco/tracesnt/base/v4';
const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const DIGEST_TYPE =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const NONCE_TYPE =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';

const escapeXml = (s) =>
	String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The envelope around one body element, with a fresh WS-Security header for the fake's user. */
function envelope(eu, body) {
	const created = new Date().toISOString();
	const expires = new Date(Date.now() + 60_000).toISOString();
	const nonce = crypto.randomBytes(16);
	const digest = crypto
		.createHash('sha1')
		.update(Buffer.concat([nonce, Buffer.from(created, 'utf8'), Buffer.from(eu.key, 'utf8')]))
		.digest('base64');
	return (
		`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header>` +
		`<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">` +
		`<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${created}</wsu:Created><wsu:Expires>${expires}</wsu:Expires></wsu:Timestamp>` +
		`<wsse:UsernameToken wsu:Id="UT-1"><wsse:Username>${escapeXml(eu.username)}</wsse:Username>` +
		`<wsse:Password Type="${DIGEST_TYPE}">${digest}</wsse:Password>` +
		`<wsse:Nonce EncodingType="${NONCE_TYPE}">${nonce.toString('base64')}</wsse:Nonce>` +
		`<wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>` +
		`<v4:WebServiceClientId xmlns:v4="${BASE_NS}">${escapeXml(eu.clientId)}</v4:WebServiceClientId>` +
		`</soapenv:Header><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`
	);
}

/** Files one minimal import statement (cocoa, one producer's point); returns its UUID. */
async function fileStatement(eu, internalReference) {
	const geojson = Buffer.from(
		JSON.stringify({
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					properties: { ProducerName: 'Coop', ProducerCountry: 'CI', Area: 2 },
					geometry: { type: 'Point', coordinates: [-5.123456, 6.654321] },
				},
			],
		}),
	).toString('base64');
	const body =
		`<dds:SubmitDdsRequest xmlns:dds="${DDS_NS}" xmlns:eudrCommon="${COMMON_NS}">` +
		`<dds:operatorRole>OPERATOR</dds:operatorRole><dds:statement>` +
		`<dds:internalReferenceNumber>${escapeXml(internalReference)}</dds:internalReferenceNumber>` +
		`<dds:activityType>IMPORT</dds:activityType><dds:countryOfActivity>FR</dds:countryOfActivity>` +
		`<dds:commodities><dds:descriptors><eudrCommon:descriptionOfGoods>Cocoa beans</eudrCommon:descriptionOfGoods>` +
		`<eudrCommon:goodsMeasure><eudrCommon:netWeight>1000</eudrCommon:netWeight></eudrCommon:goodsMeasure></dds:descriptors>` +
		`<dds:hsHeading>1801</dds:hsHeading><dds:producers><dds:country>CI</dds:country><dds:name>Coop</dds:name>` +
		`<dds:geometryGeojson>${geojson}</dds:geometryGeojson></dds:producers></dds:commodities>` +
		`<dds:geoLocationConfidential>false</dds:geoLocationConfidential></dds:statement></dds:SubmitDdsRequest>`;
	const res = await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, {
		method: 'POST',
		headers: {
			'content-type': 'text/xml; charset=utf-8',
			SOAPAction: `"${DDS_NS}/submitDds"`,
		},
		body: envelope(eu, body),
	});
	const text = await res.text();
	const uuid = /<(?:\w+:)?uuid>([^<]+)</.exec(text);
	if (res.status !== 200 || !uuid)
		throw new Error(
			`filing ${internalReference} in the EU fake: ${res.status} ${text.slice(0, 500)}`,
		);
	return uuid[1];
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

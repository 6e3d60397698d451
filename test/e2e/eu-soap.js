'use strict';
/**
 * Files statements in the EU Information System fake from the e2e process, as another system
 * of the operator would (a statement filed outside n8n): the EU's own Submit sample
 * (test/fixtures/eu-information-system/requests/submitDds.xml, OPREF §5.1.1) with an Internal
 * Reference filled in, sent over SOAP 1.1 with a WS-Security UsernameToken (PasswordDigest =
 * Base64(SHA-1(nonce ‖ Created ‖ authentication key)), pack §3). Plain CommonJS, independent
 * of the node's transport, so that the node and this client can disagree and a test notices.
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { REPO_ROOT, httpRequest } = require('./n8n');

const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const DIGEST_TYPE =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const NONCE_TYPE =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const SUBMIT_SAMPLE = path.join(
	REPO_ROOT,
	'test',
	'fixtures',
	'eu-information-system',
	'requests',
	'submitDds.xml',
);

const escapeXml = (s) =>
	String(s).replace(
		/[<>&"']/g,
		(c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
	);

/** The wsse:Security header for `user` ({ username, key }) at this moment. */
function securityHeader(user) {
	const created = new Date().toISOString();
	const expires = new Date(Date.parse(created) + 60000).toISOString();
	const nonce = crypto.randomBytes(16);
	const digest = crypto
		.createHash('sha1')
		.update(Buffer.concat([nonce, Buffer.from(created, 'utf8'), Buffer.from(user.key, 'utf8')]))
		.digest('base64');
	return (
		`<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">` +
		`<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${created}</wsu:Created><wsu:Expires>${expires}</wsu:Expires></wsu:Timestamp>` +
		`<wsse:UsernameToken wsu:Id="UT-1"><wsse:Username>${escapeXml(user.username)}</wsse:Username>` +
		`<wsse:Password Type="${DIGEST_TYPE}">${digest}</wsse:Password>` +
		`<wsse:Nonce EncodingType="${NONCE_TYPE}">${nonce.toString('base64')}</wsse:Nonce>` +
		`<wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>`
	);
}

/**
 * Files one statement (the EU's sample, with `internalReference` and, when given, a `comment`:
 * the fake rejects a statement whose comment holds FAKE-REJECT). Resolves its UUID. A 429 (the
 * fake's 5 calls/s per address, shared with n8n on loopback) is sent again after its
 * Retry-After: the throttled call was not processed. Any other failure throws.
 */
async function fileStatement(eu, { internalReference, comment, user = eu.users[0] }) {
	let sample = fs
		.readFileSync(SUBMIT_SAMPLE, 'utf8')
		.replace(/^<!--[\s\S]*?-->\n/, '')
		.replace(
			'<dds:internalReferenceNumber></dds:internalReferenceNumber>',
			`<dds:internalReferenceNumber>${escapeXml(internalReference)}</dds:internalReferenceNumber>`,
		);
	if (comment)
		sample = sample.replace(
			'<dds:commodities>',
			`<dds:comment>${escapeXml(comment)}</dds:comment> <dds:commodities>`,
		);
	for (let attempt = 1; ; attempt++) {
		const text = sample
			.replace('{{wsse_security}}', securityHeader(user))
			.replace('{{client_id}}', escapeXml(user.clientId));
		const r = await httpRequest('POST', `${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, {
			body: text,
			headers: {
				'content-type': 'text/xml; charset=utf-8',
				SOAPAction: `"${DDS_NS}/submitDds"`,
			},
			timeoutMs: 60000,
		});
		if (r.status === 429 && attempt < 20) {
			const after = Number(r.headers['retry-after']) || 1;
			await new Promise((resolve) => setTimeout(resolve, after * 1000));
			continue;
		}
		const uuid = /<(?:\w+:)?uuid>([^<]+)<\/(?:\w+:)?uuid>/.exec(r.text || '');
		if (r.status !== 200 || !uuid)
			throw new Error(
				`filing ${internalReference} in the fake EU: ${r.status} ${String(r.text).slice(0, 600)}`,
			);
		return uuid[1].trim();
	}
}

const ECHO_NS = 'http://ec.europa.eu/tracesnt/eudr/echo';

/**
 * One call of the EU's echo service (WS-Security as above), as another system of the operator
 * on the same address would make: resolves the HTTP status (200, or 429 when the fake's
 * 5 calls/s per address refused it; not retried).
 */
async function echo(eu, user = eu.users[0]) {
	const envelope =
		`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Header>${securityHeader(user)}` +
		`<v4:WebServiceClientId xmlns:v4="http://ec.europa.eu/sanco/tracesnt/base/v4">${escapeXml(user.clientId)}</v4:WebServiceClientId>` +
		`</S:Header><S:Body><echo:EudrEchoRequest xmlns:echo="${ECHO_NS}"><echo:query>e2e neighbour</echo:query></echo:EudrEchoRequest></S:Body></S:Envelope>`;
	const r = await httpRequest('POST', `${eu.url}ws/eudr/echo`, {
		body: envelope,
		headers: { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${ECHO_NS}"` },
		timeoutMs: 30000,
	});
	return r.status;
}

module.exports = { fileStatement, securityHeader, echo };

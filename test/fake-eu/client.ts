/**
 * The fake's own test client (for its contract tests; independent of the node's transport):
 * builds SOAP 1.1 envelopes with a WS-Security header as README §3 describes, and posts them
 * over loopback.
 */
import { randomBytes } from 'node:crypto';
import { digestOf } from './security';
import { BASE_NS, DDS_NS, PASSWORD_DIGEST_TYPE, WSSE_NS, WSU_NS } from './xml';

export interface EnvelopeOptions {
	username: string;
	key: string;
	clientId: string;
	/** Default: now. */
	created?: Date;
	/** Seconds after Created (default 60); null: no Expires element. */
	ttlSeconds?: number | null;
	/** Raw nonce bytes (default 16 random bytes). */
	nonce?: Buffer;
	/** The UsernameToken's Created when it should differ from the Timestamp's. */
	tokenCreated?: string;
	/** Replace the digest (wrong-digest tests). */
	digest?: string;
	/** Extra header elements (e.g. BodyIdentity). */
	headers?: string[];
}

export function securityHeader(o: EnvelopeOptions): string {
	const created = (o.created ?? new Date()).toISOString();
	const ttl = o.ttlSeconds === undefined ? 60 : o.ttlSeconds;
	const expires =
		ttl === null
			? ''
			: `<wsu:Expires>${new Date(Date.parse(created) + ttl * 1000).toISOString()}</wsu:Expires>`;
	const nonce = o.nonce ?? randomBytes(16);
	const tokenCreated = o.tokenCreated ?? created;
	const digest = o.digest ?? digestOf(nonce, tokenCreated, o.key);
	return (
		`<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">` +
		`<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${created}</wsu:Created>${expires}</wsu:Timestamp>` +
		`<wsse:UsernameToken wsu:Id="UT-1"><wsse:Username>${o.username}</wsse:Username>` +
		`<wsse:Password Type="${PASSWORD_DIGEST_TYPE}">${digest}</wsse:Password>` +
		`<wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">${nonce.toString('base64')}</wsse:Nonce>` +
		`<wsu:Created>${tokenCreated}</wsu:Created></wsse:UsernameToken></wsse:Security>`
	);
}

/** A whole envelope: the body is inserted as given (it may rely on the envelope's xmlns declarations). */
export function envelope(body: string, o: EnvelopeOptions, envelopeNs = ''): string {
	return (
		`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:v4="${BASE_NS}"${envelopeNs}>` +
		`<soapenv:Header>${securityHeader(o)}<v4:WebServiceClientId>${o.clientId}</v4:WebServiceClientId>${(o.headers ?? []).join('')}</soapenv:Header>` +
		`<soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`
	);
}

export interface Answer {
	status: number;
	contentType: string;
	text: string;
}

export async function post(url: string, text: string, soapAction: string | null): Promise<Answer> {
	const headers: Record<string, string> = { 'content-type': 'text/xml; charset=utf-8' };
	if (soapAction !== null) headers.SOAPAction = `"${soapAction}"`;
	const res = await fetch(url, { method: 'POST', headers, body: text });
	return {
		status: res.status,
		contentType: res.headers.get('content-type') ?? '',
		text: await res.text(),
	};
}

export const ddsAction = (operation: string) => `${DDS_NS}/${operation}`;

/** Base64 of a GeoJSON object. */
export const geo = (value: unknown) =>
	Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/**
 * The WS-Security header of every EU Information System call (pack §3): a wsu:Timestamp and a
 * UsernameToken whose password is the digest Base64(SHA-1(nonce bytes ‖ Created ‖ key)), the
 * nonce being the raw random bytes (not their Base64 text). Created is the same string in the
 * Timestamp, the token and the digest; Expires = Created + 60 s (the pack's safe choice).
 */
import { createHash, randomBytes } from 'node:crypto';

import { escapeXml } from './escape';

export const WSSE_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_DIGEST =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const BASE64_BINARY =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';

/** Bytes of a fresh nonce. */
export const NONCE_BYTES = 16;

/** Base64(SHA-1(nonce ‖ UTF-8 created ‖ UTF-8 key)). */
export function passwordDigest(nonce: Uint8Array, created: string, key: string): string {
	return createHash('sha1')
		.update(nonce)
		.update(created, 'utf8')
		.update(key, 'utf8')
		.digest('base64');
}

/** The wsse:Security header element (fresh 16-byte nonce unless one is given). */
export function securityHeader(o: {
	username: string;
	key: string;
	now: Date;
	nonce?: Uint8Array;
	ttlSeconds?: number;
}): string {
	const nonce = o.nonce ?? new Uint8Array(randomBytes(NONCE_BYTES));
	const created = o.now.toISOString();
	const expires = new Date(o.now.getTime() + (o.ttlSeconds ?? 60) * 1000).toISOString();
	const digest = passwordDigest(nonce, created, o.key);
	const nonce64 = Buffer.from(nonce).toString('base64');
	return (
		`<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">` +
		`<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${created}</wsu:Created><wsu:Expires>${expires}</wsu:Expires></wsu:Timestamp>` +
		`<wsse:UsernameToken wsu:Id="UT-1"><wsse:Username>${escapeXml(o.username)}</wsse:Username>` +
		`<wsse:Password Type="${PASSWORD_DIGEST}">${digest}</wsse:Password>` +
		`<wsse:Nonce EncodingType="${BASE64_BINARY}">${nonce64}</wsse:Nonce>` +
		`<wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security>`
	);
}

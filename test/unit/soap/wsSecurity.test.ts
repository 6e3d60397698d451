import { createHash } from 'node:crypto';

import { parseXml } from '../../../nodes/shared/soap/xml';
import { childText } from '../../../nodes/shared/soap/xmlElement';
import {
	passwordDigest,
	securityHeader,
	WSSE_NS,
	WSU_NS,
} from '../../../nodes/shared/soap/wsSecurity';

const NONCE = Uint8Array.from({ length: 16 }, (_, i) => i);
const CREATED = '2026-01-15T10:00:00.000Z';
const KEY = 'example-authentication-key';

describe('WS-Security', () => {
	it('computes the pack vector from the raw nonce bytes', () => {
		expect(passwordDigest(NONCE, CREATED, KEY)).toBe('Nab1M6oeKBM4GVCikeG6E5jkF+s=');
		const wrong = createHash('sha1')
			.update(Buffer.from(NONCE).toString('base64') + CREATED + KEY)
			.digest('base64');
		expect(wrong).toBe('SudWbUan6XUJ11/3gTQ1u4ALR2Q=');
	});

	it('lays out the header with one Created, Expires 60 s later and a 16-byte nonce', () => {
		const xml = securityHeader({ username: 'u<1', key: KEY, now: new Date(CREATED), nonce: NONCE });
		const sec = parseXml(xml);
		const ts = sec.children[0];
		const token = sec.children[1];
		expect(ts).toMatchObject({ ns: WSU_NS, name: 'Timestamp', attributes: { Id: 'TS-1' } });
		expect(childText(ts, WSU_NS, 'Created')).toBe(CREATED);
		expect(childText(ts, WSU_NS, 'Expires')).toBe('2026-01-15T10:01:00.000Z');
		expect(childText(token, WSSE_NS, 'Username')).toBe('u<1');
		expect(childText(token, WSSE_NS, 'Password')).toBe('Nab1M6oeKBM4GVCikeG6E5jkF+s=');
		expect(childText(token, WSSE_NS, 'Nonce')).toBe('AAECAwQFBgcICQoLDA0ODw==');
		expect(childText(token, WSU_NS, 'Created')).toBe(CREATED);
		expect(xml).not.toContain(KEY);
	});

	it('draws a fresh nonce per call', () => {
		const now = new Date(CREATED);
		const nonceOf = (xml: string) => /<wsse:Nonce[^>]*>([^<]+)</.exec(xml)?.[1];
		const a = nonceOf(securityHeader({ username: 'u', key: KEY, now }));
		const b = nonceOf(securityHeader({ username: 'u', key: KEY, now }));
		expect(a).toHaveLength(24);
		expect(Buffer.from(a!, 'base64')).toHaveLength(16);
		expect(a).not.toBe(b);
	});
});

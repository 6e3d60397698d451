import { createHash, scryptSync } from 'node:crypto';

import {
	ACCOUNT_PREFIX,
	accountKey,
	fingerprint,
} from '../../../nodes/GeospatialAnalysisTrigger/accountIdentity';

describe('trigger identity: the fingerprint of an API key', () => {
	it('tells keys apart, the same key alike, and keeps nothing of the key', () => {
		const text = ['service', 'live', '0123456789abcdef'].join('_');
		expect(fingerprint(text)).toMatch(/^[0-9a-f]{14}$/);
		expect(fingerprint(text)).toBe(fingerprint(text));
		expect(fingerprint(text)).not.toBe(fingerprint(`${text.slice(0, -1)}0`));
		expect(fingerprint('')).toMatch(/^[0-9a-f]{14}$/);
		const many = new Set(Array.from({ length: 1000 }, (_, i) => fingerprint(`${text}${i}`)));
		expect(many.size).toBe(1000);
		expect(text).not.toContain(fingerprint(text));
	});
});

describe('trigger identity: the stored account value (issue 21, item 4)', () => {
	const key = ['service', 'live', '78551a48adbd81a119df8f096b6aec8dbb0f1a46'].join('_');
	const base = 'https://api.example.com';

	it('is scrypt of the secret, salted with the base URL and user name: a2: + 32 hex digits', async () => {
		const value = await accountKey(key, base);
		expect(value).toMatch(/^a2:[0-9a-f]{32}$/);
		const salt = JSON.stringify(['n8n-nodes-geospatial-analysis/trigger-account/v2', base, '']);
		const expected = scryptSync(key, salt, 16, { N: 1 << 14, r: 8, p: 1 }).toString('hex');
		expect(value).toBe(`a2:${expected}`);
		expect(await accountKey(key, base)).toBe(value); // the same credential, the same value
	});

	it('changes with the key, the base URL, the user name and the password; keeps none of them', async () => {
		const values = await Promise.all([
			accountKey(key, base),
			accountKey(`${key.slice(0, -1)}0`, base),
			accountKey(key, 'https://other.example.com'),
			accountKey('alice-password', base, 'alice'),
			accountKey('alice-password', base, 'bob'),
			accountKey('other-password', base, 'alice'),
		]);
		expect(new Set(values).size).toBe(values.length);
		for (const value of values) {
			const hex = value.slice(3);
			for (const secret of [key, 'alice-password', 'other-password'])
				for (let i = 0; i + 8 <= secret.length; i++)
					expect(hex).not.toContain(secret.slice(i, i + 8));
			expect(value).not.toMatch(/alice|bob|example/);
			expect(value).not.toContain(fingerprint(key));
		}
	});

	it('costs a memory-hard scrypt per guess (no fast hash of the secret is stored)', async () => {
		// the stored value is not the old fast fingerprint, nor a plain SHA-256 of the key
		const value = (await accountKey(key, base)).slice(3);
		expect(value).not.toBe(fingerprint(key));
		expect(createHash('sha256').update(key).digest('hex')).not.toContain(value);
		expect(ACCOUNT_PREFIX).toBe('a2:');
	});
});

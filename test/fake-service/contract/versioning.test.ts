import { call, f, useFakeService } from './harness';

useFakeService();

describe('versioning', () => {
	test('missing X-API-Version → MISSING_API_VERSION', async () => {
		const r = await call('GET', '/plots', { version: null });
		expect(r.status).toBe(400);
		expect(r.json.code).toBe(400);
		expect(r.json.error).toBe('MISSING_API_VERSION');
		expect(r.json.message).toMatch(/required/);
		expect(r.json.message).toMatch(/3/);
	});

	test('unsupported value → INVALID_API_VERSION with the exact message', async () => {
		for (const v of ['4', '1', 'abc', '3.0']) {
			const r = await call('GET', '/plots', { version: v });
			expect(r.status).toBe(400);
			expect(r.json).toEqual({
				code: 400,
				error: 'INVALID_API_VERSION',
				message: `Invalid X-API-Version value: '${v}'. Supported versions are: 3.`,
			});
		}
	});

	test('version 2 answers with Warning, Sunset and Link until 2026-07-01T00:01Z, then 400', async () => {
		f.clock.set(new Date('2026-07-01T00:00:59Z'));
		const before = await call('GET', '/users/check_tokens', { version: '2' });
		expect(before.status).toBe(200);
		expect(before.headers.get('warning')).toMatch(/^299 /);
		expect(before.headers.get('sunset')).toBe('Wed, 01 Jul 2026 00:01:00 GMT');
		expect(before.headers.get('link')).toMatch(/rel="successor-version"/);
		const v3 = await call('GET', '/users/check_tokens');
		expect(v3.headers.get('warning')).toBeNull();
		f.clock.set(new Date('2026-07-01T00:01:00Z'));
		const after = await call('GET', '/users/check_tokens', { version: '2' });
		expect(after.status).toBe(400);
		expect(after.json).toEqual({
			code: 400,
			error: 'INVALID_API_VERSION',
			message: "Invalid X-API-Version value: '2'. Supported versions are: 3.",
		});
	});
});

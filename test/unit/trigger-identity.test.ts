import { fingerprint } from '../../nodes/GeospatialAnalysisTrigger/identity';

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

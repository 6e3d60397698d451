import { copyOwn, readJsonObject, readKeyValuePairs, setOwn } from '../../../nodes/shared/input';

const WRITE = 'Write a JSON object in curly braces, e.g. {"batch": "2026-Q1"}.';

describe('readJsonObject', () => {
	it('reads objects and JSON text of objects', () => {
		expect(readJsonObject({ power_mw: 20 })).toEqual({ kind: 'value', value: { power_mw: 20 } });
		expect(readJsonObject(' {"power_mw": 20, "site": {"x": [1, 2]}} ')).toEqual({
			kind: 'value',
			value: { power_mw: 20, site: { x: [1, 2] } },
		});
		expect(readJsonObject('{}')).toEqual({ kind: 'value', value: {} });
		const nullProto = Object.create(null) as Record<string, unknown>;
		nullProto.a = 1;
		expect(readJsonObject(nullProto)).toEqual({ kind: 'value', value: nullProto });
	});

	it('returns the object it was given (nothing copied, nothing dropped)', () => {
		const config = { a: 1 };
		const read = readJsonObject(config);
		expect(read.kind === 'value' && read.value).toBe(config);
	});

	it('treats empty values as missing', () => {
		for (const v of [undefined, null, '', '  \n'])
			expect(readJsonObject(v)).toEqual({ kind: 'missing' });
	});

	it.each([
		['[1, 2]', `it is a list ([…]), not an object. ${WRITE}`],
		[[1, 2], `it is a list ([…]), not an object. ${WRITE}`],
		['"text"', `it is a text in quotes, not an object. ${WRITE}`],
		['42', `it is a number, not an object. ${WRITE}`],
		['true', `it is a boolean, not an object. ${WRITE}`],
		['null', `it is null, not an object. ${WRITE}`],
		[42, `it is a number, not an object. ${WRITE}`],
		[new Date(0), `it is a date, not an object. ${WRITE}`],
	])('refuses %p with the one wording', (input, reason) => {
		expect(readJsonObject(input)).toEqual({ kind: 'invalid', reason });
	});

	it('says what is wrong with invalid JSON and shows an example', () => {
		const r = readJsonObject('{"power_mw": 20');
		expect(r.kind).toBe('invalid');
		expect(r.kind === 'invalid' && r.reason).toMatch(
			/^it is not valid JSON: .+\. Write a JSON object in curly braces, e\.g\. \{"batch": "2026-Q1"\}\.$/,
		);
		expect(readJsonObject("{'power_mw': 20}")).toEqual({
			kind: 'invalid',
			reason: expect.stringContaining('(JSON needs double quotes "…")'),
		});
		expect(readJsonObject('{a}', { example: '{"power_mw": 20}' })).toEqual({
			kind: 'invalid',
			reason: expect.stringMatching(
				/Write a JSON object in curly braces, e\.g\. \{"power_mw": 20\}\.$/,
			),
		});
		expect(readJsonObject('{{ $json.config }}')).toEqual({
			kind: 'invalid',
			reason: `it holds an expression that was not evaluated. Switch the field to Expression (or start it with =). ${WRITE}`,
		});
	});

	it('keeps __proto__, constructor and prototype as own keys, exactly as typed', () => {
		const r = readJsonObject('{"__proto__": {"x": 1}, "constructor": "c", "prototype": 2, "a": 3}');
		expect(r.kind).toBe('value');
		const value = (r as { value: Record<string, unknown> }).value;
		expect(Object.keys(value)).toEqual(['__proto__', 'constructor', 'prototype', 'a']);
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).x).toBeUndefined();
		expect(JSON.stringify(value)).toBe(
			'{"__proto__":{"x":1},"constructor":"c","prototype":2,"a":3}',
		);
		// the usual ways of copying keep them too
		expect(JSON.stringify({ ...value })).toBe(JSON.stringify(value));
		expect(JSON.stringify(copyOwn(value))).toBe(JSON.stringify(value));
		expect(JSON.stringify({ config: value })).toContain('"__proto__":{"x":1}');
	});
});

describe('setOwn and copyOwn', () => {
	it('set __proto__ as an own key where assignment would drop it', () => {
		const assigned: Record<string, string> = {};
		assigned['__proto__'] = 'lost';
		expect(Object.keys(assigned)).toEqual([]);

		const kept: Record<string, string> = {};
		setOwn(kept, '__proto__', 'kept');
		expect(Object.keys(kept)).toEqual(['__proto__']);
		expect(kept['__proto__']).toBe('kept');
		expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
		expect(JSON.stringify(kept)).toBe('{"__proto__":"kept"}');
	});

	it('merges own keys, later sources winning, without touching prototypes', () => {
		const a = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
		const merged = copyOwn(a, { x: 2, y: 3 });
		expect(JSON.stringify(merged)).toBe('{"__proto__":{"polluted":true},"x":2,"y":3}');
		expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
		expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
		// Object.assign would have lost the key: that is why copyOwn exists
		expect(Object.keys(Object.assign({}, a))).toEqual(['x']);
	});
});

describe('readKeyValuePairs', () => {
	it('reads pairs as an object of text values', () => {
		expect(
			readKeyValuePairs([
				{ key: 'a', value: 1 },
				{ key: ' b ', value: { x: 1 } },
				{ key: 'c', value: null },
				{ key: 'd', value: true },
				{ key: 7, value: 'seven' },
			]),
		).toEqual({ kind: 'value', value: { a: '1', b: '{"x":1}', c: '', d: 'true', '7': 'seven' } });
	});

	it('takes the fixedCollection shape { pairs: [...] } too', () => {
		expect(readKeyValuePairs({ pairs: [{ key: 'row', value: '3' }] })).toEqual({
			kind: 'value',
			value: { row: '3' },
		});
	});

	it('treats no pairs as missing', () => {
		for (const v of [undefined, null, [], {}, { pairs: [] }])
			expect(readKeyValuePairs(v)).toEqual({ kind: 'missing' });
	});

	it('refuses pairs without a key, naming the pair', () => {
		expect(readKeyValuePairs([{ key: 'a' }, { key: '  ', value: 'x' }])).toEqual({
			kind: 'invalid',
			reason: 'pair 2 has no key. Give every pair a key, or remove the pair.',
		});
		expect(readKeyValuePairs(['a'])).toEqual({
			kind: 'invalid',
			reason: 'pair 1 has no key. Give every pair a key, or remove the pair.',
		});
		expect(readKeyValuePairs('a=b')).toEqual({
			kind: 'invalid',
			reason: 'it is a string, not a list of key/value pairs. Add pairs with a key.',
		});
	});

	it('refuses the same key with different values instead of dropping one', () => {
		expect(
			readKeyValuePairs([
				{ key: 'batch', value: 'Q1' },
				{ key: 'x', value: '1' },
				{ key: ' batch', value: 'Q2' },
			]),
		).toEqual({
			kind: 'invalid',
			reason:
				'pairs 1 and 3 both have the key "batch", with different values. Keep one of them, or rename one key.',
		});
		expect(
			readKeyValuePairs([
				{ key: 'batch', value: 'Q1' },
				{ key: 'batch', value: 'Q1' },
			]),
		).toEqual({ kind: 'value', value: { batch: 'Q1' } });
	});

	it('keeps __proto__, constructor and prototype as typed', () => {
		const r = readKeyValuePairs([
			{ key: '__proto__', value: 'p' },
			{ key: 'constructor', value: 'c' },
			{ key: 'prototype', value: 'q' },
		]);
		expect(r.kind).toBe('value');
		const value = (r as { value: Record<string, string> }).value;
		expect(Object.keys(value)).toEqual(['__proto__', 'constructor', 'prototype']);
		expect(JSON.stringify(value)).toBe('{"__proto__":"p","constructor":"c","prototype":"q"}');
		expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
		expect(
			readKeyValuePairs([
				{ key: '__proto__', value: 'p' },
				{ key: '__proto__', value: 'other' },
			]).kind,
		).toBe('invalid');
	});

	it('is what Plot → Register reads Additional Info with', () => {
		const pairs = [
			{ key: '__proto__', value: 'p' },
			{ key: 'a', value: 1 },
		];
		// Register reads Additional Info with readKeyValuePairs itself (no wrapper any more).
		expect(JSON.stringify((readKeyValuePairs(pairs) as { value: unknown }).value)).toBe(
			'{"__proto__":"p","a":"1"}',
		);
	});
});

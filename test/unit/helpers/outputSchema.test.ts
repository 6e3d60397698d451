/** The output schemas' builder and fit check (test/helpers/outputSchema.ts). */
import { misfits, schemaOfOutputs } from '../../helpers/outputSchema';

describe('output schema of recorded outputs', () => {
	it('merges the items: keys in the order first seen, types without null, arrays by all elements', () => {
		const schema = schemaOfOutputs([
			{ id: 'a', n: null, list: [{ x: 1 }], empty: [], nested: { a: true } },
			{ id: 'b', n: 2, list: [{ y: 'z' }], extra: null, nested: { b: 'c' }, mixed: 1 },
			{ mixed: 'one' },
		]);
		expect(schema).toEqual({
			type: 'object',
			properties: {
				id: { type: 'string' },
				n: { type: 'number' },
				list: {
					type: 'array',
					items: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'string' } } },
				},
				empty: { type: 'array', items: {} },
				nested: { type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'string' } } },
				extra: { type: 'null' },
				mixed: { type: ['number', 'string'] },
			},
		});
		expect(Object.keys(schema.properties ?? {})).toEqual([
			'id',
			'n',
			'list',
			'empty',
			'nested',
			'extra',
			'mixed',
		]);
	});

	it('a value fits when every key is in the schema with its type; null fits every type', () => {
		const schema = schemaOfOutputs([{ id: 'a', n: 1, list: [{ x: 1 }], gone: null }]);
		expect(misfits({ id: 'b', n: null, list: [{ x: 2 }] }, schema)).toEqual([]);
		expect(misfits({ id: 1, new: true, list: [{ x: 'no' }], gone: 'now' }, schema)).toEqual([
			'$.id: number where the schema says string',
			'$.new: not in the schema',
			'$.list[0].x: string where the schema says number',
			'$.gone: string where the schema says null',
		]);
	});
});

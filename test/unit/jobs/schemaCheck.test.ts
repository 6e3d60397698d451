import { describeSchema, validateAgainstSchema } from '../../../nodes/shared/jobs/schemaCheck';
import { builtInCapabilities } from '../../fake-service/data';
import { validateSchema } from '../../fake-service/schema';

const schema = {
	type: 'object',
	additionalProperties: false,
	required: ['power_mw'],
	properties: {
		power_mw: { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
		tier: { type: 'string', enum: ['I', 'II', 'III'] },
		date: { type: 'string', format: 'date' },
		tags: {
			type: 'array',
			items: { type: 'string', minLength: 2 },
			uniqueItems: true,
			maxItems: 3,
		},
		count: { type: 'integer', minimum: 1 },
		code: { type: 'string', pattern: '^[A-Z]{2}$' },
	},
};

describe('validateAgainstSchema', () => {
	it('accepts a valid config and ignores unknown keywords', () => {
		expect(
			validateAgainstSchema(schema, {
				power_mw: 20,
				tier: 'II',
				date: '2025-10-31',
				tags: ['ab'],
				count: 2,
				code: 'BR',
			}),
		).toEqual([]);
		expect(validateAgainstSchema({ type: 'object', 'x-custom': 1, if: {} }, {})).toEqual([]);
		expect(validateAgainstSchema(undefined, { anything: 1 })).toEqual([]);
	});

	it('names each problem with its path', () => {
		expect(validateAgainstSchema(schema, {})).toEqual(['config.power_mw: is required']);
		expect(
			validateAgainstSchema(schema, {
				power_mw: 0,
				tier: 'IV',
				date: '31/10/2025',
				tags: ['a', 'a', 'bb', 'cc'],
				count: 1.5,
				code: 'bra',
				extra: true,
			}),
		).toEqual([
			'config.power_mw: must be greater than 0',
			"config.tier: must be one of 'I', 'II', 'III', got 'IV'",
			'config.date: must be a date (YYYY-MM-DD)',
			'config.tags: must have at most 3 items',
			'config.tags: must not contain duplicates',
			'config.tags[0]: must have at least 2 characters',
			'config.tags[1]: must have at least 2 characters',
			'config.count: must be integer, got number',
			'config.code: must match the pattern ^[A-Z]{2}$',
			'config.extra: is not allowed (allowed: power_mw, tier, date, tags, count, code)',
		]);
		expect(validateAgainstSchema(schema, [])).toEqual(['config: must be object, got array']);
	});

	it('handles anyOf / oneOf / allOf', () => {
		const s = { anyOf: [{ type: 'string' }, { type: 'number' }] };
		expect(validateAgainstSchema(s, 1)).toEqual([]);
		expect(validateAgainstSchema(s, true)).toEqual(['config: matches none of the allowed forms']);
		expect(validateAgainstSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toEqual([
			'config: matches more than one allowed form',
		]);
		expect(validateAgainstSchema({ allOf: [{ minimum: 2 }] }, 1)).toEqual([
			'config: must be at least 2',
		]);
	});

	it('agrees with the service (the fake) on every catalog schema for empty and sample configs', () => {
		const samples: unknown[] = [
			{},
			{ power_mw: 10 },
			{ power_mw: -1 },
			{ resolution: 'ultra' },
			{ unknown_key: 1 },
		];
		for (const cap of builtInCapabilities()) {
			if (!cap.input_schema) continue;
			for (const sample of samples) {
				const ours = validateAgainstSchema(cap.input_schema, sample).length === 0;
				const theirs = validateSchema(cap.input_schema, sample).length === 0;
				expect([cap.name, sample, ours]).toEqual([cap.name, sample, theirs]);
			}
		}
	});

	it('describes a schema for error messages', () => {
		expect(describeSchema(schema)).toMatch(
			/^power_mw \(number, required\), tier \('I'\|'II'\|'III'\)/,
		);
		expect(describeSchema({})).toBe('an object');
	});
});

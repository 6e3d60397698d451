/**
 * A small JSON Schema validator: type, properties, required, enum, const, minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern,
 * format (date, date-time, uri), items, minItems, maxItems, uniqueItems,
 * additionalProperties (boolean or schema). Enough for the capability schemas.
 */
export type JsonSchema = {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	enum?: unknown[];
	const?: unknown;
	minimum?: number;
	maximum?: number;
	exclusiveMinimum?: number;
	exclusiveMaximum?: number;
	minLength?: number;
	maxLength?: number;
	pattern?: string;
	format?: string;
	items?: JsonSchema;
	minItems?: number;
	maxItems?: number;
	uniqueItems?: boolean;
	additionalProperties?: boolean | JsonSchema;
	default?: unknown;
	description?: string;
	title?: string;
	$schema?: string;
	[k: string]: unknown;
};

function typeOf(v: unknown): string {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'array';
	if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
	return typeof v;
}

function typeMatches(v: unknown, t: string): boolean {
	const actual = typeOf(v);
	if (t === 'number') return actual === 'number' || actual === 'integer';
	return actual === t;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export function validateSchema(schema: JsonSchema, value: unknown, path = 'config'): string[] {
	const errors: string[] = [];
	if (schema.type !== undefined) {
		const types = Array.isArray(schema.type) ? schema.type : [schema.type];
		if (!types.some((t) => typeMatches(value, t))) {
			errors.push(`${path}: must be of type ${types.join(' or ')}`);
			return errors;
		}
	}
	if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
		errors.push(`${path}: must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
	}
	if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) {
		errors.push(`${path}: must equal ${JSON.stringify(schema.const)}`);
	}
	if (typeof value === 'number') {
		if (schema.minimum !== undefined && value < schema.minimum)
			errors.push(`${path}: must be >= ${schema.minimum}`);
		if (schema.maximum !== undefined && value > schema.maximum)
			errors.push(`${path}: must be <= ${schema.maximum}`);
		if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum)
			errors.push(`${path}: must be > ${schema.exclusiveMinimum}`);
		if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum)
			errors.push(`${path}: must be < ${schema.exclusiveMaximum}`);
	}
	if (typeof value === 'string') {
		if (schema.minLength !== undefined && value.length < schema.minLength)
			errors.push(`${path}: must have at least ${schema.minLength} characters`);
		if (schema.maxLength !== undefined && value.length > schema.maxLength)
			errors.push(`${path}: must have at most ${schema.maxLength} characters`);
		if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value))
			errors.push(`${path}: must match pattern ${schema.pattern}`);
		if (
			schema.format === 'date' &&
			(!DATE_RE.test(value) || Number.isNaN(Date.parse(value + 'T00:00:00Z')))
		)
			errors.push(`${path}: must be a date (YYYY-MM-DD)`);
		if (schema.format === 'date-time' && Number.isNaN(Date.parse(value)))
			errors.push(`${path}: must be a date-time`);
		if (schema.format === 'uri' && !/^https?:\/\//.test(value))
			errors.push(`${path}: must be a URI`);
	}
	if (Array.isArray(value)) {
		if (schema.minItems !== undefined && value.length < schema.minItems)
			errors.push(`${path}: must have at least ${schema.minItems} items`);
		if (schema.maxItems !== undefined && value.length > schema.maxItems)
			errors.push(`${path}: must have at most ${schema.maxItems} items`);
		if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
			errors.push(`${path}: items must be unique`);
		if (schema.items)
			value.forEach((v, i) =>
				errors.push(...validateSchema(schema.items as JsonSchema, v, `${path}[${i}]`)),
			);
	}
	if (typeOf(value) === 'object') {
		const obj = value as Record<string, unknown>;
		for (const r of schema.required ?? [])
			if (!(r in obj)) errors.push(`${path}.${r}: is required`);
		const props = schema.properties ?? {};
		for (const [k, v] of Object.entries(obj)) {
			if (props[k]) errors.push(...validateSchema(props[k], v, `${path}.${k}`));
			else if (schema.additionalProperties === false) errors.push(`${path}.${k}: unknown property`);
			else if (typeof schema.additionalProperties === 'object')
				errors.push(...validateSchema(schema.additionalProperties, v, `${path}.${k}`));
		}
	}
	return errors;
}

/** The config with schema defaults filled in for absent top-level properties. */
export function applyDefaults(
	schema: JsonSchema,
	config: Record<string, unknown>,
): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const [k, p] of Object.entries(schema.properties ?? {}))
		if (p.default !== undefined) out[k] = p.default;
	return { ...out, ...config };
}

/**
 * Checks a check's `config` against its capability's `input_schema` (JSON Schema) before
 * anything is sent. Pure. Supports the keywords capability schemas use (type, properties,
 * required, enum, const, minimum/maximum and exclusive forms, minLength/maxLength,
 * pattern, format date/date-time/uri, items, minItems/maxItems, uniqueItems,
 * additionalProperties, anyOf/oneOf/allOf); unknown keywords are ignored, so a richer
 * schema never makes a valid config fail here (the service has the last word).
 */
import { isObject } from '../values/answerValues';

type JsonSchema = { [keyword: string]: unknown };

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

function isSchema(v: unknown): v is JsonSchema {
	return isObject(v);
}

function show(v: unknown): string {
	return typeof v === 'string' ? `'${v}'` : JSON.stringify(v);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A catalog pattern short and simple enough to run: no repeated group that holds a quantifier
 * or an alternative (the shapes that backtrack exponentially, e.g. (a+)+ or (a|aa)*).
 */
function safePattern(pattern: string): boolean {
	return pattern.length <= 200 && !/\([^)]*[*+{|][^)]*\)\s*[*+{]/.test(pattern);
}

function formatOk(format: string, v: string): boolean {
	if (format === 'date') return DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
	if (format === 'date-time') return /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v));
	if (format === 'uri') return /^[a-z][a-z0-9+.-]*:\S+$/i.test(v);
	return true;
}

/** Problems of `value` against `schema`, each as "<path>: <reason>"; empty when valid. */
export function validateAgainstSchema(schema: unknown, value: unknown, path = 'config'): string[] {
	if (!isSchema(schema)) return [];
	const errors: string[] = [];
	const add = (reason: string) => errors.push(`${path}: ${reason}`);

	const types =
		schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
	if (types.length && !types.some((t) => typeof t === 'string' && typeMatches(value, t))) {
		add(`must be ${types.join(' or ')}, got ${typeOf(value)}`);
		return errors;
	}
	if (
		Array.isArray(schema.enum) &&
		!schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))
	)
		add(`must be one of ${schema.enum.map(show).join(', ')}, got ${show(value)}`);
	if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
		add(`must be ${show(schema.const)}`);

	if (typeof value === 'number') {
		if (typeof schema.minimum === 'number' && value < schema.minimum)
			add(`must be at least ${schema.minimum}`);
		if (typeof schema.maximum === 'number' && value > schema.maximum)
			add(`must be at most ${schema.maximum}`);
		if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
			add(`must be greater than ${schema.exclusiveMinimum}`);
		if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
			add(`must be less than ${schema.exclusiveMaximum}`);
	}
	if (typeof value === 'string') {
		if (typeof schema.minLength === 'number' && value.length < schema.minLength)
			add(`must have at least ${schema.minLength} characters`);
		if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
			add(`must have at most ${schema.maxLength} characters`);
		if (typeof schema.pattern === 'string') {
			let re: RegExp | undefined;
			try {
				// The catalog's pattern is a regular expression by definition (JSON Schema); one that
				// could backtrack for minutes, or a long one, is left to the service, which checks
				// the config too.
				re = safePattern(schema.pattern) ? new RegExp(schema.pattern, 'u') : undefined;
			} catch {
				re = undefined;
			}
			if (re && !re.test(value)) add(`must match the pattern ${schema.pattern}`);
		}
		if (typeof schema.format === 'string' && !formatOk(schema.format, value))
			add(`must be a ${schema.format}${schema.format === 'date' ? ' (YYYY-MM-DD)' : ''}`);
	}
	if (Array.isArray(value)) {
		if (typeof schema.minItems === 'number' && value.length < schema.minItems)
			add(`must have at least ${schema.minItems} items`);
		if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
			add(`must have at most ${schema.maxItems} items`);
		if (
			schema.uniqueItems === true &&
			new Set(value.map((v) => JSON.stringify(v))).size !== value.length
		)
			add('must not contain duplicates');
		if (isSchema(schema.items))
			value.forEach((v, i) =>
				errors.push(...validateAgainstSchema(schema.items, v, `${path}[${i}]`)),
			);
	}
	if (typeOf(value) === 'object') {
		const obj = value as Record<string, unknown>;
		const props = isSchema(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
		if (Array.isArray(schema.required)) {
			for (const key of schema.required)
				if (typeof key === 'string' && !(key in obj)) errors.push(`${path}.${key}: is required`);
		}
		for (const [key, v] of Object.entries(obj)) {
			if (key in props) errors.push(...validateAgainstSchema(props[key], v, `${path}.${key}`));
			else if (schema.additionalProperties === false)
				errors.push(
					`${path}.${key}: is not allowed (allowed: ${Object.keys(props).join(', ') || 'none'})`,
				);
			else if (isSchema(schema.additionalProperties))
				errors.push(...validateAgainstSchema(schema.additionalProperties, v, `${path}.${key}`));
		}
	}
	if (Array.isArray(schema.allOf))
		for (const s of schema.allOf) errors.push(...validateAgainstSchema(s, value, path));
	for (const keyword of ['anyOf', 'oneOf'] as const) {
		const options = schema[keyword];
		if (Array.isArray(options) && options.length) {
			const passing = options.filter(
				(s) => validateAgainstSchema(s, value, path).length === 0,
			).length;
			if (passing === 0 || (keyword === 'oneOf' && passing > 1))
				add(
					keyword === 'oneOf' && passing > 1
						? 'matches more than one allowed form'
						: 'matches none of the allowed forms',
				);
		}
	}
	return errors;
}

/** A short description of what a schema accepts, for error messages ("power_mw (number, required), ..."). */
export function describeSchema(schema: unknown): string {
	if (!isSchema(schema) || !isSchema(schema.properties)) return 'an object';
	const required = Array.isArray(schema.required) ? schema.required : [];
	const parts = Object.entries(schema.properties as Record<string, unknown>).map(([key, s]) => {
		const type = isSchema(s)
			? Array.isArray(s.enum)
				? s.enum.map(show).join('|')
				: (s.type ?? 'any')
			: 'any';
		return `${key} (${String(type)}${required.includes(key) ? ', required' : ''})`;
	});
	return parts.length ? parts.join(', ') : 'an empty object';
}

/**
 * The JSON schemas n8n's editor shows before a node has run (`__schema__` files), built from
 * recorded outputs, and the check that a real output fits a schema (every key is in it, with
 * a type the schema allows). The shape is the one n8n's own nodes ship: `type` (one name, or
 * a list when a key was seen with several), `properties` for objects in the order first seen,
 * `items` for arrays. `null` fits every type (a field without a value); a key only ever seen
 * as null has the type "null", as in n8n's own schemas.
 */
export interface OutputSchema {
	type: string | string[];
	properties?: Record<string, OutputSchema>;
	items?: OutputSchema | Record<string, never>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Acc {
	types: Set<string>;
	properties: Map<string, Acc>;
	items?: Acc;
}

const typeOf = (value: unknown): string =>
	value === null || value === undefined
		? 'null'
		: Array.isArray(value)
			? 'array'
			: typeof value === 'object'
				? 'object'
				: typeof value === 'bigint'
					? 'number'
					: typeof value;

const newAcc = (): Acc => ({ types: new Set(), properties: new Map() });

function add(acc: Acc, value: unknown): void {
	const type = typeOf(value);
	acc.types.add(type);
	if (type === 'object') {
		for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
			let child = acc.properties.get(key);
			if (!child) acc.properties.set(key, (child = newAcc()));
			add(child, v);
		}
	} else if (type === 'array') {
		acc.items ??= newAcc();
		for (const v of value as unknown[]) add(acc.items, v);
	}
}

function build(acc: Acc): OutputSchema {
	const named = [...acc.types].filter((t) => t !== 'null').sort();
	const type = named.length === 0 ? 'null' : named.length === 1 ? named[0] : named;
	const schema: OutputSchema = { type };
	if (named.includes('object'))
		schema.properties = Object.fromEntries(
			[...acc.properties].map(([key, child]) => [key, build(child)]),
		);
	if (named.includes('array'))
		schema.items = acc.items && acc.items.types.size > 0 ? build(acc.items) : {};
	return schema;
}

/** The schema of a list of items' json (what n8n shows for one resource and operation). */
export function schemaOfOutputs(outputs: readonly object[]): OutputSchema {
	const acc = newAcc();
	for (const json of outputs) add(acc, json);
	return build(acc);
}

/** Where a value does not fit the schema: `path: reason`, empty when it fits. */
export function misfits(value: unknown, schema: OutputSchema | undefined, path = '$'): string[] {
	if (!schema || !('type' in schema)) return [`${path}: not in the schema`];
	const type = typeOf(value);
	if (type === 'null') return [];
	const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
	if (!allowed.includes(type))
		return [`${path}: ${type} where the schema says ${allowed.join(' or ')}`];
	if (type === 'object')
		return Object.entries(value as Record<string, Json>).flatMap(([key, v]) =>
			misfits(v, schema.properties?.[key], `${path}.${key}`),
		);
	if (type === 'array')
		return (value as Json[]).flatMap((v, i) =>
			misfits(v, schema.items as OutputSchema | undefined, `${path}[${i}]`),
		);
	return [];
}

import type { IDataObject } from 'n8n-workflow';

import { isObject } from '../values/answerValues';
import { describeBody } from '../transport/answers';
import type { ServiceContext } from '../transport/serviceContext';
import { apiRequest } from '../transport/request';
import { runScopeOf } from '../transport/serviceContext';

/** A catalog entry of GET /v3/discovery/capabilities (unknown fields kept). */
export interface Capability extends IDataObject {
	name: string;
	label?: string;
	description?: string;
	input_schema?: IDataObject;
	result_key?: string;
	cost_hint?: IDataObject;
}

export interface CatalogOptions {
	/** `include=hidden`: capabilities left out of the default listing. */
	hidden?: boolean;
	/** `include=doc`: each capability's long-form methodology. */
	methodology?: boolean;
	/** A shorter deadline for the read (what is left of a wait); the Request Timeout otherwise. */
	timeoutMs?: number;
}

/** The `include` query value for the extras asked for, or undefined for none. */
export function includeValue(options: CatalogOptions): string | undefined {
	const parts: string[] = [];
	if (options.methodology) parts.push('doc');
	if (options.hidden) parts.push('hidden');
	return parts.length > 0 ? parts.join(',') : undefined;
}

/**
 * The entries of a `GET /v3/discovery/capabilities` answer: the contract says a bare
 * array; an object wrapping it under `capabilities`/`items`/`data` is accepted too.
 * Entries that are not objects are left out; unknown fields are kept.
 */
export function catalogEntries(body: unknown): IDataObject[] {
	let list: unknown[] = [];
	if (Array.isArray(body)) list = body;
	else if (isObject(body)) {
		const key = ['capabilities', 'items', 'data'].find((k) => Array.isArray(body[k]));
		if (key) list = body[key] as unknown[];
	}
	return list.filter(isObject);
}

/**
 * What is wrong with a catalog answer, or undefined: it must be a list, or an object wrapping
 * one under `capabilities` / `items` / `data`. Anything else is an error, never an empty catalog.
 */
export function catalogProblem(body: unknown): string | undefined {
	if (Array.isArray(body)) return undefined;
	if (isObject(body) && ['capabilities', 'items', 'data'].some((k) => Array.isArray(body[k])))
		return undefined;
	return `it is not a list of capabilities (it was ${describeBody({ kind: 'json', value: body })})`;
}

/**
 * Catalog reads of one node run (see runScopeOf in transport/serviceContext.ts: one execution of the action
 * node, one poll of the trigger), by `include` value: a node asks once however many items it
 * has, and nothing is kept beyond the run.
 */
const runCache = new WeakMap<object, Map<string, Promise<IDataObject[]>>>();

/**
 * Every entry of the live catalog (`GET /v3/discovery/capabilities`, with the extras
 * asked for), read once per node run. Free of charge.
 */
export async function getCatalogEntries(
	this: ServiceContext,
	options: CatalogOptions = {},
): Promise<IDataObject[]> {
	const include = includeValue(options);
	const run = runScopeOf(this);
	let reads = runCache.get(run);
	if (!reads) runCache.set(run, (reads = new Map()));
	const key = include ?? '';
	let reading = reads.get(key);
	if (!reading) {
		reading = apiRequest
			.call(this, 'GET', '/v3/discovery/capabilities', {
				...(include ? { qs: { include } } : {}),
				...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
				expect: catalogProblem,
			})
			.then(catalogEntries);
		reads.set(key, reading);
		// A failed read is not reused: the next caller asks again.
		const failed = reading;
		reading.catch(() => reads!.get(key) === failed && reads!.delete(key));
	}
	return await reading;
}

/** The capabilities of the live catalog that can be run (those with a name). */
export async function getCatalog(
	this: ServiceContext,
	options: CatalogOptions = {},
): Promise<Capability[]> {
	const entries = await getCatalogEntries.call(this, options);
	return entries.filter((c): c is Capability => typeof c.name === 'string');
}

/** Capability name → result key, for the capabilities whose results live under another key. */
export function resultKeysOf(catalog: Capability[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const c of catalog)
		if (typeof c.result_key === 'string' && c.result_key !== c.name) out[c.name] = c.result_key;
	return out;
}

import type { IDataObject } from 'n8n-workflow';

import type { ServiceContext } from './request';
import { apiRequest } from './request';

/** A catalog entry of GET /v3/discovery/capabilities (unknown fields kept). */
export interface Capability extends IDataObject {
	name: string;
	label?: string;
	description?: string;
	input_schema?: IDataObject;
	result_key?: string;
	cost_hint?: IDataObject;
}

/** Catalogs per execution, so one execution asks once; bounded, oldest dropped first. */
const cache = new Map<string, Promise<Capability[]>>();
const MAX_CACHED_EXECUTIONS = 20;

function executionKey(ctx: ServiceContext, hidden: boolean): string | undefined {
	const fn = (ctx as { getExecutionId?: () => string | undefined }).getExecutionId;
	let id: string | undefined;
	try {
		id = typeof fn === 'function' ? fn.call(ctx) : undefined;
	} catch {
		id = undefined;
	}
	return typeof id === 'string' && id !== '' ? `${id}|${hidden ? 'hidden' : 'default'}` : undefined;
}

function normalise(body: unknown): Capability[] {
	const list = Array.isArray(body)
		? body
		: body && typeof body === 'object' && Array.isArray((body as IDataObject).capabilities)
			? ((body as IDataObject).capabilities as unknown[])
			: [];
	return list.filter(
		(c): c is Capability => !!c && typeof c === 'object' && typeof (c as IDataObject).name === 'string',
	);
}

/**
 * The live capability catalog (`GET /v3/discovery/capabilities`, with `include=hidden`
 * when asked), fetched once per execution. Free of charge.
 */
export async function getCatalog(this: ServiceContext, options: { hidden?: boolean } = {}): Promise<Capability[]> {
	const hidden = options.hidden === true;
	const key = executionKey(this, hidden);
	const cached = key === undefined ? undefined : cache.get(key);
	if (cached) return await cached;
	const promise = apiRequest
		.call(this, 'GET', '/v3/discovery/capabilities', hidden ? { qs: { include: 'hidden' } } : {})
		.then(normalise);
	if (key !== undefined) {
		cache.set(key, promise);
		promise.catch(() => cache.delete(key));
		while (cache.size > MAX_CACHED_EXECUTIONS) cache.delete(cache.keys().next().value as string);
	}
	return await promise;
}

/** Capability name → result key, for the capabilities whose results live under another key. */
export function resultKeysOf(catalog: Capability[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const c of catalog) if (typeof c.result_key === 'string' && c.result_key !== c.name) out[c.name] = c.result_key;
	return out;
}

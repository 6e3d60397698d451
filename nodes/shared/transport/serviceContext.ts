/**
 * The n8n contexts the transport works on, and the run each belongs to (the key of per-run
 * caches: the credential in nodeCredential.ts, the catalog in capabilities/catalog.ts).
 */
import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

export type ServiceContext =
	| IExecuteFunctions
	| IPollFunctions
	| ILoadOptionsFunctions
	| IHookFunctions;

/**
 * What the caches of one node run (the credential, the catalog) are kept
 * for: the context object, which n8n makes anew for each execution of the action node. n8n's
 * poller keeps one context for every poll of an activation, so the trigger opens a run scope
 * at the start of each poll (`openRunScope`): the credential and the catalog are then read
 * again, and an edited credential is used from the next poll on.
 */
const runScopes = new WeakMap<object, object>();

/** The key of the current run of `ctx` for per-run caches. */
export function runScopeOf(ctx: object): object {
	return runScopes.get(ctx) ?? ctx;
}

/** Starts a new run for a context that n8n reuses (one poll of the trigger). */
export function openRunScope(ctx: object): void {
	runScopes.set(ctx, {});
}

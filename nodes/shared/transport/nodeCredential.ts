/**
 * The credential a node uses: which of the two types (its Authentication parameter), its Base
 * URL checked (credentialChecks.ts) and its origin, and the secrets to redact from anything
 * the service sends back. Read once per node run, re-read for errors.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceContext } from './serviceContext';
import { runScopeOf } from './serviceContext';
import { CredentialSetupError, checkApiKey, normaliseBaseUrl } from './credentialChecks';
import { CREDENTIAL_FAILURE, attachFailure } from './serviceFailure';

export type AuthenticationMethod = 'apiKey' | 'login';

export const CREDENTIAL_TYPES: Record<AuthenticationMethod, string> = {
	apiKey: 'geospatialAnalysisApi',
	login: 'geospatialAnalysisLoginApi',
};

function authenticationMethod(ctx: ServiceContext): AuthenticationMethod {
	let value: unknown;
	try {
		value = (ctx as IExecuteFunctions).getNodeParameter('authentication', 0, 'apiKey');
	} catch {
		value = 'apiKey';
	}
	return value === 'login' ? 'login' : 'apiKey';
}

export interface CredentialInfo {
	type: string;
	baseUrl: string;
	/** `scheme://host:port` of the Base URL: the only origin the credential is sent to. */
	origin: string;
	secrets: string[];
}

/**
 * The credential as read once per node run (see runScopeOf): a node that sends hundreds of
 * requests does not decrypt and check it hundreds of times. Errors re-read it (`fresh`), so
 * that a session token renewed meanwhile is redacted too.
 */
const credentialCache = new WeakMap<object, Promise<CredentialInfo>>();

/** Reads and checks the credential in use (base URL; API key shape) before any request. */
export async function credentialInfo(this: ServiceContext, fresh = false): Promise<CredentialInfo> {
	const run = runScopeOf(this);
	const cached = fresh ? undefined : credentialCache.get(run);
	if (cached) return await cached;
	// The promise is cached, so that parallel requests starting together read it once.
	const reading = readCredentialInfo.call(this);
	credentialCache.set(run, reading);
	reading.catch(() => credentialCache.get(run) === reading && credentialCache.delete(run));
	return await reading;
}

/** The value of the HTTP Basic header the login sends (`username:password` in base64). */
function basicValue(username: unknown, password: unknown): string | undefined {
	if (typeof username !== 'string' || typeof password !== 'string' || password === '')
		return undefined;
	return Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

async function readCredentialInfo(this: ServiceContext): Promise<CredentialInfo> {
	const method = authenticationMethod(this);
	const type = CREDENTIAL_TYPES[method];
	const credentials = await this.getCredentials(type);
	const secrets = [
		credentials.apiKey,
		credentials.password,
		credentials.sessionToken,
		basicValue(credentials.username, credentials.password),
	]
		.filter((v): v is string => typeof v === 'string')
		// As stored and as sent (n8n may trim what was pasted with a space).
		.flatMap((v) => [v, v.trim()])
		.filter((v, i, all) => v.length > 0 && all.indexOf(v) === i);
	try {
		if (method === 'apiKey') checkApiKey(credentials.apiKey);
		const baseUrl = normaliseBaseUrl(credentials.baseUrl);
		return { type, baseUrl, origin: new URL(baseUrl).origin, secrets };
	} catch (error) {
		const setupError = new NodeOperationError(this.getNode(), (error as Error).message, {
			description:
				error instanceof CredentialSetupError
					? 'Open the credential of this node and correct it.'
					: 'Open the credential of this node and check it.',
		});
		throw attachFailure(setupError, CREDENTIAL_FAILURE);
	}
}

/** The secrets to redact from an error: those read at the start plus any renewed since. */
export async function currentSecrets(ctx: ServiceContext, known: string[]): Promise<string[]> {
	try {
		return [...new Set([...known, ...(await credentialInfo.call(ctx, true)).secrets])];
	} catch {
		return known;
	}
}

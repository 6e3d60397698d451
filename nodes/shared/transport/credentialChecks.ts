/**
 * The checks of a credential's values that keep it safe: the Base URL (https only, http for
 * loopback hosts; its origin is the only one the credential is sent to) and the API key's
 * shape. Used by the transport before any request and by the credential types (credentials/)
 * when n8n authenticates a request. Pure: no n8n imports.
 */

/** Hosts for which plain http:// is allowed (local development against a fake or a tunnel). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A credential value a user must correct; the message says how. */
export class CredentialSetupError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CredentialSetupError';
	}
}

/**
 * Checks and normalises the base URL of a credential: https only (http for loopback
 * hosts), no query or fragment, trailing slashes removed. Throws a message a user can act on.
 */
export function normaliseBaseUrl(raw: unknown): string {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') {
		throw setupError(
			'The credential has no Base URL. Enter the address of the Geospatial Analysis Service, for example https://api.example.com.',
		);
	}
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw setupError(
			`The credential's Base URL "${value}" is not a valid address. It must look like https://api.example.com.`,
		);
	}
	const host = url.hostname.toLowerCase();
	const loopback = LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
		throw setupError(
			`The credential's Base URL must start with https:// (http:// is accepted only for localhost). Change "${url.protocol}//${url.host}" to https://${url.host}.`,
		);
	}
	if (url.search || url.hash) {
		throw setupError(
			"The credential's Base URL must not contain a query (?…) or a fragment (#…). Enter only the service's address.",
		);
	}
	return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Throws unless a request is addressed to the origin (scheme, host, port) of the credential's
 * Base URL: the credential is attached to no other request. (Redirects are never followed by
 * n8n for this package's requests; the transport decides them by the same rule.)
 */
export function checkRequestOrigin(baseUrl: string, request: { url: string; baseURL?: string }) {
	const allowed = new URL(baseUrl).origin;
	let target: string;
	try {
		target = new URL(request.url, request.baseURL || baseUrl).origin;
	} catch {
		target = 'an address that cannot be read';
	}
	if (target !== allowed)
		throw new Error(
			`The credential is sent only to the address of its Base URL (${allowed}); this request was addressed to ${target}, so it was not sent.`,
		);
}

export const API_KEY_PREFIX = 'service_live_';

export function checkApiKey(raw: unknown): string {
	const key = typeof raw === 'string' ? raw.trim() : '';
	if (key === '') {
		throw setupError(
			'The credential has no API key. Create one on the API page of your account and paste it here (it starts with service_live_).',
		);
	}
	if (!key.startsWith(API_KEY_PREFIX)) {
		throw setupError(
			`This is not an API key of the Geospatial Analysis Service: keys start with "${API_KEY_PREFIX}". Copy the whole key from the API page of your account (a login password or a session token does not work here; use the "Geospatial Analysis Login API" credential for username and password).`,
		);
	}
	return key;
}

function setupError(message: string): CredentialSetupError {
	return new CredentialSetupError(message);
}

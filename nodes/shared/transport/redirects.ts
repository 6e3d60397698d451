/**
 * Redirects, followed by hand. n8n's request helper follows 3xx answers itself and re-sends
 * the Authorization header (and HTTP Basic credentials) to whatever address the answer names,
 * another host included (n8n 1.x always; 2.x unless told otherwise). So every request of this
 * package is sent with `disableFollowRedirect: true`, and each 3xx is decided here:
 *
 * - a request carrying the credential follows a redirect only within the origin (scheme, host
 *   and port) of the credential's Base URL; to any other origin, https → http included, it is
 *   refused, naming that origin;
 * - a download without the credential may go to any http(s) origin;
 * - at most MAX_REDIRECTS hops; never to another scheme than http(s) (no data:, file: …);
 * - 307/308 repeat the request as it was; 301/302/303 are followed for GET only (a POST is never
 *   silently turned into a GET).
 *
 * Pure: no n8n imports.
 */

/** Hops followed for one request before giving up. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
	return REDIRECT_STATUSES.has(status);
}

/** `scheme://host:port` of an http(s) address (default ports omitted), or undefined. */
export function originOf(url: string): string | undefined {
	try {
		const parsed = new URL(url);
		if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
		return parsed.origin;
	} catch {
		return undefined;
	}
}

/** Why a redirect was not followed. */
export type RedirectRefusal =
	| { reason: 'no-location' }
	| { reason: 'not-http'; scheme: string }
	| { reason: 'other-origin'; origin: string; allowedOrigin: string }
	| { reason: 'too-many'; hops: number }
	| { reason: 'method-change'; status: number };

export type RedirectStep =
	| { follow: true; url: string; method: string; keepBody: boolean }
	| { follow: false; refusal: RedirectRefusal };

export interface RedirectInput {
	status: number;
	/** The Location header as sent. */
	location: string | undefined;
	/** The address that answered. */
	currentUrl: string;
	method: string;
	/** The only origin the request may go to (it carries the credential); undefined: any http(s). */
	allowedOrigin?: string;
	/** Redirects already followed for this request. */
	hops: number;
}

/** Where to go next after a 3xx answer, or why not. */
export function nextRedirect(input: RedirectInput): RedirectStep {
	const refuse = (refusal: RedirectRefusal): RedirectStep => ({ follow: false, refusal });
	const location = input.location?.trim();
	if (!location) return refuse({ reason: 'no-location' });
	let target: URL;
	try {
		target = new URL(location, input.currentUrl);
	} catch {
		return refuse({ reason: 'no-location' });
	}
	if (target.protocol !== 'http:' && target.protocol !== 'https:')
		return refuse({ reason: 'not-http', scheme: target.protocol.replace(/:$/, '') });
	if (input.allowedOrigin !== undefined && target.origin !== input.allowedOrigin)
		return refuse({
			reason: 'other-origin',
			origin: target.origin,
			allowedOrigin: input.allowedOrigin,
		});
	if (input.hops >= MAX_REDIRECTS) return refuse({ reason: 'too-many', hops: input.hops });
	const method = input.method.toUpperCase();
	if (input.status === 307 || input.status === 308)
		return { follow: true, url: target.href, method, keepBody: true };
	if (method === 'GET' || method === 'HEAD')
		return { follow: true, url: target.href, method, keepBody: false };
	return refuse({ reason: 'method-change', status: input.status });
}

/** One sentence saying why a redirect was not followed (no credential, no full URL in it). */
export function refusalText(refusal: RedirectRefusal): string {
	switch (refusal.reason) {
		case 'no-location':
			return 'it named no address the node could read';
		case 'not-http':
			return `it pointed to a "${refusal.scheme}:" address, and only http(s) addresses are followed`;
		case 'other-origin':
			return `it pointed to another address (${refusal.origin}), and the credential is sent only to ${refusal.allowedOrigin}`;
		case 'too-many':
			return `it was the redirect after ${refusal.hops} others (at most ${MAX_REDIRECTS} are followed)`;
		case 'method-change':
			return `an HTTP ${refusal.status} redirect would turn this request into a GET`;
	}
}

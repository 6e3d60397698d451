/**
 * POST /login with HTTP Basic, for the login credential's preAuthentication. The username and
 * password go only to the origin of the Base URL: n8n's helper would follow a redirect to any
 * host and send them along, so redirects are not left to it. A redirect within the origin
 * that keeps the POST (307/308) is followed, at most MAX_REDIRECTS times; any other is refused,
 * naming where it pointed. The login has a deadline, like every request.
 */
import type { IHttpRequestHelper } from 'n8n-workflow';

import { DEFAULT_REQUEST_TIMEOUT_MS } from '../nodes/shared/transport/deadline';
import { isCertificateCode } from '../nodes/shared/transport/serviceErrors';
import { isRedirect, nextRedirect, refusalText } from '../nodes/shared/transport/redirects';

const SERVICE = 'the Geospatial Analysis Service';

interface ThrownRequest {
	code?: unknown;
	message?: unknown;
	response?: { status?: number; headers?: Record<string, unknown> };
}

function header(headers: Record<string, unknown> | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	const value = key === undefined ? undefined : headers[key];
	return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
}

/** Logs in and returns the answer's body; throws a message saying what to fix. */
export async function logIn(
	helper: IHttpRequestHelper,
	baseUrl: string,
	username: string,
	password: string,
	timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
): Promise<unknown> {
	const origin = new URL(baseUrl).origin;
	let url = `${baseUrl}/login`;
	for (let hops = 0; ; hops++) {
		let failure: string;
		try {
			return await helper.helpers.httpRequest({
				method: 'POST',
				url,
				auth: { username, password },
				headers: { 'X-API-Version': '3', Accept: 'application/json' },
				json: true,
				disableFollowRedirect: true,
				timeout: timeoutMs,
				abortSignal: AbortSignal.timeout(timeoutMs),
			});
		} catch (error) {
			const thrown = error as ThrownRequest;
			const status = thrown.response?.status;
			if (status === undefined || !isRedirect(status))
				failure = loginFailure(thrown, status, timeoutMs);
			else {
				const step = nextRedirect({
					status,
					location: header(thrown.response?.headers, 'location'),
					currentUrl: url,
					method: 'POST',
					allowedOrigin: origin,
					hops,
				});
				if (step.follow) {
					url = step.url;
					continue;
				}
				failure = `The login to ${SERVICE} answered with a redirect that was not followed: ${refusalText(step.refusal)}. The username and password were not sent there. Check the credential's Base URL: it must be the service's own address.`;
			}
		}
		throw new Error(failure);
	}
}

function loginFailure(thrown: ThrownRequest, status: number | undefined, timeoutMs: number) {
	if (status === 401)
		return `Login to ${SERVICE} failed: the username or password is wrong. Check them in the credential (accounts created through a third-party sign-in have no password: use an API key credential instead).`;
	const code = typeof thrown.code === 'string' ? thrown.code : undefined;
	if (isCertificateCode(code))
		return `Login to ${SERVICE} failed: the TLS certificate of the Base URL's host was not accepted (TLS error ${code}). This is a certificate problem, not a wrong password: check that the Base URL names the service's own host.`;
	if (status === undefined && (code === 'ERR_CANCELED' || code === 'ECONNABORTED'))
		return `Login to ${SERVICE} failed: the service did not answer within ${timeoutMs / 1000} s. Try again later.`;
	return `Login to ${SERVICE} failed${status ? ` (HTTP ${status})` : ''}. Check the credential's Base URL and that the service is reachable.`;
}

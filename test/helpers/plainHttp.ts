/**
 * n8n's plain request helper as far as the EU transport uses it (full response, body as text,
 * no redirects followed, the abort signal honoured), on fetch: for unit tests against loopback
 * servers. Every options object it was called with is kept in `sent`.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

export function plainHttp() {
	const sent: IHttpRequestOptions[] = [];
	async function httpRequest(o: IHttpRequestOptions) {
		sent.push(o);
		const r = await fetch(o.url, {
			method: o.method,
			headers: o.headers as Record<string, string>,
			body: o.body as string,
			redirect: 'manual',
			signal: o.abortSignal as AbortSignal | undefined,
		});
		return { statusCode: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
	}
	return { sent, httpRequest };
}

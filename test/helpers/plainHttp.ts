/**
 * n8n's plain request helper as far as the EU transport uses it (full response, body as text
 * or, with `encoding: 'stream'`, as a Node stream, no redirects followed, the abort signal
 * honoured), on fetch: for unit tests against loopback servers. Every options object it was
 * called with is kept in `sent`.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
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
		const headers = Object.fromEntries(r.headers);
		if (o.encoding === 'stream')
			return {
				statusCode: r.status,
				headers,
				body: r.body ? Readable.fromWeb(r.body as unknown as WebStream) : Readable.from([]),
			};
		return { statusCode: r.status, headers, body: await r.text() };
	}
	return { sent, httpRequest };
}

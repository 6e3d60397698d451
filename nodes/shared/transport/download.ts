/**
 * Downloads a file the service links to (a visualisation image), by hand:
 * - http(s) addresses only (no data:, file: …);
 * - the credential goes only to the origin of the credential's Base URL: an address on any
 *   other origin (a CDN) is fetched without it, and so is every redirect hop beyond the origin;
 * - redirects are followed one hop at a time, at most MAX_REDIRECTS;
 * - the body is streamed and abandoned past MAX_DOWNLOAD_BYTES (never buffered whole), a
 *   Content-Length above it is refused before reading;
 * - the whole download (hops included) ends within the request deadline.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

import { AttemptAborted, cancelSignalOf, contextWithSignal, withDeadline } from './deadline';
import { isRedirect, nextRedirect, originOf, refusalText } from './redirects';
import type { FullResponse } from './request';
import {
	CREDENTIAL_TYPES,
	credentialInfo,
	normaliseHeaders,
	requestTimeoutMs,
	sendToService,
} from './request';

/** The largest file downloaded (25 MB): a visualisation is far smaller. */
export const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;

export type DownloadContext = IExecuteFunctions | IPollFunctions;

export interface Downloaded {
	data: Buffer;
	/** The Content-Type the server sent, if any. */
	contentType?: string;
	/** The address the file came from (after redirects). */
	url: string;
}

/** Why a download failed, in a sentence (no credential in it). */
export class DownloadError extends Error {
	constructor(readonly reason: string) {
		super(reason);
		this.name = 'DownloadError';
	}
}

function megabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

type Stream = NodeJS.ReadableStream & { destroy?: (error?: Error) => void };

function release(body: unknown) {
	(body as { destroy?: () => void } | null | undefined)?.destroy?.();
}

/** Reads a body of at most `maxBytes` bytes; a stream is destroyed as soon as it passes that. */
async function readCapped(body: unknown, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
	const tooLarge = (bytes: number, exact: boolean) =>
		new DownloadError(
			`the file is larger than the download limit of ${megabytes(maxBytes)} (${exact ? '' : 'more than '}${megabytes(bytes)})`,
		);
	if (body === undefined || body === null || body === '') return Buffer.alloc(0);
	if (Buffer.isBuffer(body) || body instanceof ArrayBuffer || typeof body === 'string') {
		const buffer = Buffer.isBuffer(body)
			? body
			: typeof body === 'string'
				? Buffer.from(body)
				: Buffer.from(body);
		if (buffer.length > maxBytes) throw tooLarge(buffer.length, true);
		return buffer;
	}
	const stream = body as Stream;
	const stop = () => stream.destroy?.();
	signal.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream as AsyncIterable<Buffer | string>) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			total += buffer.length;
			if (total > maxBytes) {
				stream.destroy?.();
				throw tooLarge(total, false);
			}
			chunks.push(buffer);
		}
	} finally {
		signal.removeEventListener('abort', stop);
	}
	return Buffer.concat(chunks);
}

/**
 * Downloads `url` (see the rules above). Throws a DownloadError saying why it failed, or the
 * credential's own error when the credential cannot be read.
 */
export async function downloadFile(
	ctx: DownloadContext,
	url: string,
	maxBytes = MAX_DOWNLOAD_BYTES,
): Promise<Downloaded> {
	if (originOf(url) === undefined) {
		const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
		throw new DownloadError(
			scheme
				? `it is a "${scheme.toLowerCase()}:" address, and only http(s) addresses are downloaded`
				: 'it is not a valid http(s) address',
		);
	}
	const credential = await credentialInfo.call(ctx);
	const timeoutMs = requestTimeoutMs(ctx);
	const outcome = await withDeadline(timeoutMs, cancelSignalOf(ctx), async (signal) => {
		const sendCtx = contextWithSignal(ctx, signal);
		let current = url;
		for (let hops = 0; ; hops++) {
			const options: IHttpRequestOptions = {
				method: 'GET',
				url: current,
				headers: { Accept: 'image/*, */*' },
				encoding: 'stream',
				json: false,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: timeoutMs + 1000,
				abortSignal: signal,
			};
			const response = (
				originOf(current) === credential.origin
					? await sendToService(
							ctx,
							sendCtx,
							{
								type: credential.type,
								renewsSession: credential.type === CREDENTIAL_TYPES.login,
							},
							options,
						)
					: await ctx.helpers.httpRequest(options)
			) as FullResponse<unknown>;
			const headers = normaliseHeaders(response.headers);
			const status = response.statusCode;
			if (isRedirect(status)) {
				release(response.body);
				const step = nextRedirect({
					status,
					location: headers.location,
					currentUrl: current,
					method: 'GET',
					hops,
				});
				if (!step.follow)
					throw new DownloadError(`a redirect was not followed: ${refusalText(step.refusal)}`);
				current = step.url;
				continue;
			}
			if (status < 200 || status >= 300) {
				release(response.body);
				throw new DownloadError(`the server answered HTTP ${status}`);
			}
			const length = Number(headers['content-length']);
			if (Number.isFinite(length) && length > maxBytes) {
				release(response.body);
				throw new DownloadError(
					`the file is larger than the download limit of ${megabytes(maxBytes)} (${megabytes(length)})`,
				);
			}
			const data = await readCapped(response.body, maxBytes, signal);
			return { data, contentType: headers['content-type'], url: current };
		}
	}).then(
		(file) => ({ file }),
		(error: unknown) => ({ error }),
	);
	if ('file' in outcome) return outcome.file;
	if (outcome.error instanceof AttemptAborted)
		throw new DownloadError(
			outcome.error.reason === 'deadline'
				? `it did not arrive within ${timeoutMs / 1000} s (the node's Request Timeout)`
				: 'the execution was cancelled',
		);
	throw outcome.error;
}

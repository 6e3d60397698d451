/**
 * Downloads a file the service links to (a visualisation image), by hand:
 * - http(s) addresses only (no data:, file: …);
 * - the credential goes only to the origin of the credential's Base URL: an address on any
 *   other origin (a CDN) is fetched without it, and so is every redirect hop beyond the origin;
 * - redirects are followed one hop at a time, at most MAX_REDIRECTS;
 * - the body is streamed and abandoned past MAX_DOWNLOAD_BYTES (never buffered whole), a
 *   Content-Length above it is refused before reading;
 * - the whole download (hops included) ends within the request deadline;
 * - only images are kept: a Content-Type other than a PNG, JPEG, GIF or WebP image (or a
 *   generic binary type) is refused before the body is read, and the first bytes must be
 *   one of those formats (NotAnImage: the caller skips the file with the reason).
 */
import type { IExecuteFunctions, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';

import type { FullResponse } from './sendAttempt';
import { normaliseHeaders, sendToService } from './sendAttempt';
import { CREDENTIAL_TYPES, credentialInfo } from './nodeCredential';
import {
	AttemptAborted,
	cancelSignalOf,
	contextWithSignal,
	requestTimeoutMs,
	withDeadline,
} from './deadline';
import { isRedirect, nextRedirect, originOf, refusalText } from './redirects';

/** The largest file downloaded (25 MB): a visualisation is far smaller. */
export const MAX_DOWNLOAD_BYTES = 25 * 1024 * 1024;

export type DownloadContext = IExecuteFunctions | IPollFunctions;

export interface Downloaded {
	data: Buffer;
	/** The image type its first bytes show (image/png, image/jpeg, image/gif, image/webp). */
	contentType: string;
	/** The address the file came from (after redirects). */
	url: string;
}

/** Why a download failed, in a sentence (no credential in it). */
export class DownloadError extends Error {
	constructor(
		readonly reason: string,
		/** The file passed `maxBytes`. */
		readonly tooLarge = false,
	) {
		super(reason);
		this.name = 'DownloadError';
	}
}

/** What was downloaded (or announced) is not an image: the caller skips it with the reason. */
export class NotAnImage extends DownloadError {
	constructor(reason: string) {
		super(reason);
		this.name = 'NotAnImage';
	}
}

/** The image formats kept, by their first bytes (the service's visualisations are PNG). */
const IMAGE_SIGNATURES: Array<{ type: string; test: (b: Buffer) => boolean }> = [
	{
		type: 'image/png',
		test: (b) =>
			b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	},
	{
		type: 'image/jpeg',
		test: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
	},
	{ type: 'image/gif', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
	{
		type: 'image/webp',
		test: (b) =>
			b.subarray(0, 4).toString('latin1') === 'RIFF' &&
			b.subarray(8, 12).toString('latin1') === 'WEBP',
	},
];

/** The image type of a file by its first bytes (PNG, JPEG, GIF, WebP), or undefined. */
export function imageTypeOf(data: Buffer): string | undefined {
	return IMAGE_SIGNATURES.find((s) => s.test(data))?.type;
}

/** Content-Types a visualisation may come with: those images, or a generic binary type. */
const ACCEPTED_TYPES = new Set([
	...IMAGE_SIGNATURES.map((s) => s.type),
	'image/jpg',
	'image/pjpeg',
	'application/octet-stream',
	'binary/octet-stream',
]);

/**
 * Well-known types a message may name. Any other Content-Type is not echoed: the header is the
 * server's own text, and a hostile service could reflect the API key into it.
 */
const NAMED_TYPES = new Set([
	'application/json',
	'application/problem+json',
	'application/xml',
	'application/pdf',
	'application/zip',
	'application/javascript',
	'application/geo+json',
	'text/html',
	'text/plain',
	'text/xml',
	'text/csv',
	'text/css',
	'text/javascript',
	'image/svg+xml',
	'image/tiff',
	'image/bmp',
	'image/avif',
	'image/heic',
	'image/x-icon',
	'image/vnd.microsoft.icon',
]);

/** Why a Content-Type is refused, or undefined when it may be an image (or says nothing). */
function refusedType(contentType: string | undefined): string | undefined {
	const type = contentType?.split(';')[0].trim().toLowerCase();
	if (!type || ACCEPTED_TYPES.has(type)) return undefined;
	const sent = NAMED_TYPES.has(type)
		? `the server sent ${JSON.stringify(type)} content`
		: "the answer's Content-Type is not an image type";
	return `it is not an image: ${sent}, and only PNG, JPEG, GIF and WebP images are attached`;
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
			true,
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
			const refused = refusedType(headers['content-type']);
			if (refused !== undefined) {
				release(response.body);
				throw new NotAnImage(refused);
			}
			const length = Number(headers['content-length']);
			if (Number.isFinite(length) && length > maxBytes) {
				release(response.body);
				throw new DownloadError(
					`the file is larger than the download limit of ${megabytes(maxBytes)} (${megabytes(length)})`,
					true,
				);
			}
			const data = await readCapped(response.body, maxBytes, signal);
			const type = imageTypeOf(data);
			if (type === undefined)
				throw new NotAnImage(
					'it is not an image: its content is not a PNG, JPEG, GIF or WebP image (whatever its name or Content-Type says)',
				);
			return { data, contentType: type, url: current };
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

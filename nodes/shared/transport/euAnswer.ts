/**
 * The answer of an EU Information System call, read as a stream with a byte limit: n8n's
 * request helper hands the body over as a stream (`encoding: 'stream'`, on n8n 1.x and 2.x
 * alike), and the stream is destroyed the moment it passes EU_MAX_ANSWER_BYTES, so that no
 * answer, whatever its size, is held whole before a limit applies (400 MB read whole grew the
 * process by 1.2 GB; 700 MB ended in "Cannot create a string longer than …").
 */

/**
 * The largest answer read: 32,000,000 bytes. The EU accepts requests of at most 25,000,000
 * bytes (pack §6); the largest legitimate answer is Get Content of such a statement — its
 * geolocation as sent plus every other field of it, which the EU writes back with its own,
 * longer prefixes and six-decimal quantities (a few bytes per element, at most 10,000
 * producers): 7 MB of room above the EU's own limit. Anything larger is not an answer of the EU.
 */
export const EU_MAX_ANSWER_BYTES = 32_000_000;

/**
 * How the EU transport asks n8n's helper for an answer: the body as a stream (read here, with
 * the limit), the status and headers with it, every status returned (not thrown), redirects
 * not followed (the key's digest goes to the credential's origin only, redirects.ts).
 */
export const ANSWER_AS_STREAM = {
	json: false,
	encoding: 'stream',
	returnFullResponse: true,
	ignoreHttpStatusErrors: true,
	disableFollowRedirect: true,
} as const;

export type AnswerText =
	| { ok: true; text: string }
	| { ok: false; bytes: number; announced: boolean };

type Stream = AsyncIterable<Buffer | string> & { destroy?: (error?: Error) => void };

/** Releases an answer that is not read (a redirect's body): its connection is closed. */
export function releaseAnswer(body: unknown): void {
	(body as { destroy?: () => void } | null | undefined)?.destroy?.();
}

/** `n` with thousands separators (32,000,000). */
export function bytesText(n: number): string {
	return n.toLocaleString('en-US');
}

/**
 * The answer's text (UTF-8), or how far it got past `maxBytes`: a Content-Length above the
 * limit is refused before reading; a stream is destroyed as soon as the bytes read pass it
 * (nothing past the limit is read); `signal` (the attempt's deadline or the execution's
 * cancellation) destroys the stream too. A body that is already a string or a buffer (another
 * helper) is measured the same way.
 */
export async function readAnswerText(
	body: unknown,
	headers: Record<string, string>,
	maxBytes: number,
	signal: AbortSignal,
): Promise<AnswerText> {
	if (body === undefined || body === null) return { ok: true, text: '' };
	if (typeof body === 'string' || Buffer.isBuffer(body) || body instanceof ArrayBuffer) {
		const buffer =
			typeof body === 'string'
				? Buffer.from(body, 'utf8')
				: Buffer.isBuffer(body)
					? body
					: Buffer.from(body);
		if (buffer.length > maxBytes) return { ok: false, bytes: buffer.length, announced: false };
		return { ok: true, text: buffer.toString('utf8') };
	}
	const stream = body as Stream;
	const announced = Number(headers['content-length']);
	if (Number.isFinite(announced) && announced > maxBytes) {
		stream.destroy?.();
		return { ok: false, bytes: announced, announced: true };
	}
	const stop = () => stream.destroy?.();
	signal.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of stream) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
			total += buffer.length;
			if (total > maxBytes) {
				stream.destroy?.();
				return { ok: false, bytes: total, announced: false };
			}
			chunks.push(buffer);
		}
	} finally {
		signal.removeEventListener('abort', stop);
	}
	return { ok: true, text: Buffer.concat(chunks, total).toString('utf8') };
}

/**
 * What the service answered, read defensively: bodies parsed from text (so that a cut-off or
 * non-JSON answer is told apart from a JSON string), short summaries of any body for messages
 * (an HTML page by its title, never 50 KB of it), and the error for a 2xx answer without the
 * shape its endpoint documents. Pure: no n8n imports.
 */
import { attachFailure, describeFailure } from './serviceFailure';

/** The longest service text put into a message; the rest is cut with "…". */
export const MAX_MESSAGE_CHARS = 300;
/** The largest body kept (as it was) on an error; a larger one is kept as its summary. */
export const MAX_KEPT_BODY_CHARS = 1000;

/** A body as read: JSON parsed, or the text that did not parse, or nothing at all. */
export type ParsedBody =
	| { kind: 'json'; value: unknown }
	| { kind: 'text'; text: string }
	| { kind: 'empty' };

/**
 * Parses what n8n's helper returned for a body requested as text. A body that is already a
 * value (a helper that parsed it) is taken as JSON.
 */
export function parseBody(raw: unknown): ParsedBody {
	if (raw === undefined || raw === null)
		return raw === null ? { kind: 'json', value: null } : { kind: 'empty' };
	let text: string;
	if (typeof raw === 'string') text = raw;
	else if (Buffer.isBuffer(raw)) text = raw.toString('utf8');
	else if (raw instanceof ArrayBuffer) text = Buffer.from(raw).toString('utf8');
	else return { kind: 'json', value: raw };
	if (text.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(text) as unknown };
	} catch {
		return { kind: 'text', text };
	}
}

/** Cuts a text to `max` characters (whitespace collapsed), ending with "…" when cut. */
export function clip(text: string, max = MAX_MESSAGE_CHARS): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Whether a text is an HTML page (a proxy's error page, a login form) rather than a message. */
export function isHtml(text: string): boolean {
	const head = text.slice(0, 1000).trimStart().toLowerCase();
	return (
		head.startsWith('<!doctype html') ||
		head.startsWith('<html') ||
		head.startsWith('<head') ||
		head.startsWith('<body') ||
		/<(html|head|body|title)[\s>]/.test(head)
	);
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
};

/** The title of an HTML page (entities decoded, at most 100 characters), if it has one. */
export function htmlTitle(html: string): string | undefined {
	// Looks at the start of the page only: a title sits in the head.
	const head = html.slice(0, 20_000);
	const open = head.toLowerCase().indexOf('<title');
	if (open < 0) return undefined;
	const start = head.indexOf('>', open);
	const end = head.toLowerCase().indexOf('</title', start);
	if (start < 0 || end < 0) return undefined;
	const title = head
		.slice(start + 1, end)
		.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
			if (name.startsWith('#x') || name.startsWith('#X'))
				return String.fromCodePoint(parseInt(name.slice(2), 16) || 32);
			if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)) || 32);
			return ENTITIES[name.toLowerCase()] ?? whole;
		});
	const clipped = clip(title, 100);
	return clipped === '' ? undefined : clipped;
}

/** A text body in a few words: an HTML page by its title, other text clipped. */
export function summariseText(text: string, max = MAX_MESSAGE_CHARS): string {
	if (isHtml(text)) {
		const title = htmlTitle(text);
		return title ? `an HTML page titled "${title}"` : 'an HTML page without a title';
	}
	return clip(text, max);
}

function text(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return String(value);
	return undefined;
}

/**
 * Reads the message out of any of the contract's body shapes, clipped to a few hundred
 * characters; an HTML page (a proxy's error page) is named by its title.
 */
export function serviceMessage(body: unknown): string | undefined {
	const message = rawServiceMessage(body);
	if (message === undefined) return undefined;
	return isHtml(message) ? `The service answered with ${summariseText(message)}` : clip(message);
}

function rawServiceMessage(body: unknown): string | undefined {
	if (body === undefined || body === null) return undefined;
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed.startsWith('{') || trimmed.startsWith('"')) {
			try {
				return rawServiceMessage(JSON.parse(trimmed)) ?? (trimmed || undefined);
			} catch {
				return trimmed || undefined;
			}
		}
		return trimmed || undefined;
	}
	if (typeof body === 'object' && !Array.isArray(body)) {
		const record = body as Record<string, unknown>;
		return (
			text(record.message) ??
			text(record.error_description) ??
			(typeof record.error === 'string' && record.error !== record.error?.toUpperCase?.()
				? record.error
				: undefined) ??
			text(record.error) ??
			text(record.detail)
		);
	}
	return undefined;
}

/** The body as a record (JSON text parsed), or an empty one. */
export function bodyRecord(body: unknown): Record<string, unknown> {
	if (body && typeof body === 'object' && !Array.isArray(body))
		return body as Record<string, unknown>;
	if (typeof body === 'string') {
		try {
			const parsed = JSON.parse(body);
			if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
		} catch {
			// a plain string body
		}
	}
	return {};
}

/** What a body was, in a few words, for a message that says why it could not be read. */
export function describeBody(parsed: ParsedBody): string {
	if (parsed.kind === 'empty') return 'an empty answer';
	if (parsed.kind === 'text') {
		if (isHtml(parsed.text)) return summariseText(parsed.text);
		return `text that is not JSON (perhaps cut off): "${clip(parsed.text, 80)}"`;
	}
	const value = parsed.value;
	if (value === null) return 'null';
	if (Array.isArray(value)) return `a list of ${value.length} entries`;
	if (typeof value === 'object') {
		const keys = Object.keys(value as object);
		if (keys.length === 0) return 'an empty JSON object';
		const shown = keys.slice(0, 8).map((k) => `"${clip(k, 40)}"`);
		return `a JSON object with the key${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${
			keys.length > 8 ? ` and ${keys.length - 8} more` : ''
		}`;
	}
	if (typeof value === 'string') return `the text "${clip(value, 80)}"`;
	return `the value ${clip(String(value), 40)}`;
}

/**
 * A body small enough to keep on an error as it was, or its summary: an error never carries
 * a 50 KB page.
 */
export function boundedBody(body: unknown): unknown {
	if (body === undefined || body === null) return body;
	if (typeof body === 'string')
		return body.length <= MAX_KEPT_BODY_CHARS && !isHtml(body) ? body : summariseText(body);
	let json: string | undefined;
	try {
		json = JSON.stringify(body);
	} catch {
		return '(an answer that could not be shown)';
	}
	if (json === undefined || json.length <= MAX_KEPT_BODY_CHARS) return body;
	return `${clip(json, MAX_KEPT_BODY_CHARS - 40)} (${json.length} characters in all)`;
}

/** The endpoint as users see it in messages: `GET /plots`. */
export function endpointName(method: string, path: string): string {
	return `${method.toUpperCase()} ${path.split('?')[0]}`;
}

/** The message of an answer without the shape its endpoint documents. */
export function unexpectedAnswerMessage(endpoint: string, problem: string): string {
	return `Unexpected answer from the service to ${endpoint}: ${problem}`;
}

/** What to do about an unexpected answer; `creates` when the request may have created something. */
export function unexpectedAnswerHint(creates: boolean): string {
	return `The answer does not have the shape this endpoint documents, so nothing was taken from it. Check that the credential's Base URL points at the Geospatial Analysis Service itself (not at a proxy or a web page); if it does, report this answer to the service.${
		creates
			? ' The service may have carried out the request: check what exists (for example with Get Many) before running again, so that nothing is done twice.'
			: ''
	}`;
}

/**
 * A 2xx answer the node cannot read (thrown by pure readers of answers, such as the plots of
 * a make_plot answer). Carries the ServiceFailure of an answer that arrived: the request was
 * carried out (`mayHaveArrived`), and repeating it does not help (`transient: false`).
 */
export class UnexpectedAnswerError extends Error {
	readonly description: string;

	constructor(
		readonly endpoint: string,
		readonly problem: string,
		options: { creates?: boolean; status?: number } = {},
	) {
		super(unexpectedAnswerMessage(endpoint, problem));
		this.name = 'UnexpectedAnswerError';
		this.description = unexpectedAnswerHint(options.creates === true);
		attachFailure(
			this,
			describeFailure({ kind: 'unexpected-answer', status: options.status ?? 200 }),
		);
	}
}

/**
 * Maps every error shape of the service contract (Errors table) to a message and a
 * description a no-code user can act on. Pure: no n8n imports, unit-tested row by row.
 * Service text in a message is clipped (an HTML page is named by its title): never 50 KB.
 */
import {
	clip,
	isHtml,
	summariseText,
	unexpectedAnswerHint,
	unexpectedAnswerMessage,
} from './answers';
import type { RedirectRefusal } from './redirects';
import { refusalText } from './redirects';

export interface ServiceErrorInput {
	/** HTTP status, when a response arrived. */
	status?: number;
	/** Parsed JSON body, or the raw text when it was not JSON. */
	body?: unknown;
	headers?: Record<string, string | string[] | undefined>;
	/** Network error code (ECONNRESET, ETIMEDOUT, …) when no response arrived. */
	networkCode?: string;
	method?: string;
	path?: string;
	/** The origin of the credential's Base URL (named when a redirect is refused). */
	baseOrigin?: string;
	/** A 3xx answer that was not followed, and why. */
	redirect?: RedirectRefusal;
	/** The attempt was abandoned at the request deadline (milliseconds). */
	timedOutAfterMs?: number;
	/** A 2xx answer without the shape its endpoint documents: what is wrong with it. */
	unexpected?: string;
	/** The request changes nothing (a GET, a dry run): default true for GET only. */
	idempotent?: boolean;
}

export type ServiceErrorKind =
	| 'missing-api-version'
	| 'invalid-api-version'
	| 'invalid-json'
	| 'unknown-property'
	| 'invalid-check-type'
	| 'invalid-commodity'
	| 'unclosed-ring'
	| 'invalid-geometry'
	| 'invalid-cursor'
	| 'insufficient-tokens'
	| 'bad-request'
	| 'unauthorized'
	| 'forbidden-role'
	| 'forbidden-owner'
	| 'forbidden'
	| 'not-found'
	| 'token-balance-unavailable'
	| 'method-not-allowed'
	| 'not-acceptable'
	| 'unsupported-media-type'
	| 'rate-limited'
	| 'server-error'
	| 'unavailable'
	| 'network'
	| 'certificate'
	| 'redirect'
	| 'unexpected-answer'
	| 'unknown';

export interface MappedServiceError {
	kind: ServiceErrorKind;
	/** The service's own message (or a plain statement when it sent none). */
	message: string;
	/** What the user should do about it. */
	description: string;
	httpCode?: string;
	/** Fields of the body worth keeping (e.g. tokens required / available). */
	details: Record<string, unknown>;
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

function bodyRecord(body: unknown): Record<string, unknown> {
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

function header(headers: ServiceErrorInput['headers'], name: string): string | undefined {
	if (!headers) return undefined;
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
	const value = key === undefined ? undefined : headers[key];
	return Array.isArray(value) ? value[0] : value;
}

const NETWORK_HINTS: Record<string, string> = {
	ECONNREFUSED:
		'Nothing answered at the Base URL of the credential. Check the address and that the service is up.',
	ENOTFOUND: "The host name in the credential's Base URL could not be found. Check it for typos.",
	EAI_AGAIN:
		"The host name in the credential's Base URL could not be resolved right now. Try again shortly.",
	ECONNRESET:
		'The connection to the service was cut before an answer arrived. Run the node again; if it created something, check first that it is not there already.',
	ETIMEDOUT: 'The service did not answer in time. Try again shortly.',
	ECONNABORTED: 'The service did not answer in time. Try again shortly.',
	EPIPE: 'The connection to the service was cut. Try again shortly.',
};

/** TLS errors of Node.js/OpenSSL: the service's certificate was not accepted. */
const CERTIFICATE_CODE =
	/^(CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH|ERR_SSL_[A-Z_]+)$/;

/** Whether a network error code says the TLS certificate was not accepted. */
export function isCertificateCode(code: string | undefined): boolean {
	return code !== undefined && CERTIFICATE_CODE.test(code);
}

function certificateHint(code: string): string {
	const which =
		code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH'
			? 'it was not issued for the host name in the Base URL'
			: /EXPIRED|NOT_YET_VALID/.test(code)
				? 'it has expired or is not valid yet'
				: /SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY|UNTRUSTED/.test(code)
					? 'it is not issued by an authority n8n trusts (self-signed, or a proxy that intercepts HTTPS)'
					: 'it could not be verified';
	return `This is a problem with the certificate of the address in the Base URL, not with the API key or password: ${which}. Check that the Base URL names the service's own host; if a company proxy intercepts HTTPS, make n8n trust its certificate (NODE_EXTRA_CA_CERTS), or ask the service's operator to renew the certificate. (TLS error ${code})`;
}

function secondsText(ms: number): string {
	const s = ms / 1000;
	return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

export function mapServiceError(input: ServiceErrorInput): MappedServiceError {
	const { status, body } = input;
	const record = bodyRecord(body);
	const message = serviceMessage(body);
	const httpCode = status === undefined ? undefined : String(status);
	const errorCode = typeof record.error === 'string' ? record.error : undefined;
	const details: Record<string, unknown> = {};
	for (const key of [
		'required',
		'available',
		'needed',
		'free',
		'required_tokens',
		'available_tokens',
		'token_cost',
	]) {
		if (record[key] !== undefined) details[key] = record[key];
	}

	const result = (
		kind: ServiceErrorKind,
		msg: string,
		description: string,
	): MappedServiceError => ({
		kind,
		message: msg,
		description,
		httpCode,
		details,
	});
	const endpoint = `${input.method ?? 'the request'}${input.path ? ` ${input.path.split('?')[0]}` : ''}`;
	// Whether the request may create something (then an unclear outcome says: check first).
	const creates =
		input.method !== undefined && !(input.idempotent ?? input.method.toUpperCase() === 'GET');

	if (input.unexpected !== undefined) {
		return result(
			'unexpected-answer',
			unexpectedAnswerMessage(endpoint, input.unexpected),
			unexpectedAnswerHint(creates),
		);
	}

	if (input.redirect !== undefined) {
		const refusal = input.redirect;
		const otherOrigin = refusal.reason === 'other-origin';
		return result(
			'redirect',
			otherOrigin
				? `The service redirected ${endpoint} to another address (${refusal.origin}); the node did not follow it`
				: `The service answered ${endpoint} with a redirect the node did not follow`,
			otherOrigin
				? `The credential is sent only to the address of its Base URL (${refusal.allowedOrigin}), so the redirect was refused. If the service has moved (for example from http:// to https://, or to a new host), enter its new address as the Base URL; never point it at an address you do not trust.`
				: `The redirect was not followed: ${refusalText(refusal)}. Check the credential's Base URL${input.baseOrigin ? ` (${input.baseOrigin})` : ''}: it should be the service's own address.`,
		);
	}

	if (status === undefined && input.timedOutAfterMs !== undefined) {
		return result(
			'network',
			`The service did not answer within ${secondsText(input.timedOutAfterMs)}`,
			`The request was abandoned at its deadline (the node's Request Timeout). ${
				creates
					? 'The service may still have carried it out: check what exists before running again. '
					: ''
			}Try again later, or raise "Request Timeout" if the service is known to be slow.`,
		);
	}

	if (status === undefined && isCertificateCode(input.networkCode)) {
		return result(
			'certificate',
			"The service's TLS certificate was not accepted",
			certificateHint(input.networkCode!),
		);
	}

	if (status === undefined) {
		// No Node error code in the message: n8n replaces messages that contain one.
		const code = input.networkCode ?? 'UNKNOWN';
		return result(
			'network',
			'Could not reach the Geospatial Analysis Service',
			`${NETWORK_HINTS[code] ?? "Check the credential's Base URL and your network, then try again."} (network error ${code})`,
		);
	}

	const msg = message ?? `The service answered HTTP ${status}`;
	const lower = msg.toLowerCase();

	if (status >= 300 && status < 400)
		return result(
			'redirect',
			`The service answered ${endpoint} with HTTP ${status}`,
			"Check the credential's Base URL: it should be the service's own address.",
		);

	if (status === 400) {
		if (errorCode === 'MISSING_API_VERSION')
			return result(
				'missing-api-version',
				msg,
				'The request lacked the X-API-Version header. This is a bug in the node: please report it.',
			);
		if (errorCode === 'INVALID_API_VERSION')
			return result(
				'invalid-api-version',
				msg,
				'The service does not accept the API version this node speaks (3). Check that the Base URL points at a current release of the service.',
			);
		if (typeof record.code === 'string' || /cursor/i.test(msg))
			return result(
				'invalid-cursor',
				msg,
				'The page cursor is no longer valid (the list changed or the cursor expired). Run the node again to start from the first page.',
			);
		if (lower.startsWith('unable to process json: unknown property')) {
			const prop = msg.split(':').pop()?.trim();
			return result(
				'unknown-property',
				msg,
				`The service does not accept the field "${prop}". Remove it (for example from Additional Fields) and run again.`,
			);
		}
		if (lower.startsWith('unable to process json'))
			return result(
				'invalid-json',
				msg,
				'The request body was not valid JSON. Check JSON fields (check configs, additional info) for syntax errors.',
			);
		if (lower.startsWith('invalid check type'))
			return result(
				'invalid-check-type',
				msg,
				'Choose a check from the list (it comes from the live catalog), or fix the check name in your expression.',
			);
		if (lower.startsWith('invalid commodity'))
			return result(
				'invalid-commodity',
				msg,
				'Use one of the commodities the service lists: wood, soy, cocoa, coffee, palm_oil, beef, rubber.',
			);
		if (lower.startsWith('invalid polygon in geojson: the ring is not closed'))
			return result(
				'unclosed-ring',
				msg,
				'Make the last coordinate of each polygon ring equal to the first, or turn on "Repair Geometry".',
			);
		if (lower.startsWith('invalid geometry in geojson'))
			return result(
				'invalid-geometry',
				msg,
				'Fix the geometry named in the message (coordinates are [longitude, latitude] in WGS84 degrees). "Repair Geometry" fixes unclosed rings, duplicate vertices and winding.',
			);
		if (/insufficient|not enough tokens/.test(lower))
			return result('insufficient-tokens', msg, insufficientTokensHint(details));
		return result(
			'bad-request',
			msg,
			'The service rejected the request as invalid. Check the fields named in the message.',
		);
	}
	if (status === 401)
		return result(
			'unauthorized',
			msg,
			'The service did not accept the credential. Check the API key (it starts with service_live_) or the username and password, and that it belongs to this Base URL.',
		);
	if (status === 402 || (status === 409 && /token/.test(lower)))
		return result('insufficient-tokens', msg, insufficientTokensHint(details));
	if (status === 403) {
		if (/unauthorized access to entity/.test(lower))
			return result(
				'forbidden-owner',
				msg,
				'The item belongs to another account. Use an id created by the account of this credential.',
			);
		if (/forbidden/.test(lower))
			return result(
				'forbidden-role',
				msg,
				'Your account lacks the role this operation needs. Ask the account administrator to grant it, or use another credential.',
			);
		return result('forbidden', msg, 'The service refused this operation for your account.');
	}
	if (status === 404) {
		if (input.path?.includes('check_tokens'))
			return result(
				'token-balance-unavailable',
				msg,
				'The service could not look up your token balance. Try again later; if it persists, contact the service.',
			);
		return result(
			'not-found',
			msg,
			'Nothing exists at that id. Check the id (ids are numbers) and that it was created with this account.',
		);
	}
	if (status === 405)
		return result(
			'method-not-allowed',
			msg,
			'The service does not support this operation at this address. Check the Base URL; if it is right, please report this bug in the node.',
		);
	if (status === 406)
		return result(
			'not-acceptable',
			msg,
			"The service could not answer in JSON. Check that the Base URL points at the service's API.",
		);
	if (status === 415)
		return result(
			'unsupported-media-type',
			msg,
			'The service expected a JSON body. This is a bug in the node: please report it.',
		);
	if (status === 429) {
		const retryAfter = header(input.headers, 'retry-after');
		return result(
			'rate-limited',
			msg,
			`The service is limiting requests${retryAfterNote(retryAfter)}. Wait a moment and run again, or lower "Parallel Requests".`,
		);
	}
	if (status === 500) {
		const id = /\(ID ([0-9a-f]{16})\)/i.exec(msg)?.[1];
		return result(
			'server-error',
			msg,
			id
				? `The service failed on its side and logged it under ID ${id}. Try again; if it keeps failing, send that ID to the service's support.`
				: "The service failed on its side. Try again; if it keeps failing, contact the service's support.",
		);
	}
	if (status === 502 || status === 503 || status === 504) {
		const retryAfter = header(input.headers, 'retry-after');
		return result(
			'unavailable',
			msg,
			`The service is temporarily unavailable${retryAfterNote(retryAfter)}. Try again in a few minutes.`,
		);
	}
	return result(
		'unknown',
		msg,
		'The service answered with an unexpected error. Check the message and try again.',
	);
}

/** " (retry after 3 s)" for a Retry-After in seconds, " (retry after <date>)" for a date. */
function retryAfterNote(value: string | undefined): string {
	const trimmed = value?.trim();
	if (!trimmed) return '';
	return /^\d+(\.\d+)?$/.test(trimmed)
		? ` (retry after ${trimmed} s)`
		: ` (retry after ${trimmed})`;
}

function insufficientTokensHint(details: Record<string, unknown>): string {
	const needed =
		details.required ?? details.required_tokens ?? details.needed ?? details.token_cost;
	const free = details.available ?? details.available_tokens ?? details.free;
	if (needed !== undefined && free !== undefined)
		return `This needs ${needed} tokens and ${free} are free. Buy tokens, wait for running jobs to settle, or analyse fewer plots or checks.`;
	return 'Your account does not have enough free tokens. Check the balance with "Account → Get Token Balance", buy tokens, or analyse fewer plots or checks.';
}

/** The shortest secret redacted in error texts (shorter values would blank ordinary words). */
export const MIN_SECRET_CHARS = 4;
/** The shortest secret redacted in answers that succeeded (data: ids, dates, names). */
export const MIN_SECRET_CHARS_IN_DATA = 8;

/**
 * Every form a secret can take in a text from the service: as it is, JSON-escaped (with or
 * without `\/`, non-ASCII characters as they are or as `\uXXXX`), URL-encoded (as a path or
 * query component, a form value with `+`, upper- or lower-case hex digits), longest first.
 */
export function secretForms(secret: string): string[] {
	const forms = new Set<string>([secret]);
	const json = JSON.stringify(secret).slice(1, -1);
	const asciiJson = json.replace(
		/[\u007f-\uffff]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
	for (const escaped of [json, asciiJson]) {
		forms.add(escaped);
		forms.add(escaped.replace(/\//g, '\\/'));
		forms.add(escaped.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`));
	}
	const component = encodeURIComponent(secret);
	const form = new URLSearchParams([['', secret]]).toString().slice(1);
	for (const encoded of [component, component.replace(/%20/g, '+'), form, encodeURI(secret)]) {
		forms.add(encoded);
		forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every secret value in a string by "***", in each of its forms (secretForms).
 * Run it over the whole text, before anything is cut: a cut secret is no longer found.
 */
export function redact(
	value: string,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
): string {
	return redactWith(value, formsOf(secrets, minChars));
}

function redactWith(value: string, forms: readonly string[]): string {
	let out = value;
	for (const form of forms) if (out.includes(form)) out = out.split(form).join('***');
	return out;
}

/** Every form of every secret of at least `minChars` characters, longest first. */
function formsOf(secrets: readonly string[], minChars: number): string[] {
	return [...new Set(secrets.filter((s) => s && s.length >= minChars).flatMap(secretForms))]
		.filter((f) => f.length >= minChars)
		.sort((a, b) => b.length - a.length);
}

/**
 * Whether a text may hold a secret: one of its forms, or a JSON escape (behind which a JSON
 * value can hide any character of one).
 */
export function mayHoldSecret(
	text: string,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
): boolean {
	return text.includes('\\') || formsOf(secrets, minChars).some((form) => text.includes(form));
}

/**
 * A value from the service with every secret redacted in every string and key, deeply. A
 * string that is JSON text is read as JSON first (an escape such as `\u0073` could hide a
 * secret from the text), so the result of a JSON string is its value, redacted.
 */
export function redactValue(
	value: unknown,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
	readJsonText = true,
): unknown {
	const forms = formsOf(secrets, minChars);
	if (forms.length === 0) return value;
	const walk = (v: unknown, top: boolean): unknown => {
		if (typeof v === 'string') {
			if (top && readJsonText && /^\s*[[{"]/.test(v)) {
				try {
					return walk(JSON.parse(v), false);
				} catch {
					// text, not JSON
				}
			}
			return redactWith(v, forms);
		}
		if (Array.isArray(v)) return v.map((x) => walk(x, false));
		if (v !== null && typeof v === 'object') {
			const out: Record<string, unknown> = {};
			for (const [k, x] of Object.entries(v))
				Object.defineProperty(out, redactWith(k, forms), {
					value: walk(x, false),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			return out;
		}
		return v;
	};
	return walk(value, true);
}

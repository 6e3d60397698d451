/**
 * Every error shape of the service contract (Errors table) as a row of one table: which
 * failure it matches, its kind (what callers ask, see serviceFailure.ts), the message and the
 * hint a no-code user can act on. `mapServiceError` reads the table, first matching row wins.
 * Pure: no n8n imports, unit-tested row by row. Service text in a message is clipped (an HTML
 * page is named by its title): never 50 KB.
 */
import {
	bodyRecord,
	serviceMessage,
	unexpectedAnswerHint,
	unexpectedAnswerMessage,
} from './answers';
import type { RedirectRefusal } from './redirects';
import { refusalText } from './redirects';
import type { ServiceErrorKind } from './serviceFailure';

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

/** What the rows read: the input, and what is worked out of it once. */
interface Seen {
	input: ServiceErrorInput;
	status?: number;
	/** The service's own message (clipped), or "The service answered HTTP n" when it sent none. */
	message: string;
	/** `message` in lower case, for matching. */
	lower: string;
	/** The body's `error` field when it is text (MISSING_API_VERSION, …). */
	errorCode?: string;
	record: Record<string, unknown>;
	/** Fields of the body worth keeping (token numbers). */
	details: Record<string, unknown>;
	/** `POST /plots` (or "the request"), named in messages. */
	endpoint: string;
	/** The request may create something: an unclear outcome then says to check first. */
	creates: boolean;
}

/** One row of the table: a failure it matches, and what the user is told about it. */
interface ErrorRow {
	match: (seen: Seen) => boolean;
	kind: ServiceErrorKind;
	/** The message; the service's own (`seen.message`) when the row gives none. */
	message?: (seen: Seen) => string;
	/** What the user should do about it. */
	hint: string | ((seen: Seen) => string);
}

/** The body fields kept on an error (token numbers of an insufficient-tokens answer). */
const DETAIL_KEYS = [
	'required',
	'available',
	'needed',
	'free',
	'required_tokens',
	'available_tokens',
	'token_cost',
];

function see(input: ServiceErrorInput): Seen {
	const { status, body } = input;
	const record = bodyRecord(body);
	const details: Record<string, unknown> = {};
	for (const key of DETAIL_KEYS) if (record[key] !== undefined) details[key] = record[key];
	const message =
		status === undefined ? '' : (serviceMessage(body) ?? `The service answered HTTP ${status}`);
	return {
		input,
		status,
		message,
		lower: message.toLowerCase(),
		errorCode: typeof record.error === 'string' ? record.error : undefined,
		record,
		details,
		endpoint: `${input.method ?? 'the request'}${input.path ? ` ${input.path.split('?')[0]}` : ''}`,
		creates:
			input.method !== undefined && !(input.idempotent ?? input.method.toUpperCase() === 'GET'),
	};
}

/** A bad request (400) whose message matches `test`. */
const badRequest =
	(test: (seen: Seen) => boolean) =>
	(seen: Seen): boolean =>
		seen.status === 400 && test(seen);

/** An answer with one of these statuses. */
const status =
	(...codes: number[]) =>
	(seen: Seen): boolean =>
		seen.status !== undefined && codes.includes(seen.status);

const UNEXPECTED_ERROR_HINT =
	'The service answered with an unexpected error. Check the message and try again.';

/** The table, in the order it is read: the first row that matches says what happened. */
const SERVICE_ERRORS: readonly ErrorRow[] = [
	// A 2xx answer without the shape its endpoint documents.
	{
		match: (s) => s.input.unexpected !== undefined,
		kind: 'unexpected-answer',
		message: (s) => unexpectedAnswerMessage(s.endpoint, s.input.unexpected ?? ''),
		hint: (s) => unexpectedAnswerHint(s.creates),
	},
	// A redirect the transport refused (another origin, no Location, a POST turned into a GET …).
	{
		match: (s) => otherOrigin(s) !== undefined,
		kind: 'redirect',
		message: (s) =>
			`The service redirected ${s.endpoint} to another address (${otherOrigin(s)?.origin}); the node did not follow it`,
		hint: (s) =>
			`The credential is sent only to the address of its Base URL (${otherOrigin(s)?.allowedOrigin}), so the redirect was refused. If the service has moved (for example from http:// to https://, or to a new host), enter its new address as the Base URL; never point it at an address you do not trust.`,
	},
	{
		match: (s) => s.input.redirect !== undefined,
		kind: 'redirect',
		message: (s) => `The service answered ${s.endpoint} with a redirect the node did not follow`,
		hint: (s) =>
			`The redirect was not followed: ${s.input.redirect ? refusalText(s.input.redirect) : ''}. Check the credential's Base URL${s.input.baseOrigin ? ` (${s.input.baseOrigin})` : ''}: it should be the service's own address.`,
	},
	// No answer: the deadline, a refused certificate, a network error.
	{
		match: (s) => s.status === undefined && s.input.timedOutAfterMs !== undefined,
		kind: 'network',
		message: (s) =>
			`The service did not answer within ${secondsText(s.input.timedOutAfterMs ?? 0)}`,
		hint: (s) =>
			`The request was abandoned at its deadline (the node's Request Timeout). ${
				s.creates
					? 'The service may still have carried it out: check what exists before running again. '
					: ''
			}Try again later, or raise "Request Timeout" if the service is known to be slow.`,
	},
	{
		match: (s) => s.status === undefined && isCertificateCode(s.input.networkCode),
		kind: 'certificate',
		message: () => "The service's TLS certificate was not accepted",
		hint: (s) => certificateHint(s.input.networkCode ?? ''),
	},
	{
		match: (s) => s.status === undefined,
		kind: 'network',
		message: () => 'Could not reach the Geospatial Analysis Service',
		// No Node error code in the message: n8n replaces messages that contain one.
		hint: (s) => {
			const code = s.input.networkCode ?? 'UNKNOWN';
			return `${NETWORK_HINTS[code] ?? "Check the credential's Base URL and your network, then try again."} (network error ${code})`;
		},
	},
	// A 3xx the transport did not get to decide on.
	{
		match: (s) => s.status !== undefined && s.status >= 300 && s.status < 400,
		kind: 'redirect',
		message: (s) => `The service answered ${s.endpoint} with HTTP ${s.status}`,
		hint: "Check the credential's Base URL: it should be the service's own address.",
	},
	// 400: the contract's bad requests, by their error code or message.
	{
		match: badRequest((s) => s.errorCode === 'MISSING_API_VERSION'),
		kind: 'missing-api-version',
		hint: 'The request lacked the X-API-Version header. This is a bug in the node: please report it.',
	},
	{
		match: badRequest((s) => s.errorCode === 'INVALID_API_VERSION'),
		kind: 'invalid-api-version',
		hint: 'The service does not accept the API version this node speaks (3). Check that the Base URL points at a current release of the service.',
	},
	{
		match: badRequest((s) => typeof s.record.code === 'string' || /cursor/i.test(s.message)),
		kind: 'invalid-cursor',
		hint: 'The page cursor is no longer valid (the list changed or the cursor expired). Run the node again to start from the first page.',
	},
	{
		match: badRequest((s) => s.lower.startsWith('unable to process json: unknown property')),
		kind: 'unknown-property',
		hint: (s) =>
			`The service does not accept the field "${s.message.split(':').pop()?.trim()}". Remove it (for example from Additional Fields) and run again.`,
	},
	{
		match: badRequest((s) => s.lower.startsWith('unable to process json')),
		kind: 'invalid-json',
		hint: 'The request body was not valid JSON. Check JSON fields (check configs, additional info) for syntax errors.',
	},
	{
		match: badRequest((s) => s.lower.startsWith('invalid check type')),
		kind: 'invalid-check-type',
		hint: 'Choose a check from the list (it comes from the live catalog), or fix the check name in your expression.',
	},
	{
		match: badRequest((s) => s.lower.startsWith('invalid commodity')),
		kind: 'invalid-commodity',
		hint: 'Use one of the commodities the service lists: wood, soy, cocoa, coffee, palm_oil, beef, rubber.',
	},
	{
		match: badRequest((s) =>
			s.lower.startsWith('invalid polygon in geojson: the ring is not closed'),
		),
		kind: 'unclosed-ring',
		hint: 'Make the last coordinate of each polygon ring equal to the first, or turn on "Repair Geometry".',
	},
	{
		match: badRequest((s) => s.lower.startsWith('invalid geometry in geojson')),
		kind: 'invalid-geometry',
		hint: 'Fix the geometry named in the message (coordinates are [longitude, latitude] in WGS84 degrees). "Repair Geometry" fixes unclosed rings, duplicate vertices and winding.',
	},
	{
		match: badRequest((s) => /insufficient|not enough tokens/.test(s.lower)),
		kind: 'insufficient-tokens',
		hint: (s) => insufficientTokensHint(s.details),
	},
	{
		match: status(400),
		kind: 'bad-request',
		hint: 'The service rejected the request as invalid. Check the fields named in the message.',
	},
	{
		match: status(401),
		kind: 'unauthorized',
		hint: 'The service did not accept the credential. Check the API key (it starts with service_live_) or the username and password, and that it belongs to this Base URL.',
	},
	{
		match: (s) => s.status === 402 || (s.status === 409 && /token/.test(s.lower)),
		kind: 'insufficient-tokens',
		hint: (s) => insufficientTokensHint(s.details),
	},
	{
		match: (s) => s.status === 403 && /unauthorized access to entity/.test(s.lower),
		kind: 'forbidden-owner',
		hint: 'The item belongs to another account. Use an id created by the account of this credential.',
	},
	{
		match: (s) => s.status === 403 && /forbidden/.test(s.lower),
		kind: 'forbidden-role',
		hint: 'Your account lacks the role this operation needs. Ask the account administrator to grant it, or use another credential.',
	},
	{
		match: status(403),
		kind: 'forbidden',
		hint: 'The service refused this operation for your account.',
	},
	{
		match: (s) => s.status === 404 && s.input.path?.includes('check_tokens') === true,
		kind: 'token-balance-unavailable',
		hint: 'The service could not look up your token balance. Try again later; if it persists, contact the service.',
	},
	{
		match: status(404),
		kind: 'not-found',
		hint: 'Nothing exists at that id. Check the id (ids are numbers) and that it was created with this account.',
	},
	{
		match: status(405),
		kind: 'method-not-allowed',
		hint: 'The service does not support this operation at this address. Check the Base URL; if it is right, please report this bug in the node.',
	},
	{
		match: status(406),
		kind: 'not-acceptable',
		hint: "The service could not answer in JSON. Check that the Base URL points at the service's API.",
	},
	{
		match: status(415),
		kind: 'unsupported-media-type',
		hint: 'The service expected a JSON body. This is a bug in the node: please report it.',
	},
	{
		match: status(429),
		kind: 'rate-limited',
		hint: (s) =>
			`The service is limiting requests${retryAfterNote(header(s.input.headers, 'retry-after'))}. Wait a moment and run again, or lower "Parallel Requests".`,
	},
	{
		match: status(500),
		kind: 'server-error',
		hint: (s) => {
			const id = /\(ID ([0-9a-f]{16})\)/i.exec(s.message)?.[1];
			return id
				? `The service failed on its side and logged it under ID ${id}. Try again; if it keeps failing, send that ID to the service's support.`
				: "The service failed on its side. Try again; if it keeps failing, contact the service's support.";
		},
	},
	{
		match: status(502, 503, 504),
		kind: 'unavailable',
		hint: (s) =>
			`The service is temporarily unavailable${retryAfterNote(header(s.input.headers, 'retry-after'))}. Try again in a few minutes.`,
	},
	// Statuses the contract does not name: the request took too long for the service (408),
	// a refusal no row knows (another 4xx), or a failure on the service's side.
	{ match: status(408), kind: 'request-timeout', hint: UNEXPECTED_ERROR_HINT },
	{
		match: (s) => s.status !== undefined && s.status >= 400 && s.status < 500,
		kind: 'unknown',
		hint: UNEXPECTED_ERROR_HINT,
	},
];

/** Any other status (501, 505, …): the service failed on its side. */
const ANY_OTHER_STATUS: ErrorRow = {
	match: () => true,
	kind: 'server-error',
	hint: UNEXPECTED_ERROR_HINT,
};

/** The refusal of a redirect to another origin, when that is what happened. */
function otherOrigin(seen: Seen): Extract<RedirectRefusal, { reason: 'other-origin' }> | undefined {
	const refusal = seen.input.redirect;
	return refusal?.reason === 'other-origin' ? refusal : undefined;
}

/** The row of the table that describes a failure, as the message and hint a user sees. */
export function mapServiceError(input: ServiceErrorInput): MappedServiceError {
	const seen = see(input);
	const row = SERVICE_ERRORS.find((r) => r.match(seen)) ?? ANY_OTHER_STATUS;
	return {
		kind: row.kind,
		message: row.message?.(seen) ?? seen.message,
		description: typeof row.hint === 'string' ? row.hint : row.hint(seen),
		httpCode: input.status === undefined ? undefined : String(input.status),
		details: seen.details,
	};
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

import { mapServiceError } from '../../../nodes/shared/transport/serviceErrors';
import { redact, redactValue, secretForms } from '../../../nodes/shared/transport/redaction';
import { serviceMessage } from '../../../nodes/shared/transport/answers';

/**
 * One case per row of the contract's Errors table (service-interface.md), with the body
 * shape the contract gives, asserting what the user sees: the service's own message and
 * a description saying what to do.
 */
describe('error mapping: every row of the contract Errors table', () => {
	const rows: Array<{
		row: string;
		status: number;
		body: unknown;
		headers?: Record<string, string>;
		path?: string;
		kind: string;
		message: string | RegExp;
		description: RegExp;
	}> = [
		{
			row: '400 X-API-Version missing',
			status: 400,
			body: {
				code: 400,
				error: 'MISSING_API_VERSION',
				message: 'The X-API-Version header is required and must be 3.',
			},
			kind: 'missing-api-version',
			message: 'The X-API-Version header is required and must be 3.',
			description: /bug in the node/,
		},
		{
			row: '400 X-API-Version unsupported',
			status: 400,
			body: {
				code: 400,
				error: 'INVALID_API_VERSION',
				message: "Invalid X-API-Version value: '7'. Supported versions are: 3.",
			},
			kind: 'invalid-api-version',
			message: "Invalid X-API-Version value: '7'. Supported versions are: 3.",
			description: /Base URL/,
		},
		{
			row: '400 syntactically invalid JSON',
			status: 400,
			body: { code: 400, message: 'Unable to process JSON' },
			kind: 'invalid-json',
			message: 'Unable to process JSON',
			description: /syntax errors/,
		},
		{
			row: '400 unknown property',
			status: 400,
			body: { code: 400, message: 'Unable to process JSON: Unknown property: colour' },
			kind: 'unknown-property',
			message: 'Unable to process JSON: Unknown property: colour',
			description: /"colour".*Remove it/,
		},
		{
			row: '400 unknown check type',
			status: 400,
			body: {
				code: 400,
				message: "Invalid check type 'eudrr'. Allowed types: eudr, deforestation",
			},
			kind: 'invalid-check-type',
			message: "Invalid check type 'eudrr'. Allowed types: eudr, deforestation",
			description: /Choose a check from the list/,
		},
		{
			row: '400 unknown commodity',
			status: 400,
			body: { code: 400, message: "Invalid commodity 'tea'. Allowed types: wood, soy" },
			kind: 'invalid-commodity',
			message: "Invalid commodity 'tea'. Allowed types: wood, soy",
			description: /wood, soy, cocoa, coffee, palm_oil, beef, rubber/,
		},
		{
			row: '400 polygon ring not closed',
			status: 400,
			body: {
				code: 400,
				message:
					'Invalid Polygon in GeoJSON: the ring is not closed. The first and last coordinate of a linear ring must be identical.',
			},
			kind: 'unclosed-ring',
			message: /^Invalid Polygon in GeoJSON: the ring is not closed\./,
			description: /Repair Geometry/,
		},
		{
			row: '400 other invalid geometry',
			status: 400,
			body: { code: 400, message: 'Invalid Geometry in GeoJSON: self-intersection at [1, 2]' },
			kind: 'invalid-geometry',
			message: 'Invalid Geometry in GeoJSON: self-intersection at [1, 2]',
			description: /\[longitude, latitude\]/,
		},
		{
			row: '400 invalid cursor (code as a string)',
			status: 400,
			body: { code: '400', message: 'Cursor not found' },
			path: '/plots',
			kind: 'invalid-cursor',
			message: 'Cursor not found',
			description: /first page/,
		},
		{
			row: '400 insufficient tokens outside make_job (plain string body, JSON content type)',
			status: 400,
			body: 'Insufficient tokens: 30 required, 4 available',
			kind: 'insufficient-tokens',
			message: 'Insufficient tokens: 30 required, 4 available',
			description: /enough free tokens/,
		},
		{
			row: '400 insufficient tokens inside make_job (its own body shape)',
			status: 400,
			body: { error: 'Insufficient tokens', required: 120, available: 80 },
			path: '/jobs/make_job',
			kind: 'insufficient-tokens',
			message: 'Insufficient tokens',
			description: /needs 120 tokens and 80 are free/,
		},
		{
			row: '401 missing or invalid bearer token (plain text)',
			status: 401,
			body: 'Credentials are required to access this resource.',
			headers: { 'www-authenticate': 'Bearer realm="realm"' },
			kind: 'unauthorized',
			message: 'Credentials are required to access this resource.',
			description: /service_live_/,
		},
		{
			row: '403 role missing',
			status: 403,
			body: { code: 403, message: 'HTTP 403 Forbidden' },
			kind: 'forbidden-role',
			message: 'HTTP 403 Forbidden',
			description: /lacks the role/,
		},
		{
			row: "403 another user's resource",
			status: 403,
			body: { code: 403, message: 'Unauthorized access to entity retrieved' },
			kind: 'forbidden-owner',
			message: 'Unauthorized access to entity retrieved',
			description: /another account/,
		},
		{
			row: '404 unknown path or non-numeric path parameter',
			status: 404,
			body: { code: 404, message: 'HTTP 404 Not Found' },
			path: '/plots/plot/abc',
			kind: 'not-found',
			message: 'HTTP 404 Not Found',
			description: /ids are numbers/,
		},
		{
			row: '404 token balance lookup failure (plain string body)',
			status: 404,
			body: 'Token balance not found for user',
			path: '/users/check_tokens',
			kind: 'token-balance-unavailable',
			message: 'Token balance not found for user',
			description: /could not look up your token balance/,
		},
		{
			row: '405 method not allowed',
			status: 405,
			body: { code: 405, message: 'HTTP 405 Method Not Allowed' },
			kind: 'method-not-allowed',
			message: 'HTTP 405 Method Not Allowed',
			description: /Base URL/,
		},
		{
			row: '406 not acceptable',
			status: 406,
			body: { code: 406, message: 'HTTP 406 Not Acceptable' },
			kind: 'not-acceptable',
			message: 'HTTP 406 Not Acceptable',
			description: /JSON/,
		},
		{
			row: '415 unsupported media type',
			status: 415,
			body: { code: 415, message: 'HTTP 415 Unsupported Media Type' },
			kind: 'unsupported-media-type',
			message: 'HTTP 415 Unsupported Media Type',
			description: /expected a JSON body/,
		},
		{
			row: '500 unhandled server error with a log ID',
			status: 500,
			body: {
				code: 500,
				message:
					'There was an error processing your request. It has been logged (ID 0123456789abcdef).',
			},
			kind: 'server-error',
			message:
				'There was an error processing your request. It has been logged (ID 0123456789abcdef).',
			description: /ID 0123456789abcdef/,
		},
		{
			row: 'endpoints that return only `error`',
			status: 400,
			body: { error: 'plot_ids must not be empty' },
			kind: 'bad-request',
			message: 'plot_ids must not be empty',
			description: /rejected the request/,
		},
	];

	it.each(rows)('$row', ({ status, body, headers, path, kind, message, description }) => {
		const mapped = mapServiceError({ status, body, headers, path, method: 'GET' });
		expect(mapped.kind).toBe(kind);
		if (typeof message === 'string') expect(mapped.message).toBe(message);
		else expect(mapped.message).toMatch(message);
		expect(mapped.description).toMatch(description);
		expect(mapped.httpCode).toBe(String(status));
	});

	it.each([
		[408, 'request-timeout'],
		[410, 'unknown'],
		[418, 'unknown'],
		[501, 'server-error'],
	])(
		'a status no row of the contract names (%s) is kind %s, with the same words',
		(status, kind) => {
			expect(mapServiceError({ status, body: '' })).toEqual({
				kind,
				message: `The service answered HTTP ${status}`,
				description:
					'The service answered with an unexpected error. Check the message and try again.',
				httpCode: String(status),
				details: {},
			});
		},
	);

	it('reads a bare JSON string body sent as text', () => {
		expect(serviceMessage('"Invalid username or password"')).toBe('Invalid username or password');
	});

	it('explains a rate limit with its Retry-After', () => {
		const mapped = mapServiceError({ status: 429, body: '', headers: { 'Retry-After': '3' } });
		expect(mapped.kind).toBe('rate-limited');
		expect(mapped.description).toMatch(/retry after 3 s/);
	});

	it('explains a 503 with its Retry-After, and a Retry-After given as a date', () => {
		const seconds = mapServiceError({ status: 503, body: '', headers: { 'Retry-After': '30' } });
		expect(seconds.description).toMatch(/temporarily unavailable \(retry after 30 s\)/);
		const date = 'Sun, 22 Nov 2026 10:00:05 GMT';
		const dated = mapServiceError({ status: 429, body: '', headers: { 'Retry-After': date } });
		expect(dated.description).toContain(`(retry after ${date})`);
	});

	it.each([502, 503, 504])('explains %s as temporarily unavailable', (status) => {
		expect(mapServiceError({ status, body: '' }).kind).toBe('unavailable');
	});

	it('turns network failures into a message without the raw code in it', () => {
		const mapped = mapServiceError({ networkCode: 'ECONNRESET' });
		expect(mapped.kind).toBe('network');
		// n8n rewrites messages that contain a Node error code; the code goes in the description.
		expect(mapped.message).not.toMatch(/ECONNRESET/);
		expect(mapped.description).toMatch(/cut before an answer arrived/);
	});

	it('redacts secrets', () => {
		expect(redact('key service_live_abc123 leaked', ['service_live_abc123'])).toBe(
			'key *** leaked',
		);
	});

	it('redacts a secret in every form: JSON-escaped, \\u-escaped, URL-encoded, form-encoded', () => {
		const secret = 'Pä/"ss w+rd&1';
		const forms = secretForms(secret);
		for (const shown of [
			secret,
			'P\\u00e4/\\"ss w+rd&1',
			JSON.stringify(secret).slice(1, -1),
			JSON.stringify(secret).slice(1, -1).replace('/', '\\/'),
			encodeURIComponent(secret),
			encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
			new URLSearchParams({ p: secret }).toString().slice(2),
		]) {
			expect(forms).toContain(shown);
			expect(redact(`a ${shown} b`, [secret])).toBe('a *** b');
		}
	});

	it('redacts the whole text before a message is cut from it, at every offset', () => {
		const secret = 'service_live_' + 'Rk7Q2mZx9WvT4nB8cY3hJ6dF1gL5pS0aE2uV'; // made up
		for (let offset = 0; offset <= 1100; offset++) {
			const body = { code: 400, message: `${'.'.repeat(offset)}${secret} tail` };
			const message = mapServiceError({
				status: 400,
				body: redactValue(JSON.stringify(body), [secret]),
			}).message;
			expect(message).not.toContain('Rk7Q2m');
			expect(message).not.toContain(secret.slice(-8));
		}
	});

	it('reads JSON text before redacting it: an escape cannot hide a secret', () => {
		const secret = 'service_live_' + 'abcdef123456'; // made up
		const hidden =
			'{"message": "\\u0073ervice_live_abcdef123456", "k": {"service_live_abcdef123456": 1}}';
		expect(redactValue(hidden, [secret])).toEqual({ message: '***', k: { '***': 1 } });
		// Keys such as __proto__ stay own keys of the copy.
		const copy = redactValue(JSON.parse('{"__proto__": "x"}'), [secret]) as object;
		expect(Object.keys(copy)).toEqual(['__proto__']);
	});
});

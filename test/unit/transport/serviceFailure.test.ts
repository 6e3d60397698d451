import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../../../nodes/shared/runner/errorItems';
import {
	attachFailure,
	describeFailure,
	isLasting,
	itemGone,
	networkCodeOf,
	serviceErrorOf,
} from '../../../nodes/shared/transport/serviceFailure';
import type { ServiceContext } from '../../../nodes/shared/transport/serviceContext';
import { toNodeApiError } from '../../../nodes/shared/transport/requestError';

/**
 * serviceErrorOf: the one accessor for what went wrong with a request. Errors are built the
 * way apiRequest builds them (toNodeApiError), and the accessor must answer from what the
 * transport attached, never from the message text.
 */
const node: INode = {
	id: 'n1',
	name: 'Geospatial Analysis',
	type: 'n8n-nodes-geospatial-analysis.geospatialAnalysis',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { getNode: () => node } as unknown as ServiceContext;
const GET = { method: 'GET', path: '/plots/plot/1', itemIndex: 0 };

function transportError(
	parts: {
		status?: number;
		body?: unknown;
		headers?: Record<string, string>;
		networkCode?: string;
	},
	request = GET,
): NodeApiError {
	return toNodeApiError(ctx, parts, request, []);
}

describe('serviceErrorOf: one case per error kind', () => {
	const rows: Array<{
		kind: string;
		status: number;
		body: unknown;
		path?: string;
		transient: boolean;
		mayHaveArrived: boolean;
	}> = [
		{
			kind: 'missing-api-version',
			status: 400,
			body: { code: 400, error: 'MISSING_API_VERSION', message: 'The header is required' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-api-version',
			status: 400,
			body: {
				code: 400,
				error: 'INVALID_API_VERSION',
				message: "Invalid X-API-Version value: '7'",
			},
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-json',
			status: 400,
			body: { code: 400, message: 'Unable to process JSON' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'unknown-property',
			status: 400,
			body: { code: 400, message: 'Unable to process JSON: Unknown property: colour' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-check-type',
			status: 400,
			body: { code: 400, message: "Invalid check type 'x'. Allowed types: a, b" },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-commodity',
			status: 400,
			body: { code: 400, message: "Invalid commodity 'tea'. Allowed types: soy" },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'unclosed-ring',
			status: 400,
			body: { code: 400, message: 'Invalid Polygon in GeoJSON: the ring is not closed.' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-geometry',
			status: 400,
			body: { code: 400, message: 'Invalid Geometry in GeoJSON: self-intersection' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'invalid-cursor',
			status: 400,
			body: { code: 'CURSOR', message: 'Cursor not found' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'bad-request',
			status: 400,
			body: { error: 'plot_ids must not be empty' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'unauthorized',
			status: 401,
			body: 'Credentials are required to access this resource.',
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'forbidden-role',
			status: 403,
			body: { code: 403, message: 'HTTP 403 Forbidden' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'forbidden-owner',
			status: 403,
			body: { code: 403, message: 'Unauthorized access to entity retrieved' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'forbidden',
			status: 403,
			body: { code: 403, message: 'No' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'not-found',
			status: 404,
			body: { code: 404, message: 'HTTP 404 Not Found' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'token-balance-unavailable',
			status: 404,
			body: 'Token balance not found',
			path: '/users/check_tokens',
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'method-not-allowed',
			status: 405,
			body: { code: 405, message: 'HTTP 405 Method Not Allowed' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'not-acceptable',
			status: 406,
			body: { code: 406, message: 'HTTP 406 Not Acceptable' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'unsupported-media-type',
			status: 415,
			body: { code: 415, message: 'HTTP 415 Unsupported Media Type' },
			transient: false,
			mayHaveArrived: false,
		},
		{
			kind: 'rate-limited',
			status: 429,
			body: '',
			transient: true,
			mayHaveArrived: false,
		},
		{
			kind: 'server-error',
			status: 500,
			body: {
				code: 500,
				message:
					'There was an error processing your request. It has been logged (ID 0123456789abcdef).',
			},
			transient: false,
			mayHaveArrived: false,
		},
		{ kind: 'unavailable', status: 502, body: '', transient: true, mayHaveArrived: true },
		{ kind: 'unavailable', status: 503, body: '', transient: true, mayHaveArrived: false },
		{ kind: 'unavailable', status: 504, body: '', transient: true, mayHaveArrived: true },
		{ kind: 'unknown', status: 418, body: 'teapot', transient: false, mayHaveArrived: false },
		{ kind: 'unknown', status: 410, body: 'gone', transient: false, mayHaveArrived: false },
		{ kind: 'request-timeout', status: 408, body: '', transient: false, mayHaveArrived: false },
		{ kind: 'server-error', status: 501, body: '', transient: false, mayHaveArrived: false },
		{ kind: 'server-error', status: 599, body: '', transient: false, mayHaveArrived: false },
	];

	it.each(rows)('$kind ($status)', ({ kind, status, body, path, transient, mayHaveArrived }) => {
		const error = transportError({ status, body }, { ...GET, path: path ?? GET.path });
		expect(serviceErrorOf(error)).toEqual({ kind, status, transient, mayHaveArrived });
	});

	it.each([
		['ECONNREFUSED', false],
		['ENOTFOUND', false],
		['EAI_AGAIN', false],
		['EHOSTUNREACH', false],
		['ECONNRESET', true],
		['ETIMEDOUT', true],
		['ECONNABORTED', true],
		['EPIPE', true],
	])('network error %s: transient; may have arrived: %s', (networkCode, mayHaveArrived) => {
		expect(serviceErrorOf(transportError({ networkCode }))).toEqual({
			kind: 'network',
			networkCode,
			transient: true,
			mayHaveArrived,
		});
	});

	it('an unknown network code is not retried but may have arrived', () => {
		expect(serviceErrorOf(transportError({ networkCode: 'EWHATEVER' }))).toEqual({
			kind: 'network',
			networkCode: 'EWHATEVER',
			transient: false,
			mayHaveArrived: true,
		});
	});
});

describe('callers ask the kind, never the status', () => {
	const statuses = Array.from({ length: 300 }, (_, i) => 300 + i);
	const bodies: unknown[] = [
		'',
		{ code: 403, message: 'Unauthorized access to entity' },
		{ code: 403, message: 'Forbidden' },
		{ code: 409, message: 'Not enough tokens' },
	];

	it('isLasting: every 4xx but 408 and 429 is an answer the next request would repeat, and so is a 3xx not followed', () => {
		for (const status of statuses)
			for (const body of bodies) {
				const failure = serviceErrorOf(transportError({ status, body }));
				const repeats = status < 400 || (status < 500 && status !== 408 && status !== 429);
				expect([status, isLasting(failure)]).toEqual([status, repeats]);
			}
	});

	it('isLasting: the setup (credential, redirect, certificate) and errors the transport did not make', () => {
		expect(isLasting(describeFailure({ kind: 'credential' }))).toBe(true);
		expect(isLasting(describeFailure({ kind: 'redirect', status: 302 }))).toBe(true);
		expect(
			isLasting(describeFailure({ kind: 'certificate', networkCode: 'CERT_HAS_EXPIRED' })),
		).toBe(true);
		expect(isLasting(serviceErrorOf(new Error('not from the transport')))).toBe(true);
		expect(isLasting(describeFailure({ kind: 'network', networkCode: 'ECONNRESET' }))).toBe(false);
		expect(isLasting(describeFailure({ kind: 'unexpected-answer', status: 200 }))).toBe(false);
	});

	it('itemGone: a 404 or a 403 of any wording, and nothing else', () => {
		for (const status of statuses)
			for (const body of bodies) {
				const failure = serviceErrorOf(transportError({ status, body }));
				expect([status, itemGone(failure)]).toEqual([status, status === 403 || status === 404]);
			}
	});
});

describe('serviceErrorOf: Retry-After', () => {
	it.each([429, 503])('keeps a Retry-After in seconds on a %s', (status) => {
		const error = transportError({ status, body: '', headers: { 'retry-after': '3' } });
		expect(serviceErrorOf(error).retryAfterMs).toBe(3000);
		expect(serviceErrorOf(error).transient).toBe(true);
	});

	it('keeps a Retry-After given as an HTTP date, relative to now', () => {
		// now, frozen: however long this machine takes between the two lines, a minute is left
		const now = Date.parse('2026-03-01T12:00:00Z');
		const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
		try {
			const at = new Date(Date.now() + 60_000).toUTCString();
			const ms = serviceErrorOf(
				transportError({ status: 503, body: '', headers: { 'retry-after': at } }),
			).retryAfterMs;
			expect(ms).toBeGreaterThan(50_000);
			expect(ms).toBeLessThanOrEqual(60_000);
		} finally {
			clock.mockRestore();
		}
	});

	it('has none when the service sent none, or an unreadable one', () => {
		expect(serviceErrorOf(transportError({ status: 429, body: '' })).retryAfterMs).toBeUndefined();
		expect(
			serviceErrorOf(transportError({ status: 429, body: '', headers: { 'retry-after': 'soon' } }))
				.retryAfterMs,
		).toBeUndefined();
		expect(serviceErrorOf(undefined).retryAfterMs).toBeUndefined();
	});

	it('never reads it from the wording of a message', () => {
		const worded = new NodeApiError(
			node,
			{},
			{
				message: 'Rate limited',
				description: 'The service is limiting requests (retry after 9 s).',
				httpCode: '429',
			},
		);
		expect(serviceErrorOf(worded)).toEqual({
			kind: 'unknown',
			transient: false,
			mayHaveArrived: false,
		});
		expect(serviceErrorOf({ description: 'retry after 9 s' }).retryAfterMs).toBeUndefined();
	});

	it('prefers what the transport attached over any wording', () => {
		const error = transportError({ status: 429, body: '', headers: { 'retry-after': '4' } });
		error.description = 'retry after 9 s';
		expect(serviceErrorOf(error).retryAfterMs).toBe(4000);
	});
});

describe('serviceErrorOf: insufficient tokens', () => {
	it('reads needed and free from the make_job body (its own shape)', () => {
		const error = transportError(
			{ status: 400, body: { error: 'Insufficient tokens', required: 12, available: 3 } },
			{ method: 'POST', path: '/jobs/make_job', itemIndex: 0 },
		);
		expect(serviceErrorOf(error)).toEqual({
			kind: 'insufficient-tokens',
			status: 400,
			tokens: { needed: 12, free: 3 },
			transient: false,
			mayHaveArrived: false,
		});
	});

	it('reads the other field names the service uses, and numbers sent as text', () => {
		const error = transportError({
			status: 402,
			body: { message: 'Not enough tokens', required_tokens: '40', available_tokens: 0 },
		});
		expect(serviceErrorOf(error).tokens).toEqual({ needed: 40, free: 0 });
	});

	it('has empty token numbers when the service gave none (plain string body)', () => {
		const error = transportError({
			status: 400,
			body: 'Insufficient tokens: 12 required, 3 available',
		});
		expect(serviceErrorOf(error).kind).toBe('insufficient-tokens');
		// The numbers in the text are not parsed: the body carries no fields for them.
		expect(serviceErrorOf(error).tokens).toEqual({});
	});

	it('has no tokens on any other kind', () => {
		expect(serviceErrorOf(transportError({ status: 404, body: '' })).tokens).toBeUndefined();
	});
});

describe('serviceErrorOf on any thrown value', () => {
	it.each([
		['an Error', new Error('boom')],
		['a string', 'boom'],
		['undefined', undefined],
		['null', null],
		['a number', 42],
		['a NodeOperationError of another origin', new NodeOperationError(node, 'other')],
		['a NodeApiError of another origin', new NodeApiError(node, { httpCode: '404' })],
	])('%s: kind unknown', (_label, value) => {
		expect(serviceErrorOf(value)).toEqual({
			kind: 'unknown',
			transient: false,
			mayHaveArrived: false,
		});
	});

	it('finds the failure through wrapping errors that keep a cause', () => {
		const inner = transportError({ status: 503, body: '' });
		const outer = new Error('outer', { cause: new Error('middle', { cause: inner }) });
		expect(serviceErrorOf(outer).status).toBe(503);
		const loop: { cause?: unknown } = {};
		loop.cause = loop;
		expect(serviceErrorOf(loop).kind).toBe('unknown');
	});

	it('survives asNodeError (the per-item error the operations throw)', () => {
		const error = transportError({ status: 503, body: '' });
		const exec = { getNode: () => node } as unknown as IExecuteFunctions;
		expect(serviceErrorOf(asNodeError(exec, error, 2)).status).toBe(503);
	});

	it('is not serialised into what users see, and cannot be changed', () => {
		const error = transportError({ status: 429, body: '', headers: { 'retry-after': '3' } });
		expect(JSON.stringify(error)).not.toMatch(/transient|mayHaveArrived/);
		expect(Object.isFrozen(serviceErrorOf(error))).toBe(true);
	});

	it('attachFailure / describeFailure build the same record the transport attaches', () => {
		const error = attachFailure(
			new Error('x'),
			describeFailure({ kind: 'rate-limited', status: 429, retryAfterMs: 1500 }),
		);
		expect(serviceErrorOf(error)).toEqual({
			kind: 'rate-limited',
			status: 429,
			retryAfterMs: 1500,
			transient: true,
			mayHaveArrived: false,
		});
	});
});

describe('networkCodeOf (what n8n threw → code, read once by the transport)', () => {
	it('reads the code n8n keeps as httpCode on its wrapper', () => {
		expect(networkCodeOf({ httpCode: 'ECONNRESET', message: 'The connection…' })).toBe(
			'ECONNRESET',
		);
		expect(networkCodeOf({ code: 'ETIMEDOUT' })).toBe('ETIMEDOUT');
	});

	it('falls back to the messages of older n8n releases, then to the cause', () => {
		expect(networkCodeOf({ messages: ['socket hang up'] })).toBe('ECONNRESET');
		expect(networkCodeOf({ message: 'connect ECONNREFUSED 127.0.0.1:1' })).toBe('ECONNREFUSED');
		expect(networkCodeOf({ cause: { code: 'EPIPE' } })).toBe('EPIPE');
	});

	it('is undefined for a status or anything else', () => {
		expect(networkCodeOf({ httpCode: '404' })).toBeUndefined();
		expect(networkCodeOf(new Error('Invalid credentials'))).toBeUndefined();
		expect(networkCodeOf(undefined)).toBeUndefined();
	});
});

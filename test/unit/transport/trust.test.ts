/**
 * The pure pieces of the transport's trust rules: redirects (origin only), answers (parsed,
 * summarised, shape-checked), page loops (bounded), certificate errors, request deadlines,
 * and service values never used as regular expressions.
 */
import {
	MAX_KEPT_BODY_CHARS,
	MAX_MESSAGE_CHARS,
	UnexpectedAnswerError,
	boundedBody,
	describeBody,
	htmlTitle,
	parseBody,
	summariseText,
} from '../../../nodes/shared/transport/answers';
import { balanceProblem, normaliseBalance } from '../../../nodes/shared/account/balance';
import { requestTimeoutProperty } from '../../../nodes/shared/transport/authenticationFields';
import { catalogProblem } from '../../../nodes/shared/capabilities/catalog';
import {
	AttemptAborted,
	DEFAULT_REQUEST_TIMEOUT_MS,
	requestTimeoutMs,
	withDeadline,
} from '../../../nodes/shared/transport/deadline';
import { mapServiceError } from '../../../nodes/shared/transport/serviceErrors';
import {
	describeFailure,
	networkCodeOf,
	serviceErrorOf,
} from '../../../nodes/shared/transport/serviceFailure';
import {
	MAX_RETURN_ALL_PAGES,
	PageTrail,
	PaginationError,
	maxPages,
} from '../../../nodes/shared/transport/pageTrail';
import { MAX_REDIRECTS, nextRedirect, originOf } from '../../../nodes/shared/transport/redirects';
import { credentialInfo } from '../../../nodes/shared/transport/nodeCredential';
import { openRunScope } from '../../../nodes/shared/transport/serviceContext';
import { retryDelay } from '../../../nodes/shared/transport/retry';
import { validateAgainstSchema } from '../../../nodes/shared/jobs/schemaCheck';
import { plotsOfResponse } from '../../../nodes/shared/plots/batching';
import { simplifyPlotResult } from '../../../nodes/shared/results/flatten';
import { jobVisualisationOf } from '../../../nodes/shared/results/plotOutcome';

const BIG = 50 * 1024;

describe('redirects: the credential stays within its origin', () => {
	const base = {
		currentUrl: 'https://api.example.com/v3/plots',
		method: 'GET',
		allowedOrigin: 'https://api.example.com',
		hops: 0,
	};

	it.each([
		['another host', 'https://evil.example.net/x', 'https://evil.example.net'],
		['https → http on the same host', 'http://api.example.com/x', 'http://api.example.com'],
		['another port', 'https://api.example.com:8443/x', 'https://api.example.com:8443'],
		['a protocol-relative address', '//cdn.example.org/x', 'https://cdn.example.org'],
	])('refuses %s, naming its origin', (_label, location, origin) => {
		expect(nextRedirect({ ...base, status: 302, location })).toEqual({
			follow: false,
			refusal: { reason: 'other-origin', origin, allowedOrigin: 'https://api.example.com' },
		});
	});

	it('follows a same-origin redirect (relative or absolute), keeping the method on 307/308', () => {
		expect(nextRedirect({ ...base, status: 301, location: '/v3/plots/' })).toEqual({
			follow: true,
			url: 'https://api.example.com/v3/plots/',
			method: 'GET',
			keepBody: false,
		});
		expect(
			nextRedirect({
				...base,
				method: 'POST',
				status: 307,
				location: 'https://api.example.com/v4/x',
			}),
		).toEqual({
			follow: true,
			url: 'https://api.example.com/v4/x',
			method: 'POST',
			keepBody: true,
		});
	});

	it('never turns a POST into a GET, refuses other schemes, a missing Location and too many hops', () => {
		expect(nextRedirect({ ...base, method: 'POST', status: 302, location: '/y' })).toMatchObject({
			follow: false,
			refusal: { reason: 'method-change', status: 302 },
		});
		expect(nextRedirect({ ...base, status: 302, location: 'file:///etc/passwd' })).toMatchObject({
			refusal: { reason: 'not-http', scheme: 'file' },
		});
		expect(nextRedirect({ ...base, status: 302, location: undefined })).toMatchObject({
			refusal: { reason: 'no-location' },
		});
		expect(
			nextRedirect({ ...base, status: 302, location: '/z', hops: MAX_REDIRECTS }),
		).toMatchObject({ refusal: { reason: 'too-many', hops: MAX_REDIRECTS } });
	});

	it('lets a download (no credential) go to any http(s) origin', () => {
		expect(
			nextRedirect({
				...base,
				allowedOrigin: undefined,
				status: 302,
				location: 'http://cdn.test/a',
			}),
		).toMatchObject({ follow: true, url: 'http://cdn.test/a' });
		expect(originOf('data:image/png;base64,AAAA')).toBeUndefined();
		expect(originOf('https://a.test:443/x')).toBe('https://a.test');
	});

	it('says why a redirect was refused without the full address', () => {
		const mapped = mapServiceError({
			status: 302,
			method: 'GET',
			path: '/users/check_tokens',
			redirect: {
				reason: 'other-origin',
				origin: 'http://127.0.0.1:9',
				allowedOrigin: 'https://api.example.com',
			},
		});
		expect(mapped.kind).toBe('redirect');
		expect(mapped.message).toContain('http://127.0.0.1:9');
		expect(mapped.message).toContain('GET /users/check_tokens');
		expect(mapped.description).toContain('https://api.example.com');
		expect(describeFailure({ kind: 'redirect', status: 302 })).toMatchObject({
			mayHaveArrived: false,
			transient: false,
		});
	});
});

describe('answers: parsed, summarised, never 50 KB', () => {
	const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway &amp; co</title></head><body>${'x'.repeat(BIG)}</body></html>`;

	it('tells JSON, cut-off text and empty bodies apart', () => {
		expect(parseBody('{"a":1}')).toEqual({ kind: 'json', value: { a: 1 } });
		expect(parseBody('"text"')).toEqual({ kind: 'json', value: 'text' });
		expect(parseBody('null')).toEqual({ kind: 'json', value: null });
		expect(parseBody('{"plots": [{"plot_id": "1"')).toEqual({
			kind: 'text',
			text: '{"plots": [{"plot_id": "1"',
		});
		expect(parseBody('')).toEqual({ kind: 'empty' });
		expect(parseBody(undefined)).toEqual({ kind: 'empty' });
		expect(parseBody({ a: 1 })).toEqual({ kind: 'json', value: { a: 1 } });
	});

	it('names an HTML page by its title and clips other text', () => {
		expect(htmlTitle(page)).toBe('502 Bad Gateway & co');
		expect(summariseText(page)).toBe('an HTML page titled "502 Bad Gateway & co"');
		expect(summariseText('y'.repeat(BIG)).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
		expect(describeBody(parseBody('{"plots": [{"plot_id"'))).toMatch(/^text that is not JSON/);
		expect(describeBody(parseBody('{"message":"ok","extra":1}'))).toBe(
			'a JSON object with the keys "message", "extra"',
		);
		expect(describeBody(parseBody('null'))).toBe('null');
	});

	it('keeps a small body on an error as it was and a large one as its summary', () => {
		expect(boundedBody({ code: 400, message: 'x' })).toEqual({ code: 400, message: 'x' });
		expect(String(boundedBody(page))).toBe('an HTML page titled "502 Bad Gateway & co"');
		const huge = boundedBody({ message: 'z'.repeat(BIG) });
		expect(typeof huge).toBe('string');
		expect(String(huge).length).toBeLessThanOrEqual(MAX_KEPT_BODY_CHARS);
	});

	it.each([
		[
			'an HTML page',
			502,
			page,
			/^The service answered with an HTML page titled "502 Bad Gateway & co"$/,
		],
		['50 KB of text', 500, 'w '.repeat(BIG / 2), /^w w w/],
		['a JSON message of 50 KB', 400, { code: 400, message: 'm'.repeat(BIG) }, /^mmm/],
	])(
		'maps %s to a message of a few hundred characters at most',
		(_label, status, body, pattern) => {
			const mapped = mapServiceError({ status, body, method: 'GET', path: '/plots' });
			expect(mapped.message).toMatch(pattern);
			expect(mapped.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS + 40);
			expect(mapped.description.length).toBeLessThan(500);
		},
	);

	it('makes an unexpected 2xx answer an error naming the endpoint, that may have been carried out', () => {
		const mapped = mapServiceError({
			status: 200,
			method: 'POST',
			path: '/plots/make_plot',
			unexpected: 'it was null',
		});
		expect(mapped.kind).toBe('unexpected-answer');
		expect(mapped.message).toBe(
			'Unexpected answer from the service to POST /plots/make_plot: it was null',
		);
		expect(mapped.description).toMatch(/before running again/);
		expect(describeFailure({ kind: 'unexpected-answer', status: 200 })).toMatchObject({
			mayHaveArrived: true,
			transient: false,
		});
	});
});

describe('answer shapes of the endpoints the contract documents', () => {
	it('make_plot: a plot, {plots}, {plot} or a list of plots with ids; anything else is an error', () => {
		expect(plotsOfResponse({ plot_id: 7 })).toEqual([{ plot_id: 7 }]);
		expect(plotsOfResponse({ plot: { plot_id: '8' } })).toEqual([{ plot_id: '8' }]);
		for (const body of [{ message: 'ok' }, null, 'nope', 42, { plots: 'x' }, [{ name: 'no id' }]]) {
			let thrown: unknown;
			try {
				plotsOfResponse(body);
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(UnexpectedAnswerError);
			expect((thrown as Error).message).toMatch(
				/^Unexpected answer from the service to POST \/plots\/make_plot: /,
			);
			// The request was carried out: plots may exist.
			expect(serviceErrorOf(thrown)).toMatchObject({
				kind: 'unexpected-answer',
				mayHaveArrived: true,
			});
		}
	});

	it('token balance: at least one of its numbers, under any of its names', () => {
		expect(balanceProblem({ 'Token balance': 100, 'Reserved Tokens': 22, 'Free Tokens': 78 })).toBe(
			undefined,
		);
		expect(balanceProblem({ free: '5' })).toBeUndefined();
		expect(balanceProblem({})).toMatch(/none of the balance numbers/);
		expect(balanceProblem({ 'Token balance': 'lots' })).toMatch(/none of the balance numbers/);
		expect(balanceProblem([1, 2])).toMatch(/not a token balance/);
		// A partial balance reads the missing numbers as unknown (null), never as 0.
		expect(normaliseBalance({ 'Token balance': 5 })).toMatchObject({
			total: 5,
			reserved: null,
			free: null,
		});
	});

	it('catalog: a list, or a list under capabilities/items/data; anything else is an error', () => {
		expect(catalogProblem([])).toBeUndefined();
		expect(catalogProblem({ data: [] })).toBeUndefined();
		expect(catalogProblem({})).toMatch(/not a list of capabilities/);
		expect(catalogProblem({ capabilities: 'eudr' })).toMatch(/not a list of capabilities/);
	});
});

describe('page loops are bounded', () => {
	const page = (n: number, cursor: string | null, hasMore?: boolean) => ({
		plots: Array.from({ length: n }, (_, i) => ({ plot_id: String(i) })),
		meta: { next_cursor: cursor, ...(hasMore === undefined ? {} : { has_more: hasMore }) },
	});

	it('follows cursors to the end', () => {
		const trail = new PageTrail('/plots', 'plots');
		expect(trail.read(page(2, 'a', true)).next).toBe('a');
		expect(trail.read(page(2, 'b')).next).toBe('b');
		expect(trail.read(page(1, null, false))).toEqual({ records: [{ plot_id: '0' }] });
		expect(trail.pageCount).toBe(3);
	});

	it.each([
		[
			'a repeated cursor',
			[page(1, 'a', true), page(1, 'b', true), page(1, 'a', true)],
			3,
			/sent before/,
		],
		[
			'has_more without a cursor',
			[page(1, null, true)],
			1,
			/has_more: true\) but gives no next_cursor/,
		],
		['an empty page that says more follow', [page(0, 'a', true)], 1, /empty page/],
		['an answer without its list', [{ items: [] }], 1, /no "plots" list/],
		['null', [null], 1, /no "plots" list \(it was null\)/],
		['a list that is not an array', [{ plots: {} }], 1, /"plots" is not a list/],
	])('stops on %s, naming the endpoint and the page', (_label, answers, failingPage, problem) => {
		const trail = new PageTrail('/plots', 'plots');
		let error: unknown;
		for (const answer of answers) {
			try {
				trail.read(answer);
			} catch (e) {
				error = e;
				break;
			}
		}
		expect(error).toBeInstanceOf(PaginationError);
		expect((error as PaginationError).message).toMatch(problem);
		expect((error as PaginationError).message).toContain('GET /plots');
		expect((error as PaginationError).page).toBe(failingPage);
	});

	it('reads no further than a Limit needs, and at most MAX_RETURN_ALL_PAGES pages for Return All', () => {
		expect(maxPages(5)).toBe(5);
		expect(maxPages(undefined)).toBe(MAX_RETURN_ALL_PAGES);
		// With a Limit reached, the answer's claim of further pages (even a broken one) is not followed.
		const limited = new PageTrail('/jobs', 'jobs', 2);
		expect(limited.read({ jobs: [{}, {}], meta: { has_more: true } })).toEqual({
			records: [{}, {}],
		});
		const all = new PageTrail('/jobs', 'jobs');
		for (let i = 1; i < MAX_RETURN_ALL_PAGES; i++)
			expect(all.read({ jobs: [{}], meta: { next_cursor: `c${i}`, has_more: true } }).next).toBe(
				`c${i}`,
			);
		expect(() => all.read({ jobs: [{}], meta: { next_cursor: 'last', has_more: true } })).toThrow(
			/Return All reads at most 1000 pages/,
		);
	});
});

describe('certificate errors say so', () => {
	it.each([
		'CERT_HAS_EXPIRED',
		'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
		'SELF_SIGNED_CERT_IN_CHAIN',
		'DEPTH_ZERO_SELF_SIGNED_CERT',
		'ERR_TLS_CERT_ALTNAME_INVALID',
	])('%s: a certificate problem, not the credential; never retried', (code) => {
		expect(networkCodeOf({ httpCode: code })).toBe(code);
		const mapped = mapServiceError({ networkCode: code, method: 'GET', path: '/plots' });
		expect(mapped.kind).toBe('certificate');
		expect(mapped.message).toBe("The service's TLS certificate was not accepted");
		expect(mapped.description).toMatch(/certificate/);
		expect(mapped.description).toMatch(/not with the API key or password/);
		expect(describeFailure({ kind: 'certificate', networkCode: code })).toMatchObject({
			mayHaveArrived: false,
			transient: false,
		});
		expect(retryDelay({ networkCode: code }, 1, true)).toBeUndefined();
	});

	it('reads the code from the message of a login that failed on a certificate', () => {
		expect(
			networkCodeOf({
				messages: ['Login failed: certificate not accepted (TLS error CERT_HAS_EXPIRED).'],
			}),
		).toBe('CERT_HAS_EXPIRED');
	});
});

describe('request deadlines', () => {
	it('the node option defaults to the transport default', () => {
		expect(requestTimeoutProperty.default).toBe(DEFAULT_REQUEST_TIMEOUT_MS / 1000);
	});

	it('applies the default when the node has no Request Timeout (poll, load options, older nodes)', () => {
		const node = { name: 'n' };
		const missing = {
			getNode: () => node,
			getInputData: () => [],
			getNodeParameter: () => {
				throw new Error('Could not get parameter');
			},
		};
		const poll = {
			getNode: () => node,
			getNodeParameter: (_n: string, fallback: unknown) => fallback,
		};
		const set = { getNode: () => node, getNodeParameter: () => '5' };
		expect(requestTimeoutMs(missing as never)).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
		expect(requestTimeoutMs(poll as never)).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
		expect(requestTimeoutMs(set as never)).toBe(5000);
		expect(() => requestTimeoutMs({ ...set, getNodeParameter: () => 'soon' } as never)).toThrow(
			/^Request Timeout must be a number of seconds/,
		);
	});

	it('aborts an attempt that does not settle, and its signal with it', async () => {
		let seen: AbortSignal | undefined;
		const never = withDeadline(20, undefined, async (signal) => {
			seen = signal;
			return await new Promise(() => undefined);
		});
		await expect(never).rejects.toEqual(new AttemptAborted('deadline'));
		expect(seen?.aborted).toBe(true);
	});

	it('ends on the execution cancel signal, and passes a settled result through', async () => {
		const cancel = new AbortController();
		const waiting = withDeadline(
			60_000,
			cancel.signal,
			async () => await new Promise(() => undefined),
		);
		cancel.abort();
		await expect(waiting).rejects.toMatchObject({ reason: 'cancelled' });
		await expect(withDeadline(60_000, undefined, async () => 7)).resolves.toBe(7);
	});

	it('maps an abandoned attempt to a message without n8n error codes, with what to do', () => {
		const mapped = mapServiceError({
			networkCode: 'ETIMEDOUT',
			timedOutAfterMs: 2000,
			method: 'GET',
			path: '/plots',
		});
		expect(mapped.message).toBe('The service did not answer within 2 s');
		expect(mapped.description).toMatch(/Request Timeout/);
	});
});

describe('long-lived contexts (a poller reuses one for every poll)', () => {
	it('read the credential again in a new run scope (a new poll of the trigger)', async () => {
		let baseUrl = 'https://old.example.com';
		const ctx = {
			getNode: () => ({ name: 'n' }),
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
			getCredentials: async () => ({ baseUrl, apiKey: 'service_live_' + 'forget_test' }),
		};
		expect((await credentialInfo.call(ctx as never)).origin).toBe('https://old.example.com');
		baseUrl = 'https://new.example.com';
		expect((await credentialInfo.call(ctx as never)).origin).toBe('https://old.example.com');
		openRunScope(ctx);
		expect((await credentialInfo.call(ctx as never)).origin).toBe('https://new.example.com');
	});
});

describe('service values are never regular expressions', () => {
	it('finds the visualisation of a plot whose id holds regex characters', () => {
		const job = {
			job_id: '9',
			job_visualization_url: ['https://x.test/v/1(.png', 'https://x.test/v/2.png'],
		};
		expect(() => simplifyPlotResult({ plot_id: '1(' }, job)).not.toThrow();
		// (the row's image_url is null here: a plot without results of this job shows none;
		// the lookup itself is what must treat the id as text)
		expect(jobVisualisationOf('1(', job)).toBe('https://x.test/v/1(.png');
		expect(jobVisualisationOf('.*', job) ?? null).toBeNull();
	});

	it("leaves a catalog pattern that could backtrack for minutes to the service's own check", () => {
		const evil = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
		expect(validateAgainstSchema(evil, { code: `${'a'.repeat(40)}!` })).toEqual([]);
		const alternation = {
			type: 'object',
			properties: { code: { type: 'string', pattern: '^(a|aa)*$' } },
		};
		expect(validateAgainstSchema(alternation, { code: `${'a'.repeat(40)}!` })).toEqual([]);
		const simple = {
			type: 'object',
			properties: { code: { type: 'string', pattern: '^[A-Z]{2}$' } },
		};
		expect(validateAgainstSchema(simple, { code: 'abc' })).toEqual([
			'config.code: must match the pattern ^[A-Z]{2}$',
		]);
	});
});

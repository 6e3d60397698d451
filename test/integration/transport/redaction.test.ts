/**
 * No secret survives in what a user sees, wherever the service puts it: through n8n's engine
 * against a loopback service that echoes the credential's API key, password, JWT or Basic
 * value (as it is,
 * JSON-escaped or URL-encoded) at every offset of an error message (400) and of a text body
 * that is not JSON (200), from the first character to past the longest cut the node makes
 * (MAX_KEPT_BODY_CHARS). Every input item asks for another offset (Continue On Fail: one
 * error item per offset); no piece of 8 characters of the secret may appear in any item.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_KEPT_BODY_CHARS, MAX_MESSAGE_CHARS } from '../../../nodes/shared/transport/answers';
import { CredentialStore, runNode } from '../../helpers/engine';
import type { Loopback } from '../../helpers/loopback';
import { json, startLoopback, text } from '../../helpers/loopback';

// Made-up values (not secrets).
const PREFIX = 'service_live_';
const API_KEY = `${PREFIX}Rk7Q2mZx9WvT4nB8cY3hJ6dF1gL5pS0aE2uV`;
const USERNAME = 'redaction.tester';
const PASSWORD = 'Pässw0rd/"&+ =?x%Zq9';
const JWT =
	'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZWRhY3Rpb24udGVzdGVyIiwiZXhwIjo0MTAyNDQ0ODAwfQ.Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c';

/** Past the longest cut (a kept body) plus the secret itself. */
const LAST_OFFSET = MAX_KEPT_BODY_CHARS + 100;
const OFFSETS = Array.from({ length: LAST_OFFSET + 1 }, (_, i) => i);
const WINDOW = 8;
/** Jest's time limit for one case of every offset (see the cases). */
const SLOW_CASE_TIMEOUT_MS = 300_000;

type Kind = 'api key' | 'password' | 'JWT' | 'Basic value';
type Form = 'as it is' | 'JSON-escaped' | 'URL-encoded';
const FORMS: Record<Form, (s: string) => string> = {
	'as it is': (s) => s,
	'JSON-escaped': (s) => JSON.stringify(s).slice(1, -1),
	'URL-encoded': (s) => encodeURIComponent(s),
};
/** What the login sends in its Authorization: Basic header. */
const BASIC = Buffer.from(`${USERNAME}:${PASSWORD}`, 'utf8').toString('base64');
const SECRET: Record<Kind, string> = {
	'api key': API_KEY,
	password: PASSWORD,
	JWT,
	'Basic value': BASIC,
};

/** Every string in the items, keys included. */
function textsOf(value: unknown, out: string[] = []): string[] {
	if (typeof value === 'string') out.push(value);
	else if (Array.isArray(value)) for (const v of value) textsOf(v, out);
	else if (value && typeof value === 'object')
		for (const [k, v] of Object.entries(value)) {
			out.push(k);
			textsOf(v, out);
		}
	return out;
}

/** Pieces of WINDOW characters of each form of the secret (the public key prefix left out). */
function pieces(secret: string): string[] {
	const out = new Set<string>();
	for (const form of Object.values(FORMS)) {
		const shown = form(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
		for (let i = 0; i + WINDOW <= shown.length; i++) out.add(shown.slice(i, i + WINDOW));
	}
	return [...out];
}

function leaks(items: INodeExecutionData[], secret: string): string[] {
	const all = pieces(secret);
	const found: string[] = [];
	items.forEach((item, i) => {
		for (const t of textsOf(item.json))
			for (const piece of all)
				if (t.includes(piece)) found.push(`item ${i}: "${piece}" in ${JSON.stringify(t)}`);
	});
	return found;
}

describe('secrets from the service are redacted before anything is cut (engine → loopback)', () => {
	let service: Loopback;
	let echo: { status: 400 | 200; shown: string };

	beforeAll(async () => {
		service = await startLoopback((req, res) => {
			if (req.path === '/login') return json(res, 200, { token: JWT });
			const offset = Number(/^\/plots\/plot\/(\d+)$/.exec(req.path)?.[1]) - 1;
			if (!(offset >= 0)) return json(res, 404, { code: 404, message: 'HTTP 404 Not Found' });
			const said = `${'.'.repeat(offset)}${echo.shown}${' tail'.repeat(40)}`;
			if (echo.status === 400) return json(res, 400, { code: 400, message: said });
			return text(res, 200, said);
		});
	});
	afterAll(async () => await service.close());

	const store = (kind: Kind) =>
		kind === 'api key'
			? new CredentialStore({ geospatialAnalysisApi: { baseUrl: service.url, apiKey: API_KEY } })
			: new CredentialStore({
					geospatialAnalysisLoginApi: {
						baseUrl: service.url,
						username: USERNAME,
						password: PASSWORD,
						sessionToken: JWT,
					},
				});

	const cases: Array<[Kind, Form, 400 | 200]> = [];
	// The key, the JWT and the Basic value read the same in every form; the password does not.
	for (const kind of Object.keys(SECRET) as Kind[])
		for (const form of Object.keys(FORMS) as Form[])
			if (kind === 'password' || form === 'as it is')
				for (const status of [400, 200] as const) cases.push([kind, form, status]);

	it.each(cases)(
		'%s (%s) in a %s answer, at every offset from 0 to past the longest cut',
		async (kind, form, status) => {
			echo = { status, shown: FORMS[form](SECRET[kind]) };
			const { items, error } = await runNode({
				parameters: {
					...(kind === 'api key' ? {} : { authentication: 'login' }),
					resource: 'plot',
					operation: 'get',
					plotId: '={{ $json.id }}',
				},
				input: OFFSETS.map((offset) => ({ id: String(offset + 1) })),
				store: store(kind),
				continueOnFail: true,
			});
			expect(error).toBeUndefined();
			expect(items).toHaveLength(OFFSETS.length);
			// Each item is the error of its offset, in the service's words up to the cut.
			for (const item of items) expect(typeof item.json.error).toBe('string');
			if (status === 400) {
				expect(items[0].json.error).toMatch(/^\*\*\* tail tail/);
				expect(items[MAX_MESSAGE_CHARS - 10].json.error).toMatch(/^\.{250,}/);
			} else expect(items[0].json.error).toMatch(/: "\*\*\* tail tail/);
			expect(leaks(items, SECRET[kind])).toEqual([]);
			// The check itself finds a piece that was shown (it is not blind).
			const shownPiece = `x${FORMS[form](SECRET[kind]).slice(-10)}`;
			expect(leaks([{ json: { error: shownPiece } as IDataObject }], SECRET[kind])).not.toEqual([]);
		},
		// genuinely long work, not a wait: 1,101 requests through n8n's engine per case, which
		// beside busy processes (CI runs the suites so) takes longer than jest's default 60 s
		SLOW_CASE_TIMEOUT_MS,
	);

	it('a session token renewed during the run is redacted from the answers that follow', async () => {
		const renewed =
			'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZW5ld2VkIiwiZXhwIjo0MTAyNDQ0ODAwfQ.R3n3w3dT0k3nS1gn4tur3Xy9Zq8Wv7Ut6Sr5Qp4On3M';
		const plain = await startLoopback((req, res) => {
			if (req.path === '/login') return json(res, 200, { token: renewed });
			if (req.headers.authorization !== `Bearer ${renewed}`)
				return json(res, 401, { code: 401, message: 'expired' });
			// A hostile answer: the token it was just sent, in a field the node outputs.
			return json(res, 200, { plot_id: '1', plot_name: `echo ${renewed} end` });
		});
		try {
			const { items, error } = await runNode({
				parameters: { authentication: 'login', resource: 'plot', operation: 'get', plotId: '1' },
				store: new CredentialStore({
					geospatialAnalysisLoginApi: {
						baseUrl: plain.url,
						username: USERNAME,
						password: PASSWORD,
						sessionToken: JWT,
					},
				}),
			});
			expect(error).toBeUndefined();
			expect(plain.requests.filter((r) => r.path === '/login')).toHaveLength(1);
			expect(items[0].json.plot_name).toBe('echo *** end');
			expect(leaks(items, renewed)).toEqual([]);
		} finally {
			await plain.close();
		}
	});
});

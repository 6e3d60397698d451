/** HTTP layer of the fake: Fastify, one dispatcher for the contract routes, and the /__fake/ control surface. */
import { randomBytes } from 'crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FakeClock } from './clock';
import type { Capability } from './data';
import { GeometryError } from './geo';
import {
	apiError,
	forbiddenRole,
	HttpError,
	httpStatusError,
	notFound,
	plainStringError,
	STATUS_TEXT,
	type BodyKind,
} from './http-error';
import type { JwtIssuer } from './jwt';
import { fmtTs, isObj, type Store, type UserRec } from './store';
import { idPattern, variantName, type FakeVariant } from './variant';

export const V2_RETIREMENT = new Date('2026-07-01T00:01:00Z');
export const SUPPORTED_VERSIONS = ['3'];

export interface RequestLogEntry {
	/** real wall-clock time the request arrived (ISO) */
	at: string;
	/** fake-clock time the request arrived (ISO) */
	fakeAt: string;
	method: string;
	path: string;
	query: Record<string, string>;
	/** lower-case names; authorization, proxy-authorization, cookie and x-api-key removed */
	headers: Record<string, string>;
	/** parsed JSON body (password/token/secret/api_key values redacted) or the raw text when it is not JSON */
	body?: unknown;
	/** status sent (or, for drop-after, that would have been sent); 0 for drop-before */
	status: number;
	user?: string;
	/** how the caller authenticated */
	auth?: 'jwt' | 'api_key' | 'basic';
	/** set when a fault was applied */
	fault?: Fault['kind'];
	/** true when the connection was destroyed instead of answered */
	dropped?: boolean;
}

export type FaultMatch = { method?: string; path?: string | RegExp };
/**
 * In-process tests only (`faults.hold` of index.ts): a `delay` or `delay-after` that holds the
 * request until `released` settles instead of waiting `ms`; `arrive` is called as it is held.
 * A test waits for the request, does what it must while it is held, then lets it go: no race
 * with a number of milliseconds.
 */
export interface FaultHold {
	arrive(): void;
	released: Promise<unknown>;
}
export type Fault = {
	match?: FaultMatch;
	times?: number;
	/** let this many matching requests through untouched before the fault applies (default 0) */
	skip?: number;
} & (
	| { kind: 'status'; status: 404 | 429 | 500 | 502 | 503 | 504; retryAfterSeconds?: number }
	| { kind: 'drop-before' }
	/** processed fully, then the socket is destroyed (after `ms`, default at once) */
	| { kind: 'drop-after'; ms?: number }
	| { kind: 'delay'; ms: number; hold?: FaultHold }
	/** processed fully, then a gateway's answer instead of the service's (its answer is lost) */
	| { kind: 'status-after'; status: 502 | 504 }
	/** processed fully, then answered only after `ms` (a slow answer; a client deadline makes it a timeout) */
	| { kind: 'delay-after'; ms: number; hold?: FaultHold }
);

const FAULT_KINDS = ['status', 'drop-before', 'drop-after', 'delay', 'status-after', 'delay-after'];

/** A `delay` / `delay-after` fault's wait: `ms`, or until a test releases its hold. */
async function delayFor(fault: { ms: number; hold?: FaultHold }): Promise<void> {
	if (!fault.hold) return await new Promise((r) => setTimeout(r, Math.max(0, fault.ms)));
	fault.hold.arrive();
	await fault.hold.released.catch(() => undefined);
}

export interface ServerDeps {
	clock: FakeClock;
	store: Store;
	jwt: JwtIssuer;
	plainStringStyle: 'json-string' | 'raw';
	baseUrl: () => string;
	onReset: () => void;
	/** shapes where the contract is silent (variant.ts); also decides the id pattern of the routes */
	variant: FakeVariant;
}

type Method = 'GET' | 'POST';
interface Ctx {
	req: FastifyRequest;
	params: string[];
	query: Record<string, string>;
	user?: UserRec;
	body?: unknown;
	headers: Record<string, string>;
}
interface Route {
	pattern: RegExp;
	methods: Partial<
		Record<
			Method,
			{
				handler: (c: Ctx) => unknown | Promise<unknown>;
				role?: string;
				body?: boolean;
				login?: boolean;
			}
		>
	>;
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);
const SECRET_KEYS = /^(password|passwd|secret|token|api_?key|access_?token|jwt)$/i;
const PNG_1X1 = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

function redact(v: unknown): unknown {
	if (Array.isArray(v)) return v.map(redact);
	if (isObj(v)) {
		const out: Record<string, unknown> = {};
		for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(x);
		return out;
	}
	return v;
}

function firstString(v: unknown): string | undefined {
	if (Array.isArray(v)) return v.length ? String(v[v.length - 1]) : undefined;
	return v === undefined ? undefined : String(v);
}

function flatHeaders(req: FastifyRequest): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(req.headers))
		if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
	return out;
}

function acceptsJson(accept: string | undefined): boolean {
	if (!accept || !accept.trim()) return true;
	return accept.split(',').some((part) => {
		const [type, ...params] = part
			.trim()
			.toLowerCase()
			.split(';')
			.map((s) => s.trim());
		const q = params.find((p) => p.startsWith('q='));
		if (q && Number(q.slice(2)) === 0) return false;
		return ['application/json', 'application/*', '*/*', 'application/geo+json'].includes(type);
	});
}

function isJsonContentType(ct: string | undefined): boolean {
	if (!ct) return false;
	const t = ct.split(';')[0].trim().toLowerCase();
	return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
}

export function errorId(): string {
	return randomBytes(8).toString('hex');
}

export class FakeHttp {
	readonly app: FastifyInstance;
	readonly log: RequestLogEntry[] = [];
	faults: (Fault & { remaining: number; skipped?: number })[] = [];
	readonly internalErrors: { id: string; error: string }[] = [];
	private routes: Route[];

	constructor(private readonly d: ServerDeps) {
		this.app = Fastify({
			logger: false,
			bodyLimit: 64 * 1024 * 1024,
			forceCloseConnections: true,
			exposeHeadRoutes: false,
		});
		this.app.removeAllContentTypeParsers();
		this.app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) =>
			done(null, body),
		);
		this.app.setErrorHandler((err, _req, reply) => {
			const e = err as { statusCode?: number; code?: string };
			if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
				return reply.code(413).send({ code: 413, message: 'HTTP 413 Request Entity Too Large' });
			if (e.statusCode && e.statusCode < 500)
				return reply.code(400).send({ code: 400, message: 'Unable to process JSON' });
			const id = errorId();
			this.internalErrors.push({ id, error: String((err as Error)?.stack ?? err) });
			return reply.code(500).send({
				code: 500,
				message: `There was an error processing your request. It has been logged (ID ${id}).`,
			});
		});
		this.routes = this.buildRoutes();
		this.registerControl();
		this.app.route({
			method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
			url: '/*',
			handler: (req, reply) => this.dispatch(req, reply),
		});
	}

	// ---------- contract routes ----------

	private buildRoutes(): Route[] {
		const { tokens, catalog, plots, jobs, runs, protectedAreas } = this.d.store;
		const uname = (c: Ctx) => c.user!.username;
		// plot, job and run ids: numbers, or UUIDs under the `ids=uuid` variant
		const id = idPattern(this.d.variant);
		return [
			// users
			{ pattern: /^\/login$/, methods: { POST: { handler: (c) => this.login(c), login: true } } },
			// plots
			{
				pattern: /^\/plots\/make_plot$/,
				methods: {
					POST: { handler: (c) => plots.make(uname(c), c.body), role: 'analyst', body: true },
				},
			},
			{
				pattern: new RegExp(`^/plots/plot/(${id})$`),
				methods: { GET: { handler: (c) => plots.view(plots.owned(uname(c), c.params[0])) } },
			},
			{
				pattern: /^\/plots$/,
				methods: { GET: { handler: (c) => plots.list(uname(c), c.query) } },
			},
			// analysis runs
			{
				pattern: /^\/analysis-runs$/,
				methods: { GET: { handler: (c) => runs.forPlot(uname(c), c.query) } },
			},
			{
				pattern: new RegExp(`^/analysis-runs/(${id})$`),
				methods: { GET: { handler: (c) => runs.view(runs.owned(uname(c), c.params[0]), true) } },
			},
			// jobs
			{
				pattern: /^\/jobs\/make_job$/,
				methods: {
					POST: {
						handler: (c) =>
							jobs.make(
								uname(c),
								c.body,
								(c.headers['x-dry-run'] ?? '').trim().toLowerCase() === 'true',
							),
						role: 'analyst',
						body: true,
					},
				},
			},
			{
				pattern: new RegExp(`^/jobs/job/(${id})$`),
				methods: { GET: { handler: (c) => jobs.view(jobs.owned(uname(c), c.params[0]), true) } },
			},
			{ pattern: /^\/jobs$/, methods: { GET: { handler: (c) => jobs.list(uname(c), c.query) } } },
			// tokens
			{
				pattern: /^\/users\/check_tokens$/,
				methods: { GET: { handler: (c) => tokens.checkTokens(uname(c)) } },
			},
			// catalog
			{
				pattern: /^\/v3\/discovery\/capabilities$/,
				methods: { GET: { handler: (c) => catalog.list(c.query.include) } },
			},
			// protected areas
			{
				pattern: /^\/protected-areas\/checks$/,
				methods: {
					POST: {
						handler: (c) => protectedAreas.check(uname(c), c.body),
						role: 'analyst',
						body: true,
					},
				},
			},
			{
				pattern: /^\/protected-areas\/(\d+)$/,
				methods: { GET: { handler: (c) => protectedAreas.area(c.params[0]) } },
			},
			{
				pattern: /^\/protected-areas\/areas\/(\d+)$/,
				methods: { GET: { handler: (c) => protectedAreas.area(c.params[0]) } },
			},
		];
	}

	private async login(c: Ctx): Promise<unknown> {
		const h = c.headers.authorization ?? '';
		const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(h);
		const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
		const idx = decoded.indexOf(':');
		if (!m || idx <= 0)
			throw plainStringError(
				400,
				'Missing or malformed Authorization header: send HTTP Basic credentials',
			);
		const username = decoded.slice(0, idx);
		const password = decoded.slice(idx + 1);
		const u = this.d.store.users.byName(username);
		if (!u || u.password !== password) throw plainStringError(401, 'Invalid username or password');
		c.user = u;
		return { token: await this.d.jwt.sign(u.username, this.d.clock.now()) };
	}

	private async authenticate(
		c: Ctx,
	): Promise<{ user: UserRec; kind: 'jwt' | 'api_key' } | undefined> {
		const m = /^Bearer\s+(\S+)\s*$/i.exec(c.headers.authorization ?? '');
		if (!m) return undefined;
		const tok = m[1];
		if (tok.startsWith('service_live_')) {
			const u = this.d.store.users.byApiKey(tok);
			return u ? { user: u, kind: 'api_key' } : undefined;
		}
		const name = await this.d.jwt.verify(tok, this.d.clock.now());
		const u = name ? this.d.store.users.byName(name) : undefined;
		return u ? { user: u, kind: 'jwt' } : undefined;
	}

	private takeFault(method: string, path: string): Fault | undefined {
		const i = this.faults.findIndex((f) => {
			const m = f.match ?? {};
			if (m.method && m.method.toUpperCase() !== method) return false;
			if (m.path instanceof RegExp) return m.path.test(path);
			if (typeof m.path === 'string') return m.path === path;
			return true;
		});
		if (i < 0) return undefined;
		const f = this.faults[i];
		if ((f.skipped ?? 0) < (f.skip ?? 0)) {
			f.skipped = (f.skipped ?? 0) + 1;
			return undefined;
		}
		f.remaining -= 1;
		if (f.remaining <= 0) this.faults.splice(i, 1);
		return f;
	}

	private async dispatch(req: FastifyRequest, reply: FastifyReply): Promise<void> {
		const arrivedReal = new Date().toISOString();
		const arrivedFake = this.d.clock.now().toISOString();
		const method = req.method.toUpperCase();
		const url = req.url;
		const qIdx = url.indexOf('?');
		const path = qIdx >= 0 ? url.slice(0, qIdx) : url;
		const query: Record<string, string> = {};
		for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
			const s = firstString(v);
			if (s !== undefined) query[k] = s;
		}
		const headers = flatHeaders(req);
		const raw = typeof req.body === 'string' ? req.body : undefined;
		const entry: RequestLogEntry = {
			at: arrivedReal,
			fakeAt: arrivedFake,
			method,
			path,
			query,
			headers: Object.fromEntries(Object.entries(headers).filter(([k]) => !SECRET_HEADERS.has(k))),
			status: 0,
		};
		if (raw !== undefined && raw.length > 0) {
			try {
				entry.body = redact(JSON.parse(raw));
			} catch {
				entry.body = raw.length > 2000 ? raw.slice(0, 2000) + '…' : raw;
			}
		}
		this.log.push(entry);
		if (this.log.length > 100000) this.log.splice(0, this.log.length - 100000);

		const fault = this.takeFault(method, path);
		if (fault) entry.fault = fault.kind;
		if (fault?.kind === 'drop-before') {
			entry.dropped = true;
			reply.hijack();
			req.raw.socket?.destroy();
			return;
		}
		if (fault?.kind === 'status') {
			const extra: Record<string, string> = {};
			if (fault.retryAfterSeconds !== undefined)
				extra['retry-after'] = String(fault.retryAfterSeconds);
			const err =
				fault.status === 500
					? apiError(
							500,
							`There was an error processing your request. It has been logged (ID ${errorId()}).`,
							extra,
						)
					: apiError(
							fault.status,
							`HTTP ${fault.status} ${STATUS_TEXT[fault.status] ?? 'Error'}`,
							extra,
						);
			this.send(reply, entry, err.status, err.body, 'json', err.headers);
			return;
		}
		if (fault?.kind === 'delay') await delayFor(fault);

		const extraHeaders: Record<string, string> = {};
		let status = 200;
		let body: unknown;
		let kind: BodyKind = 'json';
		try {
			body = await this.process(req, method, path, query, headers, raw, entry, extraHeaders);
		} catch (err) {
			if (err instanceof HttpError) {
				status = err.status;
				body = err.body;
				kind = err.kind;
				Object.assign(extraHeaders, err.headers);
			} else if (err instanceof GeometryError) {
				status = 400;
				body = { code: 400, message: err.message };
			} else {
				const id = errorId();
				this.internalErrors.push({ id, error: String(err?.stack ?? err) });
				status = 500;
				body = {
					code: 500,
					message: `There was an error processing your request. It has been logged (ID ${id}).`,
				};
			}
		}
		if (fault?.kind === 'drop-after') {
			entry.status = status;
			entry.dropped = true;
			reply.hijack();
			if (fault.ms) await new Promise((r) => setTimeout(r, Math.max(0, Number(fault.ms))));
			req.raw.socket?.destroy();
			return;
		}
		if (fault?.kind === 'status-after') {
			const gateway = httpStatusError(fault.status);
			this.send(reply, entry, gateway.status, gateway.body, 'json', {});
			// the log keeps the status the service would have sent, as for drop-after
			entry.status = status;
			return;
		}
		if (fault?.kind === 'delay-after') await delayFor(fault);
		this.send(reply, entry, status, body, kind, extraHeaders);
	}

	private send(
		reply: FastifyReply,
		entry: RequestLogEntry,
		status: number,
		body: unknown,
		kind: BodyKind,
		headers: Record<string, string>,
	) {
		entry.status = status;
		reply.code(status);
		for (const [k, v] of Object.entries(headers)) reply.header(k, v);
		if (kind === 'text') {
			reply.type('text/plain; charset=utf-8').send(String(body));
		} else if (kind === 'plain-string') {
			reply
				.type('application/json')
				.send(this.d.plainStringStyle === 'raw' ? String(body) : JSON.stringify(String(body)));
		} else {
			reply.type('application/json').send(JSON.stringify(body));
		}
	}

	private async process(
		req: FastifyRequest,
		method: string,
		path: string,
		query: Record<string, string>,
		headers: Record<string, string>,
		raw: string | undefined,
		entry: RequestLogEntry,
		extraHeaders: Record<string, string>,
	): Promise<unknown> {
		// 1. API version
		const version = headers['x-api-version'];
		if (version === undefined || version.trim() === '')
			throw new HttpError(400, {
				code: 400,
				error: 'MISSING_API_VERSION',
				message: 'The X-API-Version header is required. It must be 3.',
			});
		const v = version.trim();
		const invalidVersion = () =>
			new HttpError(400, {
				code: 400,
				error: 'INVALID_API_VERSION',
				message: `Invalid X-API-Version value: '${version}'. Supported versions are: ${SUPPORTED_VERSIONS.join(', ')}.`,
			});
		if (v === '2') {
			if (this.d.clock.nowMs() >= V2_RETIREMENT.getTime()) throw invalidVersion();
			extraHeaders['deprecation'] = 'true';
			extraHeaders['warning'] =
				'299 - "API version 2 is deprecated and will be retired on 2026-07-01T00:01:00Z. Use X-API-Version: 3."';
			extraHeaders['sunset'] = V2_RETIREMENT.toUTCString();
			extraHeaders['link'] =
				`<${this.d.baseUrl()}/v3/discovery/capabilities>; rel="successor-version"`;
		} else if (!SUPPORTED_VERSIONS.includes(v)) throw invalidVersion();

		// 2. routing
		let route: Route | undefined;
		let params: string[] = [];
		for (const r of this.routes) {
			const m = r.pattern.exec(path);
			if (m) {
				route = r;
				params = m.slice(1);
				break;
			}
		}
		if (!route) throw notFound();
		const op = route.methods[method as Method];
		if (!op)
			throw apiError(405, 'HTTP 405 Method Not Allowed', {
				allow: Object.keys(route.methods).join(', '),
			});

		// 3. content negotiation
		if (!acceptsJson(headers['accept'])) throw httpStatusError(406);
		if (op.body && !isJsonContentType(headers['content-type'])) throw httpStatusError(415);

		// 4. authentication and role
		const ctx: Ctx = { req, params, query, headers };
		if (op.login) {
			entry.auth = 'basic';
			const result = await op.handler(ctx);
			entry.user = ctx.user?.username;
			return result;
		}
		const who = await this.authenticate(ctx);
		if (!who)
			throw new HttpError(401, 'Credentials are required to access this resource.', 'text', {
				'www-authenticate': 'Bearer realm="realm"',
			});
		ctx.user = who.user;
		entry.user = who.user.username;
		entry.auth = who.kind;
		if (op.role && !who.user.roles.includes(op.role)) throw forbiddenRole();

		// 5. body
		if (op.body) {
			if (raw === undefined || raw.trim() === '') throw apiError(400, 'Unable to process JSON');
			try {
				ctx.body = JSON.parse(raw);
			} catch {
				throw apiError(400, 'Unable to process JSON');
			}
		}
		return op.handler(ctx);
	}

	// ---------- control surface ----------

	private registerControl(): void {
		const app = this.app;
		const { clock, store } = this.d;
		const json = (req: FastifyRequest): Record<string, unknown> => {
			if (typeof req.body !== 'string' || !req.body.trim()) return {};
			const v = JSON.parse(req.body);
			if (!isObj(v)) throw new Error('expected a JSON object');
			return v;
		};
		const ok = (reply: FastifyReply, body: unknown = { ok: true }) =>
			reply.code(200).type('application/json').send(JSON.stringify(body));
		const bad = (reply: FastifyReply, e: unknown) =>
			reply
				.code(400)
				.type('application/json')
				.send(JSON.stringify({ error: String((e as Error)?.message ?? e) }));
		const wrap =
			(fn: (req: FastifyRequest, reply: FastifyReply) => unknown) =>
			async (req: FastifyRequest, reply: FastifyReply) => {
				try {
					const r = await fn(req, reply);
					if (!reply.sent) return ok(reply, r ?? { ok: true });
				} catch (e) {
					return bad(reply, e);
				}
				return undefined;
			};

		app.get(
			'/__fake/variant',
			wrap(() => ({ ...this.d.variant, name: variantName(this.d.variant) })),
		);
		app.get(
			'/__fake/clock',
			wrap(() => ({ now: clock.now().toISOString(), scale: clock.getScale() })),
		);
		app.post(
			'/__fake/clock/advance',
			wrap((req) => {
				const ms = Number(json(req).ms);
				clock.advance(ms);
				return { now: clock.now().toISOString() };
			}),
		);
		app.post(
			'/__fake/clock/set',
			wrap((req) => {
				const d = new Date(String(json(req).iso));
				clock.set(d);
				return { now: clock.now().toISOString() };
			}),
		);
		app.post(
			'/__fake/clock/scale',
			wrap((req) => {
				clock.setScale(Number(json(req).factor));
				return { now: clock.now().toISOString(), scale: clock.getScale() };
			}),
		);
		app.post(
			'/__fake/reset',
			wrap(() => {
				this.d.onReset();
				return { ok: true };
			}),
		);
		app.get(
			'/__fake/balance/:username',
			wrap((req) => {
				const b = store.tokens.get((req.params as { username: string }).username);
				if (!b) throw new Error('no balance for that user');
				return b;
			}),
		);
		app.post(
			'/__fake/balance',
			wrap((req) => {
				const b = json(req);
				if (typeof b.username !== 'string' || !Number.isFinite(Number(b.total)))
					throw new Error('username and total are required');
				store.tokens.set(b.username, Number(b.total));
				return store.tokens.get(b.username);
			}),
		);
		app.delete(
			'/__fake/balance/:username',
			wrap((req) => {
				store.tokens.delete((req.params as { username: string }).username);
				return { ok: true };
			}),
		);
		app.post(
			'/__fake/faults',
			wrap((req) => {
				const b = json(req);
				const match: FaultMatch = {};
				if (isObj(b.match)) {
					if (b.match.method) match.method = String(b.match.method);
					if (typeof b.match.path === 'string') match.path = b.match.path;
					if (typeof b.match.pathRegex === 'string') match.path = new RegExp(b.match.pathRegex);
				}
				if (typeof b.pathRegex === 'string') match.path = new RegExp(b.pathRegex);
				if (typeof b.path === 'string') match.path = b.path;
				if (typeof b.method === 'string') match.method = b.method;
				// addFault checks the kind and its fields
				this.addFault({ ...(b as unknown as Fault), match });
				return { ok: true, pending: this.faults.length };
			}),
		);
		app.delete(
			'/__fake/faults',
			wrap(() => {
				this.faults = [];
				return { ok: true };
			}),
		);
		app.get(
			'/__fake/log',
			wrap(() => ({ entries: this.log, count: this.log.length })),
		);
		app.delete(
			'/__fake/log',
			wrap(() => {
				this.log.length = 0;
				return { ok: true };
			}),
		);
		app.post(
			'/__fake/capabilities',
			wrap((req) => {
				// addCapability checks the name and fills in defaults
				store.catalog.add(json(req) as unknown as Capability);
				return { ok: true, count: store.catalog.capabilities.length };
			}),
		);
		app.get(
			'/__fake/users',
			wrap(() => ({
				baseUrl: this.d.baseUrl(),
				users: Object.entries(store.users.all).map(([key, u]) => ({
					key,
					username: u.username,
					password: u.password,
					apiKey: u.apiKey,
					roles: u.roles,
				})),
			})),
		);
		app.post(
			'/__fake/failing-plots',
			wrap((req) => {
				const b = json(req);
				if (Array.isArray(b.names)) store.jobs.failingPlotNames = new Set(b.names.map(String));
				if (Array.isArray(b.plot_ids)) store.jobs.failingPlotIds = new Set(b.plot_ids.map(String));
				return {
					names: [...store.jobs.failingPlotNames],
					plot_ids: [...store.jobs.failingPlotIds],
				};
			}),
		);
		app.post(
			'/__fake/per-plot-duration',
			wrap((req) => {
				const ms = Number(json(req).ms);
				if (!Number.isFinite(ms) || ms < 0) throw new Error('ms must be >= 0');
				store.jobs.perPlotDurationMs = ms;
				return { ms };
			}),
		);
		app.post(
			'/__fake/seed/plots',
			wrap((req) => {
				const b = json(req);
				const ids = store.plots.seed(String(b.username ?? 'alice'), Number(b.count ?? 1), {
					// passed through as sent, like the programmatic seedPlots
					namePrefix: b.namePrefix as string | undefined,
					commodity: b.commodity as string | null | undefined,
				});
				return { plot_ids: ids };
			}),
		);
		app.get(
			'/__fake/errors',
			wrap(() => ({ errors: this.internalErrors })),
		);
		app.get('/__fake/images/:file', async (_req, reply) =>
			reply.code(200).type('image/png').send(PNG_1X1),
		);
		app.get('/__fake/visualizations/:job/:file', async (_req, reply) =>
			reply.code(200).type('image/png').send(PNG_1X1),
		);
		app.get('/__fake/artifacts/:file', async (req, reply) => {
			const runId = String((req.params as { file: string }).file).replace(/\.geojson$/, '');
			const run = store.runs.byId.get(runId);
			const plot = run ? store.plots.byId.get(run.plot_id) : undefined;
			if (!plot)
				return reply
					.code(404)
					.type('application/json')
					.send(JSON.stringify({ code: 404, message: 'HTTP 404 Not Found' }));
			return reply
				.code(200)
				.type('application/geo+json')
				.send(
					JSON.stringify({
						type: 'FeatureCollection',
						features: plot.geojson_features,
						generated_at: fmtTs(clock.nowMs()),
					}),
				);
		});
	}

	addFault(f: Fault): void {
		if (!f || !FAULT_KINDS.includes((f as { kind: string }).kind))
			throw new Error(`unknown fault kind '${(f as { kind?: string })?.kind}'`);
		if (f.kind === 'status' && ![404, 429, 500, 502, 503, 504].includes(f.status))
			throw new Error('status must be 404, 429, 500, 502, 503 or 504');
		if (f.kind === 'status-after' && ![502, 504].includes(f.status))
			throw new Error('status-after: status must be 502 or 504');
		if ((f.kind === 'delay' || f.kind === 'delay-after') && !(Number(f.ms) >= 0))
			throw new Error(`${f.kind} needs ms >= 0`);
		if (f.kind === 'drop-after' && f.ms !== undefined && !(Number(f.ms) >= 0))
			throw new Error('drop-after: ms must be >= 0');
		if (f.skip !== undefined && !(Number.isInteger(f.skip) && f.skip >= 0))
			throw new Error('skip must be a non-negative integer');
		const times = f.times === undefined ? 1 : Number(f.times);
		if (!Number.isInteger(times) || times < 1) throw new Error('times must be a positive integer');
		this.faults.push({ ...f, remaining: times });
	}
}

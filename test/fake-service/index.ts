/**
 * A stateful fake of the Geospatial Analysis Service (dev/test only).
 *
 *   const fake = await startFakeService({ perPlotDurationMs: 1000 });
 *   // point a credential at fake.url, use fake.users.alice.apiKey, drive fake.clock ...
 *   await fake.close();
 *
 * See README.md in this folder for behaviour details and the /__fake/ HTTP control surface.
 */
import { FakeClock } from './clock';
import type { Capability } from './data';
import { JwtIssuer } from './jwt';
import { FakeHttp, type Fault, type FaultMatch, type RequestLogEntry } from './server';
import { parseVariant, VARIANT_ENV, type FakeVariant } from './variant';
import {
	seedUsers,
	Store,
	type JobRec,
	type PlotRec,
	type RunRec,
	type SeedUserName,
} from './store';

export type { Capability, CostHint } from './data';
export type { Fault, FaultMatch, RequestLogEntry } from './server';
export { V2_RETIREMENT } from './server';
export {
	PROTECTED_AREA_BATCH_LIMIT,
	PROTECTED_AREA_TOKENS_PER_ITEM,
	CREATING_MS,
	MAX_FEATURES_PER_PLOT_REQUEST,
} from './store';
export { PROTECTED_AREAS, INDIGENOUS_LANDS, COMMODITIES } from './data';
export type { FakeVariant, IdShape, OverlapShape, PlotFailureShape } from './variant';
export {
	DEFAULT_VARIANT,
	VARIANT_ENV,
	VARIANT_VALUES,
	idPattern,
	isDefaultVariant,
	isIdShape,
	parseVariant,
	variantName,
} from './variant';

export interface FakeServiceOptions {
	/** default 0 = random free port */
	port?: number;
	/** default 127.0.0.1 */
	host?: string;
	/** JWT lifetime in seconds (default 3600), checked against the fake clock */
	jwtLifetimeSeconds?: number;
	/** initial fake clock (default: real now) */
	startTime?: Date;
	/** fake-clock time one plot's analysis takes (default 2000); plots of a job run one after another */
	perPlotDurationMs?: number;
	/** plots whose plot_name is in here fail analysis */
	failingPlotNames?: string[];
	/** each seeded user's token balance (default 100000) */
	initialTokens?: number;
	/** how "plain string" error bodies are written: a JSON string literal (default) or the raw text; both with a JSON content type */
	plainStringStyle?: 'json-string' | 'raw';
	/**
	 * Shapes where the contract is silent (see variant.ts): text such as `flat,silent,uuid`
	 * or an object. Default: the `FAKE_VARIANT` environment variable, else the contract's
	 * shapes (nested overlap metrics, a per-plot failure status, numeric ids).
	 */
	variant?: string | Partial<FakeVariant>;
}

export interface SeededUser {
	username: string;
	password: string;
	apiKey: string;
}

export interface FakeClockControl {
	now(): Date;
	advance(ms: number): void;
	set(d: Date): void;
	/** fake time = base + offset + scale * real elapsed; 0 freezes, default 1 */
	setScale(factor: number): void;
}

export interface FakeService {
	/** e.g. http://127.0.0.1:43123 (no trailing slash) */
	url: string;
	/** the shapes this fake sends where the contract is silent (variant.ts) */
	variant: FakeVariant;
	/** viewer lacks the analyst role: 403 `HTTP 403 Forbidden` on make_plot, make_job and protected-areas/checks */
	users: Record<SeedUserName, SeededUser>;
	clock: FakeClockControl;
	log: {
		entries(): RequestLogEntry[];
		clear(): void;
		count(filter?: { method?: string; path?: string | RegExp }): number;
	};
	faults: {
		add(f: Fault): void;
		clear(): void;
		pending(): number;
		/**
		 * Holds the next matching contract request (after `skip` others) until `release()`:
		 * before it is processed (a `delay` fault), or with `after: true` processed and its
		 * answer held (`delay-after`). `arrived` settles once it is held. In-process only.
		 */
		hold(
			match?: FaultMatch,
			options?: { after?: boolean; skip?: number },
		): { arrived: Promise<void>; release(): void };
	};
	setBalance(username: string, total: number): void;
	/** throws when the user has no token account */
	getBalance(username: string): { total: number; reserved: number; free: number };
	/** removes the user's token account: GET /users/check_tokens then answers 404 with a plain string body */
	deleteBalance(username: string): void;
	/** appears in the catalog at once and can be run in jobs */
	addCapability(cap: Capability): void;
	/** replaces the set of plot names whose analysis fails (applies to jobs created afterwards) */
	setFailingPlotNames(names: string[]): void;
	/** replaces the set of plot ids whose analysis fails (applies to jobs created afterwards) */
	setFailingPlotIds(ids: string[]): void;
	/** fake-clock time one plot's analysis takes, for jobs created afterwards */
	setPerPlotDuration(ms: number): void;
	/** fast seeding without HTTP; returns the new plot ids (oldest first). Default created_at: now - (count - i) s */
	seedPlots(
		username: string,
		count: number,
		opts?: { createdAt?: (i: number) => Date; namePrefix?: string; commodity?: string | null },
	): string[];
	/** fast seeding of jobs without HTTP (no tokens, no analysis written); finished at once when their plots' schedule ended before now. Returns the ids, oldest first. Default created_at: now - (count - i) min */
	seedJobs(
		username: string,
		count: number,
		opts?: {
			createdAt?: (i: number) => Date;
			namePrefix?: string;
			plotIds?: string[];
			perPlotMs?: number;
			/** when its plots start (default: its creation), for a job whose `created_at` is off */
			startAt?: (i: number) => Date;
			/** its id (default: the next of the variant's form), e.g. `constructor` */
			id?: (i: number) => string;
		},
	): string[];
	/** read-only peeks at internal state, for assertions */
	getPlot(plotId: string): Record<string, unknown> | undefined;
	getJob(
		jobId: string,
	): (Record<string, unknown> & { tokensCharged: number; tokensRefunded: number }) | undefined;
	/** every plot of a user, oldest first (as GET /plots would show it) */
	plotsOf(username: string): Record<string, unknown>[];
	/** every job of a user, oldest first (as GET /jobs would show it) */
	jobsOf(username: string): Record<string, unknown>[];
	/** unexpected exceptions that produced a 500 (should stay empty) */
	internalErrors(): { id: string; error: string }[];
	/** clears plots, jobs, runs, log, faults and added capabilities; restores balances, failing plots and the clock (start time, scale 1). Ids keep growing. */
	reset(): void;
	close(): Promise<void>;
}

export type { PlotRec, JobRec, RunRec };

export async function startFakeService(opts: FakeServiceOptions = {}): Promise<FakeService> {
	const variant = parseVariant(opts.variant ?? process.env[VARIANT_ENV]);
	const startTime = opts.startTime ?? new Date();
	const clock = new FakeClock(startTime);
	const users = seedUsers();
	let url = '';
	const store = new Store(
		clock,
		users,
		{
			perPlotDurationMs: opts.perPlotDurationMs ?? 2000,
			initialTokens: opts.initialTokens ?? 100000,
			failingPlotNames: opts.failingPlotNames ?? [],
			variant,
		},
		() => url,
	);
	const jwt = new JwtIssuer(opts.jwtLifetimeSeconds ?? 3600);
	const reset = () => {
		store.reset();
		http.log.length = 0;
		http.faults = [];
		clock.set(startTime);
		clock.setScale(1);
	};
	const http: FakeHttp = new FakeHttp({
		clock,
		store,
		jwt,
		plainStringStyle: opts.plainStringStyle ?? 'json-string',
		baseUrl: () => url,
		onReset: () => reset(),
		variant,
	});
	const host = opts.host ?? '127.0.0.1';
	await http.app.listen({ port: opts.port ?? 0, host });
	const addr = http.app.server.address();
	const port = typeof addr === 'object' && addr ? addr.port : opts.port;
	url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

	const matches = (e: RequestLogEntry, f?: { method?: string; path?: string | RegExp }) => {
		if (!f) return true;
		if (f.method && f.method.toUpperCase() !== e.method) return false;
		if (f.path instanceof RegExp) return f.path.test(e.path);
		if (typeof f.path === 'string') return f.path === e.path;
		return true;
	};

	return {
		url,
		variant,
		users: {
			alice: {
				username: users.alice.username,
				password: users.alice.password,
				apiKey: users.alice.apiKey,
			},
			bob: { username: users.bob.username, password: users.bob.password, apiKey: users.bob.apiKey },
			viewer: {
				username: users.viewer.username,
				password: users.viewer.password,
				apiKey: users.viewer.apiKey,
			},
		},
		clock: {
			now: () => clock.now(),
			advance: (ms) => clock.advance(ms),
			set: (d) => clock.set(d),
			setScale: (f) => clock.setScale(f),
		},
		log: {
			entries: () => http.log.map((e) => ({ ...e })),
			clear: () => {
				http.log.length = 0;
			},
			count: (f) => http.log.filter((e) => matches(e, f)).length,
		},
		faults: {
			add: (f) => http.addFault(f),
			clear: () => {
				http.faults = [];
			},
			pending: () => http.faults.length,
			hold: (match, options = {}) => {
				let arrive!: () => void;
				let release!: () => void;
				const arrived = new Promise<void>((resolve) => (arrive = resolve));
				const released = new Promise<void>((resolve) => (release = resolve));
				http.addFault({
					kind: options.after ? 'delay-after' : 'delay',
					ms: 0,
					hold: { arrive, released },
					match,
					skip: options.skip,
				});
				return { arrived, release };
			},
		},
		setBalance: (u, t) => store.tokens.set(u, t),
		getBalance: (u) => {
			const b = store.tokens.get(u);
			if (!b) throw new Error(`no token account for '${u}'`);
			return b;
		},
		deleteBalance: (u) => store.tokens.delete(u),
		addCapability: (c) => store.catalog.add(c),
		setFailingPlotNames: (names) => {
			store.jobs.failingPlotNames = new Set(names);
		},
		setFailingPlotIds: (ids) => {
			store.jobs.failingPlotIds = new Set(ids);
		},
		setPerPlotDuration: (ms) => {
			store.jobs.perPlotDurationMs = ms;
		},
		seedPlots: (u, n, o) => store.plots.seed(u, n, o),
		seedJobs: (u, n, o) => store.jobs.seed(u, n, o),
		getPlot: (id) => {
			store.jobs.tick();
			const p = store.plots.byId.get(id);
			return p ? store.plots.view(p) : undefined;
		},
		getJob: (id) => {
			store.jobs.tick();
			const j = store.jobs.byId.get(id);
			return j
				? {
						...store.jobs.view(j, false),
						tokensCharged: j.tokensCharged,
						tokensRefunded: j.tokensRefunded,
					}
				: undefined;
		},
		plotsOf: (u) => {
			store.jobs.tick();
			return [...store.plots.byId.values()]
				.filter((p) => p.username === u)
				.sort((a, b) => a.num - b.num)
				.map((p) => store.plots.view(p));
		},
		jobsOf: (u) => {
			store.jobs.tick();
			return [...store.jobs.byId.values()]
				.filter((j) => j.username === u)
				.sort((a, b) => a.num - b.num)
				.map((j) => store.jobs.view(j, false));
		},
		internalErrors: () => [...http.internalErrors],
		reset,
		close: async () => {
			await http.app.close();
		},
	};
}

/** The fake's state: users, balances, plots, jobs, analysis runs, and the lazily evaluated job engine. */
import { createHash } from 'crypto';
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import type { FakeClock } from './clock';
import {
	builtInCapabilities,
	checkTokens,
	COMMODITIES,
	lookupCountry,
	PA_SOURCES,
	PROTECTED_AREAS,
	publicCapability,
	resultKeyOf,
	type Capability,
} from './data';
import { runCheck, type AnalysedPlot } from './analysis';
import {
	areaHa,
	centre,
	GeometryError,
	normalizeGeometry,
	protectedAreaOverlap,
	round,
} from './geo';
import {
	apiError,
	badRequest,
	cursorError,
	forbiddenEntity,
	HttpError,
	notFound,
	plainStringError,
	unknownProperty,
} from './http-error';
import { applyDefaults, validateSchema } from './schema';

export type SeedUserName = 'alice' | 'bob' | 'viewer';
export interface UserRec {
	username: string;
	password: string;
	apiKey: string;
	roles: string[];
}

export const CREATING_MS = 500;
export const MAX_FEATURES_PER_PLOT_REQUEST = 20;
export const MAX_PLOTS_PER_JOB = 10000;
export const PROTECTED_AREA_BATCH_LIMIT = 100;
export const PROTECTED_AREA_TOKENS_PER_ITEM = 1;
export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

function apiKeyFor(name: string): string {
	return (
		'service_live_' +
		createHash('sha256').update(`geospatial-fake:${name}`).digest('hex').slice(0, 40)
	);
}

export function seedUsers(): Record<SeedUserName, UserRec> {
	return {
		alice: {
			username: 'alice',
			password: 'alice-fake-password',
			apiKey: apiKeyFor('alice'),
			roles: ['analyst'],
		},
		bob: {
			username: 'bob',
			password: 'bob-fake-password',
			apiKey: apiKeyFor('bob'),
			roles: ['analyst'],
		},
		viewer: {
			username: 'viewer',
			password: 'viewer-fake-password',
			apiKey: apiKeyFor('viewer'),
			roles: [],
		},
	};
}

/** Python-style isoformat without zone: 2026-03-01T12:00:00.123000 (fraction omitted when zero). */
export function fmtTs(ms: number): string {
	const iso = new Date(ms).toISOString();
	const frac = iso.slice(20, 23);
	return frac === '000' ? iso.slice(0, 19) : `${iso.slice(0, 19)}.${frac}000`;
}

export function isObj(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(o: Record<string, unknown>, allowed: string[]): void {
	for (const k of Object.keys(o)) if (!allowed.includes(k)) throw unknownProperty(k);
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
function checkDate(v: unknown, field: string): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v !== 'string' || !DATE_RE.test(v) || Number.isNaN(Date.parse(v + 'T00:00:00Z')))
		throw badRequest(`Invalid ${field} '${String(v)}': expected a date as YYYY-MM-DD`);
	return v;
}

function invalidCommodity(v: unknown): HttpError {
	return badRequest(`Invalid commodity '${String(v)}'. Allowed types: ${COMMODITIES.join(', ')}`);
}
function checkCommodity(v: unknown): string | undefined {
	if (v === undefined || v === null || v === '') return undefined;
	if (typeof v !== 'string' || !(COMMODITIES as readonly string[]).includes(v))
		throw invalidCommodity(v);
	return v;
}

export interface PlotRec {
	num: number;
	plot_id: string;
	username: string;
	plot_name: string;
	country: string;
	state: string;
	notes: string;
	geojson_features: Feature[];
	harvest_dates: string[];
	commodity: string | null;
	lat: string;
	lon: string;
	area_ha: number;
	tokens_cost: number;
	createdMs: number;
	updatedMs: number;
	analysis_image: string | null;
	additional_info: Record<string, unknown>;
	analysis: Record<string, unknown>;
	analysisGeometry: Polygon | MultiPolygon;
}

interface ScheduleEntry {
	plot_id: string;
	startMs: number;
	endMs: number;
	fails: boolean;
	applied: boolean;
	tokens: number;
	commodity: string | null;
	harvestDate: string | null;
}

/** The fields of a make_job body that the job keeps, once validated. */
interface JobRequestBody extends Record<string, unknown> {
	job_name?: string | null;
	notes?: string | null;
	additional_info?: Record<string, unknown> | null;
	harvest_date?: string | null;
	config?: { harvest_date?: string; commodity?: string } | null;
}

export interface JobRec {
	num: number;
	job_id: string;
	job_name: string;
	plot_ids: string[];
	username: string;
	createdMs: number;
	updatedMs: number;
	notes: string;
	additional_info: Record<string, unknown>;
	token_cost: number;
	harvest_date: string;
	checks: { type: string; config: Record<string, unknown> }[];
	schedule: ScheduleEntry[];
	settled: boolean;
	tokensCharged: number;
	tokensRefunded: number;
}

export interface RunRec {
	num: number;
	run_id: string;
	plot_id: string;
	job_id: string;
	username: string;
	check_type: string;
	config: Record<string, unknown>;
	token_cost: number;
	createdMs: number;
	startMs: number;
	endMs: number;
	fails: boolean;
	output?: unknown;
	error?: string;
}

interface Cursor {
	k: string;
	t: number;
	i: number;
}

export interface StoreOptions {
	perPlotDurationMs: number;
	initialTokens: number;
	failingPlotNames: string[];
}

export class Store {
	plots = new Map<string, PlotRec>();
	jobs = new Map<string, JobRec>();
	runs = new Map<string, RunRec>();
	balances = new Map<string, { total: number; reserved: number }>();
	capabilities: Capability[] = builtInCapabilities();
	failingPlotNames = new Set<string>();
	failingPlotIds = new Set<string>();
	perPlotDurationMs: number;
	// ids keep growing across reset() so that a long-running n8n never sees an id twice
	private nextPlot = 100001;
	private nextJob = 7001;
	private nextRun = 500001;

	constructor(
		private readonly clock: FakeClock,
		public readonly users: Record<SeedUserName, UserRec>,
		private readonly opts: StoreOptions,
		private readonly baseUrl: () => string,
	) {
		this.perPlotDurationMs = opts.perPlotDurationMs;
		this.reset();
	}

	reset(): void {
		this.plots.clear();
		this.jobs.clear();
		this.runs.clear();
		this.balances.clear();
		for (const u of Object.values(this.users))
			this.balances.set(u.username, { total: this.opts.initialTokens, reserved: 0 });
		this.capabilities = builtInCapabilities();
		this.failingPlotNames = new Set(this.opts.failingPlotNames);
		this.failingPlotIds = new Set();
		this.perPlotDurationMs = this.opts.perPlotDurationMs;
	}

	// ---------- users and balances ----------

	userByName(name: string): UserRec | undefined {
		return Object.values(this.users).find((u) => u.username === name);
	}
	userByApiKey(key: string): UserRec | undefined {
		return Object.values(this.users).find((u) => u.apiKey === key);
	}

	getBalance(username: string): { total: number; reserved: number; free: number } | undefined {
		this.tick();
		const b = this.balances.get(username);
		return b ? { total: b.total, reserved: b.reserved, free: b.total - b.reserved } : undefined;
	}

	setBalance(username: string, total: number): void {
		const b = this.balances.get(username);
		if (b) b.total = total;
		else this.balances.set(username, { total, reserved: 0 });
	}

	deleteBalance(username: string): void {
		this.balances.delete(username);
	}

	checkTokens(username: string) {
		const b = this.getBalance(username);
		if (!b) throw plainStringError(404, `Token balance not found for user '${username}'`);
		return { 'Token balance': b.total, 'Reserved Tokens': b.reserved, 'Free Tokens': b.free };
	}

	// ---------- capabilities ----------

	capability(name: string): Capability | undefined {
		return this.capabilities.find((c) => c.name === name);
	}

	addCapability(cap: Capability): void {
		if (!cap || typeof cap.name !== 'string' || !cap.name)
			throw new Error('addCapability: name is required');
		const full: Capability = {
			transport: 'sync',
			cost_hint: { model: 'per_plot', tokens_per_plot: 1, currency: 'tokens' },
			input_schema: { type: 'object', properties: {}, additionalProperties: true },
			...cap,
			label: cap.label ?? cap.name,
			description: cap.description ?? '',
		};
		this.capabilities = this.capabilities.filter((c) => c.name !== cap.name).concat(full);
	}

	listCapabilities(include: string | undefined): unknown[] {
		const extras = (include ?? '').split(',').map((s) => s.trim().toLowerCase());
		const withDoc = extras.includes('doc');
		const withHidden = extras.includes('hidden');
		return this.capabilities
			.filter((c) => withHidden || !c.hidden)
			.map((c) => publicCapability(c, withDoc));
	}

	// ---------- plots ----------

	private imageUrl(plotId: string): string {
		return `${this.baseUrl()}/__fake/images/${plotId}.png`;
	}

	plotView(p: PlotRec): Record<string, unknown> {
		return {
			plot_id: p.plot_id,
			plot_name: p.plot_name,
			username: p.username,
			country: p.country,
			state: p.state,
			notes: p.notes,
			geojson_features: p.geojson_features,
			harvest_dates: p.harvest_dates,
			commodity: p.commodity,
			lat: p.lat,
			lon: p.lon,
			area_ha: p.area_ha,
			tokens_cost: p.tokens_cost,
			created_at: fmtTs(p.createdMs),
			updated_at: fmtTs(p.updatedMs),
			analysis_image: p.analysis_image,
			additional_info: p.additional_info,
			analysis: p.analysis,
			// deprecated extras the real service still sends
			company_id: null,
			geohashes: [],
		};
	}

	plotLite(p: PlotRec): Record<string, unknown> {
		return {
			plot_id: p.plot_id,
			plot_name: p.plot_name,
			commodity: p.commodity,
			area_ha: p.area_ha,
			created_at: fmtTs(p.createdMs),
			country: p.country,
		};
	}

	/** Creates a plot from an already validated geometry. */
	private insertPlot(
		username: string,
		feature: Feature,
		norm: ReturnType<typeof normalizeGeometry>,
		f: {
			name?: string;
			commodity?: string;
			harvestDate?: string;
			notes?: string;
			additional_info?: Record<string, unknown>;
		},
		createdMs: number,
	): PlotRec {
		const num = this.nextPlot++;
		const plot_id = String(num);
		const a = areaHa(norm.analysisGeometry);
		const [lon, lat] = centre(norm.analysisGeometry);
		const { country, state } = lookupCountry(lon, lat);
		const storedFeature: Feature = {
			type: 'Feature',
			geometry: norm.storedGeometry,
			properties: { ...(feature.properties ?? {}) },
		};
		const rec: PlotRec = {
			num,
			plot_id,
			username,
			plot_name: f.name ?? `Plot ${plot_id}`,
			country,
			state,
			notes: f.notes ?? '',
			geojson_features: [storedFeature],
			harvest_dates: f.harvestDate ? [f.harvestDate] : [],
			commodity: f.commodity ?? null,
			lat: lat.toFixed(6),
			lon: lon.toFixed(6),
			area_ha: round(a),
			tokens_cost: Math.max(1, Math.ceil(a - 1e-9)),
			createdMs,
			updatedMs: createdMs,
			analysis_image: null,
			additional_info: f.additional_info ?? {},
			analysis: {},
			analysisGeometry: norm.analysisGeometry,
		};
		this.plots.set(plot_id, rec);
		return rec;
	}

	makePlot(username: string, body: unknown): unknown {
		if (!isObj(body)) throw badRequest('Unable to process JSON');
		const common = ['plot_name', 'commodity', 'harvest_date', 'notes', 'additional_info'];
		let fc: unknown;
		if (body.type === 'FeatureCollection') {
			checkKeys(body, [...common, 'type', 'features', 'crs', 'bbox', 'name']);
			fc = body;
		} else {
			checkKeys(body, [...common, 'geojson']);
			if (body.geojson === undefined)
				throw badRequest('geojson is required: a GeoJSON FeatureCollection');
			fc = body.geojson;
		}
		if (!isObj(fc) || fc.type !== 'FeatureCollection')
			throw new GeometryError(
				`Invalid Geometry in GeoJSON: expected a FeatureCollection, got ${isObj(fc) ? `'${String(fc.type)}'` : typeof fc}`,
			);
		this.checkCrs(fc.crs);
		if (!Array.isArray(fc.features) || fc.features.length === 0)
			throw new GeometryError('Invalid Geometry in GeoJSON: the FeatureCollection has no features');
		if (fc.features.length > MAX_FEATURES_PER_PLOT_REQUEST)
			throw badRequest(
				`Too many features: ${fc.features.length}. At most ${MAX_FEATURES_PER_PLOT_REQUEST} features can be registered per request.`,
			);
		const commodity = checkCommodity(body.commodity);
		const harvestDate = checkDate(body.harvest_date, 'harvest_date');
		if (body.notes !== undefined && body.notes !== null && typeof body.notes !== 'string')
			throw badRequest('notes must be a string');
		if (
			body.plot_name !== undefined &&
			body.plot_name !== null &&
			typeof body.plot_name !== 'string'
		)
			throw badRequest('plot_name must be a string');
		if (
			body.additional_info !== undefined &&
			body.additional_info !== null &&
			!isObj(body.additional_info)
		)
			throw badRequest('additional_info must be an object');
		const n = fc.features.length;
		const prepared = (fc.features as unknown[]).map((f, i) => {
			const where = `feature ${i}`;
			if (!isObj(f) || f.type !== 'Feature')
				throw new GeometryError(`Invalid Geometry in GeoJSON: ${where}: type must be 'Feature'`);
			if (f.properties !== undefined && f.properties !== null && !isObj(f.properties))
				throw new GeometryError(
					`Invalid Geometry in GeoJSON: ${where}: properties must be an object`,
				);
			const props = (f.properties ?? {}) as Record<string, unknown>;
			const norm = normalizeGeometry(f.geometry, props, where);
			const fCommodity = checkCommodity(props.commodity) ?? commodity;
			const fHarvest = checkDate(props.harvest_date, 'harvest_date') ?? harvestDate;
			const propName =
				typeof props.plot_name === 'string'
					? props.plot_name
					: typeof props.name === 'string'
						? props.name
						: undefined;
			const baseName =
				typeof body.plot_name === 'string' && body.plot_name ? body.plot_name : undefined;
			const name = propName ?? (baseName ? (n > 1 ? `${baseName} ${i + 1}` : baseName) : undefined);
			return {
				feature: f as unknown as Feature,
				norm,
				commodity: fCommodity,
				harvestDate: fHarvest,
				name,
			};
		});
		const now = this.clock.nowMs();
		const created = prepared.map((p) =>
			this.insertPlot(
				username,
				p.feature,
				p.norm,
				{
					name: p.name,
					commodity: p.commodity,
					harvestDate: p.harvestDate,
					// both checked above: a string / an object, or absent
					notes: (body.notes as string | null | undefined) ?? undefined,
					additional_info:
						(body.additional_info as Record<string, unknown> | null | undefined) ?? undefined,
				},
				now,
			),
		);
		if (n === 1) return this.plotView(created[0]);
		return { plots: created.map((p) => this.plotView(p)) };
	}

	private checkCrs(crs: unknown): void {
		if (crs === undefined || crs === null) return;
		const name = isObj(crs) && isObj(crs.properties) ? String(crs.properties.name ?? '') : '';
		if (!/CRS84$|EPSG:?:?4326$/i.test(name))
			throw new GeometryError(
				`Invalid Geometry in GeoJSON: unsupported crs '${name || JSON.stringify(crs)}'; coordinates must be WGS84 longitude/latitude`,
			);
	}

	/** Fast seeding for tests: n small square plots for a user. createdMs defaults to now - (n - i) seconds. */
	seedPlots(
		username: string,
		count: number,
		opts: { createdAt?: (i: number) => Date; namePrefix?: string; commodity?: string | null } = {},
	): string[] {
		const ids: string[] = [];
		const now = this.clock.nowMs();
		for (let i = 0; i < count; i++) {
			const lon = -55 + (i % 100) * 0.01;
			const lat = -8 - Math.floor(i / 100) * 0.01;
			const d = 0.002;
			const g: Polygon = {
				type: 'Polygon',
				coordinates: [
					[
						[lon, lat],
						[lon + d, lat],
						[lon + d, lat + d],
						[lon, lat + d],
						[lon, lat],
					],
				],
			};
			const created = opts.createdAt ? opts.createdAt(i).getTime() : now - (count - i) * 1000;
			const rec = this.insertPlot(
				username,
				{ type: 'Feature', geometry: g, properties: {} },
				{ analysisGeometry: g, storedGeometry: g, wasPoint: false },
				{
					name: `${opts.namePrefix ?? 'Seeded plot'} ${i + 1}`,
					commodity: opts.commodity === null ? undefined : (opts.commodity ?? 'cocoa'),
				},
				created,
			);
			ids.push(rec.plot_id);
		}
		return ids;
	}

	/**
	 * Fast seeding for tests: n jobs without HTTP, no tokens, no analysis written. Each runs
	 * over `plotIds` (default none) one plot after another taking `perPlotMs` (default 0);
	 * jobs whose schedule ended before now are finished (`done`) at once. createdMs defaults to
	 * now - (n - i) minutes. Returns the new job ids, oldest first.
	 */
	seedJobs(
		username: string,
		count: number,
		opts: {
			createdAt?: (i: number) => Date;
			namePrefix?: string;
			plotIds?: string[];
			perPlotMs?: number;
		} = {},
	): string[] {
		const ids: string[] = [];
		const now = this.clock.nowMs();
		const plotIds = opts.plotIds ?? [];
		const dur = opts.perPlotMs ?? 0;
		for (let i = 0; i < count; i++) {
			const created = opts.createdAt ? opts.createdAt(i).getTime() : now - (count - i) * 60_000;
			const num = this.nextJob++;
			const job_id = String(num);
			const schedule: ScheduleEntry[] = plotIds.map((plot_id, k) => {
				const endMs = created + CREATING_MS + (k + 1) * dur;
				return {
					plot_id,
					startMs: created + CREATING_MS + k * dur,
					endMs,
					fails: false,
					applied: endMs <= now,
					tokens: 0,
					commodity: null,
					harvestDate: null,
				};
			});
			const settled = schedule.every((e) => e.applied);
			this.jobs.set(job_id, {
				num,
				job_id,
				job_name: `${opts.namePrefix ?? 'Seeded job'} ${i + 1}`,
				plot_ids: [...plotIds],
				username,
				createdMs: created,
				updatedMs: settled
					? Math.max(created + CREATING_MS, ...schedule.map((e) => e.endMs))
					: created,
				notes: '',
				additional_info: {},
				token_cost: 0,
				harvest_date: '',
				checks: [{ type: 'eudr', config: {} }],
				schedule,
				settled,
				tokensCharged: 0,
				tokensRefunded: 0,
			});
			ids.push(job_id);
		}
		return ids;
	}

	ownedPlot(username: string, id: string): PlotRec {
		this.tick();
		const p = this.plots.get(id);
		if (!p) throw notFound();
		if (p.username !== username) throw forbiddenEntity();
		return p;
	}

	listPlots(username: string, q: Record<string, string>): unknown {
		this.tick();
		const mine = [...this.plots.values()].filter((p) => p.username === username);
		const { page, meta } = paginate(mine, q, 'plots');
		const lite = String(q.lite ?? '').toLowerCase() === 'true';
		return { plots: page.map((p) => (lite ? this.plotLite(p) : this.plotView(p))), meta };
	}

	// ---------- jobs ----------

	private quote(
		username: string,
		body: unknown,
	): {
		plots: PlotRec[];
		checks: { cap: Capability; config: Record<string, unknown> }[];
		perPlot: {
			plot: PlotRec;
			tokens: number;
			byCheck: number[];
			commodity: string | null;
			harvestDate: string | null;
		}[];
		total: number;
		body: JobRequestBody;
	} {
		if (!isObj(body)) throw badRequest('Unable to process JSON');
		checkKeys(body, [
			'plot_ids',
			'checks',
			'config',
			'per_plot',
			'job_name',
			'notes',
			'additional_info',
			'harvest_date',
		]);
		if (!Array.isArray(body.plot_ids) || body.plot_ids.length === 0)
			throw badRequest('plot_ids is required: a non-empty array of plot ids');
		if (body.plot_ids.length > MAX_PLOTS_PER_JOB)
			throw badRequest(
				`Too many plot_ids: ${body.plot_ids.length}. A job accepts at most ${MAX_PLOTS_PER_JOB} plots.`,
			);
		const ids = body.plot_ids.map((v: unknown) => {
			if (typeof v !== 'string' && typeof v !== 'number')
				throw badRequest('plot_ids must be an array of strings');
			return String(v);
		});
		const seen = new Set<string>();
		for (const id of ids) {
			if (seen.has(id))
				throw badRequest(`Duplicate plot id '${id}': each plot may appear in a job at most once`);
			seen.add(id);
		}
		// checks
		let rawChecks: unknown[] = [{ type: 'eudr' }];
		if (body.checks !== undefined && body.checks !== null) {
			if (!Array.isArray(body.checks)) throw badRequest('checks must be an array');
			if (body.checks.length === 0)
				throw badRequest('checks must not be empty; omit it to run the default eudr check');
			rawChecks = body.checks;
		}
		const checks = rawChecks.map((c) => {
			if (!isObj(c)) throw badRequest('each check must be an object with a type');
			checkKeys(c, ['type', 'config']);
			const cap = typeof c.type === 'string' ? this.capability(c.type) : undefined;
			if (!cap)
				throw badRequest(
					`Invalid check type '${String(c.type)}'. Allowed types: ${this.capabilities.map((x) => x.name).join(', ')}`,
				);
			const cfg = c.config === undefined || c.config === null ? {} : c.config;
			if (!isObj(cfg))
				throw badRequest(`Invalid config for check '${cap.name}': config must be an object`);
			const errs = cap.input_schema ? validateSchema(cap.input_schema, cfg) : [];
			if (errs.length)
				throw badRequest(`Invalid config for check '${cap.name}': ${errs.join('; ')}`);
			if (cap.input_schema) checkCommodityInConfig(cfg);
			return { cap, config: cap.input_schema ? applyDefaults(cap.input_schema, cfg) : { ...cfg } };
		});
		// shared config and per-plot config
		let shared: { commodity?: string; harvest_date?: string } = {};
		if (body.config !== undefined && body.config !== null) {
			if (!isObj(body.config)) throw badRequest('config must be an object');
			checkKeys(body.config, ['harvest_date', 'commodity']);
			shared = {
				commodity: checkCommodity(body.config.commodity),
				harvest_date: checkDate(body.config.harvest_date, 'harvest_date'),
			};
		}
		const topHarvest = checkDate(body.harvest_date, 'harvest_date');
		const perPlotCfg: Record<string, { commodity?: string; harvest_date?: string }> = {};
		if (body.per_plot !== undefined && body.per_plot !== null) {
			if (!isObj(body.per_plot)) throw badRequest('per_plot must be an object keyed by plot id');
			for (const [pid, v] of Object.entries(body.per_plot)) {
				if (!seen.has(pid))
					throw badRequest(`per_plot refers to plot '${pid}', which is not in plot_ids`);
				if (!isObj(v)) throw badRequest(`per_plot.${pid} must be an object`);
				checkKeys(v, ['harvest_date', 'commodity']);
				perPlotCfg[pid] = {
					commodity: checkCommodity(v.commodity),
					harvest_date: checkDate(v.harvest_date, 'harvest_date'),
				};
			}
		}
		if (body.job_name !== undefined && body.job_name !== null && typeof body.job_name !== 'string')
			throw badRequest('job_name must be a string');
		if (body.notes !== undefined && body.notes !== null && typeof body.notes !== 'string')
			throw badRequest('notes must be a string');
		if (
			body.additional_info !== undefined &&
			body.additional_info !== null &&
			!isObj(body.additional_info)
		)
			throw badRequest('additional_info must be an object');
		// plots
		this.tick();
		const missing = ids.filter((id: string) => !this.plots.has(id));
		if (missing.length) throw apiError(404, `Plot not found: ${missing.join(', ')}`);
		const plots = ids.map((id: string) => this.plots.get(id)!);
		if (plots.some((p: PlotRec) => p.username !== username)) throw forbiddenEntity();
		const perPlot = plots.map((plot: PlotRec) => {
			const commodity =
				perPlotCfg[plot.plot_id]?.commodity ?? shared.commodity ?? plot.commodity ?? null;
			if (!commodity)
				throw badRequest(
					`Plot ${plot.plot_id} has no commodity: give one at registration, in config.commodity or in per_plot.${plot.plot_id}.commodity. Allowed types: ${COMMODITIES.join(', ')}`,
				);
			const harvestDate =
				perPlotCfg[plot.plot_id]?.harvest_date ??
				shared.harvest_date ??
				topHarvest ??
				plot.harvest_dates[0] ??
				null;
			const byCheck = checks.map((c) => checkTokens(c.cap, plot.tokens_cost));
			return { plot, tokens: byCheck.reduce((a, b) => a + b, 0), byCheck, commodity, harvestDate };
		});
		const total = perPlot.reduce((a: number, p: { tokens: number }) => a + p.tokens, 0);
		// Every field read later was checked above.
		return { plots, checks, perPlot, total, body: body as JobRequestBody };
	}

	makeJob(username: string, body: unknown, dryRun: boolean): unknown {
		const q = this.quote(username, body);
		const bal = this.getBalance(username);
		const free = bal?.free ?? 0;
		if (dryRun) {
			return {
				dry_run: true,
				token_cost: q.total,
				plots: q.perPlot.map((p) => ({
					plot_id: p.plot.plot_id,
					area_ha: p.plot.area_ha,
					tokens: p.tokens,
					checks: q.checks.map((c, i) => ({ type: c.cap.name, tokens: p.byCheck[i] })),
				})),
				checks: q.checks.map((c, i) => ({
					type: c.cap.name,
					config: c.config,
					tokens: q.perPlot.reduce((a, p) => a + p.byCheck[i], 0),
				})),
				balance: { total: bal?.total ?? 0, reserved: bal?.reserved ?? 0, free },
				sufficient: free >= q.total,
			};
		}
		if (!bal || free < q.total)
			throw new HttpError(400, {
				error: 'Insufficient tokens',
				required: q.total,
				available: free,
			});
		const now = this.clock.nowMs();
		const num = this.nextJob++;
		const job_id = String(num);
		const dur = this.perPlotDurationMs;
		const schedule: ScheduleEntry[] = q.perPlot.map((p, i) => ({
			plot_id: p.plot.plot_id,
			startMs: now + CREATING_MS + i * dur,
			endMs: now + CREATING_MS + (i + 1) * dur,
			fails: this.failingPlotNames.has(p.plot.plot_name) || this.failingPlotIds.has(p.plot.plot_id),
			applied: false,
			tokens: p.tokens,
			commodity: p.commodity,
			harvestDate: p.harvestDate,
		}));
		const job: JobRec = {
			num,
			job_id,
			job_name: q.body.job_name ?? `Job ${job_id}`,
			plot_ids: q.plots.map((p) => p.plot_id),
			username,
			createdMs: now,
			updatedMs: now,
			notes: q.body.notes ?? '',
			additional_info: q.body.additional_info ?? {},
			token_cost: q.total,
			harvest_date: q.body.config?.harvest_date ?? q.body.harvest_date ?? '',
			checks: q.checks.map((c) => ({ type: c.cap.name, config: c.config })),
			schedule,
			settled: false,
			tokensCharged: 0,
			tokensRefunded: 0,
		};
		this.balances.get(username)!.reserved += q.total;
		this.jobs.set(job_id, job);
		schedule.forEach((s, pi) => {
			q.checks.forEach((c, ci) => {
				const rn = this.nextRun++;
				this.runs.set(String(rn), {
					num: rn,
					run_id: String(rn),
					plot_id: s.plot_id,
					job_id,
					username,
					check_type: c.cap.name,
					config: c.config,
					token_cost: q.perPlot[pi].byCheck[ci],
					createdMs: now,
					startMs: s.startMs,
					endMs: s.endMs,
					fails: s.fails,
				});
			});
		});
		return this.jobView(job, false);
	}

	jobStatus(j: JobRec, now = this.clock.nowMs()): string {
		if (now < j.createdMs + CREATING_MS) return 'creating';
		const finished = j.schedule.filter((s) => s.endMs <= now);
		if (finished.length === j.schedule.length)
			return finished.some((s) => s.fails) ? 'done-with-errors' : 'done';
		if (finished.some((s) => s.fails)) return 'incomplete';
		return 'pending';
	}

	jobView(j: JobRec, withPlots: boolean): Record<string, unknown> {
		const now = this.clock.nowMs();
		const out: Record<string, unknown> = {
			job_id: j.job_id,
			job_name: j.job_name,
			plot_ids: j.plot_ids,
			username: j.username,
			created_at: fmtTs(j.createdMs),
			updated_at: fmtTs(j.updatedMs),
			notes: j.notes,
			additional_info: j.additional_info,
			token_cost: j.token_cost,
			status: this.jobStatus(j, now),
			job_visualization_url: j.schedule
				.filter((s) => s.endMs <= now && !s.fails)
				.map((s) => `${this.baseUrl()}/__fake/visualizations/${j.job_id}/${s.plot_id}.png`),
			harvest_date: j.harvest_date,
			checks: j.checks,
		};
		if (withPlots)
			out.plots = j.plot_ids
				.map((id) => this.plots.get(id))
				.filter(Boolean)
				.map((p) => this.plotView(p!));
		return out;
	}

	ownedJob(username: string, id: string): JobRec {
		this.tick();
		const j = this.jobs.get(id);
		if (!j) throw notFound();
		if (j.username !== username) throw forbiddenEntity();
		return j;
	}

	listJobs(username: string, q: Record<string, string>): unknown {
		this.tick();
		const mine = [...this.jobs.values()].filter((j) => j.username === username);
		const { page, meta } = paginate(mine, q, 'jobs');
		return { jobs: page.map((j) => this.jobView(j, false)), meta };
	}

	/** Applies every plot completion that is due on the fake clock, in time order; settles finished jobs. */
	tick(): void {
		const now = this.clock.nowMs();
		const due: { job: JobRec; s: ScheduleEntry }[] = [];
		for (const job of this.jobs.values()) {
			if (job.settled) continue;
			for (const s of job.schedule) if (!s.applied && s.endMs <= now) due.push({ job, s });
		}
		due.sort((a, b) => a.s.endMs - b.s.endMs || a.job.num - b.job.num);
		for (const { job, s } of due) this.applyPlot(job, s);
		for (const job of this.jobs.values()) {
			if (job.settled || job.schedule.some((s) => !s.applied)) continue;
			job.settled = true;
			job.updatedMs = Math.max(...job.schedule.map((s) => s.endMs));
			const charged = job.schedule.filter((s) => !s.fails).reduce((a, s) => a + s.tokens, 0);
			job.tokensCharged = charged;
			job.tokensRefunded = job.token_cost - charged;
			const b = this.balances.get(job.username);
			if (b) {
				b.reserved -= job.token_cost;
				b.total -= charged;
			}
		}
	}

	private applyPlot(job: JobRec, s: ScheduleEntry): void {
		s.applied = true;
		const plot = this.plots.get(s.plot_id);
		const runs = [...this.runs.values()].filter(
			(r) => r.job_id === job.job_id && r.plot_id === s.plot_id,
		);
		if (!plot) return;
		plot.updatedMs = s.endMs;
		if (s.fails) {
			const error = `Analysis failed for plot ${plot.plot_id}: no usable satellite imagery for the analysis period`;
			plot.analysis = { status: 'failed', error, job_id: job.job_id };
			for (const r of runs) r.error = error;
			return;
		}
		const nowDate = new Date(s.endMs).toISOString().slice(0, 10);
		const image = this.imageUrl(plot.plot_id);
		const analysed: AnalysedPlot = plot;
		const next: Record<string, unknown> = { ...plot.analysis };
		delete next.status;
		delete next.error;
		for (const r of runs) {
			const cap = this.capability(r.check_type);
			if (!cap) continue;
			const { writes, output } = runCheck(
				cap,
				resultKeyOf(cap),
				analysed,
				{ commodity: s.commodity, harvestDate: s.harvestDate, nowDate },
				r.config,
				image,
			);
			Object.assign(next, writes);
			r.output = output;
		}
		plot.analysis = next;
		plot.analysis_image = image;
	}

	// ---------- analysis runs ----------

	runView(r: RunRec, detail: boolean): Record<string, unknown> {
		const now = this.clock.nowMs();
		const status =
			now < r.startMs ? 'pending' : now < r.endMs ? 'running' : r.fails ? 'failed' : 'completed';
		const base = this.baseUrl();
		const out: Record<string, unknown> = {
			run_id: r.run_id,
			plot_id: r.plot_id,
			job_id: r.job_id,
			check_type: r.check_type,
			config: r.config,
			status,
			created_at: fmtTs(r.createdMs),
			started_at: now >= r.startMs ? fmtTs(r.startMs) : null,
			finished_at: now >= r.endMs ? fmtTs(r.endMs) : null,
			token_cost: r.token_cost,
			tokens_charged: status === 'completed' ? r.token_cost : 0,
			artifacts:
				status === 'completed'
					? [
							{ type: 'visualization', url: this.imageUrl(r.plot_id) },
							{ type: 'geojson', url: `${base}/__fake/artifacts/${r.run_id}.geojson` },
						]
					: [],
		};
		if (status === 'failed') out.error = r.error;
		if (detail) out.output = status === 'completed' ? (r.output ?? null) : null;
		return out;
	}

	runsForPlot(username: string, q: Record<string, string>): unknown {
		const pid = q.plot_id;
		if (pid === undefined || pid === '') throw badRequest('plot_id is required');
		if (!/^\d+$/.test(pid)) throw notFound();
		const plot = this.ownedPlot(username, pid);
		const runs = [...this.runs.values()]
			.filter((r) => r.plot_id === plot.plot_id)
			.sort((a, b) => b.createdMs - a.createdMs || b.num - a.num);
		return {
			plot_id: plot.plot_id,
			runs: runs.map((r) => this.runView(r, false)),
			count: runs.length,
		};
	}

	ownedRun(username: string, id: string): RunRec {
		this.tick();
		const r = this.runs.get(id);
		if (!r) throw notFound();
		if (r.username !== username) throw forbiddenEntity();
		return r;
	}

	// ---------- protected areas ----------

	protectedAreaCheck(username: string, body: unknown): unknown {
		if (!isObj(body)) throw badRequest('Unable to process JSON');
		checkKeys(body, ['plot_ids', 'geojson']);
		const hasIds = body.plot_ids !== undefined && body.plot_ids !== null;
		const hasGeo = body.geojson !== undefined && body.geojson !== null;
		if (!hasIds && !hasGeo) throw badRequest('At least one of plot_ids or geojson is required');
		const ids: string[] = [];
		if (hasIds) {
			if (!Array.isArray(body.plot_ids)) throw badRequest('plot_ids must be an array of strings');
			for (const v of body.plot_ids) {
				if (typeof v !== 'string' && typeof v !== 'number')
					throw badRequest('plot_ids must be an array of strings');
				ids.push(String(v));
			}
		}
		let feats: Feature[] = [];
		if (hasGeo) {
			const g = body.geojson;
			if (!isObj(g))
				throw new GeometryError(
					'Invalid Geometry in GeoJSON: geojson must be a Feature, a FeatureCollection or a geometry',
				);
			if (g.type === 'FeatureCollection') {
				this.checkCrs(g.crs);
				if (!Array.isArray(g.features))
					throw new GeometryError('Invalid Geometry in GeoJSON: features must be an array');
				feats = g.features as Feature[];
			} else if (g.type === 'Feature') feats = [g as unknown as Feature];
			// a bare geometry; normalizeGeometry validates it like any feature's geometry
			else feats = [{ type: 'Feature', geometry: g as unknown as Geometry, properties: {} }];
		}
		const n = ids.length + feats.length;
		if (n === 0) throw badRequest('At least one of plot_ids or geojson is required');
		if (n > PROTECTED_AREA_BATCH_LIMIT)
			throw badRequest(
				`Batch too large: ${n} items. At most ${PROTECTED_AREA_BATCH_LIMIT} plot_ids and geometries together per request.`,
			);
		const items: { geometry: Polygon | MultiPolygon; props: Record<string, unknown> }[] = [];
		for (const id of ids) {
			if (!/^\d+$/.test(id) || !this.plots.has(id)) throw apiError(404, `Plot not found: ${id}`);
			const p = this.plots.get(id)!;
			if (p.username !== username) throw forbiddenEntity();
			items.push({
				geometry: p.analysisGeometry,
				props: { input_type: 'plot', plot_id: p.plot_id, plot_name: p.plot_name },
			});
		}
		feats.forEach((f, i) => {
			if (!isObj(f) || f.type !== 'Feature')
				throw new GeometryError(
					`Invalid Geometry in GeoJSON: feature ${i}: type must be 'Feature'`,
				);
			const props = (isObj(f.properties) ? f.properties : {}) as Record<string, unknown>;
			const norm = normalizeGeometry(f.geometry, props, `feature ${i}`);
			items.push({
				geometry: norm.analysisGeometry,
				props: { input_type: 'geojson', geojson_index: i, input_properties: props },
			});
		});
		const cost = n * PROTECTED_AREA_TOKENS_PER_ITEM;
		const bal = this.getBalance(username);
		const free = bal?.free ?? 0;
		if (!bal || free < cost)
			throw plainStringError(400, `Insufficient tokens: ${cost} required, ${free} available`);
		this.balances.get(username)!.total -= cost;
		return {
			type: 'FeatureCollection',
			features: items.map((it, input_index) => {
				const a = areaHa(it.geometry);
				const r = protectedAreaOverlap(it.geometry, a);
				return {
					type: 'Feature',
					geometry: it.geometry,
					properties: {
						input_index,
						...it.props,
						area_ha: round(a),
						protected_area_overlap_summary: r.protected_area_overlap_summary,
						protected_area_details: r.protected_area_details,
					},
				};
			}),
			sources: PA_SOURCES,
			metadata: {
				checked: n,
				tokens_charged: cost,
				batch_limit: PROTECTED_AREA_BATCH_LIMIT,
				checked_at: fmtTs(this.clock.nowMs()),
			},
		};
	}

	protectedArea(id: string): unknown {
		const pa = PROTECTED_AREAS.find((a) => a.area_id === id);
		if (!pa) throw notFound();
		const { ring, ...props } = pa;
		return {
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					id: pa.area_id,
					geometry: { type: 'Polygon', coordinates: [ring] },
					properties: {
						...props,
						area_ha: round(areaHa({ type: 'Polygon', coordinates: [ring] }), 1),
					},
				},
			],
			sources: PA_SOURCES,
		};
	}
}

function checkCommodityInConfig(cfg: Record<string, unknown>): void {
	if (cfg.commodity !== undefined) checkCommodity(cfg.commodity);
}

// ---------- keyset pagination ----------

function encodeCursor(c: Cursor): string {
	return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(s: string, kind: string): Cursor {
	try {
		if (!/^[A-Za-z0-9_-]+={0,2}$/.test(s)) throw new Error('charset');
		const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
		if (!isObj(c) || c.k !== kind || typeof c.t !== 'number' || typeof c.i !== 'number')
			throw new Error('shape');
		return c as unknown as Cursor;
	} catch {
		throw cursorError('Cursor not found');
	}
}

export function parseTimeParam(v: string, name: string): number {
	let s = v.trim();
	if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s))
		throw cursorError(`Invalid ${name} '${v}': expected an ISO-8601 timestamp`);
	s = s.replace(' ', 'T');
	if (s.length > 10 && !/(Z|[+-]\d{2}:?\d{2})$/.test(s)) s += 'Z';
	// trim sub-millisecond digits, which Date.parse does not accept everywhere
	s = s.replace(/(\.\d{3})\d+/, '$1');
	const ms = Date.parse(s);
	if (Number.isNaN(ms)) throw cursorError(`Invalid ${name} '${v}': expected an ISO-8601 timestamp`);
	return ms;
}

export function paginate<T extends { createdMs: number; num: number }>(
	items: T[],
	q: Record<string, string>,
	kind: string,
): {
	page: T[];
	meta: { next_cursor: string | null; limit: number; count: number; has_more: boolean };
} {
	let limit = DEFAULT_PAGE;
	if (q.limit !== undefined) {
		if (!/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > MAX_PAGE)
			throw cursorError(`Invalid limit '${q.limit}': must be an integer between 1 and ${MAX_PAGE}`);
		limit = Number(q.limit);
	}
	const from = q.created_at_from ? parseTimeParam(q.created_at_from, 'created_at_from') : -Infinity;
	const until = q.created_at_until
		? parseTimeParam(q.created_at_until, 'created_at_until')
		: Infinity;
	const cur = q.cursor ? decodeCursor(q.cursor, kind) : undefined;
	const sorted = items
		.filter((x) => x.createdMs >= from && x.createdMs <= until)
		.filter((x) => !cur || x.createdMs < cur.t || (x.createdMs === cur.t && x.num < cur.i))
		.sort((a, b) => b.createdMs - a.createdMs || b.num - a.num);
	const page = sorted.slice(0, limit);
	const hasMore = sorted.length > limit;
	const last = page[page.length - 1];
	return {
		page,
		meta: {
			next_cursor:
				hasMore && last ? encodeCursor({ k: kind, t: last.createdMs, i: last.num }) : null,
			limit,
			count: page.length,
			has_more: hasMore,
		},
	};
}

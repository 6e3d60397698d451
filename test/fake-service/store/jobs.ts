/**
 * Jobs: POST /jobs/make_job (with X-Dry-Run quotes), GET /jobs/job/{id}, GET /jobs, fast seeding,
 * and the lazily evaluated job engine: `tick()` applies every plot completion that is due on the
 * fake clock, writes results to plots and runs, and settles tokens of finished jobs.
 */
import type { FakeClock } from '../clock';
import { checkTokens, COMMODITIES, resultKeyOf, type Capability } from '../data';
import { runCheck, type AnalysedPlot } from '../analysis';
import { apiError, badRequest, forbiddenEntity, HttpError, notFound } from '../http-error';
import { applyDefaults, validateSchema } from '../schema';
import { DEFAULT_VARIANT, idFor, shapeAnalysis, type FakeVariant } from '../variant';
import type { AnalysisRuns } from './analysisRuns';
import type { Catalog } from './catalog';
import { checkCommodity, checkDate, checkKeys, fmtTs, isObj } from './common';
import { paginate } from './pagination';
import type { PlotRec, Plots } from './plots';
import type { Tokens } from './tokens';

export const CREATING_MS = 500;
export const MAX_PLOTS_PER_JOB = 10000;

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

export interface JobsOptions {
	perPlotDurationMs: number;
	failingPlotNames: string[];
}

function checkCommodityInConfig(cfg: Record<string, unknown>): void {
	if (cfg.commodity !== undefined) checkCommodity(cfg.commodity);
}

export class Jobs {
	readonly byId = new Map<string, JobRec>();
	/** plots whose plot_name is in here fail analysis (fixed when a job is created) */
	failingPlotNames = new Set<string>();
	/** plots whose plot_id is in here fail analysis (fixed when a job is created) */
	failingPlotIds = new Set<string>();
	/** fake-clock time one plot's analysis takes, for jobs created afterwards */
	perPlotDurationMs: number;
	// ids keep growing across reset() so that a long-running n8n never sees an id twice
	private nextId = 7001;

	constructor(
		private readonly clock: FakeClock,
		private readonly baseUrl: () => string,
		private readonly opts: JobsOptions,
		private readonly plots: Plots,
		private readonly runs: AnalysisRuns,
		private readonly catalog: Catalog,
		private readonly tokens: Tokens,
		private readonly variant: FakeVariant = DEFAULT_VARIANT,
	) {
		this.perPlotDurationMs = opts.perPlotDurationMs;
		this.reset();
	}

	reset(): void {
		this.byId.clear();
		this.failingPlotNames = new Set(this.opts.failingPlotNames);
		this.failingPlotIds = new Set();
		this.perPlotDurationMs = this.opts.perPlotDurationMs;
	}

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
			const cap = typeof c.type === 'string' ? this.catalog.get(c.type) : undefined;
			if (!cap)
				throw badRequest(
					`Invalid check type '${String(c.type)}'. Allowed types: ${this.catalog.capabilities.map((x) => x.name).join(', ')}`,
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
		const missing = ids.filter((id: string) => !this.plots.byId.has(id));
		if (missing.length) throw apiError(404, `Plot not found: ${missing.join(', ')}`);
		const plots = ids.map((id: string) => this.plots.byId.get(id)!);
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

	/** POST /jobs/make_job; with `dryRun` (X-Dry-Run: true) the quote, and nothing is stored or reserved. */
	make(username: string, body: unknown, dryRun: boolean): unknown {
		const q = this.quote(username, body);
		const bal = this.tokens.get(username);
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
		const num = this.nextId++;
		const job_id = idFor(this.variant, 'job', num);
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
		this.tokens.reserve(username, q.total);
		this.byId.set(job_id, job);
		schedule.forEach((s, pi) => {
			q.checks.forEach((c, ci) => {
				this.runs.add({
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
		return this.view(job, false);
	}

	status(j: JobRec, now = this.clock.nowMs()): string {
		// A seeded job may run from another time than its created_at (seed's `startAt`).
		const started = j.schedule.length > 0 ? j.schedule[0].startMs - CREATING_MS : j.createdMs;
		if (now < Math.min(j.createdMs, started) + CREATING_MS) return 'creating';
		const finished = j.schedule.filter((s) => s.endMs <= now);
		if (finished.length === j.schedule.length)
			return finished.some((s) => s.fails) ? 'done-with-errors' : 'done';
		if (finished.some((s) => s.fails)) return 'incomplete';
		return 'pending';
	}

	view(j: JobRec, withPlots: boolean): Record<string, unknown> {
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
			status: this.status(j, now),
			job_visualization_url: j.schedule
				.filter((s) => s.endMs <= now && !s.fails)
				.map((s) => `${this.baseUrl()}/__fake/visualizations/${j.job_id}/${s.plot_id}.png`),
			harvest_date: j.harvest_date,
			checks: j.checks,
		};
		if (withPlots)
			out.plots = j.plot_ids
				.map((id) => this.plots.byId.get(id))
				.filter(Boolean)
				.map((p) => this.plots.view(p!));
		return out;
	}

	/** The user's job `id`: 404 when there is none, 403 when it is another user's. */
	owned(username: string, id: string): JobRec {
		this.tick();
		const j = this.byId.get(id);
		if (!j) throw notFound();
		if (j.username !== username) throw forbiddenEntity();
		return j;
	}

	/** GET /jobs */
	list(username: string, q: Record<string, string>): unknown {
		this.tick();
		const mine = [...this.byId.values()].filter((j) => j.username === username);
		const { page, meta } = paginate(mine, q, 'jobs');
		return { jobs: page.map((j) => this.view(j, false)), meta };
	}

	/**
	 * Fast seeding for tests: n jobs without HTTP, no tokens, no analysis written. Each runs
	 * over `plotIds` (default none) one plot after another taking `perPlotMs` (default 0);
	 * jobs whose schedule ended before now are finished (`done`) at once. createdMs defaults to
	 * now - (n - i) minutes. Returns the new job ids, oldest first.
	 */
	seed(
		username: string,
		count: number,
		opts: {
			createdAt?: (i: number) => Date;
			namePrefix?: string;
			plotIds?: string[];
			perPlotMs?: number;
			/** when its plots start (default: its creation): a job may show a `created_at` it was not created at */
			startAt?: (i: number) => Date;
			/** its id (default: the next one of the variant's form), e.g. `constructor` */
			id?: (i: number) => string;
		} = {},
	): string[] {
		const ids: string[] = [];
		const now = this.clock.nowMs();
		const plotIds = opts.plotIds ?? [];
		const dur = opts.perPlotMs ?? 0;
		for (let i = 0; i < count; i++) {
			const created = opts.createdAt ? opts.createdAt(i).getTime() : now - (count - i) * 60_000;
			const num = this.nextId++;
			const job_id = opts.id ? opts.id(i) : idFor(this.variant, 'job', num);
			const start = opts.startAt ? opts.startAt(i).getTime() : created;
			const schedule: ScheduleEntry[] = plotIds.map((plot_id, k) => {
				const endMs = start + CREATING_MS + (k + 1) * dur;
				return {
					plot_id,
					startMs: start + CREATING_MS + k * dur,
					endMs,
					fails: false,
					applied: endMs <= now,
					tokens: 0,
					commodity: null,
					harvestDate: null,
				};
			});
			const settled = schedule.every((e) => e.applied);
			this.byId.set(job_id, {
				num,
				job_id,
				job_name: `${opts.namePrefix ?? 'Seeded job'} ${i + 1}`,
				plot_ids: [...plotIds],
				username,
				createdMs: created,
				updatedMs: settled
					? Math.max(start + CREATING_MS, ...schedule.map((e) => e.endMs))
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

	/** Applies every plot completion that is due on the fake clock, in time order; settles finished jobs. */
	tick(): void {
		const now = this.clock.nowMs();
		const due: { job: JobRec; s: ScheduleEntry }[] = [];
		for (const job of this.byId.values()) {
			if (job.settled) continue;
			for (const s of job.schedule) if (!s.applied && s.endMs <= now) due.push({ job, s });
		}
		due.sort((a, b) => a.s.endMs - b.s.endMs || a.job.num - b.job.num);
		for (const { job, s } of due) this.applyPlot(job, s);
		for (const job of this.byId.values()) {
			if (job.settled || job.schedule.some((s) => !s.applied)) continue;
			job.settled = true;
			job.updatedMs = Math.max(...job.schedule.map((s) => s.endMs));
			const charged = job.schedule.filter((s) => !s.fails).reduce((a, s) => a + s.tokens, 0);
			job.tokensCharged = charged;
			job.tokensRefunded = job.token_cost - charged;
			this.tokens.settleJob(job.username, job.token_cost, charged);
		}
	}

	private applyPlot(job: JobRec, s: ScheduleEntry): void {
		s.applied = true;
		const plot = this.plots.byId.get(s.plot_id);
		const runs = this.runs.ofJobPlot(job.job_id, s.plot_id);
		if (!plot) return;
		plot.updatedMs = s.endMs;
		if (s.fails) {
			const error = `Analysis failed for plot ${plot.plot_id}: no usable satellite imagery for the analysis period`;
			for (const r of runs) r.error = error;
			// Variants `silent` / `job-id`: no per-plot status; the plot stays as it was.
			if (this.variant.plotFailure === 'status')
				plot.analysis = { status: 'failed', error, job_id: job.job_id };
			return;
		}
		const nowDate = new Date(s.endMs).toISOString().slice(0, 10);
		const image = this.plots.imageUrl(plot.plot_id);
		const analysed: AnalysedPlot = plot;
		const next: Record<string, unknown> = { ...plot.analysis };
		delete next.status;
		delete next.error;
		// The job id of an earlier failure is not this analysis's.
		delete next.job_id;
		for (const r of runs) {
			const cap = this.catalog.get(r.check_type);
			if (!cap) continue;
			const { writes, output } = runCheck(
				cap,
				resultKeyOf(cap),
				analysed,
				{ commodity: s.commodity, harvestDate: s.harvestDate, nowDate },
				r.config,
				image,
			);
			Object.assign(next, shapeAnalysis(this.variant, writes));
			r.output = output;
		}
		if (this.variant.plotFailure === 'job-id') next.job_id = job.job_id;
		plot.analysis = next;
		plot.analysis_image = image;
	}
}

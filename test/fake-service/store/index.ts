/**
 * The fake's state, one module per resource of the route table in ../server.ts:
 *
 *   users.ts          seeded users, lookup by name / API key      (POST /login, bearer auth)
 *   tokens.ts         token accounts                              (GET /users/check_tokens)
 *   catalog.ts        capabilities                                (GET /v3/discovery/capabilities)
 *   plots.ts          plots                                       (/plots/make_plot, /plots/plot/{id}, /plots)
 *   jobs.ts           jobs and the lazily evaluated job engine    (/jobs/make_job, /jobs/job/{id}, /jobs)
 *   analysisRuns.ts   one run per check per plot per job          (/analysis-runs?plot_id=, /analysis-runs/{id})
 *   protectedAreas.ts protected-area checks and areas             (/protected-areas/…)
 *   common.ts, pagination.ts: helpers they share.
 *
 * `Store` composes them. Nothing moves on its own: reads call `jobs.tick()` first, which applies
 * every plot completion due on the fake clock.
 */
import type { FakeClock } from '../clock';
import type { FakeVariant } from '../variant';
import { AnalysisRuns } from './analysisRuns';
import { Catalog } from './catalog';
import { Jobs } from './jobs';
import { Plots } from './plots';
import { ProtectedAreas } from './protectedAreas';
import { Tokens } from './tokens';
import { Users, type SeedUserName, type UserRec } from './users';

export { fmtTs, isObj } from './common';
export { CREATING_MS, MAX_PLOTS_PER_JOB, type JobRec } from './jobs';
export { MAX_FEATURES_PER_PLOT_REQUEST, type PlotRec } from './plots';
export type { RunRec } from './analysisRuns';
export { PROTECTED_AREA_BATCH_LIMIT, PROTECTED_AREA_TOKENS_PER_ITEM } from './protectedAreas';
export type { Balance } from './tokens';
export { seedUsers, type SeedUserName, type UserRec } from './users';

export interface StoreOptions {
	perPlotDurationMs: number;
	initialTokens: number;
	failingPlotNames: string[];
	/** shapes where the contract is silent (../variant.ts) */
	variant: FakeVariant;
}

export class Store {
	readonly users: Users;
	readonly tokens: Tokens;
	readonly catalog: Catalog;
	readonly plots: Plots;
	readonly runs: AnalysisRuns;
	readonly jobs: Jobs;
	readonly protectedAreas: ProtectedAreas;

	constructor(
		clock: FakeClock,
		users: Record<SeedUserName, UserRec>,
		opts: StoreOptions,
		baseUrl: () => string,
	) {
		const settle = () => this.jobs.tick();
		this.users = new Users(users);
		this.tokens = new Tokens(this.users, opts.initialTokens, settle);
		this.catalog = new Catalog();
		this.plots = new Plots(clock, baseUrl, settle, opts.variant);
		this.runs = new AnalysisRuns(clock, baseUrl, this.plots, settle, opts.variant);
		this.jobs = new Jobs(
			clock,
			baseUrl,
			{ perPlotDurationMs: opts.perPlotDurationMs, failingPlotNames: opts.failingPlotNames },
			this.plots,
			this.runs,
			this.catalog,
			this.tokens,
			opts.variant,
		);
		this.protectedAreas = new ProtectedAreas(clock, this.plots, this.tokens, opts.variant);
	}

	/** Clears plots, jobs and runs and added capabilities; restores balances, failing plots and per-plot duration. Ids keep growing. */
	reset(): void {
		this.plots.reset();
		this.jobs.reset();
		this.runs.reset();
		this.tokens.reset();
		this.catalog.reset();
	}
}

/** Analysis runs (one per check per plot per job): GET /analysis-runs?plot_id= and GET /analysis-runs/{id}. */
import type { FakeClock } from '../clock';
import { badRequest, forbiddenEntity, notFound } from '../http-error';
import { DEFAULT_VARIANT, idFor, isIdShape, shapeAnalysis, type FakeVariant } from '../variant';
import { fmtTs } from './common';
import type { Plots } from './plots';

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

export class AnalysisRuns {
	readonly byId = new Map<string, RunRec>();
	// ids keep growing across reset() so that a long-running n8n never sees an id twice
	private nextId = 500001;

	/** `settle` brings the job engine up to the fake clock's now before a run is read. */
	constructor(
		private readonly clock: FakeClock,
		private readonly baseUrl: () => string,
		private readonly plots: Plots,
		private readonly settle: () => void,
		private readonly variant: FakeVariant = DEFAULT_VARIANT,
	) {}

	reset(): void {
		this.byId.clear();
	}

	/** Stores a new run under the next run id. */
	add(run: Omit<RunRec, 'num' | 'run_id'>): RunRec {
		const num = this.nextId++;
		const rec: RunRec = { num, run_id: idFor(this.variant, 'run', num), ...run };
		this.byId.set(rec.run_id, rec);
		return rec;
	}

	/** The runs of one plot within one job. */
	ofJobPlot(jobId: string, plotId: string): RunRec[] {
		return [...this.byId.values()].filter((r) => r.job_id === jobId && r.plot_id === plotId);
	}

	view(r: RunRec, detail: boolean): Record<string, unknown> {
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
							{ type: 'visualization', url: this.plots.imageUrl(r.plot_id) },
							{ type: 'geojson', url: `${base}/__fake/artifacts/${r.run_id}.geojson` },
						]
					: [],
		};
		if (status === 'failed') out.error = r.error;
		if (detail)
			out.output = status === 'completed' ? shapeAnalysis(this.variant, r.output ?? null) : null;
		return out;
	}

	/** GET /analysis-runs?plot_id= */
	forPlot(username: string, q: Record<string, string>): unknown {
		const pid = q.plot_id;
		if (pid === undefined || pid === '') throw badRequest('plot_id is required');
		if (!isIdShape(this.variant, pid)) throw notFound();
		const plot = this.plots.owned(username, pid);
		const runs = [...this.byId.values()]
			.filter((r) => r.plot_id === plot.plot_id)
			.sort((a, b) => b.createdMs - a.createdMs || b.num - a.num);
		return {
			plot_id: plot.plot_id,
			runs: runs.map((r) => this.view(r, false)),
			count: runs.length,
		};
	}

	/** The user's run `id`: 404 when there is none, 403 when it is another user's. */
	owned(username: string, id: string): RunRec {
		this.settle();
		const r = this.byId.get(id);
		if (!r) throw notFound();
		if (r.username !== username) throw forbiddenEntity();
		return r;
	}
}

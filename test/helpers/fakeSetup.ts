/**
 * Test setup shared by several resources' tests (Analysis Run, Account, the run-time
 * capability scenario): registers plots and creates jobs directly on the fake over HTTP
 * (not through the node's Plot and Job operations); the fake clock is not moved.
 */
import type { FakeService } from '../fake-service';
import { squarePlot } from './square';

export interface CreatedJob {
	jobId: string;
	plotIds: string[];
}

async function call(
	fake: FakeService,
	apiKey: string,
	method: string,
	path: string,
	body?: unknown,
): Promise<unknown> {
	const response = await fetch(`${fake.url}${path}`, {
		method,
		headers: {
			'X-API-Version': '3',
			Accept: 'application/json',
			Authorization: `Bearer ${apiKey}`,
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json: unknown = await response.json();
	if (!response.ok)
		throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(json)}`);
	return json;
}

/** A small square polygon (about 1 ha) in Brazil, shifted by `n` so plots differ. */
export function square(n: number) {
	const lon = -55 + n * 0.01;
	const lat = -12;
	const d = 0.0009;
	return {
		type: 'Feature',
		properties: {},
		geometry: squarePlot(lon, lat, d),
	};
}

/** Registers one plot per name for the user and returns their ids. */
let plotsMade = 0;

export async function makePlots(
	fake: FakeService,
	apiKey: string,
	names: string[],
): Promise<string[]> {
	const ids: string[] = [];
	for (const name of names) {
		const n = plotsMade++;
		const plot = (await call(fake, apiKey, 'POST', '/plots/make_plot', {
			geojson: { type: 'FeatureCollection', features: [square(n)] },
			plot_name: name,
			commodity: 'soy',
		})) as { plot_id: string };
		ids.push(plot.plot_id);
	}
	return ids;
}

/** Creates a job with the given checks over the plots; the fake clock is not moved. */
export async function makeJob(
	fake: FakeService,
	apiKey: string,
	plotIds: string[],
	checks: Array<{ type: string; config?: Record<string, unknown> }>,
): Promise<CreatedJob> {
	const job = (await call(fake, apiKey, 'POST', '/jobs/make_job', {
		plot_ids: plotIds,
		checks,
	})) as { job_id: string };
	return { jobId: job.job_id, plotIds };
}

/** Lists a plot's runs straight from the fake (for expectations). */
export async function runsOf(
	fake: FakeService,
	apiKey: string,
	plotId: string,
): Promise<Array<Record<string, unknown>>> {
	const body = (await call(fake, apiKey, 'GET', `/analysis-runs?plot_id=${plotId}`)) as {
		runs: Array<Record<string, unknown>>;
	};
	return body.runs;
}

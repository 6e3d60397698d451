/**
 * Run by bench/footprint.ts in a fresh `node --expose-gc` process: the heap that a Per-Plot
 * Results output of a 10,000-plot job takes, against the size of the job's JSON. The job is
 * synthetic but shaped like the fake's (its plots are copies of plots the fake analysed).
 */
import type { IDataObject } from 'n8n-workflow';

import { perPlotResults } from '../nodes/shared/results/flatten';
import { startFakeService } from '../test/fake-service';

const gc = (global as unknown as { gc?: () => void }).gc;

async function templateJob(): Promise<IDataObject> {
	const fake = await startFakeService({ perPlotDurationMs: 1000 });
	try {
		fake.clock.setScale(0);
		const ids = fake.seedPlots('alice', 4, { commodity: 'cocoa', namePrefix: 'Bench' });
		fake.setFailingPlotIds([ids[3]]);
		const res = await fetch(`${fake.url}/jobs/make_job`, {
			method: 'POST',
			headers: {
				'X-API-Version': '3',
				Authorization: `Bearer ${fake.users.alice.apiKey}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify({ plot_ids: ids }),
		});
		const { job_id: jobId } = (await res.json()) as { job_id: string };
		fake.clock.advance(60_000);
		const job = await fetch(`${fake.url}/jobs/job/${jobId}`, {
			headers: { 'X-API-Version': '3', Authorization: `Bearer ${fake.users.alice.apiKey}` },
		});
		return (await job.json()) as IDataObject;
	} finally {
		await fake.close();
	}
}

async function main() {
	if (!gc) throw new Error('run with node --expose-gc');
	const plots = Number(process.env.BENCH_RESULT_PLOTS ?? 10_000);
	const template = await templateJob();
	const templatePlots = template.plots as IDataObject[];
	const text = JSON.stringify({
		...template,
		plot_ids: Array.from({ length: plots }, (_, i) => String(200001 + i)),
		plots: Array.from({ length: plots }, (_, i) => ({
			...templatePlots[i % templatePlots.length],
			plot_id: String(200001 + i),
			plot_name: `Bench ${i + 1}`,
		})),
	});
	const jsonBytes = Buffer.byteLength(text);
	const out: Record<string, number> = { jsonBytes, plots };
	// one function call per mode, so nothing of one mode is still on the stack in the next
	const measure = (simplify: boolean) => {
		const job = JSON.parse(text) as IDataObject; // as the transport hands it over
		gc();
		gc();
		const before = process.memoryUsage().heapUsed;
		let peak = before;
		const rows = perPlotResults(job, { simplify });
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		const items = rows.map((json) => ({ json, pairedItem: { item: 0 } }));
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		gc();
		const retained = process.memoryUsage().heapUsed - before;
		// the job stays alive until here, as the node holds it while emitting: retained = the output alone
		if ((job.plots as unknown[]).length !== plots || items.length !== plots)
			throw new Error(`expected ${plots} rows`);
		out[simplify ? 'simplifiedPeak' : 'rawPeak'] = peak - before;
		out[simplify ? 'simplifiedRetained' : 'rawRetained'] = retained;
	};
	measure(false);
	measure(true);
	process.stdout.write(JSON.stringify(out));
}

main().then(
	() => process.exit(0),
	(e) => {
		console.error(e);
		process.exit(1);
	},
);

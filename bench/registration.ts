/**
 * 1. Registration throughput: N spreadsheet rows (latitude/longitude) → plots.
 *   ours:  Plot → Register through n8n's real engine (batches of ≤ 20 features, a pool of
 *          `parallel` requests);
 *   naive: what users build with n8n's HTTP Request node: one make_plot request per row,
 *          one after another (run on the first BENCH_NAIVE_ROWS rows, extrapolated to N);
 *   floor: ⌈N/20⌉ × latency ÷ parallel requests.
 */
import { CredentialStore, runNode } from '../test/helpers/engine';
import type { RemoteFake } from './fake-process';
import { startRemoteFake } from './fake-process';
import { envNumber, nowMs, prng, record } from './lib';

const MAKE_PLOT = { method: 'POST', path: '/plots/make_plot' };

function rows(n: number, seed: number): Array<{ latitude: string; longitude: string }> {
	const rnd = prng(seed);
	// Mato Grosso, Brazil: coordinates with six decimals, as EUDR asks
	return Array.from({ length: n }, () => ({
		latitude: (-10 - rnd() * 5).toFixed(6),
		longitude: (-55 + rnd() * 5).toFixed(6),
	}));
}

type Row = { latitude: string; longitude: string };

/** One plain `make_plot` request for the given rows (one point feature each), answer read. */
async function postPlots(fake: RemoteFake, rows: Row[], label: string): Promise<void> {
	const res = await fetch(`${fake.url}/plots/make_plot`, {
		method: 'POST',
		headers: {
			'X-API-Version': '3',
			Authorization: `Bearer ${fake.apiKey}`,
			'Content-Type': 'application/json',
			Accept: 'application/json',
		},
		body: JSON.stringify({
			geojson: {
				type: 'FeatureCollection',
				features: rows.map((row) => ({
					type: 'Feature',
					properties: {},
					geometry: { type: 'Point', coordinates: [Number(row.longitude), Number(row.latitude)] },
				})),
			},
		}),
	});
	await res.arrayBuffer();
	if (res.status !== 200 && res.status !== 201)
		throw new Error(`${label} make_plot failed: HTTP ${res.status}`);
}

/** One make_plot per row, sequential: n8n's HTTP Request node with batching off. */
async function naive(fake: RemoteFake, input: Row[]): Promise<void> {
	for (const row of input) await postPlots(fake, [row], 'naive');
}

/**
 * The same ⌈N/20⌉ batched requests sent by a bare fetch pool with the same parallelism: what
 * any client can reach against this fake on this machine (latency + the fake's own work).
 */
async function bareBatchedPool(fake: RemoteFake, input: Row[], parallel: number): Promise<void> {
	const batches: Row[][] = [];
	for (let i = 0; i < input.length; i += 20) batches.push(input.slice(i, i + 20));
	let next = 0;
	const lane = async () => {
		while (next < batches.length) await postPlots(fake, batches[next++], 'bare');
	};
	await Promise.all(Array.from({ length: parallel }, lane));
}

export async function registrationBench(): Promise<void> {
	// the fake runs in its own process, like the real service on another machine
	const fake = await startRemoteFake();
	try {
		await measure(fake);
	} finally {
		await fake.close();
	}
}

async function measure(fake: RemoteFake): Promise<void> {
	const section = 'registration';
	const n = envNumber('BENCH_ROWS', 10_000);
	const latency = envNumber('BENCH_LATENCY_MS', 50);
	const parallel = envNumber('BENCH_PARALLEL', 4);
	const naiveRows = Math.min(n, envNumber('BENCH_NAIVE_ROWS', 400));
	const input = rows(n, 9);
	const store = new CredentialStore({
		geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.apiKey },
	});
	console.log(
		`\n## 1. Registration: ${n.toLocaleString('en-US')} lat/lon rows, ${latency} ms latency, ${parallel} parallel requests`,
	);

	// warm-up (module loading, JIT, engine setup), not measured
	await fake.reset();
	await fake.setLatency(0);
	await runNode({
		parameters: { resource: 'plot', operation: 'register', geometrySource: 'latLon' },
		input: input.slice(0, 40),
		store,
	});

	await fake.reset();
	await fake.setLatency(latency);
	const t0 = nowMs();
	const { items, error } = await runNode({
		parameters: {
			resource: 'plot',
			operation: 'register',
			geometrySource: 'latLon',
			latitude: '={{ $json.latitude }}',
			longitude: '={{ $json.longitude }}',
			options: { parallelRequests: parallel },
		},
		input,
		store,
	});
	const oursMs = nowMs() - t0;
	if (error) throw new Error(`Plot → Register failed: ${error.message}`);
	const oursRequests = await fake.count(MAKE_PLOT);
	const arrivals = (await fake.entries())
		.filter((e) => e.method === MAKE_PLOT.method && e.path === MAKE_PLOT.path)
		.map((e) => Date.parse(e.at));
	const startedAt = Date.now() - oursMs;
	const firstRequestMs = Math.min(...arrivals) - startedAt;
	const lastArrivalMs = Math.max(...arrivals) - startedAt;
	const plots = items.filter((i) => typeof i.json.plot_id === 'string').length;
	if (plots !== n) throw new Error(`Plot → Register returned ${plots} plots for ${n} rows`);

	// a bare fetch pool sending the same batches: the achievable floor on this machine
	await fake.reset();
	await fake.setLatency(latency);
	const tb = nowMs();
	await bareBatchedPool(fake, input, parallel);
	const bareMs = nowMs() - tb;

	// the naive way, on a sample (sequential: its time is linear in the rows)
	await fake.reset();
	await fake.setLatency(latency);
	const t1 = nowMs();
	await naive(fake, input.slice(0, naiveRows));
	const naiveSampleMs = nowMs() - t1;
	const naiveRequests = await fake.count(MAKE_PLOT);
	const naiveMs = (naiveSampleMs / naiveRows) * n;
	await fake.setLatency(0);

	const idealRequests = Math.ceil(n / 20);
	const floorMs = (idealRequests * latency) / parallel;
	const naiveNote =
		naiveRows < n
			? `naive measured on ${naiveRows} rows and extrapolated ×${(n / naiveRows).toFixed(0)}`
			: 'naive measured on all rows';
	record({
		section,
		name: `make_plot requests for ${n.toLocaleString('en-US')} rows`,
		value: oursRequests,
		unit: 'requests',
		baseline: (naiveRequests / naiveRows) * n,
		baselineLabel: 'naive: one per row',
		target: `= ⌈N/20⌉ = ${idealRequests}`,
		ok: oursRequests === idealRequests,
	});
	record({
		section,
		name: `wall time for ${n.toLocaleString('en-US')} rows`,
		value: oursMs / 1000,
		unit: 's',
		baseline: naiveMs / 1000,
		baselineLabel: 'naive, sequential',
		note: naiveNote,
	});
	record({
		section,
		name: 'wall time vs physical floor',
		value: oursMs / 1000,
		unit: 's',
		baseline: floorMs / 1000,
		baselineLabel: `floor ⌈N/20⌉×${latency} ms÷${parallel}`,
		target: '≤ 1.3× floor',
		ok: oursMs <= 1.3 * floorMs,
		note:
			latency === 50 && parallel === 4 ? undefined : 'the target is set for 50 ms and 4 parallel',
	});
	record({
		section,
		name: 'engine start + pre-flight of all rows (before the first request)',
		value: firstRequestMs / 1000,
		unit: 's',
		note: `requests ran from ${(firstRequestMs / 1000).toFixed(2)} s to ${(oursMs / 1000).toFixed(2)} s, last one arrived at ${(lastArrivalMs / 1000).toFixed(2)} s`,
	});
	record({
		section,
		name: 'request phase vs physical floor',
		value: (oursMs - firstRequestMs) / 1000,
		unit: 's',
		baseline: floorMs / 1000,
		baselineLabel: 'floor',
	});
	record({
		section,
		name: 'request phase vs a bare fetch pool (same batches, same parallelism)',
		value: (oursMs - firstRequestMs) / 1000,
		unit: 's',
		baseline: bareMs / 1000,
		baselineLabel: 'bare fetch pool',
		note: `the bare pool itself is ${(bareMs / floorMs).toFixed(2)}× the floor: latency plus the fake's own work on this machine`,
	});
	record({
		section,
		name: 'throughput',
		value: n / (oursMs / 1000),
		unit: 'plots/s',
		baseline: n / (naiveMs / 1000),
		baselineLabel: 'naive',
	});
}

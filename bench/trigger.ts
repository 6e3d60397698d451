/**
 * 4. Trigger cost: requests and static-data bytes per poll once caught up, with 10, 1,000
 *    and 100,000 historical jobs (the trigger's poll() in n8n-core's PollContext, against
 *    the fake). Baseline: the naive trigger that lists all jobs on every poll and remembers
 *    every finished job id it has emitted.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FakeService } from '../test/fake-service';
import { CredentialStore, runPoll } from '../test/helpers/poll';
import { envNumber, envNumbers, fmt, record } from './lib';

const MIN = 60_000;

async function listAllJobs(
	fake: FakeService,
): Promise<{ requests: number; jobs: Array<{ job_id: string; status: string }> }> {
	let cursor: string | undefined;
	let requests = 0;
	const jobs: Array<{ job_id: string; status: string }> = [];
	do {
		const qs = new URLSearchParams({ limit: '1000', ...(cursor ? { cursor } : {}) });
		const res = await fetch(`${fake.url}/jobs?${qs}`, {
			headers: {
				'X-API-Version': '3',
				Authorization: `Bearer ${fake.users.alice.apiKey}`,
				Accept: 'application/json',
			},
		});
		requests++;
		const body = (await res.json()) as {
			jobs: Array<{ job_id: string; status: string }>;
			meta: { next_cursor?: string; has_more?: boolean };
		};
		if (!res.ok) throw new Error(`GET /jobs failed: HTTP ${res.status}`);
		jobs.push(...body.jobs);
		cursor = body.meta?.has_more ? body.meta.next_cursor : undefined;
	} while (cursor);
	return { requests, jobs };
}

/** The naive trigger: list everything, emit finished jobs not in the remembered id list. */
async function naivePoll(
	fake: FakeService,
	staticData: { seen?: string[] },
): Promise<{ requests: number; staticData: { seen: string[] } }> {
	const { requests, jobs } = await listAllJobs(fake);
	const seen = new Set(staticData.seen ?? []);
	for (const j of jobs)
		if (j.status === 'done' || j.status === 'done-with-errors') seen.add(j.job_id);
	return { requests, staticData: { seen: [...seen] } };
}

const bytes = (data: unknown) => Buffer.byteLength(JSON.stringify(data));

export async function triggerBench(fake: FakeService): Promise<void> {
	const section = 'trigger';
	const sizes = envNumbers('BENCH_TRIGGER_JOBS', [10, 1_000, 100_000]);
	const polls = envNumber('BENCH_TRIGGER_POLLS', 3);
	console.log(
		`\n## 4. Trigger: ${sizes.map((n) => n.toLocaleString('en-US')).join(', ')} historical jobs, ${polls} polls each once caught up (5 min apart on the fake clock)`,
	);
	const store = new CredentialStore({
		geospatialAnalysisApi: { baseUrl: fake.url, apiKey: fake.users.alice.apiKey },
	});
	const rows: Array<{
		n: number;
		req: number;
		bytes: number;
		naiveReq: number;
		naiveBytes: number;
	}> = [];

	for (const n of sizes) {
		fake.reset();
		fake.clock.setScale(0);
		const now = fake.clock.now().getTime();
		// finished jobs, one a minute back in time (100,000 jobs ≈ 69 days)
		fake.seedJobs('alice', n, { createdAt: (i) => new Date(now - (n - i) * MIN) });

		// ours: activation, then polls once caught up
		const activation = await runPoll({ parameters: {}, store });
		if (activation.error) throw new Error(`trigger activation failed: ${activation.error.message}`);
		let staticData: IDataObject = activation.staticData;
		const req: number[] = [];
		const size: number[] = [];
		for (let k = 0; k < polls; k++) {
			fake.clock.advance(5 * MIN);
			fake.log.clear();
			const r = await runPoll({ parameters: {}, store, staticData });
			if (r.error) throw new Error(`trigger poll failed: ${r.error.message}`);
			req.push(fake.log.count());
			staticData = r.staticData;
			size.push(bytes(staticData));
		}

		// naive: list all jobs on every poll, remember every finished id
		let naiveData: { seen?: string[] } = {};
		naiveData = (await naivePoll(fake, naiveData)).staticData; // activation
		const naiveReq: number[] = [];
		const naiveSize: number[] = [];
		for (let k = 0; k < Math.min(polls, 2); k++) {
			fake.clock.advance(5 * MIN);
			const r = await naivePoll(fake, naiveData);
			naiveReq.push(r.requests);
			naiveData = r.staticData;
			naiveSize.push(bytes(naiveData));
		}
		const row = {
			n,
			req: Math.max(...req),
			bytes: Math.max(...size),
			naiveReq: Math.max(...naiveReq),
			naiveBytes: Math.max(...naiveSize),
		};
		rows.push(row);
		console.log(
			`  ${fmt(n).padStart(7)} jobs: ours ${req.join('/')} requests per poll, static data ${size.join('/')} B; naive ${naiveReq.join('/')} requests, ${naiveSize.join('/')} B`,
		);
		record({
			section,
			name: `${fmt(n)} jobs: requests per poll`,
			value: row.req,
			unit: 'requests',
			baseline: row.naiveReq,
			baselineLabel: 'naive: list all',
		});
		record({
			section,
			name: `${fmt(n)} jobs: static data`,
			value: row.bytes,
			unit: 'B',
			baseline: row.naiveBytes,
			baselineLabel: 'naive: all finished ids',
		});
	}
	const constant = (xs: number[]) => Math.max(...xs) === Math.min(...xs);
	record({
		section,
		name: `requests per poll across ${sizes.map(fmt).join(' / ')} jobs`,
		value: Math.max(...rows.map((r) => r.req)),
		unit: 'requests (max)',
		target: 'constant',
		ok: constant(rows.map((r) => r.req)),
		note: rows.map((r) => r.req).join(' / '),
	});
	const b = rows.map((r) => r.bytes);
	record({
		section,
		name: `static data across ${sizes.map(fmt).join(' / ')} jobs`,
		value: Math.max(...b),
		unit: 'B (max)',
		target: 'constant: ≤ 1 KB and within 25 %',
		ok: Math.max(...b) <= 1024 && Math.max(...b) <= 1.25 * Math.min(...b),
		note: `${b.join(' / ')} B; the same number of entries, the fake's job ids just get longer (4 → 6 digits)`,
	});
}

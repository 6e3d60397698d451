/**
 * 12. EU Information System Trigger (issue 30): requests per poll and static-data bytes with
 *     10, 1,000 and 100,000 statements whose internal references start with the watched prefix,
 *     against the fake EU in this process (the trigger's poll() in n8n-core's PollContext,
 *     through the transport's 5 calls/s limiter). The trigger starts from a state that already
 *     knows every statement (as if it had found them over months; at the cap of 2,000 the first
 *     poll forgets the rest), all older than the EU's advised 30 minutes, so every poll may ask.
 *     Baseline: the naive trigger that asks for every statement on every poll (one getDds per
 *     100 UUIDs) and remembers every UUID with its status.
 */
import type { IDataObject } from 'n8n-workflow';

import { encodeRecord, records } from '../nodes/EuInformationSystemTrigger/statementState';
import { resetEuRateLimit } from '../nodes/shared/transport/euRateLimit';
import type { FakeEu } from '../test/fake-eu';
import { startFakeEu } from '../test/fake-eu';
import { runPoll } from '../test/helpers/poll';
import { EU_TRIGGER, cloneStatements, euStore, file } from '../test/integration/euTrigger/helpers';
import { envNumber, envNumbers, fmt, record } from './lib';

const SECTION = 'euTrigger';
const MIN = 60_000;
const bytes = (data: unknown) => Buffer.byteLength(JSON.stringify(data));

/** A stored state knowing every statement of the fake with the prefix (AVAILABLE, seen 2 hours ago). */
function knownState(eu: FakeEu, prefix: string): IDataObject {
	const now = Date.now();
	const s = records(
		eu
			.statements()
			.filter((x) => x.internalReferenceNumber.startsWith(prefix))
			.map((x): [string, string] => [
				x.uuid,
				encodeRecord({ kind: 'dds', status: x.status, communication: '', seenMs: now - 120 * MIN }),
			]),
	);
	return {
		'node:EU Information System Trigger': {
			statements: { v: 1, since: now - 120 * MIN, polledAt: now - MIN, rr: '', s },
		},
	};
}

export async function euTriggerBench(): Promise<void> {
	const sizes = envNumbers('BENCH_EU_TRIGGER_STATEMENTS', [10, 1_000, 100_000]);
	const polls = envNumber('BENCH_EU_TRIGGER_POLLS', 3);
	console.log(
		`\n## 12. EU Information System Trigger: ${sizes.map(fmt).join(', ')} statements with the prefix, ${polls} polls each (default settings: ≤ 10 requests a poll, ≤ 2,000 statements watched)`,
	);
	const rows: Array<{
		n: number;
		req: number;
		bytes: number;
		naiveReq: number;
		naiveBytes: number;
	}> = [];
	for (const n of sizes) {
		// the statements were filed 2 hours ago: AVAILABLE, older than the advised 30 minutes
		const eu = await startFakeEu({ availableAfterMs: MIN, startTime: Date.now() - 120 * MIN });
		try {
			resetEuRateLimit();
			const model = await file(eu, 'SHIP-0');
			cloneStatements(eu, model, n - 1, 'SHIP-');
			eu.clock.advance(120 * MIN);
			const store = euStore(eu.url, eu.users[0]);
			let staticData = knownState(eu, 'SHIP-');
			const req: number[] = [];
			const size: number[] = [];
			for (let k = 0; k < polls; k++) {
				const mark = eu.requests().length;
				const r = await runPoll({
					parameters: { internalReferencePrefix: 'SHIP-' },
					store,
					staticData,
					trigger: EU_TRIGGER,
				});
				if (r.error) throw new Error(`trigger poll failed: ${r.error.message}`);
				req.push(eu.requests().length - mark);
				staticData = r.staticData;
				size.push(bytes(r.nodeStaticData));
			}
			// naive: every statement asked for on every poll; every UUID and its status kept
			const naiveReq = 1 + Math.ceil(n / 100);
			const naiveBytes = bytes(Object.fromEntries(eu.statements().map((x) => [x.uuid, x.status])));
			const row = { n, req: Math.max(...req), bytes: Math.max(...size), naiveReq, naiveBytes };
			rows.push(row);
			console.log(
				`  ${fmt(n).padStart(7)} statements: ours ${req.join('/')} requests per poll, static data ${size.join('/')} B; naive ${naiveReq} requests, ${fmt(naiveBytes)} B`,
			);
			record({
				section: SECTION,
				name: `${fmt(n)} statements: requests per poll`,
				value: row.req,
				unit: 'requests',
				baseline: naiveReq,
				baselineLabel: 'naive: every statement every poll',
				target: '≤ 10 (Most Requests per Poll)',
				ok: row.req <= 10,
			});
			record({
				section: SECTION,
				name: `${fmt(n)} statements: static data`,
				value: row.bytes,
				unit: 'B',
				baseline: naiveBytes,
				baselineLabel: 'naive: every UUID and status',
				target: '≤ 160 KB (2,000 statements watched)',
				ok: row.bytes <= 160 * 1024,
			});
		} finally {
			await eu.stop();
		}
	}
	const perStatement = rows.filter((r) => r.n >= 100).map((r) => r.bytes / Math.min(r.n, 2_000));
	if (perStatement.length > 0)
		record({
			section: SECTION,
			name: 'static data per watched statement',
			value: Math.max(...perStatement),
			unit: 'B',
			target: '≤ 70 B',
			ok: Math.max(...perStatement) <= 70,
		});
}

/**
 * 13. EU Information System: statements filed exactly once with fewer calls (issue 36).
 * BENCH_EU_ONCE_STATEMENTS statements (default 100) filed the way Submit files them
 * (submitOnce: the process's memory, a lookup of the internal reference, the submission; as
 * many side by side as Submit's SUBMIT_CONCURRENCY), against the EU fake in this process at its
 * own limit of 5 calls a second, with the process-wide limiter of the transport:
 *   - the run's lookups by the prefix the references share (RunLookups: one complete search
 *     answers for all of them), as Submit does now;
 *   - one lookup per statement (submitOnce without the run's lookups), beside it in the same run.
 * Figures: the elapsed time of each against the floor the 5/s limit sets for its calls, the
 * calls made, and the calls the fake refused (429s are waited out and the statement goes
 * again through the lookup: none filed twice).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { Statement } from '../nodes/shared/dds/statement';
import { bigStatement } from './euInformationSystem';
import { envNumber, record } from './lib';

const SECTION = 'euOnce';

export async function euOnceBench(): Promise<void> {
	const n = envNumber('BENCH_EU_ONCE_STATEMENTS', 100);
	console.log(
		`\n## 13. EU Information System: ${n} statements filed exactly once at 5 calls a second, one lookup of the common prefix vs one lookup per statement`,
	);
	const { startFakeEu } = await import('../test/fake-eu');
	const { plainHttp } = await import('../test/helpers/plainHttp');
	const { submitDdsBody } = await import('../nodes/shared/dds/requests');
	const { submitOnce } = await import('../nodes/shared/dds/submitOnce');
	const { RunLookups } = await import('../nodes/shared/dds/referenceLookups');
	const { resetSubmitMemory } = await import('../nodes/shared/dds/submitMemory');
	const { resetEuRateLimit } = await import('../nodes/shared/transport/euRateLimit');
	const { runPool } = await import('../nodes/shared/runner/pool');
	const { SUBMIT_CONCURRENCY } = await import(
		'../nodes/EuInformationSystem/v1/actions/statements/submitStatements'
	);
	const fake = await startFakeEu({ ratePerSecond: 5 });
	try {
		const { httpRequest } = plainHttp();
		const user = fake.users[0];
		const ctx = {
			helpers: { httpRequest },
			getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
			getNodeParameter: (_n: string, _i: number, fallback: unknown) => fallback,
			getCredentials: async () => ({
				environment: 'custom',
				customUrl: fake.url,
				username: user.username,
				authKey: user.key,
				clientId: user.clientId,
			}),
		} as unknown as IExecuteFunctions;
		const refs = (tag: string) =>
			Array.from({ length: n }, (_, i) => `BENCH-ONCE-${tag}-${String(i).padStart(4, '0')}`);
		const small = (ref: string): Statement => ({
			...bigStatement(1, 5),
			internalReferenceNumber: ref,
		});
		const fileAll = async (references: string[], byPrefix: boolean) => {
			resetEuRateLimit();
			resetSubmitMemory();
			const mark = fake.requests().length;
			const lookups = byPrefix ? new RunLookups(references, () => Date.now()) : undefined;
			const t0 = Date.now();
			const outcome = await runPool(references, SUBMIT_CONCURRENCY, async (ref, i) => {
				return await submitOnce(ctx, {
					internalReference: ref,
					body: submitDdsBody('OPERATOR', small(ref)),
					itemIndex: i,
					ifAlreadyFiled: 'returnExisting',
					simplify: true,
					itemsLabel: `item ${i}`,
					lookups,
				});
			});
			const seconds = (Date.now() - t0) / 1000;
			const log = fake.requests().slice(mark);
			const failed = outcome.results.filter((r) => r.status !== 'fulfilled').length;
			const filedTwice = references.filter(
				(r) => fake.statements().filter((s) => s.internalReferenceNumber === r).length > 1,
			).length;
			return {
				seconds,
				calls: log.length,
				refused: log.filter((r) => r.outcome !== 'accepted').length,
				failed,
				filedTwice,
			};
		};
		const floor = (calls: number) => Math.max(0, (calls - 1) / 5);
		const perStatement = await fileAll(refs('Q'), false);
		const byPrefix = await fileAll(refs('P'), true);
		const target = 0.25 * n;
		record({
			section: SECTION,
			name: `${n} statements filed, one lookup of the common prefix (${byPrefix.calls} calls)`,
			value: byPrefix.seconds,
			unit: 's',
			baseline: perStatement.seconds,
			baselineLabel: `one lookup per statement, same run (${perStatement.calls} calls)`,
			target: `≤ ${target} s`,
			ok: byPrefix.seconds <= target,
		});
		record({
			section: SECTION,
			name: 'the same against the floor of 5 calls a second for its calls',
			value: byPrefix.seconds,
			unit: 's',
			baseline: floor(byPrefix.calls),
			baselineLabel: 'floor of 5 calls/s',
		});
		record({
			section: SECTION,
			name: 'one lookup per statement against its floor',
			value: perStatement.seconds,
			unit: 's',
			baseline: floor(perStatement.calls),
			baselineLabel: 'floor of 5 calls/s',
		});
		record({
			section: SECTION,
			name: 'calls, prefix lookups vs one lookup per statement',
			value: byPrefix.calls,
			unit: 'calls',
			baseline: perStatement.calls,
			baselineLabel: 'one lookup per statement',
			target: `≤ ${n + Math.ceil(n / 50)}`,
			ok: byPrefix.calls <= n + Math.ceil(n / 50),
		});
		record({
			section: SECTION,
			name: 'calls the fake refused (429: waited out, then looked up again), both paths',
			value: byPrefix.refused + perStatement.refused,
			unit: 'calls',
		});
		record({
			section: SECTION,
			name: 'statements not filed, or filed twice, both paths',
			value: byPrefix.failed + perStatement.failed + byPrefix.filedTwice + perStatement.filedTwice,
			unit: 'statements',
			target: '0',
			ok:
				byPrefix.failed + perStatement.failed + byPrefix.filedTwice + perStatement.filedTwice === 0,
		});
	} finally {
		await fake.stop();
	}
}

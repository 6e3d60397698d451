/**
 * 10. EU Information System (issue 29).
 *   a. A statement of BENCH_EU_PRODUCERS producers (default 1,000, the most one commodity may
 *      carry), each a BENCH_EU_VERTICES-vertex polygon at six decimals: the time to build the
 *      SubmitDdsRequest body and its envelope, the envelope's size against the EU's 25 MB
 *      limit, and the heap the build takes.
 *   b. BENCH_EU_STATEMENTS statements (default 100) submitted one after the other through the
 *      transport, against the fake of the EU Information System in this process, with the
 *      process-wide limit of 5 calls a second: the elapsed time against the floor the limit
 *      sets ((n − 1) / 5 s: the first five start at once), how many calls the fake refused
 *      for its own 5/s limit (HTTP 429: counted, each waited out and sent again, a submission
 *      only after a fresh lookup), and how many statements were not filed in the end or
 *      filed twice (must be none).
 */
import type { Statement } from '../nodes/shared/dds/statement';
import { submitDdsBody } from '../nodes/shared/dds/requests';
import type { EuCredential } from '../nodes/shared/transport/euCredential';
import { buildEnvelope, EU_MAX_MESSAGE_BYTES } from '../nodes/shared/transport/soapRequest';
import { envNumber, fmt, median, record } from './lib';

const SECTION = 'eu';

/** A closed ring of `n` vertices around (lon, lat), at six decimals, about 2 ha. */
function ring(lon: number, lat: number, n: number): number[][] {
	const out: number[][] = [];
	for (let i = 0; i < n - 1; i++) {
		const a = (2 * Math.PI * i) / (n - 1);
		out.push([
			Number((lon + 0.0007 * Math.cos(a)).toFixed(6)),
			Number((lat + 0.0007 * Math.sin(a)).toFixed(6)),
		]);
	}
	out.push(out[0]);
	return out;
}

export function bigStatement(producers: number, vertices: number): Statement {
	return {
		internalReferenceNumber: 'BENCH-1000-PRODUCERS',
		activityType: 'IMPORT',
		countryOfActivity: 'FR',
		commodities: [
			{
				descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '250000' } },
				hsHeading: '1801',
				producers: Array.from({ length: producers }, (_, i) => {
					const lon = -5.5 + (i % 100) * 0.01;
					const lat = 6.5 + Math.floor(i / 100) * 0.01;
					return {
						country: 'CI',
						name: `Producer ${i + 1}`,
						geometryGeojson: JSON.stringify({
							type: 'FeatureCollection',
							features: [
								{
									type: 'Feature',
									properties: { ProducerName: `Producer ${i + 1}`, ProducerCountry: 'CI' },
									geometry: { type: 'Polygon', coordinates: [ring(lon, lat, vertices)] },
								},
							],
						}),
					};
				}),
			},
		],
		geoLocationConfidential: false,
	};
}

export const BENCH_CREDENTIAL: EuCredential = {
	environment: 'custom',
	baseUrl: 'http://127.0.0.1:1/tracesnt/',
	origin: 'http://127.0.0.1:1',
	username: 'bench-user',
	key: 'bench-authentication-key-not-a-secret',
	clientId: 'eudr-test',
	operatorAccessIdentifier: '',
	echoPath: 'ws/eudr/echo',
	callsPerSecond: 5,
	secrets: ['bench-authentication-key-not-a-secret'],
};

function heapMb(): number {
	(globalThis as { gc?: () => void }).gc?.();
	return process.memoryUsage().heapUsed / 1e6;
}

export async function euBench(): Promise<void> {
	const producers = envNumber('BENCH_EU_PRODUCERS', 1000);
	const vertices = envNumber('BENCH_EU_VERTICES', 40);
	const runs = envNumber('BENCH_EU_RUNS', 5);
	console.log(
		`\n## EU Information System: a ${producers}-producer statement, ${vertices} vertices each`,
	);

	const statement = bigStatement(producers, vertices);
	const geoBytes = statement.commodities[0].producers!.reduce(
		(n, p) => n + Buffer.byteLength(p.geometryGeojson),
		0,
	);
	const times: number[] = [];
	let envelope = '';
	const heapBefore = heapMb();
	let heapPeak = heapBefore;
	for (let i = 0; i < runs; i++) {
		const t0 = process.hrtime.bigint();
		envelope = buildEnvelope(
			BENCH_CREDENTIAL,
			'dds',
			submitDdsBody('OPERATOR', statement),
			new Date(),
		);
		times.push(Number(process.hrtime.bigint() - t0) / 1e6);
		heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed / 1e6);
	}
	const bytes = Buffer.byteLength(envelope, 'utf8');
	record({
		section: SECTION,
		name: `build the SubmitDdsRequest envelope (${producers} producers, median of ${runs})`,
		value: median(times) / 1000,
		unit: 's',
		target: '< 1 s',
		ok: median(times) < 1000,
	});
	record({
		section: SECTION,
		name: `envelope size (${fmt(geoBytes / 1e6)} MB of GeoJSON before Base64)`,
		value: bytes / 1e6,
		unit: 'MB',
		baseline: EU_MAX_MESSAGE_BYTES / 1e6,
		baselineLabel: "the EU's limit",
		target: '< 25 MB',
		ok: bytes < EU_MAX_MESSAGE_BYTES,
	});
	record({
		section: SECTION,
		name: 'heap while building (peak above the start)',
		value: heapPeak - heapBefore,
		unit: 'MB',
		target: '< 200 MB',
		ok: heapPeak - heapBefore < 200,
	});
}

/** A ServiceContext on fetch (test/helpers/plainHttp.ts) for the transport, with the fake's user. */
async function fakeContext(fake: import('../test/fake-eu').FakeEu) {
	const { plainHttp } = await import('../test/helpers/plainHttp');
	const { httpRequest } = plainHttp();
	const user = fake.users[0];
	return {
		helpers: { httpRequest },
		getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
		getCredentials: async () => ({
			environment: 'custom',
			customUrl: fake.url,
			username: user.username,
			authKey: user.key,
			clientId: user.clientId,
		}),
	} as unknown as import('../nodes/shared/transport/serviceContext').ServiceContext;
}

/**
 * b. n statements at the process-wide 5 calls/s, all started at once, paced by the limiter.
 * A call the fake refuses for its limit (HTTP 429: on a busy machine, late starts arrive
 * together) is waited out and sent again: a read by the transport itself, a submission only
 * after its internal reference was looked up again (as Submit does: a retry never files
 * twice). The refusals are counted; none may be left in the end.
 */
export async function euRateBench(): Promise<void> {
	const n = envNumber('BENCH_EU_STATEMENTS', 100);
	console.log(`\n## EU Information System: ${n} statements filed at the limit of 5 calls a second`);
	const { startFakeEu } = await import('../test/fake-eu');
	const { soapRequest } = await import('../nodes/shared/transport/soapRequest');
	const { resetEuRateLimit } = await import('../nodes/shared/transport/euRateLimit');
	const { resendAfterRateRefusal } = await import('../nodes/shared/transport/euRefusal');
	const { getDdsByInternalReferenceBody } = await import('../nodes/shared/dds/requests');
	const { readOverviews } = await import('../nodes/shared/dds/answers');
	const fake = await startFakeEu({ ratePerSecond: 5 });
	try {
		const ctx = await fakeContext(fake);
		const lookup = async (ref: string) =>
			await soapRequest.call(ctx, {
				service: 'dds',
				operation: 'getDdsByInternalReference',
				body: getDdsByInternalReferenceBody(ref),
				idempotent: true,
			});
		/** Files `ref`; refused for the limit: looked up again (found: done), then sent again. */
		const file = async (ref: string) =>
			await resendAfterRateRefusal(
				ctx,
				async () =>
					await soapRequest.call(ctx, {
						service: 'dds',
						operation: 'submitDds',
						body: submitDdsBody('OPERATOR', {
							...bigStatement(1, 5),
							internalReferenceNumber: ref,
						}),
						idempotent: false,
					}),
				async () =>
					readOverviews((await lookup(ref)).element).some((o) => o.internalReferenceNumber === ref)
						? { done: undefined }
						: { resend: true },
			);
		/** Each pass files its own references (BENCH-RATE-<pass>-<i>). */
		const submitAll = async (pass: 'S' | 'L', lookupFirst: boolean) => {
			resetEuRateLimit();
			const from = fake.requests().length;
			const t0 = Date.now();
			// a call that fails in the end is counted, not a crash of the section
			const settled = await Promise.allSettled(
				Array.from({ length: n }, async (_, i) => {
					const ref = `BENCH-RATE-${pass}-${i}`;
					if (lookupFirst) await lookup(ref);
					await file(ref);
				}),
			);
			const seconds = (Date.now() - t0) / 1000;
			const log = fake.requests().slice(from);
			const prefix = `BENCH-RATE-${pass}-`;
			const filed = fake.statements().filter((s) => s.internalReferenceNumber.startsWith(prefix));
			return {
				seconds,
				failed: settled.filter((r) => r.status === 'rejected').length,
				refused: log.filter((r) => r.status === 429).length,
				otherwise: log.filter((r) => r.outcome !== 'accepted' && r.status !== 429).length,
				twice: filed.length - new Set(filed.map((s) => s.internalReferenceNumber)).size,
			};
		};
		const submitsOnly = await submitAll('S', false);
		// the node's Submit: a lookup of the internal reference, then the submit (exactly once)
		const withLookup = await submitAll('L', true);
		const floor = (calls: number) => Math.max(0, (calls - 1) / 5);
		// our pacing: START_SPACING_MS between starts, a tenth above the floor's 200 ms
		record({
			section: SECTION,
			name: `${n} submitDds calls started at once`,
			value: submitsOnly.seconds,
			unit: 's',
			baseline: floor(n),
			baselineLabel: 'floor of 5 calls/s',
			target: '≤ 1.15× floor',
			ok: submitsOnly.seconds <= 1.15 * floor(n) + 0.5,
		});
		record({
			section: SECTION,
			name: `${n} statements as Submit files them (lookup by internal reference, then submit: ${2 * n} calls)`,
			value: withLookup.seconds,
			unit: 's',
			baseline: floor(2 * n),
			baselineLabel: 'floor of 5 calls/s',
			target: '≤ 1.15× floor',
			ok: withLookup.seconds <= 1.15 * floor(2 * n) + 0.5,
		});
		const refused = submitsOnly.refused + withLookup.refused;
		record({
			section: SECTION,
			name: 'calls the fake refused for its 5/s limit (HTTP 429), each waited out and sent again',
			value: refused,
			unit: 'calls',
			target: 'counted (0 on a quiet machine)',
			ok: true,
		});
		const failed = submitsOnly.failed + withLookup.failed;
		const otherwise = submitsOnly.otherwise + withLookup.otherwise;
		const twice = submitsOnly.twice + withLookup.twice;
		record({
			section: SECTION,
			name: `statements not filed in the end, or filed twice (of ${2 * n}; other refusals: ${otherwise})`,
			value: failed + twice + otherwise,
			unit: 'statements',
			target: '0',
			ok: failed + twice + otherwise === 0,
		});
	} finally {
		await fake.stop();
	}
}

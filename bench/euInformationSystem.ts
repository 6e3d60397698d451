/**
 * 10. EU Information System (issue 29).
 *   a. A statement of BENCH_EU_PRODUCERS producers (default 1,000, the most one commodity may
 *      carry), each a BENCH_EU_VERTICES-vertex polygon at six decimals: the time to build the
 *      SubmitDdsRequest body and its envelope, the envelope's size against the EU's 25 MB
 *      limit, and the heap the build takes.
 *   b. BENCH_EU_STATEMENTS statements (default 100) submitted one after the other through the
 *      transport, against the fake of the EU Information System in this process, with the
 *      process-wide limit of 5 calls a second: the elapsed time against the floor the limit
 *      sets ((n − 1) / 5 s: the first five start at once), and how many answers the fake
 *      refused for exceeding its own 5/s limit (must be none).
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

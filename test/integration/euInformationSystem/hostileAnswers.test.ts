/**
 * Answers the EU Information System (or a proxy, or anyone in between) could send that would
 * hurt if trusted, through n8n's engine against the EU fake whose store a test changes: a
 * geolocation of 100,000 nested arrays, one that would decode into 7 million arrays (28 MB; 36 MB is over the answer limit),
 * statements whose "UUID" is 100 KB. The three big ones run in a child process with a 512 MB
 * heap (test/helpers/boundedChild.ts): the process never dies, the answer comes within the
 * jest timeout, and what comes out can be copied and saved by n8n. The rest in this process:
 * statuses named like members of Object, UUIDs in another letter case, overviews without a
 * UUID in Get and Get by Internal Reference.
 */
import path from 'node:path';
import type { IRun } from 'n8n-workflow';

import type { FakeEu } from '../../fake-eu';
import { submit } from '../../fake-eu/contract/harness';
import { availableSd } from '../../fake-eu/contract/sdHarness';
import { doneValue, runInBoundedChild } from '../../helpers/boundedChild';
import type { Scenario } from '../../helpers/euHostileScenarios';
import { useFakeEu } from '../../helpers/fakeEu';
import { EU_MAX_ANSWER_BYTES } from '../../../nodes/shared/transport/euAnswer';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { MAX_GEOLOCATION_DEPTH } from '../../../nodes/shared/dds/geolocation';
import { euStore, jsonOf, runEu } from './helpers';

const SCENARIOS = path.resolve(__dirname, '../../helpers/euHostileScenarios.ts');
/** A child bundles and loads n8n's engine first (seconds; more beside CI's CPU-bound load). */
const CHILD_TIMEOUT = 180_000;
const used = useFakeEu({ availableAfterMs: 0, ratePerSecond: 0 });
const eu = (): FakeEu => used.fake;
const store = () => euStore(eu().url, eu().users[0]);

beforeEach(() => resetEuRateLimit());

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
const DEEP_PROBLEM = `the geolocation the service sent nests more than ${MAX_GEOLOCATION_DEPTH} levels deep (a GeoJSON geolocation nests at most 10), so it is not output; see it in TRACES`;
const MANY_PROBLEM =
	'the geolocation the service sent holds more than 1,000,000 arrays and objects (more than a statement of 25 MB can carry), so it is not output; see it in TRACES';

/** The filed statement's stored content with its (first) geolocation replaced by `geojson`. */
function withGeolocation(uuid: string, geojson: string) {
	const s = eu()
		.statements()
		.find((x) => x.uuid === uuid)!;
	s.xml = s.xml.replace(/(geometryGeojson>)[^<]*(<)/, `$1${b64(geojson)}$2`);
	return s;
}

/** A DDS filed and AVAILABLE, with `geojson` as its stored geolocation. */
async function ddsWith(reference: string, geojson: string) {
	const uuid = await submit(eu(), { internalReference: reference });
	eu().clock.advance(1);
	return withGeolocation(uuid, geojson);
}

interface ContentResult {
	error?: string;
	items: number;
	internalReferenceNumber?: string;
	geolocations: Array<{ isNull: boolean; problem?: string }>;
	savedRun: { bytes: number } | { error: string };
}

async function contentInChild(
	resource: 'dueDiligenceStatement' | 'simplifiedDeclaration',
	s: { referenceNumber: string | null; verificationNumber: string | null },
) {
	const scenario: Scenario = {
		kind: 'getContent',
		url: eu().url,
		user: eu().users[0],
		resource,
		referenceNumber: s.referenceNumber!,
		verificationNumber: s.verificationNumber!,
	};
	return await runInBoundedChild<ContentResult>(SCENARIOS, scenario);
}

describe('Get Content: a hostile geolocation, in a child process with a 512 MB heap', () => {
	test(
		'100,000 nested arrays (200 KB): that producer null naming the limit, the statement output and saved',
		async () => {
			const s = await ddsWith('HOSTILE-DEEP', DEEP);
			const child = await contentInChild('dueDiligenceStatement', s);
			const value = doneValue(child);
			expect(value.error).toBeUndefined();
			expect(value).toMatchObject({
				items: 1,
				internalReferenceNumber: 'HOSTILE-DEEP',
				geolocations: [{ isNull: true, problem: DEEP_PROBLEM }],
				savedRun: { bytes: expect.any(Number) },
			});
		},
		CHILD_TIMEOUT,
	);

	test(
		'28 MB that would decode into 7 million arrays: null naming the limit, decided before decoding',
		async () => {
			// 7 million, not the 9 million (36 MB) seen: an answer over EU_MAX_ANSWER_BYTES
			// (32,000,000) ends in the transport's limit error before any decoding
			// (hostileTransport.test.ts); this one stays under it to reach the decoding limits
			const seven = `[${'[],'.repeat(7_000_000 - 1)}[]]`;
			const s = await ddsWith('HOSTILE-MANY', seven);
			expect(s.xml.length).toBeGreaterThan(28_000_000);
			expect(s.xml.length).toBeLessThan(EU_MAX_ANSWER_BYTES - 100_000);
			const child = await contentInChild('dueDiligenceStatement', s);
			s.xml = '';
			const value = doneValue(child);
			expect(value.error).toBeUndefined();
			expect(value).toMatchObject({
				items: 1,
				internalReferenceNumber: 'HOSTILE-MANY',
				geolocations: [{ isNull: true, problem: MANY_PROBLEM }],
				savedRun: { bytes: expect.any(Number) },
			});
			// nothing of the 7 million arrays was built: far below the 550 MB they would take
			expect(child.heapUsed).toBeLessThan(300_000_000);
		},
		CHILD_TIMEOUT,
	);

	test(
		'Simplified Declaration: the same limits',
		async () => {
			const sd = await availableSd(eu(), { internalReference: 'SD-DEEP' });
			withGeolocation(sd.uuid, DEEP);
			const child = await contentInChild('simplifiedDeclaration', sd);
			const value = doneValue(child);
			expect(value.error).toBeUndefined();
			expect(value).toMatchObject({
				items: 1,
				geolocations: [{ isNull: true, problem: DEEP_PROBLEM }],
				savedRun: { bytes: expect.any(Number) },
			});
		},
		CHILD_TIMEOUT,
	);
});

describe('Get Content: limits in this process', () => {
	test('a real geolocation up to the limits is output as it was filed', async () => {
		const deepest = JSON.stringify({
			type: 'FeatureCollection',
			features: [
				{
					type: 'Feature',
					properties: { ProducerCountry: 'BR' },
					geometry: {
						type: 'GeometryCollection',
						geometries: [
							{
								type: 'MultiPolygon',
								coordinates: [
									[
										[
											[-47.1, -15.1],
											[-47.0, -15.1],
											[-47.0, -15.0],
											[-47.1, -15.1],
										],
									],
								],
							},
						],
					},
				},
			],
		});
		const s = await ddsWith('DEEPEST-REAL', deepest);
		const result = await runEu({
			parameters: {
				operation: 'getContent',
				referenceNumber: s.referenceNumber!,
				verificationNumber: s.verificationNumber!,
			},
			store: store(),
		});
		expect(result.error).toBeUndefined();
		const [commodity] = jsonOf(result)[0].commodities as Array<{
			producers: Array<Record<string, unknown>>;
		}>;
		expect(commodity.producers[0].geometryGeojson).toEqual(JSON.parse(deepest));
		expect(commodity.producers[0]).not.toHaveProperty('geometryGeojsonProblem');
	});
});

describe('Get and Get by Internal Reference: statements whose UUID is none', () => {
	/** `count` statements like a filed one, put in the fake's store with `uuidOf(n)` as UUID. */
	async function stored(reference: string, uuidOf: (n: number) => string, count: number) {
		const filed = await submit(eu(), { internalReference: `${reference}-0` });
		const model = eu()
			.statements()
			.find((s) => s.uuid === filed)!;
		for (let n = 1; n <= count; n++)
			eu()
				.statements()
				.push({
					...model,
					uuid: uuidOf(n),
					internalReferenceNumber: `${reference}-${n}`,
					groups: [],
				});
		return model;
	}
	/** The hints (warnings in the output pane) the run's nodes added. */
	const hintsOf = (run: IRun) =>
		Object.values(run.data.resultData.runData).flatMap((tasks) =>
			tasks.flatMap((task) => (task.hints ?? []).map((hint) => hint.message)),
		);

	test('Get by Internal Reference (DDS and SD) outputs the others and says how many were left out', async () => {
		const model = await stored('BIGUUID', (n) => `${n}-`.padEnd(100_000, 'f'), 3);
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'BIGUUID' },
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => j.uuid)).toEqual([model.uuid]);
		expect(hintsOf(result.run)).toEqual([
			expect.stringMatching(
				/^The EU Information System's answer listed 3 statements without a valid UUID; they were left out \(a statement in the answer has "1-f{38}…" \(100000 characters\) as its UUID, which is not a UUID/,
			),
		]);
		const sd = await availableSd(eu(), { internalReference: 'SDBIG-0' });
		eu()
			.statements()
			.push({ ...sd, uuid: 'not-a-uuid', internalReferenceNumber: 'SDBIG-1', groups: [] });
		const sds = await runEu({
			parameters: {
				resource: 'simplifiedDeclaration',
				operation: 'getByInternalReference',
				internalReference: 'SDBIG',
			},
			store: store(),
		});
		expect(jsonOf(sds).map((j) => j.uuid)).toEqual([sd.uuid]);
		expect(hintsOf(sds.run)).toEqual([
			expect.stringMatching(/listed 1 declaration without a valid UUID; it was left out/),
		]);
	});

	test('Get finds a statement asked in another letter case than the EU answers', async () => {
		const uuid = await submit(eu(), { internalReference: 'CASE-UUID-1' });
		const result = await runEu({
			parameters: { operation: 'get', uuids: uuid.toUpperCase() },
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => j.uuid)).toEqual([uuid]);
	});
});

describe('Verify: a status named like a member of Object', () => {
	test('"constructor" is said as the text it is', async () => {
		const uuid = await submit(eu(), { internalReference: 'VERIFY-CTOR-1' });
		eu().clock.advance(1);
		eu().events.setStatus(uuid, 'constructor');
		const s = eu()
			.statements()
			.find((x) => x.uuid === uuid)!;
		const result = await runEu({
			parameters: {
				resource: 'declaration',
				operation: 'verify',
				referenceNumber: s.referenceNumber!,
				verificationNumber: s.verificationNumber!,
			},
			store: store(),
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({
			result: 'EXISTING_NON_USABLE',
			status: 'constructor',
			message: `The statement with reference number ${s.referenceNumber} and verification number ${s.verificationNumber} exists but cannot be used: its status is constructor. Ask the supplier for a valid statement.`,
		});
	});
});

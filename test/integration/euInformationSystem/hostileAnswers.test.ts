/**
 * Answers the EU Information System (or a proxy, or anyone in between) could send that would
 * hurt if trusted, through n8n's engine against the EU fake whose store a test changes: a
 * geolocation of 100,000 nested arrays, one that would decode into 9 million arrays (36 MB),
 * statements whose "UUID" is 100 KB. The three big ones run in a child process with a 512 MB
 * heap (test/helpers/boundedChild.ts): the process never dies, the answer comes within the
 * jest timeout, and what comes out can be copied and saved by n8n. The rest in this process:
 * statuses named like members of Object, UUIDs in another letter case, overviews without a
 * UUID in Get and Get by Internal Reference.
 */
import path from 'node:path';

import type { FakeEu } from '../../fake-eu';
import { submit } from '../../fake-eu/contract/harness';
import { availableSd } from '../../fake-eu/contract/sdHarness';
import { runInBoundedChild } from '../../helpers/boundedChild';
import type { Scenario } from '../../helpers/euHostileScenarios';
import { useFakeEu } from '../../helpers/fakeEu';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { MAX_GEOLOCATION_DEPTH } from '../../../nodes/shared/dds/geolocation';
import { euStore, jsonOf, runEu } from './helpers';

const SCENARIOS = path.resolve(__dirname, '../../helpers/euHostileScenarios.ts');
const used = useFakeEu({ availableAfterMs: 0 });
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
	test('100,000 nested arrays (200 KB): that producer null naming the limit, the statement output and saved', async () => {
		const s = await ddsWith('HOSTILE-DEEP', DEEP);
		const child = await contentInChild('dueDiligenceStatement', s);
		expect(child.outcome).toBe('done');
		expect(child.value).toMatchObject({
			error: undefined,
			items: 1,
			internalReferenceNumber: 'HOSTILE-DEEP',
			geolocations: [{ isNull: true, problem: DEEP_PROBLEM }],
			savedRun: { bytes: expect.any(Number) },
		});
	});

	test('36 MB that would decode into 9 million arrays: null naming the limit, decided before decoding', async () => {
		const nine = `[${'[],'.repeat(9_000_000 - 1)}[]]`;
		const s = await ddsWith('HOSTILE-MANY', nine);
		expect(s.xml.length).toBeGreaterThan(36_000_000);
		const child = await contentInChild('dueDiligenceStatement', s);
		s.xml = '';
		expect(child.outcome).toBe('done');
		expect(child.value).toMatchObject({
			error: undefined,
			items: 1,
			internalReferenceNumber: 'HOSTILE-MANY',
			geolocations: [{ isNull: true, problem: MANY_PROBLEM }],
			savedRun: { bytes: expect.any(Number) },
		});
		// nothing of the 9 million arrays was built: far below the 700 MB they would take
		expect(child.heapUsed).toBeLessThan(300_000_000);
	});

	test('Simplified Declaration: the same limits', async () => {
		const sd = await availableSd(eu(), { internalReference: 'SD-DEEP' });
		withGeolocation(sd.uuid, DEEP);
		const child = await contentInChild('simplifiedDeclaration', sd);
		expect(child.outcome).toBe('done');
		expect(child.value).toMatchObject({
			error: undefined,
			items: 1,
			geolocations: [{ isNull: true, problem: DEEP_PROBLEM }],
			savedRun: { bytes: expect.any(Number) },
		});
	});
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

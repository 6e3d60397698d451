/**
 * The DDS service's answers read as the node outputs them: after the EU's samples
 * (test/fixtures/eu-information-system/answers/, each naming its source) and our variants
 * (other prefixes, a default namespace, unknown statuses and elements, absent numbers,
 * a geolocation that is not Base64).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	AnswerShapeError,
	isStatementUuid,
	readEchoAnswer,
	readOverviews,
	readStatementContent,
	readStatusAnswer,
	readSubmitAnswer,
	skippedOverviews,
} from '../../../nodes/shared/dds/answers';
import {
	MAX_GEOLOCATION_DEPTH,
	MAX_GEOLOCATION_NODES,
} from '../../../nodes/shared/dds/geolocation';
import { readSoapAnswer } from '../../../nodes/shared/soap/soapAnswer';
import type { XmlElement } from '../../../nodes/shared/soap/xmlElement';
import { parseXml } from '../../../nodes/shared/soap/xml';

const DIR = join(__dirname, '..', '..', 'fixtures', 'eu-information-system', 'answers');

function body(file: string): XmlElement {
	const answer = readSoapAnswer(readFileSync(join(DIR, file), 'utf8'));
	if (answer.kind !== 'body') throw new Error(`${file} is not a body answer`);
	return answer.element;
}

describe('DDS answers', () => {
	it('submit: the UUID', () => {
		expect(readSubmitAnswer(body('submit-dds.xml'))).toEqual({
			uuid: '071874bd-8c62-4cac-8eb6-b2fbe003410c',
		});
	});

	it('amend: UUID and status', () => {
		expect(readStatusAnswer(body('amend-dds.xml'))).toEqual({
			uuid: '071874bd-8c62-4cac-8eb6-b2fbe003410c',
			status: 'AVAILABLE',
		});
	});

	it('an answer without its UUID is a shape error, not an empty success', () => {
		const el = parseXml(
			'<d:SubmitDdsResponse xmlns:d="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"/>',
		);
		expect(() => readSubmitAnswer(el)).toThrow(AnswerShapeError);
	});

	it('getDds: every OverviewType field of the EU sample, absent ones null', () => {
		expect(readOverviews(body('get-dds.xml'))).toEqual([
			{
				uuid: '071874bd-8c62-4cac-8eb6-b2fbe003410c',
				internalReferenceNumber: '26BEDWNW9JD1TN',
				referenceNumber: '26BE7XTVCZAQ2S',
				verificationNumber: 'SFFCB4Y3',
				status: 'AVAILABLE',
				rejectionReason: null,
				communicationToOperator: null,
				date: '2026-05-20T09:55:01.000Z',
				updatedBy: 'User3 User3',
				version: '1',
			},
		]);
	});

	it('getDds variants: rejection, communication, unknown status and fields passed through', () => {
		const [rejected, unknown, submitted] = readOverviews(body('get-dds-variants.xml'));
		expect(rejected).toMatchObject({
			status: 'REJECTED',
			rejectionReason: 'Geolocation & HS heading do not match',
			communicationToOperator: {
				date: '2026-06-01T08:00:00Z',
				content: 'Please contact the authority',
			},
			referenceNumber: null,
		});
		expect(unknown).toMatchObject({ status: 'DRAFT', riskLevel: 'standard' });
		expect(submitted).toMatchObject({
			uuid: '33333333-3333-4333-8333-333333333333',
			status: 'SUBMITTED',
			referenceNumber: null,
			verificationNumber: null,
		});
	});

	it('an empty overview list is an empty list', () => {
		const el = parseXml(
			'<d:GetDdsByInternalReferenceResponse xmlns:d="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"/>',
		);
		expect(readOverviews(el)).toEqual([]);
	});

	it('getDdsByIdentifiers: the statement as JSON, geolocation decoded or null with the reason', () => {
		const content = readStatementContent(body('get-dds-by-identifiers.xml'));
		expect(content).toMatchObject({
			internalReferenceNumber: 'PO-2026-0001',
			activityType: 'IMPORT',
			geoLocationConfidential: false,
			groupedDeclarations: ['26FRXXXXXXXXX1'],
		});
		const [commodity] = content.commodities as Array<Record<string, unknown>>;
		expect(commodity).toMatchObject({
			hsHeading: '1801',
			descriptors: { descriptionOfGoods: 'Cocoa beans', goodsMeasure: { netWeight: '300.000000' } },
		});
		const [good, bad] = commodity.producers as Array<Record<string, unknown>>;
		expect(good.geometryGeojson).toMatchObject({
			type: 'FeatureCollection',
			features: [{ geometry: { type: 'Point', coordinates: [-5.123456, 6.654321] } }],
		});
		expect(good).not.toHaveProperty('geometryGeojsonProblem');
		expect(bad).toMatchObject({
			geometryGeojson: null,
			geometryGeojsonProblem: 'the geolocation the service sent is not Base64',
		});
	});

	it('echo: its status', () => {
		const el = parseXml(
			'<e:EudrEchoResponse xmlns:e="http://ec.europa.eu/tracesnt/eudr/echo"><e:status>OK</e:status></e:EudrEchoResponse>',
		);
		expect(readEchoAnswer(el)).toEqual({ status: 'OK' });
	});
});

describe('the decoded geolocation within limits (geolocation.ts)', () => {
	const DDS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
	const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
	const content = (geometries: string[]) =>
		readStatementContent(
			parseXml(
				`<d:GetDdsByIdentifiersResponse xmlns:d="${DDS}"><d:statement><d:commodities>${geometries
					.map(
						(g, i) =>
							`<d:producers><d:name>P${i}</d:name><d:geometryGeojson>${b64(g)}</d:geometryGeojson></d:producers>`,
					)
					.join('')}</d:commodities></d:statement></d:GetDdsByIdentifiersResponse>`,
			),
		);
	const producers = (c: Record<string, unknown>) =>
		(c.commodities as Array<{ producers: Array<Record<string, unknown>> }>)[0].producers;
	const point = '{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,2.5]}}';

	it('a geolocation nesting deeper than the limit is null with the reason; the others and the rest are output', () => {
		const deep = '['.repeat(100_000) + ']'.repeat(100_000);
		const c = content([deep, point]);
		const [bad, good] = producers(c);
		expect(bad).toEqual({
			name: 'P0',
			geometryGeojson: null,
			geometryGeojsonProblem: `the geolocation the service sent nests more than ${MAX_GEOLOCATION_DEPTH} levels deep (a GeoJSON geolocation nests at most 10), so it is not output; see it in TRACES`,
		});
		expect(good.geometryGeojson).toMatchObject({ geometry: { coordinates: [1.5, 2.5] } });
		expect(() => JSON.stringify(c)).not.toThrow();
	});

	it('exactly the limit of depth decodes; brackets inside texts do not count', () => {
		const atLimit = '['.repeat(MAX_GEOLOCATION_DEPTH) + ']'.repeat(MAX_GEOLOCATION_DEPTH);
		const quoted = `{"type":"Feature","properties":{"note":"${'[{'.repeat(100)}\\"]"},"geometry":null}`;
		const [a, b] = producers(content([atLimit, quoted]));
		expect(a.geometryGeojson).toEqual(expect.any(Array));
		expect(b.geometryGeojson).toMatchObject({ properties: { note: `${'[{'.repeat(100)}"]` } });
	});

	it('more arrays and objects than the limit: null with the reason, decided before anything is built', () => {
		const many = `[${'[],'.repeat(MAX_GEOLOCATION_NODES)}[]]`;
		const [bad] = producers(content([many]));
		expect(bad.geometryGeojson).toBeNull();
		expect(bad.geometryGeojsonProblem).toBe(
			'the geolocation the service sent holds more than 1,000,000 arrays and objects (more than a statement of 25 MB can carry), so it is not output; see it in TRACES',
		);
	});

	it('the limit is for the statement: producers beyond what is left are null, naming it', () => {
		// each half of the allowance but 10: two fit, a third does not, a small one still does
		const half = `[${'[],'.repeat(MAX_GEOLOCATION_NODES / 2 - 12)}[]]`;
		const [one, two, three, four] = producers(content([half, half, half, point]));
		expect(one.geometryGeojson).toEqual(expect.any(Array));
		expect(two.geometryGeojson).toEqual(expect.any(Array));
		expect(three.geometryGeojson).toBeNull();
		expect(three.geometryGeojsonProblem).toMatch(
			/^the geolocations of this statement together hold more than 1,000,000 arrays and objects .*: this producer's is not output/,
		);
		expect(four.geometryGeojson).toMatchObject({ type: 'Feature' });
	});
});

describe('overviews whose UUID is none', () => {
	const DDS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
	const entry = (uuid: string | null, status = 'AVAILABLE') =>
		`<d:ddsOverviewList>${uuid === null ? '' : `<c:uuid>${uuid}</c:uuid>`}<c:status>${status}</c:status></d:ddsOverviewList>`;
	const list = (...entries: string[]) =>
		parseXml(
			`<d:GetDdsResponse xmlns:d="${DDS}" xmlns:c="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3">${entries.join('')}</d:GetDdsResponse>`,
		);
	const good = '071874bd-8c62-4cac-8eb6-b2fbe003410c';

	it('given a counter, they are left out and counted (the UUID shape in any letter case passes)', () => {
		const skipped = skippedOverviews();
		const read = readOverviews(
			list(entry('x'.repeat(100_000)), entry(null), entry(` ${good.toUpperCase()} `), entry('123')),
			skipped,
		);
		expect(read.map((o) => o.uuid)).toEqual([good.toUpperCase()]);
		expect(skipped.count).toBe(3);
		expect(skipped.reasons[0]).toBe(
			`a statement in the answer has "${'x'.repeat(40)}…" (100000 characters) as its UUID, which is not a UUID (36 characters such as 071874bd-8c62-4cac-8eb6-b2fbe003410c)`,
		);
		expect(skipped.reasons[1]).toBe('a statement in the answer has no UUID (uuid)');
	});

	it('without one (the lookups before filing), a missing UUID fails the read and another is kept as sent', () => {
		expect(() => readOverviews(list(entry(null)))).toThrow(AnswerShapeError);
		expect(readOverviews(list(entry('kept'))).map((o) => o.uuid)).toEqual(['kept']);
	});

	it('isStatementUuid: 36 characters of the UUID shape, any letter case', () => {
		expect(isStatementUuid(good)).toBe(true);
		expect(isStatementUuid(good.toUpperCase())).toBe(true);
		expect(isStatementUuid(`${good}0`)).toBe(false);
		expect(isStatementUuid(good.replace(/-/g, ''))).toBe(false);
	});
});

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
	readEchoAnswer,
	readOverviews,
	readStatementContent,
	readStatusAnswer,
	readSubmitAnswer,
} from '../../../nodes/shared/dds/answers';
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

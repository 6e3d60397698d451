/**
 * The XSD judge (test/helpers/euXsd.ts) gives the results the reference pack records for the
 * EU's schemas run through the system xmllint (pack README §8): a minimal IMPORT SubmitDdsRequest
 * validates; `TRADE` and `18A1` give two facet errors; netWeight with 7 decimals and goodsMeasure
 * children out of order are refused; a 40-character DDS internal reference passes (the 35/50
 * conflict); the headers validate only with an unqualified BodyIdentity child.
 */
import { validateEuXml } from '../../helpers/euXsd';

const DDS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const COMMON = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';

function submit({
	activity = 'IMPORT',
	hs = '1801',
	measure = '<c:netWeight>1000</c:netWeight>',
	reference = 'REF-1',
} = {}) {
	return `<v3:SubmitDdsRequest xmlns:v3="${DDS}" xmlns:c="${COMMON}">
<v3:operatorRole>OPERATOR</v3:operatorRole>
<v3:statement>
<v3:internalReferenceNumber>${reference}</v3:internalReferenceNumber>
<v3:activityType>${activity}</v3:activityType>
<v3:countryOfActivity>FR</v3:countryOfActivity>
<v3:commodities>
<v3:descriptors><c:descriptionOfGoods>Cocoa beans</c:descriptionOfGoods><c:goodsMeasure>${measure}</c:goodsMeasure></v3:descriptors>
<v3:hsHeading>${hs}</v3:hsHeading>
<v3:producers><v3:country>CI</v3:country><v3:name>Coop</v3:name><v3:geometryGeojson>eyJ0eXBlIjoiUG9pbnQifQ==</v3:geometryGeojson></v3:producers>
</v3:commodities>
<v3:geoLocationConfidential>false</v3:geoLocationConfidential>
</v3:statement>
</v3:SubmitDdsRequest>`;
}

describe('the EU XSDs, as the judge of what is sent', () => {
	it('accepts the pack’s minimal IMPORT statement', async () => {
		expect(await validateEuXml(submit(), 'dds')).toEqual({ valid: true, errors: [] });
	});

	it('refuses TRADE and an HS heading with a letter, naming both', async () => {
		const r = await validateEuXml(submit({ activity: 'TRADE', hs: '18A1' }), 'dds');
		expect(r.valid).toBe(false);
		expect(r.errors).toHaveLength(2);
		expect(r.errors[0]).toMatch(/activityType.*TRADE/);
		expect(r.errors[1]).toMatch(/hsHeading.*18A1/);
	});

	it('refuses a net weight with 7 decimals and goodsMeasure children out of order', async () => {
		expect(
			(await validateEuXml(submit({ measure: '<c:netWeight>1.1234567</c:netWeight>' }), 'dds'))
				.valid,
		).toBe(false);
		const outOfOrder =
			'<c:netWeight>10</c:netWeight><c:percentageEstimationOrDeviation>5</c:percentageEstimationOrDeviation>';
		expect((await validateEuXml(submit({ measure: outOfOrder }), 'dds')).valid).toBe(false);
	});

	it('lets a 40-character DDS internal reference through (the XSD allows 50; we keep 35)', async () => {
		expect((await validateEuXml(submit({ reference: 'R'.repeat(40) }), 'dds')).valid).toBe(true);
		expect((await validateEuXml(submit({ reference: 'R'.repeat(51) }), 'dds')).valid).toBe(false);
	});

	it('validates the headers: client id, and BodyIdentity only with an unqualified child', async () => {
		const clientId =
			'<v4:WebServiceClientId xmlns:v4="http://ec.europa.eu/sanco/tracesnt/base/v4">eudr-test</v4:WebServiceClientId>';
		expect((await validateEuXml(clientId, 'headers')).valid).toBe(true);
		const body = (child: string) =>
			`<body:BodyIdentity xmlns:body="http://ec.europa.eu/tracesnt/body/v3">${child}</body:BodyIdentity>`;
		expect(
			(
				await validateEuXml(
					body('<OperatorAccessIdentifier>ID1</OperatorAccessIdentifier>'),
					'headers',
				)
			).valid,
		).toBe(true);
		expect(
			(
				await validateEuXml(
					body('<body:OperatorAccessIdentifier>ID1</body:OperatorAccessIdentifier>'),
					'headers',
				)
			).valid,
		).toBe(false);
	});

	it('validates a Verify request', async () => {
		const verify = `<v3:VerifyDeclarationRequest xmlns:v3="http://ec.europa.eu/tracesnt/certificate/eudr/verify-declaration/v3"><v3:referenceNumber>26FRXXXXXXXXXX</v3:referenceNumber><v3:verificationNumber>ABCDEFGH</v3:verificationNumber></v3:VerifyDeclarationRequest>`;
		const r = await validateEuXml(verify, 'verify');
		expect(r.errors).toEqual([]);
	});
});

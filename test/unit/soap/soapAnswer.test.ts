import { readSoapAnswer } from '../../../nodes/shared/soap/soapAnswer';
import { XmlParseError } from '../../../nodes/shared/soap/xml';

const MSG = `<S:Header><ns9:Message xmlns:ns9="http://ec.europa.eu/sanco/tracesnt/message/v1"><ns9:ID>WS_REQUEST_ID</ns9:ID><ns9:Value>req-123</ns9:Value></ns9:Message></S:Header>`;
const env = (header: string, body: string) =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/">${header}<S:Body>${body}</S:Body></S:Envelope>`;

describe('readSoapAnswer', () => {
	it("reads the Body's first element, by namespace whatever the prefix", () => {
		const a = readSoapAnswer(
			env(
				'',
				'<ns3:SubmitDdsResponse xmlns:ns3="urn:dds"><ns3:ddsIdentifier>x</ns3:ddsIdentifier></ns3:SubmitDdsResponse>',
			),
		);
		expect(a).toMatchObject({
			kind: 'body',
			element: { ns: 'urn:dds', name: 'SubmitDdsResponse' },
			requestId: null,
		});
	});

	it('reads a fault with its errors (Field optional) and the request id', () => {
		const a = readSoapAnswer(
			env(
				MSG,
				`<S:Fault><faultcode>S:Client</faultcode><faultstring>Some business rules are not met</faultstring><detail><ns5:BusinessRulesValidationException xmlns:ns5="urn:dds" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01"><e:Error><e:ID>EUDR-REFERENCE-NUMBER-INVALID</e:ID><e:Message>bad</e:Message><e:Field>referenceNumber</e:Field></e:Error><e:Error><e:ID>EUDR_X</e:ID><e:Message>m</e:Message></e:Error></ns5:BusinessRulesValidationException></detail></S:Fault>`,
			),
		);
		expect(a).toEqual({
			kind: 'fault',
			faultCode: 'S:Client',
			faultString: 'Some business rules are not met',
			faultName: 'BusinessRulesValidationException',
			errors: [
				{ id: 'EUDR-REFERENCE-NUMBER-INVALID', message: 'bad', field: 'referenceNumber' },
				{ id: 'EUDR_X', message: 'm', field: null },
			],
			moreErrors: 0,
			requestId: 'req-123',
		});
	});

	it("tolerates the downstream samples' errors/error/field shape", () => {
		const a = readSoapAnswer(
			env(
				'',
				`<S:Fault><faultcode>S:Client</faultcode><faultstring>x</faultstring><detail><NotFoundException><errors><error><code>EUDR_API_NO_DDS</code><message>none</message><field>uuid</field></error></errors></NotFoundException></detail></S:Fault>`,
			),
		);
		expect(a).toMatchObject({
			faultName: 'NotFoundException',
			errors: [{ id: 'EUDR_API_NO_DDS', message: 'none', field: 'uuid' }],
		});
	});

	it('throws XmlParseError for what is not SOAP', () => {
		expect(() => readSoapAnswer('<html><body>Service down</body></html>')).toThrow(XmlParseError);
		expect(() => readSoapAnswer('Service down')).toThrow(XmlParseError);
	});
});

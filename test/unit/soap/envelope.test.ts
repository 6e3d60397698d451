import {
	bodyIdentityHeader,
	clientIdHeader,
	soapEnvelope,
	SOAP_ENV_NS,
} from '../../../nodes/shared/soap/envelope';
import { parseXml } from '../../../nodes/shared/soap/xml';
import { validateEuXml } from '../../helpers/euXsd';

describe('SOAP envelope', () => {
	it('puts the headers and the body in a SOAP 1.1 envelope', () => {
		const env = parseXml(
			soapEnvelope({ headers: ['<a xmlns="urn:a"/>'], body: '<b xmlns="urn:b"/>' }),
		);
		expect(env).toMatchObject({ ns: SOAP_ENV_NS, name: 'Envelope' });
		expect(env.children.map((c) => [c.ns, c.name])).toEqual([
			[SOAP_ENV_NS, 'Header'],
			[SOAP_ENV_NS, 'Body'],
		]);
		expect(env.children[1].children[0]).toMatchObject({ ns: 'urn:b', name: 'b' });
	});

	it('writes headers that validate against the EU schemas', async () => {
		expect(await validateEuXml(clientIdHeader('eudr-test'), 'headers')).toEqual({
			valid: true,
			errors: [],
		});
		expect(await validateEuXml(bodyIdentityHeader('OP-12345'), 'headers')).toEqual({
			valid: true,
			errors: [],
		});
	});

	it('escapes values', () => {
		expect(clientIdHeader('a&b')).toContain('a&amp;b');
	});
});

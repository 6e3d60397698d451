/**
 * Each service's endpoint path and each operation's SOAPAction, read from the EU's own WSDL
 * files in the fixture pack (soap:address and soap:operation), against what the transport
 * sends (pack §2: the SD reads bind DDS-namespace actions; Verify's action matches no
 * namespace) and where BodyIdentity goes (pack §3.1: DDS and SD, not Verify).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { EuCredential } from '../../../nodes/shared/transport/euCredential';
import type { EuService } from '../../../nodes/shared/transport/soapRequest';
import {
	buildEnvelope,
	euEndpoint,
	soapActionOf,
} from '../../../nodes/shared/transport/soapRequest';

const WSDL = join(__dirname, '../../fixtures/eu-information-system/wsdl');
const SERVICES: Array<{ service: EuService; dir: string; operations: number }> = [
	{ service: 'dds', dir: 'EUDRDueDiligenceStatementServiceV3', operations: 6 },
	{ service: 'sd', dir: 'EUDRSimplifiedDeclarationServiceV3', operations: 6 },
	{ service: 'verify', dir: 'EUDRVerifyDeclarationServiceV3', operations: 1 },
];

const credential: EuCredential = {
	environment: 'acceptance',
	baseUrl: 'https://acceptance.eudr.webcloud.ec.europa.eu/tracesnt/',
	origin: 'https://acceptance.eudr.webcloud.ec.europa.eu',
	username: 'user',
	key: 'secret-key',
	clientId: 'eudr-test',
	operatorAccessIdentifier: 'OP123',
	echoPath: 'ws/eudr/echo',
	secrets: ['secret-key'],
} as EuCredential;

/** operation name → SOAPAction, from every WSDL file of a service folder. */
function bindings(dir: string): Map<string, string> {
	const found = new Map<string, string>();
	for (const file of ['wsdl1-base-v4.wsdl', 'wsdl2-body-v3.wsdl', `${dir}.wsdl`]) {
		let text: string;
		try {
			text = readFileSync(join(WSDL, dir, file), 'utf8');
		} catch {
			continue;
		}
		// a binding operation: its name, maybe documentation, then its soap:operation
		const re =
			/<wsdl:operation name="([^"]+)">(?:(?!<\/wsdl:operation>)[\s\S])*?<soap:operation soapAction="([^"]*)"/g;
		for (let m = re.exec(text); m; m = re.exec(text)) found.set(m[1], m[2]);
	}
	return found;
}

describe('EU services: paths and SOAPActions as the WSDLs bind them', () => {
	for (const { service, dir, operations } of SERVICES) {
		it(`${service}: every operation of ${dir}`, () => {
			const actions = bindings(dir);
			expect(actions.size).toBe(operations);
			for (const [operation, action] of actions)
				expect([operation, soapActionOf(service, operation)]).toEqual([operation, action]);
			const wsdl = readFileSync(join(WSDL, dir, `${dir}.wsdl`), 'utf8');
			const address = /<soap:address location="([^"]+)"/.exec(wsdl)?.[1] ?? '';
			expect(euEndpoint(credential, service)).toBe(address.replace(':443', ''));
		});
	}

	it('BodyIdentity goes with DDS and SD operations, not with verifyDeclaration', () => {
		const now = new Date('2026-11-28T10:00:00Z');
		for (const service of ['dds', 'sd'] as const)
			expect(buildEnvelope(credential, service, '<x/>', now)).toContain('BodyIdentity');
		expect(buildEnvelope(credential, 'verify', '<x/>', now)).not.toContain('BodyIdentity');
	});
});

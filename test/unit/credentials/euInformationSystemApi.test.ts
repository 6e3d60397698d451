import type { IHttpRequestHelper } from 'n8n-workflow';

import { EuInformationSystemApi } from '../../../credentials/EuInformationSystemApi.credentials';
import { readEuCredential } from '../../../nodes/shared/transport/euCredential';
import { soapRequest } from '../../../nodes/shared/transport/soapRequest';
import type { ServiceContext } from '../../../nodes/shared/transport/serviceContext';
import type { Loopback } from '../../helpers/loopback';
import { useEuLoopback } from '../../helpers/euLoopback';
import { plainHttp } from '../../helpers/plainHttp';

const KEY_VALUE = ['credential', 'test', 'value', '42'].join('-');
const SOAP = (body: string) =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`;

let server: Loopback;
useEuLoopback((s) => (server = s));

const helper = {
	helpers: { httpRequest: plainHttp().httpRequest },
} as unknown as IHttpRequestHelper;

const data = () => ({
	environment: 'custom',
	customUrl: `${server.url}/tracesnt/`,
	username: 'user1',
	authKey: KEY_VALUE,
	clientId: 'eudr-test',
	echoPath: 'ws/eudr/echo',
});

describe('EU Information System API credential', () => {
	const type = new EuInformationSystemApi();

	it('is named as the contract says, defaults to Acceptance and eudr-test', () => {
		expect(type.name).toBe('euInformationSystemApi');
		expect(type.displayName).toBe('EU Information System API');
		const byName = Object.fromEntries(type.properties.map((p) => [p.name, p]));
		expect(byName.environment.default).toBe('acceptance');
		// the Web Service Client ID: empty means eudr-test (the placeholder says it)
		expect(byName.webServiceClientId.default).toBe('');
		expect(byName.webServiceClientId.placeholder).toBe('eudr-test');
		expect(readEuCredential({ username: 'u', authKey: KEY_VALUE }).clientId).toBe('eudr-test');
		expect(byName.authKey.typeOptions?.password).toBe(true);
		expect(JSON.stringify(byName.environment.options)).toMatch(/legal value/);
	});

	it('names the client id field webServiceClientId ("Web Service Client ID"), never clientId, which n8n relabels "Client ID"', () => {
		const shown = type.properties.filter((p) => p.type !== 'hidden');
		const field = shown.find((p) => p.displayName === 'Web Service Client ID');
		expect(field?.name).toBe('webServiceClientId');
		expect(shown.map((p) => p.name)).not.toContain('clientId');
		// the older name stays declared (hidden): n8n keeps only declared fields of a credential
		expect(type.properties.find((p) => p.name === 'clientId')?.type).toBe('hidden');
	});

	it('reads the Web Service Client ID from webServiceClientId, else from a credential saved under clientId, else eudr-test', () => {
		const read = (more: Record<string, unknown>) =>
			readEuCredential({ username: 'u', authKey: KEY_VALUE, ...more }).clientId;
		expect(read({ webServiceClientId: 'my-client' })).toBe('my-client');
		expect(read({ clientId: 'saved-before' })).toBe('saved-before');
		expect(read({ clientId: ' saved-before ', webServiceClientId: '' })).toBe('saved-before');
		// a value entered in the renamed field wins over the older one
		expect(read({ clientId: 'saved-before', webServiceClientId: 'entered-now' })).toBe(
			'entered-now',
		);
		expect(read({ clientId: '', webServiceClientId: '  ' })).toBe('eudr-test');
		expect(read({})).toBe('eudr-test');
	});

	it('reads the environments and checks a custom URL like the other credentials', () => {
		expect(readEuCredential({ username: 'u', authKey: KEY_VALUE }).baseUrl).toBe(
			'https://acceptance.eudr.webcloud.ec.europa.eu/tracesnt/',
		);
		expect(
			readEuCredential({ environment: 'production', username: 'u', authKey: KEY_VALUE }).baseUrl,
		).toBe('https://eudr.webcloud.ec.europa.eu/tracesnt/');
		expect(
			readEuCredential({
				environment: 'custom',
				customUrl: 'http://localhost:9/tracesnt//',
				username: 'u',
				authKey: KEY_VALUE,
			}).baseUrl,
		).toBe('http://localhost:9/tracesnt/');
		expect(() =>
			readEuCredential({
				environment: 'custom',
				customUrl: 'http://example.com/',
				username: 'u',
				authKey: KEY_VALUE,
			}),
		).toThrow(/Custom URL must start with https:\/\//);
		expect(() =>
			readEuCredential({ environment: 'custom', username: 'u', authKey: KEY_VALUE }),
		).toThrow(/no Custom URL/);
	});

	it("reads Calls per Second: 5 when empty (the EU's limit), 0.1 to 5 when set, a clear refusal otherwise", () => {
		const byName = Object.fromEntries(type.properties.map((p) => [p.name, p]));
		expect(byName.callsPerSecond.default).toBe(5);
		expect(byName.callsPerSecond.description).toMatch(/queue mode.*2 workers: 2\.5/);
		const read = (callsPerSecond: unknown) =>
			readEuCredential({ username: 'u', authKey: 'k-8-chars', callsPerSecond }).callsPerSecond;
		expect(read(undefined)).toBe(5);
		expect(read('')).toBe(5);
		expect(read(2.5)).toBe(2.5);
		expect(read('1')).toBe(1);
		expect(() => read(6)).toThrow(/Calls per Second.*above the largest allowed value, 5.*divide 5/);
		expect(() => read(0)).toThrow(/Calls per Second.*below the smallest allowed value, 0\.1/);
		expect(() => read('fast')).toThrow(/Calls per Second/);
	});

	it('proves the key with echo', async () => {
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(
				SOAP(
					'<e:EudrEchoResponse xmlns:e="http://ec.europa.eu/tracesnt/eudr/echo"><e:status>OK</e:status></e:EudrEchoResponse>',
				),
			);
		});
		const out = await type.preAuthentication.call(helper, data());
		expect(out.checkedAt).toMatch(/Z$/);
		expect(server.requests[0].path).toBe('/tracesnt/ws/eudr/echo');
	});

	it('says in plain words that the key was not accepted, without the key', async () => {
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(
				SOAP(
					`<S:Fault><faultcode>S:Client</faultcode><faultstring>Unauthenticated ${KEY_VALUE}</faultstring><detail><x:UnauthenticatedException xmlns:x="urn:x"/></detail></S:Fault>`,
				),
			);
		});
		const error = (await type.preAuthentication.call(helper, data()).then(
			() => undefined,
			(e: unknown) => e,
		)) as Error;
		expect(error.message).toContain('did not accept the username and authentication key');
		expect(error.message).toContain('Acceptance and Production keys differ');
		expect(error.message).not.toContain(KEY_VALUE);
	});

	it('says a web page means a wrong address', async () => {
		server.handle((_req, res) => {
			res.writeHead(404, { 'Content-Type': 'text/html' });
			res.end('<html><body>no</body></html>');
		});
		await expect(type.preAuthentication.call(helper, data())).rejects.toThrow(
			/Environment or Custom URL/,
		);
	});

	it('on Production, takes "not found" for an unlikely internal reference as proof of the key', async () => {
		const urls: string[] = [];
		const answer = (body: string) => ({ statusCode: 500, headers: {}, body });
		const stub = (body: string) =>
			({
				helpers: {
					httpRequest: async (o: { url: string }) => {
						urls.push(o.url); // answered here: nothing leaves the machine
						return answer(body);
					},
				},
			}) as unknown as IHttpRequestHelper;
		const production = { ...data(), environment: 'production' };
		const notFound = SOAP(
			'<S:Fault><faultcode>S:Client</faultcode><faultstring>none</faultstring><detail><d:NotFoundException xmlns:d="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"/></detail></S:Fault>',
		);
		await expect(type.preAuthentication.call(stub(notFound), production)).resolves.toMatchObject({
			checkedAt: expect.any(String),
		});
		expect(urls).toEqual([
			'https://eudr.webcloud.ec.europa.eu/tracesnt/ws/EUDRDueDiligenceStatementServiceV3',
		]);
		const denied = SOAP(
			'<S:Fault><faultcode>S:Client</faultcode><faultstring>no</faultstring><detail><d:UnauthenticatedException xmlns:d="urn:x"/></detail></S:Fault>',
		);
		await expect(type.preAuthentication.call(stub(denied), production)).rejects.toThrow(
			/did not accept the username and authentication key/,
		);
	});

	it('says a permission refusal in the same words as a run does', async () => {
		const denied = SOAP(
			'<S:Fault><faultcode>S:Client</faultcode><faultstring>Access denied</faultstring><detail><d:PermissionDeniedException xmlns:d="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01"><e:Error><e:ID>EUDR-WEBSERVICE-USER-NOT-EUDR-OPERATOR</e:ID><e:Message>not an operator</e:Message></e:Error></d:PermissionDeniedException></detail></S:Fault>',
		);
		// the credential test on Production (a lookup), answered here: nothing leaves the machine
		const production = {
			helpers: { httpRequest: async () => ({ statusCode: 500, headers: {}, body: denied }) },
		} as unknown as IHttpRequestHelper;
		const test = (await type.preAuthentication
			.call(production, { ...data(), environment: 'production' })
			.then(
				() => undefined,
				(e: unknown) => e,
			)) as Error;
		// a run's call (Get), against the loopback server answering the same
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(denied);
		});
		const run = (await soapRequest
			.call(
				{
					helpers: { httpRequest: plainHttp().httpRequest },
					getNode: () => ({
						name: 'EU',
						type: 'eu',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					}),
					getCredentials: async () => data(),
				} as unknown as ServiceContext,
				{ service: 'dds', operation: 'getDds', body: '<x:Q xmlns:x="urn:x"/>', idempotent: true },
			)
			.then(
				() => undefined,
				(e: unknown) => e,
			)) as Error;
		expect(run.message).toMatch(/^The EU Information System refused access/);
		expect(run.message).toMatch(/not registered as an EUDR operator/);
		expect(test.message.startsWith(run.message)).toBe(true);
	});
});

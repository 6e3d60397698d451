import { euFailureOf } from '../../../nodes/shared/transport/euFailure';
import { euSlowdown } from '../../../nodes/shared/transport/euRateLimit';
import {
	EU_MAX_MESSAGE_BYTES,
	envelopeBytes,
	soapRequest,
} from '../../../nodes/shared/transport/soapRequest';
import type { ServiceContext } from '../../../nodes/shared/transport/serviceContext';
import type { Loopback } from '../../helpers/loopback';
import { startLoopback } from '../../helpers/loopback';
import { useEuLoopback } from '../../helpers/euLoopback';
import { plainHttp } from '../../helpers/plainHttp';

const LONG_VALUE = ['the-long', 'authentication', 'value-0123456789'].join('-');
const ECHO_BODY =
	'<echo:EudrEchoRequest xmlns:echo="http://ec.europa.eu/tracesnt/eudr/echo"><echo:query>hi</echo:query></echo:EudrEchoRequest>';
const SOAP = (body: string, header = '') =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Header>${header}</S:Header><S:Body>${body}</S:Body></S:Envelope>`;
const REQUEST_ID = `<m:Message xmlns:m="http://ec.europa.eu/sanco/tracesnt/message/v1"><m:ID>WS_REQUEST_ID</m:ID><m:Value>11111111-2222</m:Value></m:Message>`;
const fault = (name: string, errors: string, text = 'Some business rules are not met') =>
	SOAP(
		`<S:Fault><faultcode>S:Client</faultcode><faultstring>${text}</faultstring><detail><ns5:${name} xmlns:ns5="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01">${errors}</ns5:${name}></detail></S:Fault>`,
		REQUEST_ID,
	);

let server: Loopback;
const { sent, httpRequest } = plainHttp();

function context(data: Record<string, unknown> = {}): ServiceContext {
	return {
		helpers: { httpRequest },
		getNode: () => ({ name: 'EU', type: 'eu', typeVersion: 1, position: [0, 0], parameters: {} }),
		getCredentials: async () => ({
			environment: 'custom',
			customUrl: `${server.url}/tracesnt`,
			username: 'user1',
			authKey: LONG_VALUE,
			clientId: 'eudr-test',
			...data,
		}),
	} as unknown as ServiceContext;
}

async function failureOf(p: Promise<unknown>) {
	const error = (await p.then(
		() => undefined,
		(e: unknown) => e,
	)) as Error & { description?: string };
	expect(error).toBeDefined();
	return { error, failure: euFailureOf(error)!, text: `${error.message} ${error.description}` };
}

useEuLoopback((s) => (server = s));
beforeEach(() => {
	sent.length = 0;
});

const echo = { service: 'echo' as const, operation: 'testEcho', body: ECHO_BODY, idempotent: true };

describe('soapRequest', () => {
	it('posts the envelope with the SOAP headers and returns the Body element', async () => {
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(
				SOAP(
					'<e:EudrEchoResponse xmlns:e="http://ec.europa.eu/tracesnt/eudr/echo"><e:status>OK</e:status></e:EudrEchoResponse>',
					REQUEST_ID,
				),
			);
		});
		const ctx = context({ operatorAccessIdentifier: 'OP1' });
		const ok = await soapRequest.call(ctx, echo);
		expect(ok.element.name).toBe('EudrEchoResponse');
		expect(ok.requestId).toBe('11111111-2222');
		const [seen] = server.requests;
		expect(seen.path).toBe('/tracesnt/ws/eudr/echo');
		expect(seen.headers['content-type']).toBe('text/xml; charset=utf-8');
		expect(seen.headers.soapaction).toBe('"http://ec.europa.eu/tracesnt/eudr/echo"');
		expect(seen.body).toContain('<wsse:Username>user1</wsse:Username>');
		expect(seen.body).not.toContain('BodyIdentity'); // echo carries no BodyIdentity
		expect(seen.body).not.toContain(LONG_VALUE);
		expect(Buffer.byteLength(seen.body)).toBe(ok.envelopeBytes);
		expect(await envelopeBytes.call(ctx, 'echo', ECHO_BODY)).toBe(ok.envelopeBytes);
		expect(sent[0]).toMatchObject({
			disableFollowRedirect: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			json: false,
		});
	});

	it('sends dds calls to the V3 endpoint with their SOAPAction and BodyIdentity', async () => {
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(SOAP('<x:R xmlns:x="urn:x"/>'));
		});
		await soapRequest.call(context({ operatorAccessIdentifier: 'OP1' }), {
			service: 'dds',
			operation: 'getDds',
			body: '<x:Q xmlns:x="urn:x"/>',
			idempotent: true,
		});
		const [seen] = server.requests;
		expect(seen.path).toBe('/tracesnt/ws/EUDRDueDiligenceStatementServiceV3');
		expect(seen.headers.soapaction).toBe(
			'"http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3/getDds"',
		);
		expect(seen.body).toContain('<OperatorAccessIdentifier>OP1</OperatorAccessIdentifier>');
	});

	it('words a business-rules fault with each code sentence and the request id, not retried', async () => {
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(
				fault(
					'BusinessRulesValidationException',
					'<e:Error><e:ID>EUDR-COMMODITIES-HS-CODE-INVALID</e:ID><e:Message>hs</e:Message><e:Field>hsHeading</e:Field></e:Error>',
				),
			);
		});
		const { failure, text } = await failureOf(
			soapRequest.call(context(), {
				...echo,
				service: 'dds',
				operation: 'submitDds',
				idempotent: false,
			}),
		);
		expect(failure).toMatchObject({
			kind: 'fault',
			mayHaveArrived: false,
			faultName: 'BusinessRulesValidationException',
			requestId: '11111111-2222',
		});
		expect(text).toContain('HS heading');
		expect(text).toContain('11111111-2222');
		expect(text).toContain('SANTE-TRACES@ec.europa.eu');
		expect(server.requests).toHaveLength(1);
	});

	it.each([
		['longer than the minimums', LONG_VALUE],
		['of exactly the minimum length', 'k3y-k3y!'],
	])('never shows the key (%s), even in a fault echoing the request', async (_l, key) => {
		server.handle((req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(
				fault(
					'UnauthenticatedException',
					`<e:Error><e:ID>E</e:ID><e:Message>${key} ${req.body.replace(/</g, '&lt;')}</e:Message><e:Field>${key}</e:Field></e:Error>`,
					`bad key ${key} in ${req.body.replace(/</g, '&lt;')}`,
				),
			);
		});
		const { error, failure, text } = await failureOf(
			soapRequest.call(context({ authKey: key }), echo),
		);
		expect(failure.kind).toBe('authentication');
		expect(text).toContain('did not accept the username and authentication key');
		for (const t of [text, JSON.stringify(failure), JSON.stringify(error)])
			expect(t).not.toContain(key);
	});

	it('refuses a key shorter than the minimum before sending, without showing it', async () => {
		const error = (await soapRequest.call(context({ authKey: 'k3y' }), echo).then(
			() => undefined,
			(e: unknown) => e,
		)) as Error & { description?: string };
		expect(error.message).toMatch(/Authentication Key of the credential has 3 characters/);
		expect(error.message).toMatch(/at least 8/);
		expect(`${error.message} ${error.description}`).not.toContain('k3y');
		expect(server.requests).toHaveLength(0);
	});

	it('names the clock skew with both times', async () => {
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml', Date: 'Tue, 01 Jan 2030 00:00:00 GMT' });
			res.end(fault('UnauthenticatedException', '', 'The message has expired'));
		});
		const { text } = await failureOf(soapRequest.call(context(), echo));
		expect(text).toContain('2030-01-01T00:00:00.000Z');
		expect(text).toMatch(/clock/);
	});

	it('says an HTML page means a wrong environment or a service down', async () => {
		server.handle((_req, res) => {
			res.writeHead(404, { 'Content-Type': 'text/html' });
			res.end('<!DOCTYPE html><html><body>Not here</body></html>');
		});
		const { failure, text } = await failureOf(
			soapRequest.call(context(), { ...echo, idempotent: false }),
		);
		expect(failure.kind).toBe('notSoap');
		expect(text).toMatch(/Environment or Custom URL/);
	});

	it('refuses a redirect to another origin (mayHaveArrived false)', async () => {
		server.handle((_req, res) => {
			res.writeHead(307, { Location: 'https://elsewhere.example/x' });
			res.end();
		});
		const { failure } = await failureOf(soapRequest.call(context(), echo));
		expect(failure).toMatchObject({ kind: 'redirect', mayHaveArrived: false });
		expect(server.requests).toHaveLength(1);
	});

	it('refuses an envelope over the limit before sending', async () => {
		const body = `<x:Q xmlns:x="urn:x">${'a'.repeat(EU_MAX_MESSAGE_BYTES)}</x:Q>`;
		const { failure, text } = await failureOf(soapRequest.call(context(), { ...echo, body }));
		expect(failure).toMatchObject({ kind: 'tooLarge', mayHaveArrived: false });
		expect(text).toContain(String(EU_MAX_MESSAGE_BYTES));
		expect(server.requests).toHaveLength(0);
	});

	it('never retries a submit; a 503 after sending may have arrived', async () => {
		server.handle((_req, res) => {
			res.writeHead(503, { 'Content-Type': 'text/html' });
			res.end('<html>busy</html>');
		});
		const { failure } = await failureOf(
			soapRequest.call(context(), {
				...echo,
				service: 'dds',
				operation: 'submitDds',
				idempotent: false,
			}),
		);
		expect(failure).toMatchObject({ kind: 'throttled', mayHaveArrived: true });
		expect(server.requests).toHaveLength(1);
	});

	it('retries an idempotent call after a 502 page, with a fresh nonce', async () => {
		let n = 0;
		server.handle((_req, res) => {
			if (n++ === 0) {
				res.writeHead(502, { 'Content-Type': 'text/html' });
				res.end('<html>bad gateway</html>');
				return;
			}
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(SOAP('<x:R xmlns:x="urn:x"/>'));
		});
		const ok = await soapRequest.call(context(), echo);
		expect(ok.element.name).toBe('R');
		expect(server.requests).toHaveLength(2);
		const nonce = (b: string) => /<wsse:Nonce[^>]*>([^<]+)</.exec(b)?.[1];
		expect(nonce(server.requests[0].body)).not.toBe(nonce(server.requests[1].body));
	});

	it('says a call that timed out may have arrived', async () => {
		server.handle(() => undefined); // never answers
		const { failure } = await failureOf(
			soapRequest.call(context(), { ...echo, idempotent: false, timeoutMs: 300 }),
		);
		expect(failure).toMatchObject({ kind: 'timeout', mayHaveArrived: true });
	});

	it('ends an answer that trickles at the deadline, its stream closed (may have arrived)', async () => {
		let closed!: () => void;
		const gone = new Promise<void>((resolve) => (closed = resolve));
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.write('<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>');
			res.once('close', closed); // the rest never comes
		});
		const { failure } = await failureOf(
			soapRequest.call(context(), { ...echo, idempotent: false, timeoutMs: 300 }),
		);
		expect(failure).toMatchObject({ kind: 'timeout', mayHaveArrived: true });
		await gone; // the node closed the connection
	});

	it("reads the answer through n8n's helper as a stream", async () => {
		server.handle((_req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/xml' });
			res.end(SOAP('<x:R xmlns:x="urn:x"/>'));
		});
		await soapRequest.call(context(), echo);
		expect(sent[0]).toMatchObject({ encoding: 'stream', returnFullResponse: true });
	});

	it('says a refused connection did not arrive', async () => {
		const closed = await startLoopback();
		const url = closed.url;
		await closed.close();
		const { failure, text } = await failureOf(
			soapRequest.call(context({ customUrl: `${url}/tracesnt/` }), { ...echo, idempotent: false }),
		);
		expect(failure).toMatchObject({ kind: 'network', mayHaveArrived: false });
		expect(text).toMatch(/could not be reached/);
	});

	it('keeps a permission fault a fault, even when its words mention authorisation', async () => {
		server.handle((_req, res) => {
			res.writeHead(500, { 'Content-Type': 'text/xml' });
			res.end(
				fault(
					'PermissionDeniedException',
					'<e:Error><e:ID>EUDR-WEBSERVICE-USER-ACTIVITY-NOT-ALLOWED</e:ID><e:Message>User not authorized</e:Message></e:Error>',
					'Access denied',
				),
			);
		});
		const { failure, text } = await failureOf(soapRequest.call(context(), echo));
		expect(failure).toMatchObject({ kind: 'fault', faultName: 'PermissionDeniedException' });
		expect(text).toMatch(/refused access/);
		expect(text).toMatch(/not registered for this activity/);
		expect(server.requests).toHaveLength(1);
	});

	it.each([
		['HTTP 429', 429, '<html>slow down</html>'],
		['a fault naming the limit', 500, ''],
	])(
		'says the service is limiting calls (%s), and a submit was not carried out',
		async (_l, status, page) => {
			server.handle((_req, res) => {
				res.writeHead(status, { 'Content-Type': page ? 'text/html' : 'text/xml' });
				res.end(page || fault('X', '', 'Rate limit exceeded for this user'));
			});
			const { failure, text } = await failureOf(
				soapRequest.call(context(), {
					...echo,
					service: 'dds',
					operation: 'submitDds',
					idempotent: false,
				}),
			);
			expect(failure).toMatchObject({ kind: 'throttled', mayHaveArrived: false });
			expect(text).toMatch(/limiting the number of calls/);
			expect(server.requests).toHaveLength(1);
		},
	);

	describe('a read refused for the rate limit', () => {
		const refuseThenAnswer = (
			refusals: number,
			refuse: (res: import('http').ServerResponse) => void,
		) => {
			let n = 0;
			server.handle((_req, res) => {
				if (n++ < refusals) return refuse(res);
				res.writeHead(200, { 'Content-Type': 'text/xml' });
				res.end(SOAP('<x:R xmlns:x="urn:x"/>'));
			});
		};

		it('waits the Retry-After and goes again, and the pace slows down', async () => {
			// (that refusals are waited out more often than other failures: retry.test.ts, refusalDelay)
			refuseThenAnswer(2, (res) => {
				res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '0' });
				res.end('Too Many Requests');
			});
			const ok = await soapRequest.call(context(), echo);
			expect(ok.element.name).toBe('R');
			expect(server.requests).toHaveLength(3);
			// each refusal came to a call started after the slowdown before it: 2 × 2, then one
			// accepted call took a tenth off
			expect(euSlowdown(new URL(server.url).origin)).toBeCloseTo(4 * 0.9);
		});

		it('waits out the throttling fault too', async () => {
			refuseThenAnswer(1, (res) => {
				res.writeHead(500, { 'Content-Type': 'text/xml' });
				res.end(fault('BusinessRulesValidationException', '', 'Too many requests'));
			});
			const ok = await soapRequest.call(context(), echo);
			expect(ok.element.name).toBe('R');
			expect(server.requests).toHaveLength(2);
		});

		it("does not wait past the call's deadline: a Retry-After longer than the Request Timeout fails at once, naming the limit", async () => {
			refuseThenAnswer(1, (res) => {
				res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '30' });
				res.end('Too Many Requests');
			});
			const { failure, text } = await failureOf(
				soapRequest.call(context(), { ...echo, timeoutMs: 5000 }),
			);
			expect(failure).toMatchObject({
				kind: 'throttled',
				mayHaveArrived: false,
				retryAfterMs: 30_000,
			});
			expect(text).toMatch(/limiting the number of calls/);
			expect(server.requests).toHaveLength(1);
		});
	});
});

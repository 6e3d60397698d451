/**
 * WS-Security as the pack describes it (README §3) and authentication failures as observed
 * (HTTP 500, an UnauthenticatedException fault, README §7 [3P]); schema violations answered
 * with a SOAP 1.1 fault (category "a", README §7 [CF4 §6.1]).
 */
import { digestOf } from '../security';
import { post } from '../client';
import type { FakeEu } from '../index';
import { startFakeEu } from '../index';
import { callDds, fixture, readAnswer, userOf } from './harness';

let eu: FakeEu;
beforeAll(async () => {
	eu = await startFakeEu({
		ratePerSecond: 0,
		users: [
			{ username: 'alice' },
			{ username: 'bob', key: 'bob-authentication-key', clientId: 'eudr-repository' },
		],
	});
});
afterAll(async () => {
	await eu.stop();
});
afterEach(() => eu.securityClock.setOffset(0));

const getDds = (extra: Parameters<typeof userOf>[1] = {}) =>
	fixture('getDds', { uuid: '071874bd-8c62-4cac-8eb6-b2fbe003410c' }, userOf(eu, extra));

const expectUnauthenticated = async (text: string, reason: RegExp) => {
	const read = await callDds(eu, 'getDds', text);
	expect(read.status).toBe(500);
	expect(read.fault?.code).toBe('S:Client');
	expect(read.fault?.name).toBe('UnauthenticatedException');
	expect(read.fault?.string).toBe('UnauthenticatedException');
	expect(eu.requests().at(-1)).toMatchObject({
		outcome: 'UNAUTHENTICATED',
		detail: expect.stringMatching(reason),
	});
};

test('the digest formula matches the pack’s test vector (README §3)', () => {
	const nonce = Buffer.from(Array.from({ length: 16 }, (_, i) => i));
	expect(nonce.toString('base64')).toBe('AAECAwQFBgcICQoLDA0ODw==');
	expect(digestOf(nonce, '2026-01-15T10:00:00.000Z', 'example-authentication-key')).toBe(
		'Nab1M6oeKBM4GVCikeG6E5jkF+s=',
	);
});

test('a correct header is accepted (empty list for an unknown uuid)', async () => {
	const read = await callDds(eu, 'getDds', getDds());
	expect(read.status).toBe(200);
	expect(read.body?.localName).toBe('GetDdsResponse');
});

test('a wrong digest is refused', async () => {
	await expectUnauthenticated(getDds({ digest: 'Nab1M6oeKBM4GVCikeG6E5jkF+s=' }), /digest/);
	await expectUnauthenticated(getDds({ key: 'another-key' }), /digest/);
});

test('the digest of the Base64 text of the nonce (instead of its bytes) is refused', async () => {
	const nonce = Buffer.from('0123456789abcdef');
	const created = new Date().toISOString();
	const wrong = digestOf(Buffer.from(nonce.toString('base64')), created, eu.users[0].key);
	await expectUnauthenticated(
		getDds({ nonce, created: new Date(created), digest: wrong }),
		/digest/,
	);
});

test('a replayed nonce is refused', async () => {
	const nonce = Buffer.from('replayed-nonce-1');
	const created = new Date();
	expect((await callDds(eu, 'getDds', getDds({ nonce, created }))).status).toBe(200);
	await expectUnauthenticated(getDds({ nonce, created }), /nonce replayed/);
});

test('a WebServiceClientId that is not the user’s is refused', async () => {
	await expectUnauthenticated(getDds({ clientId: 'eudr-repository' }), /WebServiceClientId/);
	const bob = { username: 'bob', key: 'bob-authentication-key', clientId: 'eudr-repository' };
	expect((await callDds(eu, 'getDds', getDds(bob))).status).toBe(200);
	await expectUnauthenticated(getDds({ ...bob, clientId: 'eudr-test' }), /WebServiceClientId/);
});

test('an unknown user is refused', async () => {
	await expectUnauthenticated(getDds({ username: 'mallory' }), /unknown user/);
});

test('a stale, future or expired timestamp is refused; the security clock moves with its offset', async () => {
	const now = Date.now();
	await expectUnauthenticated(
		getDds({ created: new Date(now - 6 * 60_000), ttlSeconds: 600 }),
		/5 minutes/,
	);
	await expectUnauthenticated(getDds({ created: new Date(now + 6 * 60_000) }), /5 minutes/);
	await expectUnauthenticated(
		getDds({ created: new Date(now - 2 * 60_000), ttlSeconds: 60 }),
		/expired/,
	);
	// the fake's clock 10 minutes ahead: a header made now is 10 minutes old for it
	eu.securityClock.setOffset(10 * 60_000);
	await expectUnauthenticated(getDds(), /5 minutes/);
	expect(
		(await callDds(eu, 'getDds', getDds({ created: new Date(eu.securityClock.now()) }))).status,
	).toBe(200);
});

test('Created differing between the Timestamp and the UsernameToken is refused', async () => {
	const created = new Date();
	const other = new Date(created.getTime() + 1).toISOString();
	await expectUnauthenticated(getDds({ created, tokenCreated: other }), /differs/);
});

test('a message without a Security header is refused', async () => {
	const text = getDds().replace(/<wsse:Security[\s\S]*<\/wsse:Security>/, '');
	await expectUnauthenticated(text, /no wsse:Security/);
});

test('echo answers an authentication failure with its documented fault (OPREF §3.8)', async () => {
	const answer = await post(
		`${eu.url}ws/eudr/echo`,
		fixture('echo', { query: 'x' }, userOf(eu, { key: 'wrong' })),
		'http://ec.europa.eu/tracesnt/eudr/echo',
	);
	expect(answer.status).toBe(500);
	expect(answer.text).toContain('<echo:errorMessage>Authentication failed</echo:errorMessage>');
	expect(readAnswer(answer.status, answer.text).fault).toMatchObject({
		code: 'soapenv:Server',
		string: 'EudrEchoServiceFault',
		name: 'EudrEchoServiceFault',
	});
});

describe('schema and routing', () => {
	test('a body violating the XSD is refused with a SOAP 1.1 client fault naming the violation', async () => {
		const text = fixture('submitDds', {}, userOf(eu)).replace(
			'<dds:hsHeading>4410</dds:hsHeading>',
			'<dds:hsHeading>44A0</dds:hsHeading>',
		);
		const read = await callDds(eu, 'submitDds', text);
		expect(read.status).toBe(500);
		expect(read.fault).toMatchObject({ code: 'S:Client', name: null });
		expect(read.fault?.string).toMatch(/^Unmarshalling Error: .*hsHeading/);
		expect(eu.requests().at(-1)).toMatchObject({ operation: 'submitDds', outcome: 'SCHEMA' });
		expect(eu.statements()).toHaveLength(0);
	});

	test('elements out of order (goodsMeasure is a sequence) are a schema violation', async () => {
		const text = fixture('submitDds', {}, userOf(eu)).replace(
			'<eudrCommon:netWeight>200</eudrCommon:netWeight> <eudrCommon:supplementaryUnit>20</eudrCommon:supplementaryUnit>',
			'<eudrCommon:supplementaryUnit>20</eudrCommon:supplementaryUnit> <eudrCommon:netWeight>200</eudrCommon:netWeight>',
		);
		expect((await callDds(eu, 'submitDds', text)).fault?.string).toMatch(/Unmarshalling Error/);
	});

	test('a SOAPAction that does not match the WSDL is refused, and so is a missing one', async () => {
		const read = await callDds(
			eu,
			'getDds',
			getDds(),
			'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3/submitDds',
		);
		expect(read.status).toBe(500);
		expect(read.fault?.string).toMatch(/SOAPAction/);
		expect((await callDds(eu, 'getDds', getDds(), null)).fault?.string).toMatch(/SOAPAction/);
	});

	test('a body element no operation declares is refused', async () => {
		const text = getDds().replace(/GetDdsRequest/g, 'GetSomethingRequest');
		expect((await callDds(eu, 'getDds', text)).fault?.string).toMatch(
			/Cannot find dispatch method/,
		);
	});

	test('text that is not XML is refused with a client fault', async () => {
		const answer = await post(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, 'not xml <', 'x');
		expect(answer.status).toBe(500);
		expect(readAnswer(answer.status, answer.text).fault?.code).toBe('S:Client');
	});
});

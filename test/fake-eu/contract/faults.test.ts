/**
 * Fault injection like the Geospatial fake (lost answers after processing, 5xx plain or HTML,
 * held answers), throttling (5 calls per second per client, README §6 [OPREF §2.3.2]), the
 * 25 MB message limit (README §6), and the request log.
 */
import { ddsAction, envelope, post } from '../client';
import { MAX_MESSAGE_BYTES } from '../index';
import { codes, getDdsBody, readAnswer, request, submit, submitBody, useFakes } from './harness';

const fake = useFakes();

test('a lost answer: the submit is processed (the statement exists), the connection is destroyed', async () => {
	const eu = await fake();
	eu.faults.loseAnswers('submitDds');
	await expect(
		request(eu, 'submitDds', submitBody({ internalReference: 'LOST-1' })),
	).rejects.toThrow();
	expect(eu.statements().map((s) => s.internalReferenceNumber)).toEqual(['LOST-1']);
	expect(eu.requests().at(-1)).toMatchObject({
		operation: 'submitDds',
		outcome: 'accepted',
		lost: true,
	});
	// only the next call of that operation: the following one is answered
	expect((await request(eu, 'submitDds', submitBody())).status).toBe(200);
});

test('lost answers of one operation leave the others alone', async () => {
	const eu = await fake();
	eu.faults.loseAnswers('submitDds', 2);
	expect(
		(await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']))).status,
	).toBe(200);
	await expect(request(eu, 'submitDds', submitBody())).rejects.toThrow();
	await expect(request(eu, 'submitDds', submitBody())).rejects.toThrow();
	expect(eu.statements()).toHaveLength(2);
});

test.each([
	[500, false],
	[502, true],
	[503, false],
	[503, true],
])('HTTP %i (HTML page: %s) answered without processing', async (status, html) => {
	const eu = await fake();
	eu.faults.failNext('submitDds', { status, html });
	const envelopeText = envelope(
		submitBody(),
		{ ...eu.users[0] },
		' xmlns:dds="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3" xmlns:eudrCommon="http://ec.europa.eu/tracesnt/certificate/eudr/common/v3"',
	);
	const answer = await post(
		`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`,
		envelopeText,
		ddsAction('submitDds'),
	);
	expect(answer.status).toBe(status);
	expect(answer.contentType).toBe(html ? 'text/html' : 'text/plain');
	if (html) expect(answer.text).toMatch(/^<!DOCTYPE html>/);
	expect(eu.statements()).toHaveLength(0);
	expect(eu.requests().at(-1)).toMatchObject({ operation: 'submitDds', outcome: `http-${status}` });
});

test('a held answer: processed first, sent when released', async () => {
	const eu = await fake();
	const hold = eu.faults.hold('submitDds');
	const pending = submit(eu, { internalReference: 'HELD' });
	await hold.arrived;
	expect(eu.statements().map((s) => s.internalReferenceNumber)).toEqual(['HELD']);
	hold.release();
	expect(await pending).toBe(eu.statements()[0].uuid);
});

test('throttling: the sixth call within one second of the rate clock gets HTTP 429, the next second is free', async () => {
	let now = 1_000_000;
	const eu = await fake({ ratePerSecond: 5, rateClock: () => now });
	for (let i = 0; i < 5; i++)
		expect(
			(await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']))).status,
		).toBe(200);
	const answer = await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, {
		method: 'POST',
		body: 'x',
	});
	expect(answer.status).toBe(429);
	expect(eu.requests().at(-1)).toMatchObject({ outcome: 'http-429' });
	now += 1000;
	expect(
		(await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']))).status,
	).toBe(200);
});

test('throttling as a SOAP fault by option', async () => {
	const eu = await fake({ ratePerSecond: 1, rateClock: () => 0, rateLimitAs: 'fault' });
	await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']));
	const read = await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']));
	expect(read.status).toBe(500);
	expect(read.fault?.string).toMatch(/Too many requests: at most 1 calls per second/);
	expect(codes(read)).toEqual(['EUDR_API_TOO_MANY_REQUESTS']);
});

test('a message over 25 MB is refused with a business fault, nothing stored; the log has its size', async () => {
	const eu = await fake();
	const big = 'x'.repeat(MAX_MESSAGE_BYTES + 1);
	const answer = await post(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, big, null);
	const read = readAnswer(answer.status, answer.text);
	expect(read.status).toBe(500);
	expect(codes(read)).toEqual(['EUDR_MAXIMUM_GEO_SIZE_REACHED']);
	expect(eu.requests().at(-1)).toMatchObject({ bytes: MAX_MESSAGE_BYTES + 1 });
});

test('the request log records operation, outcome, status, bytes and user', async () => {
	const eu = await fake();
	await submit(eu);
	await request(eu, 'getDds', getDdsBody(['not-a-uuid']));
	const [first, second] = eu.requests();
	expect(first).toMatchObject({
		operation: 'submitDds',
		outcome: 'accepted',
		status: 200,
		username: eu.users[0].username,
	});
	expect(first.bytes).toBeGreaterThan(500);
	expect(second).toMatchObject({ operation: 'getDds', outcome: 'SCHEMA', status: 500 });
});

test('answerNext: a given body, unprocessed; with afterProcessing, the submit is filed first', async () => {
	const eu = await fake();
	const page = (text: string) =>
		`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><x:page xmlns:x="urn:x">${text}</x:page></S:Body></S:Envelope>`;
	eu.faults.answerNext('submitDds', { status: 500, body: page('first') });
	const first = await request(eu, 'submitDds', submitBody({ internalReference: 'ANS-1' }));
	expect(first.status).toBe(500);
	expect(first.body?.textContent).toBe('first');
	expect(eu.statements()).toHaveLength(0);
	expect(eu.requests().at(-1)).toMatchObject({ operation: 'submitDds', outcome: 'http-500' });
	eu.faults.answerNext('submitDds', { body: page('second'), afterProcessing: true });
	const second = await request(eu, 'submitDds', submitBody({ internalReference: 'ANS-2' }));
	expect(second.status).toBe(200);
	expect(second.body?.textContent).toBe('second');
	expect(eu.statements().map((s) => s.internalReferenceNumber)).toEqual(['ANS-2']);
});

test('answerNext: streamBytes bytes of SOAP, chunked or announced, the writing stopped when the client goes away', async () => {
	const eu = await fake();
	eu.faults.answerNext('getDds', { streamBytes: 200_000 });
	const whole = await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']));
	expect(whole.status).toBe(200);
	expect(eu.requests().at(-1)).toMatchObject({ outcome: 'stream-200000' });
	eu.faults.answerNext('getDds', { streamBytes: 500_000_000, contentLength: true });
	const envelopeText = envelope(
		getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']),
		{ ...eu.users[0] },
		' xmlns:dds="http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3"',
	);
	const res = await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, {
		method: 'POST',
		headers: { 'content-type': 'text/xml', SOAPAction: `"${ddsAction('getDds')}"` },
		body: envelopeText,
	});
	expect(res.headers.get('content-length')).toBe('500000000');
	const reader = res.body!.getReader();
	const chunk = await reader.read();
	expect(new TextDecoder().decode(chunk.value).startsWith('<S:Envelope')).toBe(true);
	await reader.cancel(); // the fake stops writing (the test ends without 500 MB)
});

test("securityFaults 'named': a wrong client id answered 'Invalid WebServiceClientId', a skewed clock 'Timestamp expired'", async () => {
	const eu = await fake({ securityFaults: 'named' });
	const wrongId = await request(
		eu,
		'getDds',
		getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']),
		{
			clientId: 'eudr-wrong',
		},
	);
	expect(wrongId.status).toBe(500);
	expect(wrongId.fault).toMatchObject({ string: 'Invalid WebServiceClientId', name: null });
	eu.securityClock.setOffset(10 * 60_000);
	const skewed = await request(eu, 'getDds', getDdsBody(['9b1c0f5e-1111-4222-8333-444455556666']));
	expect(skewed.fault).toMatchObject({
		string: 'Timestamp expired',
		name: 'UnauthenticatedException',
	});
	// the Date header is the security clock's time, as a server's own clock would be
	const res = await fetch(`${eu.url}ws/EUDRDueDiligenceStatementServiceV3`, {
		method: 'POST',
		headers: { 'content-type': 'text/xml', SOAPAction: `"${ddsAction('getDds')}"` },
		body: 'not xml',
	});
	expect(Date.parse(res.headers.get('date') ?? '')).toBeGreaterThan(Date.now() + 9 * 60_000);
});

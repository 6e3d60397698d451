/**
 * The Authentication Key appears nowhere in a run of the EU Information System node against
 * the EU fake: not in outputs, errors (message, description, context) or the run data, in any
 * form (as typed, Base64, Base64URL, URL-encoded), whether the key is right or wrong; nor when
 * an answer carries it in any encoding (character references, CDATA splits, Base64 at any
 * alignment, XML-escaped) in a successful answer, a fault or a 500 page. A key shorter than 8
 * characters is refused before anything is sent; a normal key leaves the identifiers intact.
 */
import type { IDataObject } from 'n8n-workflow';

import { checkEuCredential } from '../../../nodes/shared/transport/euCredentialCheck';
import { resetEuRateLimit } from '../../../nodes/shared/transport/euRateLimit';
import { useFakeEu } from '../../helpers/fakeEu';
import { plainHttp } from '../../helpers/plainHttp';
import { EU_CREDENTIAL, euStore, jsonOf, keyLeaks, runEu, serializedRun } from './helpers';

describe('the Authentication Key never shows in a run', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());

	it('not in the outputs of a lookup', async () => {
		const user = eu.fake.users[0];
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'NOTHING-FILED' },
			store: euStore(eu.fake.url, user),
		});
		expect(result.error).toBeUndefined();
		expect(keyLeaks(result, user.key)).toEqual([]);
	});

	it('not in the error when the key is wrong', async () => {
		const wrong = {
			...eu.fake.users[0],
			key: ['wrong', 'authentication', 'value', '42'].join('-'),
		};
		const result = await runEu({
			parameters: { operation: 'get', uuids: '00000000-0000-4000-8000-000000000001' },
			store: euStore(eu.fake.url, wrong),
		});
		expect(result.error).toBeDefined();
		expect(keyLeaks(result, wrong.key)).toEqual([]);
		expect(keyLeaks(result, eu.fake.users[0].key)).toEqual([]);
	});
});

/* ── The key in every encoding an answer can carry it in (issue 36) ── */

const DDS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
const COMMON = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';
const STATEMENT_UUID = 'a1b2c3d4-e5f6-4711-8abc-0123456789ab';

const codePoints = (s: string) => [...s].map((c) => c.codePointAt(0) as number);
const xmlEscape = (s: string) =>
	s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
const b64 = (b: Buffer) => b.toString('base64');

/** Every encoding of `key` the node must redact, as XML text content, by name. */
function encodings(key: string): Record<string, string> {
	const half = Math.floor(key.length / 2);
	const bytes = Buffer.from(key, 'utf8');
	return {
		plain: xmlEscape(key),
		hexReferences: codePoints(key)
			.map((c) => `&#x${c.toString(16)};`)
			.join(''),
		decimalReferences: codePoints(key)
			.map((c) => `&#${c};`)
			.join(''),
		mixedReferences: [...key]
			.map((c, i) =>
				i % 2 ? `&#x${(c.codePointAt(0) as number).toString(16).toUpperCase()};` : xmlEscape(c),
			)
			.join(''),
		twoCdataSections: `<![CDATA[${key.slice(0, half)}]]><![CDATA[${key.slice(half)}]]>`,
		cdataThenText: `<![CDATA[${key.slice(0, half)}]]>${xmlEscape(key.slice(half))}`,
		splitByComment: `${xmlEscape(key.slice(0, half))}<!-- a comment -->${xmlEscape(key.slice(half))}`,
		base64: b64(bytes),
		base64Unpadded: b64(bytes).replace(/=+$/, ''),
		base64url: bytes.toString('base64url'),
		base64InsideAtOffset1: b64(Buffer.concat([Buffer.from('x'), bytes, Buffer.from('yz')])),
		base64InsideAtOffset2: b64(Buffer.concat([Buffer.from('xy'), bytes, Buffer.from('z')])),
		urlEncoded: xmlEscape(encodeURIComponent(key)),
	};
}

/** A Get by Internal Reference answer whose one statement carries every encoding in a field of its own. */
function answerCarrying(key: string): string {
	const notes = Object.entries(encodings(key))
		.map(([name, text]) => `<c:${name}>${text}</c:${name}>`)
		.join('');
	return (
		`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>` +
		`<d:GetDdsByInternalReferenceResponse xmlns:d="${DDS}" xmlns:c="${COMMON}"><d:ddsOverviewList>` +
		`<c:uuid>${STATEMENT_UUID}</c:uuid><c:internalReferenceNumber>PO-42</c:internalReferenceNumber>` +
		`<c:referenceNumber>26BE7XTVCZAQ2S</c:referenceNumber><c:verificationNumber>SFFCB4Y3</c:verificationNumber>` +
		`<c:status>AVAILABLE</c:status><c:rejectionReason note="${encodings(key).hexReferences}">${encodings(key).decimalReferences}</c:rejectionReason>${notes}` +
		`</d:ddsOverviewList></d:GetDdsByInternalReferenceResponse></S:Body></S:Envelope>`
	);
}

/** A 500 fault carrying the key in references, CDATA and Base64; and a 500 text page. */
function faultCarrying(key: string): string {
	const e = encodings(key);
	return (
		`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Client</faultcode>` +
		`<faultstring>bad ${e.hexReferences} ${e.base64}</faultstring><detail><x:BusinessRulesValidationException xmlns:x="${DDS}" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01">` +
		`<e:Error><e:ID>EUDR_X</e:ID><e:Message>${e.twoCdataSections} ${e.base64url}</e:Message><e:Field>${e.decimalReferences}</e:Field></e:Error>` +
		`</x:BusinessRulesValidationException></detail></S:Fault></S:Body></S:Envelope>`
	);
}

describe.each([
	['the fake user key', undefined],
	['a key with the characters XML escapes', `n8n&<key>"'-0123456789`],
])('the key in every encoding (%s)', (_label, special) => {
	const eu = useFakeEu({
		ratePerSecond: 0,
		...(special ? { users: [{ username: 'special-key-user', key: special }] } : {}),
	});
	beforeEach(() => {
		resetEuRateLimit();
		eu.fake.faults.clear();
	});
	const lookup = () =>
		runEu({
			// without Simplify: every field of the answer is output (the unknown ones passed through)
			parameters: {
				operation: 'getByInternalReference',
				internalReference: 'PO-42',
				simplify: false,
			},
			store: euStore(eu.fake.url, eu.fake.users[0]),
		});

	it('a successful answer: every encoding redacted after XML decoding, the identifiers intact', async () => {
		const { key } = eu.fake.users[0];
		eu.fake.faults.answerNext('getDdsByInternalReference', { body: answerCarrying(key) });
		const result = await lookup();
		expect(result.error).toBeUndefined();
		const [out] = jsonOf(result);
		expect(out).toMatchObject({
			uuid: STATEMENT_UUID,
			internalReferenceNumber: 'PO-42',
			referenceNumber: '26BE7XTVCZAQ2S',
			verificationNumber: 'SFFCB4Y3',
			status: 'AVAILABLE',
		});
		expect(keyLeaks(result, key)).toEqual([]);
		const text = serializedRun(result);
		const bytes = Buffer.from(key, 'utf8');
		for (const [name, encoded] of Object.entries(encodings(key))) {
			// each field came out, redacted
			expect([name, out[name]]).toEqual([name, expect.stringContaining('***')]);
			expect(text).not.toContain(encoded);
		}
		// the Base64 copies inside longer Base64 texts no longer decode to the key
		for (const name of ['base64InsideAtOffset1', 'base64InsideAtOffset2'])
			expect(Buffer.from(String(out[name]), 'base64').includes(bytes)).toBe(false);
		expect(out.rejectionReason).toBe('***');
	});

	it('a fault answer: no encoding in the error', async () => {
		const { key } = eu.fake.users[0];
		eu.fake.faults.answerNext('getDdsByInternalReference', {
			status: 500,
			body: faultCarrying(key),
		});
		const result = await lookup();
		expect(result.error?.message).toMatch(/business rules/);
		expect(keyLeaks(result, key)).toEqual([]);
		const text = serializedRun(result);
		for (const encoded of Object.values(encodings(key))) expect(text).not.toContain(encoded);
	});

	it.each([
		['a text page', 'text/plain'],
		['an HTML page', 'text/html'],
	])('an HTTP 500 %s holding the key in every encoding: not in the error', async (_l, type) => {
		const { key } = eu.fake.users[0];
		const body = `Internal error for ${Object.values(encodings(key)).join(' | ')}`;
		eu.fake.faults.answerNext('getDdsByInternalReference', {
			status: 500,
			contentType: type,
			body: type === 'text/html' ? `<html><body><p>${body}</p></body></html>` : body,
			count: 20, // a read is retried on a 5xx: every attempt gets the page
		});
		const result = await lookup();
		expect(result.error).toBeDefined();
		expect(keyLeaks(result, key)).toEqual([]);
		const text = serializedRun(result);
		for (const encoded of Object.values(encodings(key))) expect(text).not.toContain(encoded);
	});
});

describe('a key shorter than 8 characters', () => {
	const eu = useFakeEu({ ratePerSecond: 0, users: [{ username: 'short-key-user', key: 'c3d4' }] });
	beforeEach(() => resetEuRateLimit());

	it('is refused at run time with a plain message, before anything is sent', async () => {
		const before = eu.fake.requests().length;
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'PO-42' },
			store: euStore(eu.fake.url, eu.fake.users[0]),
		});
		expect(result.error?.message).toBe(
			'The Authentication Key of the credential has 4 characters; the key the EU Information System gives is longer (at least 8). Copy the whole key from your EU Information System profile, under "Web Services Access" (click the eye next to Authentication Key), into the credential.',
		);
		expect(eu.fake.requests()).toHaveLength(before);
		expect(serializedRun(result)).not.toContain('c3d4');
	});

	it('is refused by the credential test with the same message', async () => {
		const { httpRequest } = plainHttp();
		const data = euStore(eu.fake.url, eu.fake.users[0]).data[EU_CREDENTIAL] as IDataObject;
		const error = await checkEuCredential({ helpers: { httpRequest } } as never, data).then(
			() => undefined,
			(e: Error) => e,
		);
		expect(error?.message).toMatch(/^The Authentication Key of the credential has 4 characters/);
		expect(error?.message).not.toContain('c3d4');
	});
});

describe('a normal key never damages the identifiers of an answer', () => {
	const eu = useFakeEu({ ratePerSecond: 0 });
	beforeEach(() => resetEuRateLimit());

	it('the UUID and the references come out as the EU sent them', async () => {
		const result = await runEu({
			parameters: { operation: 'getByInternalReference', internalReference: 'PO-42' },
			store: euStore(eu.fake.url, eu.fake.users[0]),
			input: [{}],
		});
		expect(result.error).toBeUndefined();
		eu.fake.faults.answerNext('getDdsByInternalReference', {
			body: answerCarrying('not-the-key-at-all'),
		});
		const again = await runEu({
			parameters: {
				operation: 'getByInternalReference',
				internalReference: 'PO-42',
				simplify: false,
			},
			store: euStore(eu.fake.url, eu.fake.users[0]),
		});
		expect(jsonOf(again)[0]).toMatchObject({
			uuid: STATEMENT_UUID,
			internalReferenceNumber: 'PO-42',
			referenceNumber: '26BE7XTVCZAQ2S',
			verificationNumber: 'SFFCB4Y3',
			hexReferences: 'not-the-key-at-all',
			base64: Buffer.from('not-the-key-at-all').toString('base64'),
		});
		expect(serializedRun(again)).not.toContain('***');
	});
});

import { Readable } from 'node:stream';

import { MAX_FAULT_ERRORS, readSoapAnswer } from '../../../nodes/shared/soap/soapAnswer';
import { readAnswerText } from '../../../nodes/shared/transport/euAnswer';
import { base64Forms, euRedactor } from '../../../nodes/shared/transport/euRedaction';

const KEY = ['unit', 'test', 'authentication', 'key', '0042'].join('-');
const clean = euRedactor([KEY]);
const ENV = (body: string) =>
	`<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body>${body}</S:Body></S:Envelope>`;

describe('euRedactor', () => {
	it.each([
		[
			'decimal references with leading zeros',
			[...KEY].map((c) => `&#000${c.charCodeAt(0)};`).join(''),
		],
		[
			'hex references, upper-case digits',
			[...KEY].map((c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`).join(''),
		],
		['two CDATA sections', `<![CDATA[${KEY.slice(0, 5)}]]><![CDATA[${KEY.slice(5)}]]>`],
		['a comment in the middle', `${KEY.slice(0, 7)}<!-- - -->${KEY.slice(7)}`],
		['Base64', Buffer.from(KEY).toString('base64')],
		['base64url inside a longer text', Buffer.from(`ab${KEY}c`).toString('base64url')],
		['URL-encoded', encodeURIComponent(KEY)],
	])('redacts the key written as %s, over the whole text', (_l, form) => {
		const text = `before ${'x'.repeat(5000)} ${form} after`;
		const out = clean(text);
		expect(out).toContain('***');
		expect(out).not.toContain(form);
		expect(out.startsWith('before ')).toBe(true);
		expect(out.endsWith(' after')).toBe(true);
	});

	it('leaves texts without the key as they are', () => {
		const text = `<a>&#x41;&amp; <![CDATA[unit-test]]> ${Buffer.from('something else').toString('base64')}</a>`;
		expect(clean(text)).toBe(text);
	});

	it('gives the Base64 of the key at each alignment, never shorter than 8 characters for an 8-character key', () => {
		const forms = base64Forms('abcdefgh');
		for (const prefix of ['', 'x', 'xy'])
			expect(
				forms.some((f) => Buffer.from(`${prefix}abcdefgh!?`).toString('base64').includes(f)),
			).toBe(true);
		expect(Math.min(...forms.map((f) => f.length))).toBeGreaterThanOrEqual(8);
	});
});

describe('readSoapAnswer with the redaction', () => {
	it('redacts every text, attribute and name of the decoded tree before reading it', () => {
		const refs = [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join('');
		const answer = readSoapAnswer(
			ENV(
				`<r:R xmlns:r="urn:r" note="${refs}"><r:v><![CDATA[${KEY.slice(0, 3)}]]>${KEY.slice(3)}</r:v></r:R>`,
			),
			clean,
		);
		expect(answer.kind).toBe('body');
		if (answer.kind !== 'body') return;
		expect(answer.element.attributes.note).toBe('***');
		expect(answer.element.children[0].text).toBe('***');
	});

	it(`keeps the first ${MAX_FAULT_ERRORS} errors of a fault, clipped, and counts the others`, () => {
		const errors = Array.from(
			{ length: 25 },
			(_, i) => `<e:Error><e:ID>C${i}</e:ID><e:Message>${'m'.repeat(2000)}</e:Message></e:Error>`,
		).join('');
		const answer = readSoapAnswer(
			ENV(
				`<S:Fault><faultcode>S:Client</faultcode><faultstring>x</faultstring><detail><d:X xmlns:d="urn:d" xmlns:e="http://ec.europa.eu/sanco/tracesnt/error/v01">${errors}</d:X></detail></S:Fault>`,
			),
		);
		expect(answer).toMatchObject({ kind: 'fault', moreErrors: 15 });
		if (answer.kind !== 'fault') return;
		expect(answer.errors.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `C${i}`));
		expect(answer.errors[0].message.length).toBe(501);
	});
});

describe('readAnswerText', () => {
	it('destroys a stream as soon as it passes the limit', async () => {
		let pulled = 0;
		const stream = new Readable({
			read() {
				pulled++;
				this.push(Buffer.alloc(1000, 'a'));
			},
		});
		const read = await readAnswerText(stream, {}, 10_000, new AbortController().signal);
		expect(read).toEqual({ ok: false, bytes: 11_000, announced: false });
		expect(stream.destroyed).toBe(true);
		expect(pulled).toBeLessThan(20);
	});

	it('refuses an announced Content-Length over the limit without reading', async () => {
		const stream = Readable.from([Buffer.from('never read')]);
		const read = await readAnswerText(
			stream,
			{ 'content-length': '10001' },
			10_000,
			new AbortController().signal,
		);
		expect(read).toEqual({ ok: false, bytes: 10_001, announced: true });
		expect(stream.destroyed).toBe(true);
	});

	it('reads an answer within the limit as UTF-8 text', async () => {
		const read = await readAnswerText(
			Readable.from([Buffer.from('<a>é'), Buffer.from('</a>')]),
			{},
			10_000,
			new AbortController().signal,
		);
		expect(read).toEqual({ ok: true, text: '<a>é</a>' });
	});
});

describe('euRedactor on hostile texts', () => {
	it('stays linear on 2 MB of unclosed comments after the key’s first characters', () => {
		const text = `${KEY.slice(0, 3)}<!--`.repeat(300_000);
		// a pattern in the square of the length would not finish within the test's timeout
		expect(clean(text)).toBe(text);
	});
});

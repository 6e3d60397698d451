/**
 * The streaming XML tokenizer of Read File (nodes/shared/geoFiles/xmlStream.ts): the same
 * events wherever the chunks are cut, the well-formedness errors an XML parser must give
 * (with line and column), and the safety rules (internal subsets and entities refused).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { XmlHandler } from '../../../nodes/shared/geoFiles/xmlStream';
import { XmlSyntaxError, XmlTokenizer } from '../../../nodes/shared/geoFiles/xmlStream';

/** The tokenizer's events for `chunks`, adjacent text pieces joined. */
function events(chunks: string[]): string[] {
	const out: string[] = [];
	const push = (e: string) => {
		const last = out[out.length - 1];
		if (e.startsWith('T:') && last?.startsWith('T:')) out[out.length - 1] = last + e.slice(2);
		else if (e.startsWith('C:') && last?.startsWith('C:')) out[out.length - 1] = last + e.slice(2);
		else out.push(e);
	};
	const handler: XmlHandler = {
		open: (name, attributes, selfClosing) =>
			push(`<${name}${JSON.stringify(attributes)}${selfClosing ? '/' : ''}>`),
		close: (name) => push(`</${name}>`),
		text: (t) => push(`T:${t}`),
		cdata: (t) => push(`C:${t}`),
	};
	const tokenizer = new XmlTokenizer(handler, 200);
	for (const c of chunks) tokenizer.write(c);
	tokenizer.end();
	return out;
}

function error(text: string): XmlSyntaxError {
	try {
		events([text]);
	} catch (e) {
		expect(e).toBeInstanceOf(XmlSyntaxError);
		return e as XmlSyntaxError;
	}
	throw new Error('expected a syntax error');
}

const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>\r\n<!DOCTYPE kml SYSTEM "kml.dtd">
<!-- a comment with <tags> & ampersands -->
<kml xmlns="http://www.opengis.net/kml/2.2" a = 'x&amp;y'><Document b="1&#10;2&#x41;">
<name>Lote &lt;1&gt; &quot;norte&quot; &apos;a&apos; &#233;&#x1F600;</name>
<description><![CDATA[<b>bold</b> ]] > ]]></description><empty/><e x="&gt;"/>
<?pi data?>
<coordinates>1,2,0 3,4,0\r\n5,6</coordinates></Document></kml>
`;

describe('Read File: the streaming XML tokenizer', () => {
	it('reads elements, attributes, references, CDATA, comments, instructions and a document type', () => {
		expect(events([SAMPLE])).toEqual(
			[
				'<kml["xmlns","http://www.opengis.net/kml/2.2","a","x&y"]>',
				'<Document["b","1 2A"]>',
				'T:\n',
				'<name[]>',
				`T:Lote <1> "norte" 'a' é😀`,
				'</name>',
				'T:\n',
				'<description[]>',
				'C:<b>bold</b> ]] > ',
				'</description>',
				'<empty[]/>',
				'</empty>',
				'<e["x",">"]/>',
				'</e>',
				'T:\n',
				'T:\n',
				'<coordinates[]>',
				'T:1,2,0 3,4,0\n5,6',
				'</coordinates>',
				'</Document>',
				'</kml>',
			].reduce<string[]>((acc, e) => {
				const last = acc[acc.length - 1];
				if (e.startsWith('T:') && last?.startsWith('T:')) acc[acc.length - 1] = last + e.slice(2);
				else acc.push(e);
				return acc;
			}, []),
		);
	});

	it('gives the same events wherever the text is cut into chunks', () => {
		const whole = events([SAMPLE]);
		for (let cut = 1; cut < SAMPLE.length; cut++)
			expect(events([SAMPLE.slice(0, cut), SAMPLE.slice(cut)])).toEqual(whole);
		expect(events(SAMPLE.split(''))).toEqual(whole);
	});

	it.each([
		['<a><b></a>', /the end tag <\/a> does not match the start tag <b> \(line 1, column 7\)/],
		['<a>\n<b>\n</b>', /unclosed xml tag <a> \(line 3, column 5\)/],
		['<a><b x="1', /unclosed xml tag <a>: the document ends inside a tag/],
		['<a>&nbsp;</a>', /the entity "&nbsp;" is not defined/],
		['<a>AT&T</a>', /a "&" that does not start a reference/],
		['<a x=1/>', /is not quoted/],
		['<a x="1" x="2"/>', /the attribute x is repeated/],
		['<a x="<"/>', /a "<" in the value/],
		['<a/><b/>', /a second root element <b>/],
		['text<a/>', /text before the root element/],
		['<a/>text', /text after the root element/],
		['</a>', /closes nothing/],
		['<a><!-- never closed', /ends inside a comment/],
		['<a><![CDATA[never closed', /ends inside a CDATA section/],
		['<a>&#0;</a>', /is not a character/],
		['', /has no root element/],
	])('%j: not well-formed, with where', (text, message) => {
		const e = error(text);
		expect(e.kind).toBe('malformed');
		expect(e.message).toMatch(message);
		expect(e.message).toMatch(/\(line \d+, column \d+\)/);
	});

	it.each([
		'<!DOCTYPE kml [ <!ENTITY a "b"> ]><kml>&a;</kml>',
		'<!DOCTYPE kml [<!ENTITY secret SYSTEM "file:///etc/passwd">]><kml>&secret;</kml>',
		'<!ENTITY a "b"><kml/>',
		'<kml><!ENTITY a "b"></kml>',
	])('%s: refused as an entity declaration before anything is read', (text) => {
		const seen: string[] = [];
		const handler: XmlHandler = {
			open: (n) => seen.push(n),
			close: () => undefined,
			text: () => undefined,
			cdata: () => undefined,
		};
		const tokenizer = new XmlTokenizer(handler, 200);
		let e: unknown;
		try {
			tokenizer.write(text);
			tokenizer.end();
		} catch (caught) {
			e = caught;
		}
		expect((e as XmlSyntaxError).kind).toBe('entities');
		if (text.startsWith('<!')) expect(seen).toEqual([]);
	});

	it('nesting deeper than the cap: refused as too deep, without recursion', () => {
		const e = error(`${'<a>'.repeat(300)}${'</a>'.repeat(300)}`);
		expect(e.kind).toBe('depth');
	});

	it('a tag longer than a megabyte is refused rather than gathered', () => {
		const tokenizer = new XmlTokenizer(
			{
				open: () => undefined,
				close: () => undefined,
				text: () => undefined,
				cdata: () => undefined,
			},
			200,
		);
		tokenizer.write('<a><b x="');
		expect(() => {
			for (let i = 0; i < 3; i++) tokenizer.write('y'.repeat(600_000));
		}).toThrow(/a tag or comment longer than 1000000 characters/);
	});

	it('a long text and a long CDATA come in pieces (never gathered into one string by the tokenizer)', () => {
		const pieces: number[] = [];
		const tokenizer = new XmlTokenizer(
			{
				open: () => undefined,
				close: () => undefined,
				text: (t) => pieces.push(t.length),
				cdata: (t) => pieces.push(t.length),
			},
			200,
		);
		tokenizer.write('<a>');
		for (let i = 0; i < 5; i++) tokenizer.write('x'.repeat(1000));
		tokenizer.write('<![CDATA[');
		for (let i = 0; i < 5; i++) tokenizer.write('y'.repeat(1000));
		tokenizer.write(']]></a>');
		tokenizer.end();
		expect(Math.max(...pieces)).toBeLessThanOrEqual(1000);
		expect(pieces.reduce((a, b) => a + b, 0)).toBe(10_000);
	});

	it('every fixture of the XML path tokenizes the same in chunks of 7 characters as whole', () => {
		const dir = path.join(__dirname, '../../fixtures/geofiles');
		for (const file of [
			'cooperativa-nested-folders.kml',
			'kml-styles-and-data.kml',
			'gpx-fields.gpx',
		]) {
			const text = fs.readFileSync(path.join(dir, file), 'utf8');
			const chunks = text.match(/[\s\S]{1,7}/g) as string[];
			expect(events(chunks)).toEqual(events([text]));
		}
	});
});

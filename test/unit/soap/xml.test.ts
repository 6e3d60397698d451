import { parseXml, XmlParseError } from '../../../nodes/shared/soap/xml';
import { child } from '../../../nodes/shared/soap/xmlElement';

describe('parseXml', () => {
	it('resolves prefixes per scope, the default namespace, and attributes by local name', () => {
		const root = parseXml(
			'<?xml version="1.0"?><S:Envelope xmlns:S="urn:s" xmlns="urn:d"><S:Body><a x:id="1" xmlns:x="urn:x"><x:b>t</x:b><c xmlns="">u</c></a></S:Body></S:Envelope>',
		);
		expect(root).toMatchObject({ ns: 'urn:s', name: 'Envelope' });
		const a = child(child(root, 'urn:s', 'Body'), 'urn:d', 'a');
		expect(a?.attributes).toEqual({ id: '1' });
		expect(child(a, 'urn:x', 'b')?.text).toBe('t');
		expect(child(a, '', 'c')?.text).toBe('u');
	});

	it('decodes the five entities and character references, keeps CDATA', () => {
		const root = parseXml('<r>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;<![CDATA[<x>&amp;]]></r>');
		expect(root.text).toBe('<>&"\'AB<x>&amp;');
	});

	it('refuses a document type and entity declarations', () => {
		expect(() => parseXml('<!DOCTYPE r><r/>')).toThrow(XmlParseError);
		expect(() => parseXml('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>')).toThrow(XmlParseError);
		expect(() => parseXml('<r>&e;</r>')).toThrow(XmlParseError);
	});

	it('refuses undeclared prefixes and malformed documents', () => {
		expect(() => parseXml('<p:r/>')).toThrow(/prefix "p"/);
		expect(() => parseXml('<r><a></r>')).toThrow(XmlParseError);
		expect(() => parseXml('not xml')).toThrow(XmlParseError);
	});

	it('keeps to its limits', () => {
		expect(() => parseXml('<r/>', { maxChars: 3 })).toThrow(/characters/);
		expect(() => parseXml('<r><a/><a/></r>', { maxElements: 2 })).toThrow(/elements/);
		expect(() => parseXml('<r><a><b/></a></r>', { maxDepth: 2 })).toThrow(/deep/);
		expect(parseXml('<r><a><b/></a></r>', { maxDepth: 3 }).name).toBe('r');
	});
});

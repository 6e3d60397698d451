/**
 * The fake's own XML reading (written for the fake, independent of the node's parser): the
 * request envelope parsed with @xmldom/xmldom (a dev dependency), read by namespace URI, never
 * by prefix (pack README §3.2).
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import type { Element as XElement, Node as XNode } from '@xmldom/xmldom';

export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const WSSE_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
export const PASSWORD_DIGEST_TYPE =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
export const BASE_NS = 'http://ec.europa.eu/sanco/tracesnt/base/v4';
export const BODY_NS = 'http://ec.europa.eu/tracesnt/body/v3';
export const DDS_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/due-diligence-statement/v3';
export const SD_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/simplified-declaration/v3';
export const VERIFY_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/verify-declaration/v3';
/** The Verify operation's SOAPAction (not in the service namespace, pack §2). */
export const VERIFY_ACTION =
	'http://ec.europa.eu/tracesnt/certificate/eudr/verification/v3/verify-declaration';
export const COMMON_NS = 'http://ec.europa.eu/tracesnt/certificate/eudr/common/v3';
export const ERROR_NS = 'http://ec.europa.eu/sanco/tracesnt/error/v01';
export const MESSAGE_NS = 'http://ec.europa.eu/sanco/tracesnt/message/v1';
export const ECHO_NS = 'http://ec.europa.eu/tracesnt/eudr/echo';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export type El = XElement;

export class NotXml extends Error {}

/** Parses a document; any parser error or warning (malformed XML) throws NotXml. */
export function parseDocument(text: string): El {
	const read = readDocument(text);
	if (typeof read === 'string') throw new NotXml(read);
	return read;
}

/** The root element, or what is wrong with the text (never throws). */
export function readDocument(text: string): El | string {
	if (/<!DOCTYPE/i.test(text)) return 'a DOCTYPE is not allowed in a SOAP message';
	const problems: string[] = [];
	let doc;
	try {
		doc = new DOMParser({
			onError: (level: string, message: string) => {
				problems.push(`${level}: ${message}`);
			},
		}).parseFromString(text, 'text/xml');
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
	if (problems.length > 0) return problems[0];
	return doc.documentElement ?? 'no root element';
}

const isElement = (n: XNode): n is El => n.nodeType === 1;

export function elementChildren(el: El): El[] {
	const out: El[] = [];
	for (let n = el.firstChild; n; n = n.nextSibling) if (isElement(n)) out.push(n);
	return out;
}

export function kids(el: El, ns: string | null, name: string): El[] {
	return elementChildren(el).filter((c) => c.localName === name && (c.namespaceURI ?? null) === ns);
}

export function kid(el: El | undefined, ns: string | null, name: string): El | undefined {
	return el ? kids(el, ns, name)[0] : undefined;
}

export function textOf(el: El | undefined): string | undefined {
	return el ? (el.textContent ?? '') : undefined;
}

export function kidText(el: El | undefined, ns: string | null, name: string): string | undefined {
	return textOf(kid(el, ns, name));
}

/**
 * The element serialised alone, with every namespace declaration in scope on its ancestors
 * re-declared on it (so it validates alone, pack README §8).
 */
export function standalone(el: El): string {
	const copy = el.cloneNode(true) as El;
	const declared = new Set<string>();
	for (let i = 0; i < copy.attributes.length; i++) {
		const a = copy.attributes.item(i);
		if (a && (a.name === 'xmlns' || a.name.startsWith('xmlns:'))) declared.add(a.name);
	}
	for (let p = el.parentNode; p && isElement(p); p = p.parentNode) {
		for (let i = 0; i < p.attributes.length; i++) {
			const a = p.attributes.item(i);
			if (!a || !(a.name === 'xmlns' || a.name.startsWith('xmlns:'))) continue;
			if (declared.has(a.name)) continue;
			declared.add(a.name);
			copy.setAttributeNS(XMLNS_NS, a.name, a.value);
		}
	}
	return new XMLSerializer().serializeToString(copy);
}

export function serialize(el: El): string {
	return new XMLSerializer().serializeToString(el);
}

export function escapeText(s: string): string {
	return s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');
}

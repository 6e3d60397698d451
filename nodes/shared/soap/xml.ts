/**
 * A namespace-aware reader of one XML document (a SOAP answer) into an XmlElement tree, on the
 * package's bounded streaming tokenizer (geoFiles/xmlStream.ts): prefixes resolved per scope
 * (default namespace included), attributes by local name, the five predefined entities and
 * character references decoded, CDATA kept as text. A document type or an entity declaration
 * is refused; the limits (characters, elements, depth) are decided before the work.
 * Pure: no n8n imports.
 */
import { XmlSyntaxError, XmlTokenizer } from '../geoFiles/xmlStream';
import type { XmlElement } from './xmlElement';

/** The text is not an XML document this reader accepts; the message says why. */
export class XmlParseError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'XmlParseError';
	}
}

/** A full getDdsByIdentifiers answer may carry 25 MB of Base64 geolocation. */
export const DEFAULT_XML_LIMITS = { maxChars: 40_000_000, maxElements: 2_000_000, maxDepth: 100 };

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

interface Frame {
	el: XmlElement;
	/** Prefix → namespace URI in scope ('' is the default namespace). */
	scope: Map<string, string>;
	texts: string[];
}

/** The namespace declarations of a tag, and its other attributes as name/value pairs. */
function scopeOf(parent: Map<string, string>, attributes: string[]): Map<string, string> {
	let scope = parent;
	for (let i = 0; i < attributes.length; i += 2) {
		const name = attributes[i];
		if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
		if (scope === parent) scope = new Map(parent);
		scope.set(name === 'xmlns' ? '' : name.slice(6), attributes[i + 1]);
	}
	return scope;
}

function resolveName(qname: string, scope: Map<string, string>): { ns: string; name: string } {
	const colon = qname.indexOf(':');
	const prefix = colon === -1 ? '' : qname.slice(0, colon);
	const name = colon === -1 ? qname : qname.slice(colon + 1);
	if (prefix === 'xml') return { ns: XML_NS, name };
	const ns = scope.get(prefix);
	if (ns === undefined && prefix !== '')
		throw new XmlParseError(`the prefix "${prefix}" of <${qname}> is not declared`);
	return { ns: ns ?? '', name };
}

/** Refuses a document type before the root element (the tokenizer allows one without subset). */
function refuseDoctype(text: string): void {
	const doctype = text.search(/<!DOCTYPE/i);
	if (doctype === -1) return;
	const root = text.search(/<[^!?]/);
	if (root === -1 || doctype < root)
		throw new XmlParseError('the answer declares a document type, which is refused');
}

/** A tokenizer's syntax error as an XmlParseError; anything else as it is. */
function parseErrorOf(error: unknown): unknown {
	return error instanceof XmlSyntaxError ? new XmlParseError(error.message) : error;
}

/**
 * The document element of `text`, within `limits`. Throws XmlParseError (the message says what
 * is wrong and where) for anything that is not a well-formed XML document within the limits.
 */
export function parseXml(
	text: string,
	limits?: { maxChars?: number; maxElements?: number; maxDepth?: number },
): XmlElement {
	const maxChars = limits?.maxChars ?? DEFAULT_XML_LIMITS.maxChars;
	const maxElements = limits?.maxElements ?? DEFAULT_XML_LIMITS.maxElements;
	const maxDepth = limits?.maxDepth ?? DEFAULT_XML_LIMITS.maxDepth;
	if (text.length > maxChars)
		throw new XmlParseError(
			`the answer has ${text.length} characters, more than the ${maxChars} read`,
		);
	refuseDoctype(text);
	const stack: Frame[] = [];
	let root: XmlElement | undefined;
	let elements = 0;
	const rootScope = new Map<string, string>();
	const tokenizer = new XmlTokenizer(
		{
			open(qname, attributes) {
				if (++elements > maxElements)
					throw new XmlParseError(`the answer has more than ${maxElements} elements`);
				const parent = stack[stack.length - 1];
				const scope = scopeOf(parent ? parent.scope : rootScope, attributes);
				const { ns, name } = resolveName(qname, scope);
				const attrs: Record<string, string> = {};
				for (let i = 0; i < attributes.length; i += 2) {
					const a = attributes[i];
					if (a === 'xmlns' || a.startsWith('xmlns:')) continue;
					const colon = a.indexOf(':');
					attrs[colon === -1 ? a : a.slice(colon + 1)] = attributes[i + 1];
				}
				const el: XmlElement = { ns, name, attributes: attrs, children: [], text: '' };
				if (parent) parent.el.children.push(el);
				else root = el;
				stack.push({ el, scope, texts: [] });
			},
			close() {
				const frame = stack.pop();
				if (frame) frame.el.text = frame.texts.join('');
			},
			text(t) {
				stack[stack.length - 1]?.texts.push(t);
			},
			cdata(t) {
				stack[stack.length - 1]?.texts.push(t);
			},
		},
		maxDepth,
	);
	let failure: unknown;
	try {
		tokenizer.write(text);
		tokenizer.end();
	} catch (error) {
		failure = error;
	}
	if (failure !== undefined) throw parseErrorOf(failure);
	if (!root) throw new XmlParseError('the document has no root element');
	return root;
}

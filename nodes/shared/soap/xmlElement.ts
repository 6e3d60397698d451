/**
 * A namespace-aware element tree of a SOAP answer: every element by its namespace URI and
 * local name (answers use any prefixes: `S:`, `ns3:` …, never read by prefix). Built by
 * `parseXml` (xml.ts) within fixed limits. Pure: no n8n imports.
 */
export interface XmlElement {
	/** Namespace URI ('' when none). */
	ns: string;
	/** Local name, without prefix. */
	name: string;
	/** Attributes by local name (namespace declarations left out). */
	attributes: Record<string, string>;
	children: XmlElement[];
	/** The concatenated text directly inside this element (entities decoded, CDATA kept). */
	text: string;
}

/** The first child element with this namespace and local name. */
export function child(
	el: XmlElement | undefined,
	ns: string,
	name: string,
): XmlElement | undefined {
	return el?.children.find((c) => c.ns === ns && c.name === name);
}

/** Every child element with this namespace and local name, in document order. */
export function childrenNamed(el: XmlElement | undefined, ns: string, name: string): XmlElement[] {
	return el ? el.children.filter((c) => c.ns === ns && c.name === name) : [];
}

/** The trimmed text of a child, or null when the child is absent. */
export function childText(el: XmlElement | undefined, ns: string, name: string): string | null {
	const c = child(el, ns, name);
	return c ? c.text.trim() : null;
}

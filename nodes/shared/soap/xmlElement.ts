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

/**
 * Passes every string of the tree through `fn`, in place: each element's name, namespace and
 * text, each attribute's name and value (iteratively: no recursion however deep the tree).
 */
export function mapXmlStrings(root: XmlElement, fn: (text: string) => string): void {
	const stack: XmlElement[] = [root];
	for (let el = stack.pop(); el !== undefined; el = stack.pop()) {
		el.name = fn(el.name);
		el.ns = fn(el.ns);
		el.text = fn(el.text);
		const attributes: Record<string, string> = {};
		for (const [name, value] of Object.entries(el.attributes))
			Object.defineProperty(attributes, fn(name), {
				value: fn(value),
				enumerable: true,
				writable: true,
				configurable: true,
			});
		el.attributes = attributes;
		for (const c of el.children) stack.push(c);
	}
}

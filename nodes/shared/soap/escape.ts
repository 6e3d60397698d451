/** Text and attribute values for XML we write. Pure: no n8n imports. */

/**
 * `&`, `<`, `>`, `"` and `'` as entities; characters XML 1.0 cannot carry at all (controls
 * other than tab, line feed and carriage return; lone surrogates; U+FFFE/U+FFFF) are refused
 * by `xmlCharProblem`, never silently dropped.
 */
export function escapeXml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}

/* eslint-disable no-control-regex -- the characters XML 1.0 does not allow are the point */
const NOT_XML_CHAR =
	/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */

/** Why a text cannot be written into XML (a character XML 1.0 does not allow), or undefined. */
export function xmlCharProblem(text: string): string | undefined {
	const m = NOT_XML_CHAR.exec(text);
	if (!m) return undefined;
	const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
	return `it contains the character U+${code} at position ${m.index + 1}, which XML cannot carry; remove it`;
}

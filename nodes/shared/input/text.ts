/**
 * Plain text fields (plot name, notes, job name), and text that goes into XML (every text field
 * of the EU Information System node and its trigger). Pure: no n8n imports.
 */

import { MISSING, invalid, kindOf, value } from './internal';
import type { Reading } from './reading';

/** Text, trimmed; numbers and booleans become text; empty means missing. */
export function readText(v: unknown): Reading<string> {
	if (v === undefined || v === null) return MISSING;
	if (typeof v === 'number' || typeof v === 'boolean') return value(String(v));
	if (typeof v !== 'string') return invalid(`it is ${kindOf(v)}, not text. Map a text value.`);
	const text = v.trim();
	return text === '' ? MISSING : value(text);
}

/* eslint-disable no-control-regex -- the characters XML 1.0 does not allow are the point */
/**
 * A character XML 1.0 cannot carry at all, escaped or not: controls other than tab, line feed
 * and carriage return, a lone surrogate (half of a character: a cut emoji), U+FFFE and U+FFFF.
 */
const NOT_XML_CHAR =
	/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/* eslint-enable no-control-regex */

/** At most this many characters before the bad one are quoted, to show where it is. */
const CONTEXT = 20;

/**
 * Why a text cannot be sent inside XML (the EU Information System's SOAP), naming the
 * character and where it is, or undefined. The one check every text the EU node and its
 * trigger send passes in the pre-flight: such a character would make the request one the
 * service cannot read.
 */
export function xmlTextProblem(text: string): string | undefined {
	const m = NOT_XML_CHAR.exec(text);
	if (!m) return undefined;
	const code = m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
	const before = [...text.slice(0, m.index)];
	const shown = before.slice(-CONTEXT).join('');
	const where =
		before.length === 0
			? 'it is the first character'
			: `it comes right after "${before.length > CONTEXT ? '…' : ''}${shown}"`;
	return `it contains the character U+${code} at position ${before.length + 1}, which XML cannot carry; remove it (${where}; such characters are often left over from a copied cell or a file export)`;
}

/** Text as `readText` reads it, refused when it holds a character XML cannot carry. */
export function readXmlText(v: unknown): Reading<string> {
	const read = readText(v);
	if (read.kind !== 'value') return read;
	const problem = xmlTextProblem(read.value);
	return problem === undefined ? read : invalid(`${problem}.`);
}

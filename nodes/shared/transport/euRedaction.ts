/**
 * The Authentication Key out of everything the EU Information System (or whatever answers in
 * its place) sends back, in every encoding of it we can name:
 * - as typed, JSON-escaped and URL-encoded (redaction.ts's secretForms);
 * - Base64 and base64url, with or without padding, and a Base64 copy inside a longer Base64
 *   text at any of the three byte alignments (only the characters that depend on the key alone);
 * - in XML markup, each of the forms above: any of its characters written as a character
 *   reference (`&#107;`, `&#x6B;`, leading zeros allowed) or a predefined entity (`&amp;` …),
 *   and split over CDATA sections or comments (`<![CDATA[ab]]><![CDATA[cd]]>`).
 * The same function redacts the raw text kept for errors (over the whole text, before it is
 * shortened) and every text, attribute and name of the decoded answer (soapAnswer.ts), so a
 * key the XML decoding puts together is caught after decoding too. Pure: no n8n imports.
 */
import { secretForms } from './redaction';

/** Forms shorter than this are never redacted (they would blank ordinary words). */
const MIN_FORM_CHARS = 4;

/**
 * The Base64 and base64url texts of the secret: whole (with and without padding), and the
 * part of a longer Base64 text that depends on the secret's bytes alone, at each of the three
 * alignments the secret can start at.
 */
export function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const whole = bytes.toString('base64');
	const forms = [whole, whole.replace(/=+$/, '')];
	for (let offset = 0; offset < 3; offset++) {
		const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
		// character k carries bits 6k … 6k+5, i.e. bytes floor(6k/8) … floor((6k+5)/8)
		const first = Math.ceil((offset * 8) / 6);
		const last = Math.floor(((offset + bytes.length) * 8 - 6) / 6);
		if (last >= first) forms.push(text.slice(first, last + 1));
	}
	const all = new Set<string>();
	for (const f of forms) {
		all.add(f);
		all.add(f.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...all];
}

const NAMED_ENTITIES: Record<number, string> = {
	38: 'amp',
	60: 'lt',
	62: 'gt',
	34: 'quot',
	39: 'apos',
};

function regexLiteral(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** One character as XML may write it: itself, a decimal or hex reference, a predefined entity. */
function characterPattern(codePoint: number): string {
	const hex = codePoint
		.toString(16)
		.split('')
		.map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
		.join('');
	const ways = [
		regexLiteral(String.fromCodePoint(codePoint)),
		`&#0{0,8}${codePoint};`,
		`&#[xX]0{0,8}${hex};`,
	];
	const named = NAMED_ENTITIES[codePoint];
	if (named) ways.push(`&${named};`);
	return `(?:${ways.join('|')})`;
}

/**
 * What XML may put between two characters of one text: CDATA boundaries and comments. Bounded
 * (comments of at most 100 characters, at most 4 in a row): an unbounded pattern would let a
 * hostile text of unclosed comments cost time in the square of its length.
 */
const BETWEEN = '(?:<!\\[CDATA\\[|\\]\\]>|<!--(?:[^-]|-(?!->)){0,100}-->){0,4}';

/** The secret as XML markup may spell it (references, entities, CDATA splits, comments). */
export function markupPattern(secret: string): RegExp {
	const characters = [...secret].map((c) => characterPattern(c.codePointAt(0) as number));
	return new RegExp(characters.join(BETWEEN), 'g');
}

/**
 * A function that replaces every secret, in each of the forms above, by "***" over the whole
 * text given. Secrets shorter than MIN_FORM_CHARS are left out (the EU credential refuses keys
 * shorter than MIN_EU_KEY_CHARS before any call, euCredential.ts).
 */
export function euRedactor(secrets: readonly string[]): (text: string) => string {
	const usable = secrets.filter((s) => s.length >= MIN_FORM_CHARS);
	const forms = [...new Set(usable.flatMap((s) => [...secretForms(s), ...base64Forms(s)]))]
		.filter((f) => f.length >= MIN_FORM_CHARS)
		.sort((a, b) => b.length - a.length);
	// every form may itself be written in markup (a URL-encoded key's "'" as "&apos;")
	const patterns = forms.map(markupPattern);
	return (text) => {
		let out = text;
		for (const form of forms) if (out.includes(form)) out = out.split(form).join('***');
		// markup can only hide a secret behind "&" (a reference) or "<" (CDATA, a comment)
		if (out.includes('&') || out.includes('<'))
			for (const pattern of patterns) out = out.replace(pattern, '***');
		return out;
	};
}

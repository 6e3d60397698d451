/**
 * Secrets out of everything the service sends back: every form a secret can take (as it is,
 * JSON-escaped, URL-encoded), replaced by "***" over the whole text or value, before anything
 * is read, described or cut (a cut secret is no longer found). Pure: no n8n imports.
 */

/** The shortest secret redacted in error texts (shorter values would blank ordinary words). */
export const MIN_SECRET_CHARS = 4;
/** The shortest secret redacted in answers that succeeded (data: ids, dates, names). */
export const MIN_SECRET_CHARS_IN_DATA = 8;

/**
 * Every form a secret can take in a text from the service: as it is, JSON-escaped (with or
 * without `\/`, non-ASCII characters as they are or as `\uXXXX`), URL-encoded (as a path or
 * query component, a form value with `+`, upper- or lower-case hex digits), longest first.
 */
export function secretForms(secret: string): string[] {
	const forms = new Set<string>([secret]);
	const json = JSON.stringify(secret).slice(1, -1);
	const asciiJson = json.replace(
		/[\u007f-\uffff]/g,
		(c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
	for (const escaped of [json, asciiJson]) {
		forms.add(escaped);
		forms.add(escaped.replace(/\//g, '\\/'));
		forms.add(escaped.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`));
	}
	const component = encodeURIComponent(secret);
	const form = new URLSearchParams([['', secret]]).toString().slice(1);
	for (const encoded of [component, component.replace(/%20/g, '+'), form, encodeURI(secret)]) {
		forms.add(encoded);
		forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every secret value in a string by "***", in each of its forms (secretForms).
 * Run it over the whole text, before anything is cut: a cut secret is no longer found.
 */
export function redact(
	value: string,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
): string {
	return redactWith(value, formsOf(secrets, minChars));
}

function redactWith(value: string, forms: readonly string[]): string {
	let out = value;
	for (const form of forms) if (out.includes(form)) out = out.split(form).join('***');
	return out;
}

/** Every form of every secret of at least `minChars` characters, longest first. */
function formsOf(secrets: readonly string[], minChars: number): string[] {
	return [...new Set(secrets.filter((s) => s && s.length >= minChars).flatMap(secretForms))]
		.filter((f) => f.length >= minChars)
		.sort((a, b) => b.length - a.length);
}

/**
 * Whether a text may hold a secret: one of its forms, or a JSON escape (behind which a JSON
 * value can hide any character of one).
 */
export function mayHoldSecret(
	text: string,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
): boolean {
	return text.includes('\\') || formsOf(secrets, minChars).some((form) => text.includes(form));
}

/**
 * A value from the service with every secret redacted in every string and key, deeply. A
 * string that is JSON text is read as JSON first (an escape such as `\u0073` could hide a
 * secret from the text), so the result of a JSON string is its value, redacted.
 */
export function redactValue(
	value: unknown,
	secrets: readonly string[],
	minChars = MIN_SECRET_CHARS,
	readJsonText = true,
): unknown {
	const forms = formsOf(secrets, minChars);
	if (forms.length === 0) return value;
	const walk = (v: unknown, top: boolean): unknown => {
		if (typeof v === 'string') {
			if (top && readJsonText && /^\s*[[{"]/.test(v)) {
				try {
					return walk(JSON.parse(v), false);
				} catch {
					// text, not JSON
				}
			}
			return redactWith(v, forms);
		}
		if (Array.isArray(v)) return v.map((x) => walk(x, false));
		if (v !== null && typeof v === 'object') {
			const out: Record<string, unknown> = {};
			for (const [k, x] of Object.entries(v))
				Object.defineProperty(out, redactWith(k, forms), {
					value: walk(x, false),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			return out;
		}
		return v;
	};
	return walk(value, true);
}

/** Keys of a body whose values are never kept on an error, whatever they hold. */
const SECRET_KEY = /^(authorization|api[-_]?key|password|token|session[-_]?token)$/i;

/**
 * A copy of a body for an error: every secret redacted in every string, and keys that name a
 * credential (authorization, api key, password, token) left out with their values.
 */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
	if (typeof value === 'string') return redact(value, secrets);
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
	if (value && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) {
			if (SECRET_KEY.test(k)) continue;
			out[k] = redactDeep(v, secrets);
		}
		return out;
	}
	return value;
}

/**
 * Secrets out of a due-diligence record. The record is made from input rows, with no credential
 * at hand, so what a secret looks like is all there is to go by: the service's API keys
 * (`service_live_…`), JSON Web Tokens, `Bearer …` values, the user and password of a URL, and
 * the values of URL query parameters that carry a credential or a signature (`token`, `key`,
 * `X-Amz-Signature`, …). Each becomes `***`, in every string and key of the record, before
 * anything is cut or written. Pure: no n8n imports.
 */

/** A query parameter whose value is a credential or a signature (signed download URLs). */
const SECRET_PARAMETER =
	/([?&;](?:access[_-]?token|api[_-]?key|apikey|auth|authorization|code|credential|jwt|key|password|passwd|pwd|secret|session|sig|signature|token|x-amz-credential|x-amz-security-token|x-amz-signature|x-goog-credential|x-goog-signature)=)[^&#\s"'<>]*/gi;

const PATTERNS: Array<[RegExp, string]> = [
	// the service's API keys (service-interface.md, Authentication 3)
	[/\bservice_live_[A-Za-z0-9_\-.]+/g, 'service_live_***'],
	// JSON Web Tokens (three base64url parts, the first a JSON header)
	[/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '***'],
	// an Authorization header's value
	[/\b(Bearer|Basic)\s+[A-Za-z0-9_\-.~+/]{8,}=*/g, '$1 ***'],
	// the user information of a URL
	[/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@"'<>]+:[^/\s@"'<>]*@/gi, '$1***@'],
	[SECRET_PARAMETER, '$1***'],
];

/** The text with every secret it seems to hold replaced by `***`. */
export function redactSecrets(text: string): string {
	let out = text;
	for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
	return out;
}

/** Keys whose values are credentials whatever they hold: left out of the record. */
const SECRET_KEY =
	/^(authorization|api[-_]?key|password|secret|token|access[-_]?token|auth[-_]?key)$/i;

/**
 * A copy of a value with every string (and key) redacted, and keys that name a credential left
 * out with their values. Depth is bounded by the caller (the record holds its own shapes).
 */
export function redactDeep(value: unknown): unknown {
	if (typeof value === 'string') return redactSecrets(value);
	if (Array.isArray(value)) return value.map(redactDeep);
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) {
			if (SECRET_KEY.test(k)) continue;
			Object.defineProperty(out, redactSecrets(k), {
				value: redactDeep(v),
				enumerable: true,
				writable: true,
				configurable: true,
			});
		}
		return out;
	}
	return value;
}

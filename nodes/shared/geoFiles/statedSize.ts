/**
 * The size a file in an n8n binary field states, read before the file is loaded, so that
 * Maximum File Size refuses a file too large without loading it (pure; no n8n imports).
 */

/** The members of n8n's IBinaryData this reads. */
interface StatedBinary {
	fileSize?: unknown;
	id?: unknown;
	data?: unknown;
}

const POWERS: Record<string, number> = { '': 0, k: 1, m: 2, g: 3, t: 4 };

/**
 * The smallest size in bytes the binary data can have, from what it states, without loading
 * it: n8n writes `fileSize` as pretty-bytes text ("12.3 kB", "1.05 MB": 3 significant digits,
 * units of 1000) or, from some nodes, as a plain byte count; "KiB"/"MiB" (units of 1024) are
 * read too. Data kept in the item itself (no id) is measured from its base64 length, exactly.
 * Undefined when nothing usable is stated: the loaded bytes are checked instead.
 */
export function declaredBytes(binary: StatedBinary): number | undefined {
	const size = binary.fileSize as unknown;
	if (typeof size === 'number' && Number.isFinite(size) && size >= 0) return size;
	if (typeof size === 'string') {
		const m = /^\s*(\d+(?:[.,]\d+)?)\s*([kmgt]?)(i?)(b|bytes?)?\s*$/i.exec(size);
		// A bare number is a byte count only when whole ("12.3" says nothing).
		if (m && (m[2] || m[4] || !/[.,]/.test(m[1]))) {
			const n = Number(m[1].replace(',', '.'));
			const power = POWERS[m[2].toLowerCase()];
			if (power === 0) return n;
			// pretty-bytes rounds to 3 significant digits: the true size may be up to 0.5 % less.
			return Math.floor(n * (m[3] ? 1024 : 1000) ** power * 0.995);
		}
	}
	if (!binary.id && typeof binary.data === 'string' && binary.data.length > 0) {
		const data = binary.data.trimEnd();
		const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
		return Math.floor((data.length * 3) / 4) - padding;
	}
	return undefined;
}

/** Plain text fields (plot name, notes, job name). Pure: no n8n imports. */

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

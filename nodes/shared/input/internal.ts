/** Small helpers the readers of this folder share (not part of the public API). */

import type { Reading } from './reading';

export const MISSING: { kind: 'missing' } = { kind: 'missing' };

export function invalid(reason: string): { kind: 'invalid'; reason: string } {
	return { kind: 'invalid', reason };
}

export function value<T>(v: T): Reading<T> {
	return { kind: 'value', value: v };
}

/** Text as shown inside a reason: at most 40 characters, quoted. */
export function quoted(text: string, max = 40): string {
	return `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
}

/** "a list", "an object", "a boolean", … for a value of the wrong type. */
export function kindOf(v: unknown): string {
	if (v === null) return 'null';
	if (Array.isArray(v)) return 'a list';
	if (isDate(v)) return 'a date';
	if (typeof v === 'object') return 'an object';
	if (typeof v === 'undefined') return 'undefined';
	return `a ${typeof v}`;
}

/** A JavaScript Date, also one made in another realm (n8n evaluates expressions in a sandbox). */
export function isDate(v: unknown): v is Date {
	return Object.prototype.toString.call(v) === '[object Date]';
}

/**
 * Whether `v` is a plain object (`{}`, `Object.create(null)`, also from another realm), not a
 * list, Date, Map or Luxon DateTime.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
	if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
	if (Object.prototype.toString.call(v) !== '[object Object]') return false;
	return typeof (v as { toISO?: unknown }).toISO !== 'function';
}
